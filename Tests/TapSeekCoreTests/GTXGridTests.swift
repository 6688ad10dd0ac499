import Testing
import TapSeekCore

/// GTX vertical-datum grids from their bytes, without files.
struct GTXGridTests {
    static func gtx(south: Double, west: Double, step: Double, rows: Int, columns: Int, values: [Float]) -> [UInt8] {
        var bytes: [UInt8] = []
        func be<T: FixedWidthInteger>(_ v: T) { bytes += (0..<(T.bitWidth / 8)).reversed().map { UInt8(truncatingIfNeeded: v >> ($0 * 8)) } }
        for d in [south, west, step, step] { be(d.bitPattern) }
        be(Int32(rows))
        be(Int32(columns))
        for v in values { be(v.bitPattern) }
        return bytes
    }

    @Test func rowsRunSouthToNorthInTheFileAndNorthToSouthInTheGrid() throws {
        // 3 rows × 2 columns from 10° S, 20° E, 0.5° apart; the file's first row is the southern.
        let bytes = Self.gtx(south: -10, west: 20, step: 0.5, rows: 3, columns: 2, values: [1, 2, 3, GTXGrid.missingValue, 5, 6])
        let grid = try GTXGrid.grid(bytes: bytes, path: "t.gtx")
        #expect(grid.rows == 3 && grid.columns == 2)
        #expect(abs(grid.north - -9) < 1e-12 && abs(grid.south - -10) < 1e-12 && abs(grid.west - 20) < 1e-12)
        #expect(grid.post(row: 0, column: 0) == 5 && grid.post(row: 0, column: 1) == 6)
        #expect(grid.post(row: 1, column: 0) == 3 && grid.post(row: 1, column: 1) == nil)
        #expect(grid.post(row: 2, column: 0) == 1 && grid.post(row: 2, column: 1) == 2)
    }

    @Test func aHeaderThatDisagreesWithTheSizeIsRefused() {
        let bytes = Self.gtx(south: 0, west: 0, step: 1, rows: 3, columns: 3, values: [1, 2, 3])
        #expect(throws: TerrainFileError.self) { try GTXGrid.grid(bytes: bytes, path: "t.gtx") }
        #expect(throws: TerrainFileError.self) { try GTXGrid.grid(bytes: Array(bytes.prefix(20)), path: "t.gtx") }
    }
}
