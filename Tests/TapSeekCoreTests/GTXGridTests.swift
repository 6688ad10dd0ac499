import Foundation
import Testing
import TapSeekCore
import TapSeekTestSupport

/// GTX vertical-datum grids from their bytes, and from files (mapped, not read).
struct GTXGridTests {
    /// A GTX file's bytes: `rows` × `columns` posts from `south`, `west`, `step` degrees apart,
    /// rows from the south, posts as big-endian Float32 or (`wide`) Float64.
    static func gtx(south: Double, west: Double, step: Double, rows: Int, columns: Int, values: [Float], wide: Bool = false) -> [UInt8] {
        var bytes: [UInt8] = []
        func be<T: FixedWidthInteger>(_ v: T) { bytes += (0..<(T.bitWidth / 8)).reversed().map { UInt8(truncatingIfNeeded: v >> ($0 * 8)) } }
        for d in [south, west, step, step] { be(d.bitPattern) }
        be(Int32(rows))
        be(Int32(columns))
        for v in values {
            if wide { be(Double(v).bitPattern) } else { be(v.bitPattern) }
        }
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

    /// Rows longer than the eight posts converted at a time: missing values in the vector part
    /// and in the tail, every post where it belongs.
    @Test func longRowsConvertEveryPost() throws {
        let rows = 3, columns = 21
        var values = (0..<(rows * columns)).map { Float($0) * 0.25 - 3 }
        for i in [2, 9, 19, 44, 62] { values[i] = GTXGrid.missingValue }
        let grid = try GTXGrid.grid(bytes: Self.gtx(south: 0, west: 0, step: 1, rows: rows, columns: columns, values: values), path: "t.gtx")
        for fileRow in 0..<rows {
            for c in 0..<columns {
                let v = values[fileRow * columns + c]
                #expect(grid.post(row: rows - 1 - fileRow, column: c) == (v == GTXGrid.missingValue ? nil : v), "row \(fileRow) column \(c)")
            }
        }
    }

    /// The geoid's gradient bound, computed eight cells at a time, equals a plain cell-by-cell
    /// reading of its definition: per cell the larger step along each axis over the cell's
    /// ground width at its poleward row.
    @Test func steepestGradientIsTheLargestCellSlope() throws {
        let rows = 5, columns = 23
        var state: UInt64 = 7
        let values = (0..<(rows * columns)).map { _ -> Float in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Float(state >> 40) / Float(1 << 24) * 40 - 20
        }
        let grid = try GTXGrid.grid(bytes: Self.gtx(south: 40, west: 5, step: 0.25, rows: rows, columns: columns, values: values), path: "t.gtx")
        var expected = 0.0
        let a = 6_378_137.0, e2 = 0.006_694_379_990_141_317
        for r in 0..<(rows - 1) {
            let poleward = (grid.north - Double(r) * grid.latitudeSpacing) * .pi / 180
            let dx = a / (1 - e2 * sin(poleward) * sin(poleward)).squareRoot() * cos(poleward) * grid.longitudeSpacing * .pi / 180
            let dy = a * (1 - e2) * grid.latitudeSpacing * .pi / 180
            for c in 0..<(columns - 1) {
                let p = { (rr: Int, cc: Int) in Double(grid.post(row: rr, column: cc)!) }
                let east = max(abs(p(r, c + 1) - p(r, c)), abs(p(r + 1, c + 1) - p(r + 1, c)))
                let north = max(abs(p(r + 1, c) - p(r, c)), abs(p(r + 1, c + 1) - p(r, c + 1)))
                expected = max(expected, east / dx + north / dy)
            }
        }
        let bound = Geoid(grid: grid).steepestGradient
        #expect(bound >= expected && bound <= expected * (1 + 1e-5), "\(bound) vs \(expected)")
    }

    @Test func aHeaderThatDisagreesWithTheSizeIsRefused() {
        let bytes = Self.gtx(south: 0, west: 0, step: 1, rows: 3, columns: 3, values: [1, 2, 3])
        #expect(throws: TerrainFileError.self) { try GTXGrid.grid(bytes: bytes, path: "t.gtx") }
        #expect(throws: TerrainFileError.self) { try GTXGrid.grid(bytes: Array(bytes.prefix(20)), path: "t.gtx") }
    }

    /// A header whose post count overflows when multiplied out (a corrupt or hostile file) is
    /// refused with an error, not a trap.
    @Test func aHeaderTooLargeToMultiplyOutIsRefused() {
        for (rows, columns) in [(Int(Int32.max), Int(Int32.max)), (1 << 30, 1 << 30), (Int(Int32.max), 2)] {
            let bytes = Self.gtx(south: 0, west: 0, step: 1, rows: rows, columns: columns, values: [1, 2])
            #expect(throws: TerrainFileError.self) { try GTXGrid.grid(bytes: bytes, path: "t.gtx") }
        }
    }

    /// A header whose lattice leaves the globe, or whose spacing is too fine to count posts per
    /// degree, is refused: such a grid would answer NaN positions (found by `scripts/fuzz.sh`).
    @Test func aLatticeOffTheGlobeIsRefused() {
        let values: [Float] = [1, 2, 3, 4]
        for (south, west, step) in [(-10.0, 20.0, 1e300), (-10.0, 20.0, 1e-310), (89.5, 0.0, 1.0), (-91.0, 0.0, 0.5),
                                    (0.0, 1e6, 0.5), (0.0, 0.0, 400.0), (Double.infinity, 0.0, 1.0)] {
            let bytes = Self.gtx(south: south, west: west, step: step, rows: 2, columns: 2, values: values)
            #expect(throws: TerrainFileError.self, "south \(south), west \(west), step \(step)") {
                try GTXGrid.grid(bytes: bytes, path: "t.gtx")
            }
        }
        // A global grid's extremes are fine: −90…90 and once round with the repeated column.
        let global = Self.gtx(south: -90, west: -180, step: 180, rows: 2, columns: 3, values: [1, 2, 1, 3, 4, 3])
        #expect((try? GTXGrid.grid(bytes: global, path: "t.gtx")) != nil)
    }

    /// A file, mapped rather than read into memory, gives the grid its bytes give, post for
    /// post; a missing file, an empty one and a folder each give one line naming the path.
    @Test func aFileGivesTheGridOfItsBytesAndABadPathOneLine() throws {
        let directory = try SharedData.temporaryDirectory("gtx-file")
        defer { try? FileManager.default.removeItem(at: directory) }
        let rows = 4, columns = 19
        var values = (0..<(rows * columns)).map { Float($0) * 0.5 - 7 }
        values[11] = GTXGrid.missingValue
        let bytes = Self.gtx(south: 45, west: 5, step: 0.25, rows: rows, columns: columns, values: values)
        let path = directory.appendingPathComponent("t.gtx").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let fromFile = try GTXGrid.readGrid(path: path), fromBytes = try GTXGrid.grid(bytes: bytes, path: path)
        #expect(fromFile.heights.map(\.bitPattern) == fromBytes.heights.map(\.bitPattern))
        #expect(fromFile.north == fromBytes.north && fromFile.west == fromBytes.west && fromFile.rows == rows && fromFile.columns == columns)
        let empty = directory.appendingPathComponent("empty.gtx").path
        try Data().write(to: URL(fileURLWithPath: empty))
        for (bad, says) in [(directory.appendingPathComponent("none.gtx").path, "cannot be opened (No such file or directory)"),
                            (empty, "is shorter than a GTX header"), (directory.path, "cannot be opened (Is a directory)")] {
            do {
                _ = try GTXGrid.readGrid(path: bad)
                Issue.record("\(bad) was read")
            } catch {
                #expect(error.description.contains(bad) && error.description.contains(says) && !error.description.contains("\n"), "\(error.description)")
            }
        }
    }
}
