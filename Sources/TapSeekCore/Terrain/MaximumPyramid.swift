import Foundation

/// The highest post of an ``ElevationGrid`` over square blocks of cells, level by level: a
/// maximum mipmap (Tevs, Ihrke & Seidel 2008; Orekit Rugged's min/max tile tree is the same idea).
///
/// Level 0 holds one value per block of ``baseCells`` × ``baseCells`` cells, the highest of
/// its (``baseCells`` + 1)² posts; each level above halves the blocks per side, up to a single
/// block over the whole grid. A bilinear cell never rises above its highest corner, so a ray
/// that stays above a block's value over the whole block cannot meet the terrain there. Voids
/// are left out of the maxima (a block of voids only is −∞: no known terrain, and a void is
/// never hit); each block also says whether it holds a void, so that a walk that skips it can
/// still report that it passed one, and whether it is flat (every post known and of one height:
/// a lake or the sea), so that a walk can take its terrain whole.
///
/// Built with its grid and shared with it: for a 1201 × 1201 tile it holds 121 000 values and
/// as many flags, 10 % of the tile's own memory. A class of immutable values, so that a grid
/// carries it by one reference: grids are copied on every tile look-up.
public final class MaximumPyramid: Sendable {
    /// Cells along each side of a level-0 block. Within a block the march walks cell by cell.
    public static let baseCells = 1 << baseShift
    static let baseShift = 2

    /// Blocks per column and per row of each level, finest first.
    /// Whether the maxima bound the terrain (false: the pyramid of ``init(unboundedRows:columns:)``).
    public let boundsTerrain: Bool
    public let blockRows: [Int]
    public let blockColumns: [Int]
    /// Where each level starts in ``maxima``.
    let offsets: [Int]
    /// Every level's block maxima, row-major from the north, finest level first.
    let maxima: [Float]
    /// For every block, like ``maxima``: ``voidFlag`` when it holds a void post, ``flatFlag`` when
    /// it is flat.
    let voids: [UInt8]
    static let voidFlag: UInt8 = 1, flatFlag: UInt8 = 2

    /// The number of levels; the last is one block over the whole grid.
    public var levels: Int { blockRows.count }

    /// Cells along each side of a block of `level`.
    @inline(__always) public static func cellsPerBlock(level: Int) -> Int { baseCells &<< level }

    /// The block of a level holding cell index i ≥ 0 along an axis: i / ``cellsPerBlock(level:)``,
    /// as a shift. Masking shifts, here and above: the amount is far below 64, and the checks a
    /// plain shift makes of it were 1 % of a viewshed's instructions (a level ray's every step).
    @inline(__always) static func block(ofCell i: Int, level: Int) -> Int { i &>> (level + baseShift) }

    /// Memory the maxima and flags take, bytes.
    public var byteCount: Int { maxima.count * MemoryLayout<Float>.stride + voids.count }

    /// The highest known post of block (`row`, `column`) of `level`, metres; −∞ when all are voids.
    @inline(__always) public func maximum(level: Int, row: Int, column: Int) -> Float {
        maxima[offsets[level] + row * blockColumns[level] + column]
    }

    /// Whether block (`row`, `column`) of `level` holds a void post.
    @inline(__always) public func hasVoid(level: Int, row: Int, column: Int) -> Bool {
        voids[offsets[level] + row * blockColumns[level] + column] & Self.voidFlag != 0
    }

    /// Whether every post of block (`row`, `column`) of `level` is known and of the same height,
    /// ``maximum(level:row:column:)``.
    @inline(__always) public func isFlat(level: Int, row: Int, column: Int) -> Bool {
        voids[offsets[level] + row * blockColumns[level] + column] & Self.flatFlag != 0
    }

    /// The levels read in place, for a walk that looks up a block at every step: through the
    /// arrays, each step checked their bounds and retained and released them.
    struct Levels {
        let blockRows: UnsafePointer<Int>, blockColumns: UnsafePointer<Int>, offsets: UnsafePointer<Int>
        let maxima: UnsafePointer<Float>, voids: UnsafePointer<UInt8>

        /// ``MaximumPyramid/maximum(level:row:column:)``.
        @inline(__always) func maximum(level: Int, row: Int, column: Int) -> Float {
            maxima[offsets[level] + row * blockColumns[level] + column]
        }

        /// ``MaximumPyramid/hasVoid(level:row:column:)``.
        @inline(__always) func hasVoid(level: Int, row: Int, column: Int) -> Bool {
            voids[offsets[level] + row * blockColumns[level] + column] & MaximumPyramid.voidFlag != 0
        }

        /// ``MaximumPyramid/isFlat(level:row:column:)``.
        @inline(__always) func isFlat(level: Int, row: Int, column: Int) -> Bool {
            voids[offsets[level] + row * blockColumns[level] + column] & MaximumPyramid.flatFlag != 0
        }
    }

    /// Calls `body` with the levels read in place (valid only during the call).
    @inline(__always) func withLevels<R>(_ body: (Levels) -> R) -> R {
        blockRows.withUnsafeBufferPointer { rows in
            blockColumns.withUnsafeBufferPointer { columns in
                offsets.withUnsafeBufferPointer { offsets in
                    maxima.withUnsafeBufferPointer { maxima in
                        voids.withUnsafeBufferPointer { voids in
                            body(Levels(blockRows: rows.baseAddress!, blockColumns: columns.baseAddress!, offsets: offsets.baseAddress!,
                                        maxima: maxima.baseAddress!, voids: voids.baseAddress!))
                        }
                    }
                }
            }
        }
    }

    /// Blocks per column and row of every level of a `rows × columns` lattice, and where each
    /// level starts; the total number of blocks.
    private static func layout(rows: Int, columns: Int) -> (blockRows: [Int], blockColumns: [Int], offsets: [Int], total: Int) {
        let n = baseCells
        var blockRows = [(rows - 2) / n + 1], blockColumns = [(columns - 2) / n + 1]
        while blockRows.last! > 1 || blockColumns.last! > 1 {
            blockRows.append((blockRows.last! + 1) / 2)
            blockColumns.append((blockColumns.last! + 1) / 2)
        }
        var offsets = [0]
        for level in 0..<(blockRows.count - 1) { offsets.append(offsets[level] + blockRows[level] * blockColumns[level]) }
        return (blockRows, blockColumns, offsets, offsets.last! + blockRows.last! * blockColumns.last!)
    }

    /// A pyramid that bounds nothing: every block +∞, so a walk over its grid skips no block and
    /// examines every cell. For grids that are only looked up, never marched over (the geoid's
    /// undulations), where building the maxima would be wasted start-up time.
    init(unboundedRows rows: Int, columns: Int) {
        let total: Int
        (blockRows, blockColumns, offsets, total) = Self.layout(rows: rows, columns: columns)
        boundsTerrain = false
        maxima = [Float](repeating: .infinity, count: total)
        voids = [UInt8](repeating: 0, count: total)
    }

    /// Builds the pyramid of a `rows × columns` lattice of posts (row-major, NaN for voids).
    /// One pass over the posts, then a quarter of that per level.
    init(rows: Int, columns: Int, heights: UnsafeBufferPointer<Float>) {
        boundsTerrain = true
        let n = Self.baseCells
        let (blockRows, blockColumns, offsets, total) = Self.layout(rows: rows, columns: columns)
        var maxima = [Float](repeating: -.infinity, count: total)
        var voids = [UInt8](repeating: 0, count: total)
        maxima.withUnsafeMutableBufferPointer { m in voids.withUnsafeMutableBufferPointer { v in
            // Level 0: block (br, bc) takes posts [n·br, n·br + n] × [n·bc, n·bc + n] (the posts on
            // its edges are shared with its neighbours, as their cells use them; the last block
            // of a row or column stops at the grid's edge).
            //
            // Down the columns first: for each row of blocks, the highest post of each column over
            // its n + 1 rows and whether one is a void, eight columns at a time; then each block
            // takes the highest of its n + 1 columns. Each post is read about once, in a pass
            // of whole vectors, and the per-block work is done once per n rows. Rows of blocks
            // are independent: a large grid's are shared out between the cores.
            precondition(n == 4, "a level-0 block's five columns are read as two pairs and one column")
            let shared = LevelZero(rows: rows, columns: columns, heights: heights.baseAddress!,
                                   maxima: m.baseAddress!, voids: v.baseAddress!, blocksAcross: blockColumns[0])
            let bands = rows * columns >= Self.parallelPosts ? min(ProcessInfo.processInfo.activeProcessorCount, blockRows[0]) : 1
            if bands == 1 {
                shared.build(blockRows: 0..<blockRows[0])
            } else {
                DispatchQueue.concurrentPerform(iterations: bands) { band in
                    shared.build(blockRows: (blockRows[0] * band / bands)..<(blockRows[0] * (band + 1) / bands))
                }
            }
            for level in 1..<blockRows.count {
                let below = offsets[level - 1], here = offsets[level]
                let belowRows = blockRows[level - 1], belowColumns = blockColumns[level - 1]
                for br in 0..<blockRows[level] {
                    for bc in 0..<blockColumns[level] {
                        var h = -Float.infinity, low = Float.infinity
                        var void: UInt8 = 0, flat = Self.flatFlag
                        for r in (2 * br)..<min(2 * br + 2, belowRows) {
                            for c in (2 * bc)..<min(2 * bc + 2, belowColumns) {
                                let child = below + r * belowColumns + c
                                h = max(h, m[child])
                                low = min(low, m[child])
                                void |= v[child] & Self.voidFlag
                                flat &= v[child]
                            }
                        }
                        // Flat when its blocks are, all at one height.
                        m[here + br * blockColumns[level] + bc] = h
                        v[here + br * blockColumns[level] + bc] = void | (low == h ? flat : 0)
                    }
                }
            }
        } }
        self.blockRows = blockRows
        self.blockColumns = blockColumns
        self.offsets = offsets
        self.maxima = maxima
        self.voids = voids
    }

    /// Below this many posts one thread builds level 0 faster than several start.
    private static let parallelPosts = 1 << 22

    /// Level 0's input and output, read and written by several threads at once: each thread
    /// writes its own rows of blocks only.
    private struct LevelZero: @unchecked Sendable {
        let rows: Int, columns: Int
        let heights: UnsafePointer<Float>
        let maxima: UnsafeMutablePointer<Float>
        let voids: UnsafeMutablePointer<UInt8>
        let blocksAcross: Int

        /// The maxima and flags of `blockRows`' level-0 blocks.
        func build(blockRows: Range<Int>) {
            let n = MaximumPyramid.baseCells, base0 = blocksAcross
            let columnMaxima = UnsafeMutablePointer<Float>.allocate(capacity: columns)
            defer { columnMaxima.deallocate() }
            // The lowest post of each column too, and of each pair: a block whose lowest known post
            // is its highest, and that has no void, is flat.
            let columnMinima = UnsafeMutablePointer<Float>.allocate(capacity: columns)
            defer { columnMinima.deallocate() }
            let pairMinima = UnsafeMutablePointer<Float>.allocate(capacity: columns)
            defer { pairMinima.deallocate() }
            let columnVoids = UnsafeMutablePointer<Int32>.allocate(capacity: columns)
            defer { columnVoids.deallocate() }
            let pairMaxima = UnsafeMutablePointer<Float>.allocate(capacity: columns)
            defer { pairMaxima.deallocate() }
            let pairVoids = UnsafeMutablePointer<Int32>.allocate(capacity: columns)
            defer { pairVoids.deallocate() }
            let lanes = 8, whole = columns / lanes * lanes
            let void = SIMD8<Int32>(repeating: 1)
            for br in blockRows {
                let first = br * n, last = min(first + n, rows - 1)
                columnMaxima.update(repeating: -.infinity, count: columns)
                columnMinima.update(repeating: .infinity, count: columns)
                columnVoids.update(repeating: 0, count: columns)
                for r in first...last {
                    let row = heights + r * columns
                    var c = 0
                    while c < whole {
                        // A void (NaN) compares false: it never raises a maximum, and is not equal
                        // to itself.
                        let posts = UnsafeRawPointer(row + c).loadUnaligned(as: SIMD8<Float>.self)
                        let highest = UnsafeMutableRawPointer(columnMaxima + c)
                        var sofar = highest.loadUnaligned(as: SIMD8<Float>.self)
                        sofar.replace(with: posts, where: posts .> sofar)
                        highest.storeBytes(of: sofar, as: SIMD8<Float>.self)
                        let lowest = UnsafeMutableRawPointer(columnMinima + c)
                        var low = lowest.loadUnaligned(as: SIMD8<Float>.self)
                        low.replace(with: posts, where: posts .< low)
                        lowest.storeBytes(of: low, as: SIMD8<Float>.self)
                        let flags = UnsafeMutableRawPointer(columnVoids + c)
                        let f = flags.loadUnaligned(as: SIMD8<Int32>.self) | void.replacing(with: 0, where: posts .== posts)
                        flags.storeBytes(of: f, as: SIMD8<Int32>.self)
                        c += lanes
                    }
                    while c < columns {
                        let post = row[c]
                        if post == post {
                            columnMaxima[c] = post > columnMaxima[c] ? post : columnMaxima[c]
                            columnMinima[c] = post < columnMinima[c] ? post : columnMinima[c]
                        } else {
                            columnVoids[c] = 1
                        }
                        c += 1
                    }
                }
                // A whole block's five columns are two overlapping pairs and one column.
                for c in 0..<(columns - 1) {
                    pairMaxima[c] = columnMaxima[c] > columnMaxima[c + 1] ? columnMaxima[c] : columnMaxima[c + 1]
                    pairMinima[c] = columnMinima[c] < columnMinima[c + 1] ? columnMinima[c] : columnMinima[c + 1]
                    pairVoids[c] = columnVoids[c] | columnVoids[c + 1]
                }
                let target = maxima + br * base0, flags = voids + br * base0
                for bc in 0..<base0 {
                    let first = bc * n
                    var h = -Float.infinity, low = Float.infinity
                    var anyVoid: Int32 = 0
                    if first + n <= columns - 1 {
                        let a = pairMaxima[first], b = pairMaxima[first + 2], e = columnMaxima[first + 4]
                        let ab = a > b ? a : b
                        h = ab > e ? ab : e
                        let la = pairMinima[first], lb = pairMinima[first + 2], le = columnMinima[first + 4]
                        let lab = la < lb ? la : lb
                        low = lab < le ? lab : le
                        anyVoid = pairVoids[first] | pairVoids[first + 2] | columnVoids[first + 4]
                    } else {
                        // The last block, cut short by the grid's edge.
                        for c in first..<columns {
                            h = columnMaxima[c] > h ? columnMaxima[c] : h
                            low = columnMinima[c] < low ? columnMinima[c] : low
                            anyVoid |= columnVoids[c]
                        }
                    }
                    target[bc] = h
                    flags[bc] = anyVoid != 0 ? MaximumPyramid.voidFlag : (low == h ? MaximumPyramid.flatFlag : 0)
                }
            }
        }
    }
}
