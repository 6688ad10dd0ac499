import Testing
import TapSeekCore
import TapSeekTestSupport

/// The maximum pyramid bounds every post of its blocks, and costs little memory.
struct MaximumPyramidTests {
    static func randomGrid(rows: Int, columns: Int, seed: UInt64, voids: Bool = false) -> ElevationGrid {
        var random = SplitMix64(seed: seed)
        let heights = (0..<(rows * columns)).map { _ -> Float in
            voids && random.next() % 50 == 0 ? .nan : Float(random.next() % 5000)
        }
        return ElevationGrid(north: 47, west: 9, latitudeSpacing: 0.001, longitudeSpacing: 0.001, rows: rows, columns: columns, heights: heights)
    }

    /// Each block's value is exactly the highest post whose cells it covers (edge posts shared),
    /// at every level, for grids whose sizes are and are not multiples of the block.
    @Test(arguments: [(17, 17), (23, 41), (2, 2), (101, 7)])
    func everyBlockHoldsItsHighestPost(shape: (Int, Int)) {
        let grid = Self.randomGrid(rows: shape.0, columns: shape.1, seed: UInt64(shape.0 * 100 + shape.1))
        let pyramid = grid.pyramid
        for level in 0..<pyramid.levels {
            let size = MaximumPyramid.cellsPerBlock(level: level)
            for br in 0..<pyramid.blockRows[level] {
                for bc in 0..<pyramid.blockColumns[level] {
                    var expected = -Float.infinity
                    for r in (br * size)...min((br + 1) * size, grid.rows - 1) {
                        for c in (bc * size)...min((bc + 1) * size, grid.columns - 1) {
                            expected = max(expected, grid.post(row: r, column: c) ?? -.infinity)
                        }
                    }
                    #expect(pyramid.maximum(level: level, row: br, column: bc) == expected, "level \(level) block (\(br), \(bc))")
                }
            }
        }
        #expect(pyramid.blockRows.last == 1 && pyramid.blockColumns.last == 1)
        #expect(pyramid.maximum(level: pyramid.levels - 1, row: 0, column: 0) == grid.maximumHeight)
    }

    /// A grid large enough that level 0 is built by several threads (each its own rows of
    /// blocks): every level-0 block, its void flag too, against the posts it covers.
    @Test func levelZeroBuiltInBandsHoldsEveryBlocksHighestPost() {
        let grid = Self.randomGrid(rows: 2053, columns: 2103, seed: 5, voids: true)
        let pyramid = grid.pyramid
        var wrong = 0
        for br in 0..<pyramid.blockRows[0] {
            for bc in 0..<pyramid.blockColumns[0] {
                var expected = -Float.infinity, void = false
                for r in (br * 4)...min(br * 4 + 4, grid.rows - 1) {
                    for c in (bc * 4)...min(bc * 4 + 4, grid.columns - 1) {
                        let post = grid.heights[r * grid.columns + c]
                        if post.isNaN { void = true } else { expected = max(expected, post) }
                    }
                }
                if pyramid.maximum(level: 0, row: br, column: bc) != expected || pyramid.hasVoid(level: 0, row: br, column: bc) != void {
                    wrong += 1
                }
            }
        }
        #expect(wrong == 0)
        #expect(pyramid.maximum(level: pyramid.levels - 1, row: 0, column: 0) == grid.maximumHeight)
    }

    /// A void is left out of the maxima but flagged, up to the top; a block of voids only is −∞.
    @Test func voidsAreFlaggedNotCounted() {
        let grid = ElevationGrid(north: 47, west: 9, latitudeSpacing: 0.001, longitudeSpacing: 0.001, rows: 9, columns: 9,
                                 heights: (0..<81).map { $0 == 40 ? .nan : Float($0 % 9 == 8 ? 500 : 100) })
        // Post (4, 4) is the corner shared by the four level-0 blocks: all of them hold it.
        for br in 0..<2 {
            for bc in 0..<2 {
                #expect(grid.pyramid.hasVoid(level: 0, row: br, column: bc))
                #expect(grid.pyramid.maximum(level: 0, row: br, column: bc) == (bc == 1 ? 500 : 100))
            }
        }
        #expect(grid.pyramid.hasVoid(level: 1, row: 0, column: 0) && grid.pyramid.maximum(level: 1, row: 0, column: 0) == 500)
        let empty = ElevationGrid(north: 47, west: 9, latitudeSpacing: 0.001, longitudeSpacing: 0.001, rows: 3, columns: 3,
                                  heights: [Float](repeating: .nan, count: 9))
        #expect(empty.pyramid.maximum(level: 0, row: 0, column: 0) == -.infinity && empty.pyramid.hasVoid(level: 0, row: 0, column: 0))
    }

    /// A block is flat exactly when every post it covers is known and of one height, at every
    /// level: over patches of water at two levels amid rough land and voids, on grids whose
    /// level 0 is built row by row and in bands by several threads.
    @Test(arguments: [(23, 41), (101, 7), (2053, 2103)])
    func flatBlocksAreThoseOfOneHeight(shape: (Int, Int)) {
        var random = SplitMix64(seed: UInt64(shape.0 + shape.1))
        let (rows, columns) = shape
        let heights = (0..<(rows * columns)).map { i -> Float in
            let r = i / columns, c = i % columns
            if random.next() % 400 == 0 { return .nan }
            // Two lakes, one at 392 m and one at 396 m, their shores ragged by a post here and there.
            if (r / 9 + c / 13) % 3 == 0, random.next() % 60 != 0 { return r < rows / 2 ? 392 : 396 }
            return Float(random.next() % 50) + 380
        }
        let grid = ElevationGrid(north: 47, west: 9, latitudeSpacing: 0.001, longitudeSpacing: 0.001, rows: rows, columns: columns,
                                 heights: heights)
        let pyramid = grid.pyramid
        var flat = [Int](repeating: 0, count: pyramid.levels), wrong = 0
        // The large grid's lowest levels only: the levels above are built the same way for every grid.
        for level in 0..<(rows > 1000 ? 3 : pyramid.levels) {
            let size = MaximumPyramid.cellsPerBlock(level: level)
            for br in 0..<pyramid.blockRows[level] {
                for bc in 0..<pyramid.blockColumns[level] {
                    var lowest = Float.infinity, highest = -Float.infinity, void = false
                    for r in (br * size)...min((br + 1) * size, rows - 1) {
                        for c in (bc * size)...min((bc + 1) * size, columns - 1) {
                            let post = heights[r * columns + c]
                            if post.isNaN { void = true } else { lowest = min(lowest, post); highest = max(highest, post) }
                        }
                    }
                    let expected = !void && lowest == highest
                    if expected { flat[level] += 1 }
                    if pyramid.isFlat(level: level, row: br, column: bc) != expected || pyramid.hasVoid(level: level, row: br, column: bc) != void {
                        wrong += 1
                    }
                }
            }
        }
        #expect(wrong == 0)
        // Flat blocks at level 0, and above it where the grid is large enough to hold them.
        #expect(flat[0] > 5 && (rows < 1000 || flat[1] > 5))
    }

    /// A 3″ tile's pyramid takes under 15 % of the tile's memory.
    @Test func pyramidOfA3ArcSecondTileIsSmall() {
        let grid = Self.randomGrid(rows: 1201, columns: 1201, seed: 1)
        let tile = grid.heights.count * MemoryLayout<Float>.stride
        #expect(Double(grid.pyramid.byteCount) / Double(tile) < 0.15)
    }
}
