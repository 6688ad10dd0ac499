import Testing
@testable import TapSeekCore

struct ViewshedGridTests {
    /// Every byte value, at every offset within a word and every length's tail: the eight-at-a-time
    /// count must agree with a byte-by-byte one.
    @Test func countsOfAValueAgreeWithCountingByteByByte() {
        var generator = SystemRandomNumberGenerator()
        // Bytes near each other's patterns (0, 1, 0x7F, 0x80, 0xFE, 0xFF) beside random ones.
        let special: [UInt8] = [0, 1, 2, 0x7F, 0x80, 0x81, 0xFE, 0xFF]
        let values = (0..<301).map { i in i % 3 == 0 ? special[i % special.count] : UInt8.random(in: 0...255, using: &generator) }
        for value in special + [UInt8.random(in: 0...255, using: &generator)] {
            for start in 0..<9 {
                for end in [start, start + 1, start + 7, start + 8, start + 9, 150, 299, 300, 301] where end >= start && end <= values.count {
                    let slice = values[start..<end]
                    #expect(ViewshedGrid.count(value, in: slice) == slice.filter { $0 == value }.count, "\(value) in \(start)..<\(end)")
                }
            }
        }
    }

    /// Runs longer than a byte lane can count at once (255 words of 8).
    @Test func longRunsOfOneValueAreCountedWhole() {
        let values = [UInt8](repeating: ViewshedGrid.visible, count: 5_003) + [ViewshedGrid.hidden] + [UInt8](repeating: ViewshedGrid.visible, count: 2_040)
        #expect(ViewshedGrid.count(ViewshedGrid.visible, in: values[...]) == 7_043)
        #expect(ViewshedGrid.count(ViewshedGrid.hidden, in: values[...]) == 1)
        #expect(ViewshedGrid.count(ViewshedGrid.noData, in: values[...]) == 0)
    }

    @Test func aSummaryCountsTheJudgedAndTheVisibleCells() {
        let values: [UInt8] = [ViewshedGrid.noData, ViewshedGrid.visible, ViewshedGrid.hidden, ViewshedGrid.visible,
                               ViewshedGrid.visible, ViewshedGrid.noData, ViewshedGrid.hidden, ViewshedGrid.visible,
                               ViewshedGrid.hidden, ViewshedGrid.visible, ViewshedGrid.noData, ViewshedGrid.noData]
        let grid = ViewshedGrid(north: 46, west: 8, latitudeSpacing: 1.0 / 1200, longitudeSpacing: 1.0 / 1200, rows: 2, columns: 6,
                                values: values)
        #expect(grid.cells == 8)
        #expect(grid.visibleCells == 5)
    }
}
