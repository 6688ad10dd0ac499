/// The highest post of an ``ElevationGrid`` over square blocks of cells, level by level: a
/// maximum mipmap (Tevs, Ihrke & Seidel 2008; Orekit Rugged's min/max tile tree is the same idea).
///
/// Level 0 holds one value per block of ``baseCells`` × ``baseCells`` cells, the highest of
/// its (``baseCells`` + 1)² posts; each level above halves the blocks per side, up to a single
/// block over the whole grid. A bilinear cell never rises above its highest corner, so a ray
/// that stays above a block's value over the whole block cannot meet the terrain there. A
/// block with a void is +∞: unknown terrain can be anywhere, and a walk must look at (and
/// report) every void cell it passes.
///
/// Built with its grid and shared with it: for a 1201 × 1201 tile it holds 121 000 values,
/// 8 % of the tile's own memory.
public struct MaximumPyramid: Sendable {
    /// Cells along each side of a level-0 block. Within a block the march walks cell by cell.
    public static let baseCells = 4

    /// Blocks per column and per row of each level, finest first.
    public let blockRows: [Int]
    public let blockColumns: [Int]
    /// Where each level starts in ``maxima``.
    let offsets: [Int]
    /// Every level's block maxima, row-major from the north, finest level first.
    let maxima: [Float]

    /// The number of levels; the last is one block over the whole grid.
    public var levels: Int { blockRows.count }

    /// Cells along each side of a block of `level`.
    @inline(__always) public static func cellsPerBlock(level: Int) -> Int { baseCells << level }

    /// Memory the maxima take, bytes.
    public var byteCount: Int { maxima.count * MemoryLayout<Float>.stride }

    /// The highest post of block (`row`, `column`) of `level`, metres; +∞ when it holds a void.
    @inline(__always) public func maximum(level: Int, row: Int, column: Int) -> Float {
        maxima[offsets[level] + row * blockColumns[level] + column]
    }

    /// Builds the pyramid of a `rows × columns` lattice of posts (row-major, NaN for voids).
    /// One pass over the posts, then a quarter of that per level.
    init(rows: Int, columns: Int, heights: UnsafeBufferPointer<Float>) {
        let n = Self.baseCells
        var blockRows = [(rows - 2) / n + 1], blockColumns = [(columns - 2) / n + 1]
        while blockRows.last! > 1 || blockColumns.last! > 1 {
            blockRows.append((blockRows.last! + 1) / 2)
            blockColumns.append((blockColumns.last! + 1) / 2)
        }
        var offsets = [0]
        for level in 0..<(blockRows.count - 1) { offsets.append(offsets[level] + blockRows[level] * blockColumns[level]) }
        let total = offsets.last! + blockRows.last! * blockColumns.last!
        var maxima = [Float](repeating: -.infinity, count: total)
        maxima.withUnsafeMutableBufferPointer { m in
            // Level 0: post row r belongs to the blocks above and below it when it lies on a
            // block edge (r a multiple of n), as its cells on both sides use it.
            let base0 = blockColumns[0]
            for r in 0..<rows {
                let lowerBlock = min(r / n, blockRows[0] - 1)
                let upperBlock = r % n == 0 && r > 0 ? r / n - 1 : lowerBlock
                var rowMaxima = [Float](repeating: -.infinity, count: base0)
                let row = r * columns
                for c in 0..<columns {
                    let post = heights[row + c]
                    let h = post.isNaN ? Float.infinity : post
                    let right = min(c / n, base0 - 1)
                    if h > rowMaxima[right] { rowMaxima[right] = h }
                    if c % n == 0, c > 0, h > rowMaxima[c / n - 1] { rowMaxima[c / n - 1] = h }
                }
                for block in lowerBlock == upperBlock ? [lowerBlock] : [upperBlock, lowerBlock] {
                    for bc in 0..<base0 where rowMaxima[bc] > m[block * base0 + bc] {
                        m[block * base0 + bc] = rowMaxima[bc]
                    }
                }
            }
            for level in 1..<blockRows.count {
                let below = offsets[level - 1], here = offsets[level]
                let belowRows = blockRows[level - 1], belowColumns = blockColumns[level - 1]
                for br in 0..<blockRows[level] {
                    for bc in 0..<blockColumns[level] {
                        var h = -Float.infinity
                        for r in (2 * br)..<min(2 * br + 2, belowRows) {
                            for c in (2 * bc)..<min(2 * bc + 2, belowColumns) { h = max(h, m[below + r * belowColumns + c]) }
                        }
                        m[here + br * blockColumns[level] + bc] = h
                    }
                }
            }
        }
        self.blockRows = blockRows
        self.blockColumns = blockColumns
        self.offsets = offsets
        self.maxima = maxima
    }
}
