import Foundation

/// Fills the voids of a grid of posts from the known posts around them: each void (a set of
/// NaN posts joined through their north, south, east and west neighbours) becomes the smooth
/// surface that meets the known posts on its rim, the solution of Laplace's equation with the
/// rim as boundary (the idea of GDAL's `gdal_fillnodata`, written here from the mathematics).
///
/// The discrete Laplacian weighs the east–west and north–south neighbours by the inverse
/// square of their spacing in metres, so that a surface linear in the posts' ground
/// coordinates, a plane, is its own solution: a void in a plane is filled with the plane to
/// rounding. A post on the grid's edge has no neighbour beyond it and takes the mean of those
/// it has (the surface meets the edge level).
///
/// A void is filled only when none of its posts lies farther than ``maximumReach`` from known
/// terrain; larger voids stay unknown.
public enum VoidFill {
    /// How far from known terrain a filled post may lie, metres: 2 km, so voids up to about
    /// 4 km across. Every void of the shared Alpine tile N46E008 (SRTM v2, 3″; 7.2 % void, on
    /// the steep north faces) is filled, its largest reaching 1.5 km from known ground, while a
    /// void hiding a whole massif (the Himalayan SRTM v2 voids span tens of kilometres) stays
    /// unknown: there a smooth surface spanning it would be an invention, not an interpolation.
    /// In metres, not posts, so that the limit does not depend on the DEM's resolution
    /// (`gdal_fillnodata`'s default reach is 100 pixels: 3 km at 1″, 9 km at 3″).
    public static let maximumReach = 2000.0

    /// Largest change of a post between two sweeps at which the fill counts as converged,
    /// metres: a tenth of the centimetre the heights are reported to.
    static let tolerance = 1e-3

    /// Metres per degree of latitude on a sphere of the Earth's mean radius (6 371 008.8 m):
    /// post spacings only weigh the Laplacian and measure reach, where 0.5 % does not matter.
    static let metresPerDegree = 6_371_008.8 * Double.pi / 180

    /// Fills the voids of `heights` (`rows × columns`, row-major from the north, NaN for voids)
    /// in place and answers which posts it filled; nil when it filled none.
    /// - Parameters:
    ///   - rowSpacing, columnSpacing: ground distance between neighbouring posts north–south and
    ///     east–west, metres.
    ///   - reach: voids with a post farther than this from known terrain are left as they are.
    ///   - coarseToFine: solve voids inside the grid by multigrid (``DenseLaplace``); false
    ///     sweeps every void by over-relaxation alone (the slower way, kept to check the other).
    ///   - tolerance: metres (``tolerance``).
    static func fill(_ heights: inout [Float], rows: Int, columns: Int, rowSpacing: Double, columnSpacing: Double,
                     reach: Double = maximumReach, coarseToFine: Bool = true, tolerance: Double = VoidFill.tolerance) -> PostMask? {
        precondition(heights.count == rows * columns && rowSpacing > 0 && columnSpacing > 0, "grid shape")
        var mask: PostMask?
        // For every post: −2 before it is looked at, −1 once known or taken, else its place in
        // the void being solved (reset after it).
        var slot = Self.posts(heights.count, each: -2)
        var component: [Int] = []
        var stack: [Int] = []
        heights.withUnsafeMutableBufferPointer { h in
            slot.withUnsafeMutableBufferPointer { slot in
                // The post's height first: nearly every post is known, and its mark need not be read.
                for start in 0..<h.count where h[start].isNaN && slot[start] == -2 {
                    // The void holding `start`, by flood fill through the four neighbours.
                    component.removeAll(keepingCapacity: true)
                    stack.append(start)
                    slot[start] = 0
                    while let i = stack.popLast() {
                        slot[i] = Int32(component.count)
                        component.append(i)
                        let r = i / columns, c = i - r * columns
                        // The stack passed in, not captured: a captured array is checked for
                        // exclusive access at every push (10 M instructions of a 26 000-post void).
                        func take(_ j: Int, _ stack: inout [Int]) {
                            if slot[j] == -2, h[j].isNaN {
                                slot[j] = 0
                                stack.append(j)
                            }
                        }
                        if r > 0 { take(i - columns, &stack) }
                        if r < rows - 1 { take(i + columns, &stack) }
                        if c > 0 { take(i - 1, &stack) }
                        if c < columns - 1 { take(i + 1, &stack) }
                    }
                    let void = Void(posts: component, rows: rows, columns: columns, rowSpacing: rowSpacing, columnSpacing: columnSpacing,
                                    tolerance: tolerance)
                    let farthest = (coarseToFine ? void.reachBound(within: reach) : nil) ?? void.reach(h)
                    let filled = farthest <= reach && void.solve(h, slot: slot, reach: farthest, coarseToFine: coarseToFine)
                    for i in component { slot[i] = -1 }
                    guard filled else { continue }
                    if mask == nil { mask = PostMask(count: h.count) }
                    for i in component { mask!.insert(i) }
                }
            }
        }
        return mask
    }

    /// The rows and columns of posts a command will read (both ends included): ``fill(_:rows:columns:rowSpacing:columnSpacing:reach:region:tolerance:)``
    /// fills only the voids that reach into them.
    public struct Region: Sendable, Equatable {
        public var rows: ClosedRange<Int>
        public var columns: ClosedRange<Int>
        public init(rows: ClosedRange<Int>, columns: ClosedRange<Int>) {
            self.rows = rows
            self.columns = columns
        }
    }

    /// ``fill(_:rows:columns:rowSpacing:columnSpacing:reach:coarseToFine:tolerance:)`` of only the
    /// voids with a post in `region`, each filled to the bit as the whole grid's fill fills it, so
    /// that a command reading a few posts (or a window) does not pay for every void of the tile.
    ///
    /// The whole fill takes the voids in the order of their first post (row-major), and a void's
    /// solution reads the grid over its bounding box and one post around it, where the voids
    /// taken before it are already filled (they weigh in the rim's mean that starts the solver,
    /// and count as known terrain in the reach of a void on the grid's edge). So the voids filled
    /// here are those of the region and, transitively, every earlier void with a post in the
    /// box of one of them, in the same order: each sees the grid as the whole fill showed it.
    /// Posts of the other voids stay NaN. Voids are found by flood fill from the region and
    /// those boxes only, not over the whole grid.
    static func fill(_ heights: inout [Float], rows: Int, columns: Int, rowSpacing: Double, columnSpacing: Double,
                     reach: Double = maximumReach, region: Region, tolerance: Double = VoidFill.tolerance) -> PostMask? {
        precondition(heights.count == rows * columns && rowSpacing > 0 && columnSpacing > 0, "grid shape")
        let r0 = max(region.rows.lowerBound, 0), r1 = min(region.rows.upperBound, rows - 1)
        let c0 = max(region.columns.lowerBound, 0), c1 = min(region.columns.upperBound, columns - 1)
        guard r0 <= r1, c0 <= c1 else { return nil }
        // A region holding the whole grid (a viewshed's window cut to its range) is the whole
        // fill, without the bookkeeping of choosing voids (20 M instructions on N46E008's window).
        if r0 == 0, c0 == 0, r1 == rows - 1, c1 == columns - 1 {
            return fill(&heights, rows: rows, columns: columns, rowSpacing: rowSpacing, columnSpacing: columnSpacing,
                        reach: reach, tolerance: tolerance)
        }
        // Each post's void (its index in `voids`), −1 where none was found yet.
        var label = Self.posts(heights.count, each: -1)
        // The voids found: posts (flood order), first post, and whether to fill.
        var voids: [(posts: [Int], first: Int, chosen: Bool)] = []
        var stack: [Int] = []
        var mask: PostMask?
        heights.withUnsafeMutableBufferPointer { h in
            label.withUnsafeMutableBufferPointer { label in
                /// The void holding void post `start`, found by flood fill if it was not yet.
                func void(at start: Int) -> Int {
                    if label[start] >= 0 { return Int(label[start]) }
                    let id = Int32(voids.count)
                    var posts: [Int] = []
                    var first = start
                    stack.append(start)
                    label[start] = id
                    while let i = stack.popLast() {
                        posts.append(i)
                        first = min(first, i)
                        let r = i / columns, c = i - r * columns
                        func take(_ j: Int) {
                            if label[j] < 0, h[j].isNaN {
                                label[j] = id
                                stack.append(j)
                            }
                        }
                        if r > 0 { take(i - columns) }
                        if r < rows - 1 { take(i + columns) }
                        if c > 0 { take(i - 1) }
                        if c < columns - 1 { take(i + 1) }
                    }
                    voids.append((posts, first, false))
                    return Int(id)
                }
                var work: [Int] = []
                for r in r0...r1 {
                    for c in c0...c1 where h[r * columns + c].isNaN {
                        let v = void(at: r * columns + c)
                        if !voids[v].chosen { voids[v].chosen = true; work.append(v) }
                    }
                }
                // The earlier voids each chosen void's solution reads.
                while let v = work.popLast() {
                    let box = Void(posts: voids[v].posts, rows: rows, columns: columns, rowSpacing: rowSpacing,
                                   columnSpacing: columnSpacing, tolerance: tolerance).bounds
                    for r in max(box.r0 - 1, 0)...min(box.r1 + 1, rows - 1) {
                        for c in max(box.c0 - 1, 0)...min(box.c1 + 1, columns - 1) where h[r * columns + c].isNaN {
                            let u = void(at: r * columns + c)
                            if !voids[u].chosen, voids[u].first < voids[v].first { voids[u].chosen = true; work.append(u) }
                        }
                    }
                }
            }
        }
        let chosen = voids.indices.filter { voids[$0].chosen }.sorted { voids[$0].first < voids[$1].first }
        guard !chosen.isEmpty else { return nil }
        // Each chosen void's place for its posts, as the whole fill gives it; −2 elsewhere.
        var slot = Self.posts(heights.count, each: -2)
        heights.withUnsafeMutableBufferPointer { h in
            slot.withUnsafeMutableBufferPointer { slot in
                for v in chosen {
                    let posts = voids[v].posts
                    for (k, i) in posts.enumerated() { slot[i] = Int32(k) }
                    let void = Void(posts: posts, rows: rows, columns: columns, rowSpacing: rowSpacing, columnSpacing: columnSpacing,
                                    tolerance: tolerance)
                    let farthest = void.reachBound(within: reach) ?? void.reach(h)
                    let filled = farthest <= reach && void.solve(h, slot: slot, reach: farthest, coarseToFine: true)
                    for i in posts { slot[i] = -1 }
                    guard filled else { continue }
                    if mask == nil { mask = PostMask(count: h.count) }
                    for i in posts { mask!.insert(i) }
                }
            }
        }
        return mask
    }

    /// A mark for each of `count` posts, in storage advised onto huge pages (``HugePages``):
    /// as large as the grid, and faulted in 4 KiB page by page otherwise.
    private static func posts(_ count: Int, each value: Int32) -> [Int32] {
        HugePages.array(count: count) { $0.initialize(repeating: value) }
    }

    /// One void: its posts and the geometry of the lattice around them.
    private struct Void {
        let posts: [Int]
        let rows: Int, columns: Int
        let rowSpacing: Double, columnSpacing: Double
        /// Metres (``VoidFill/tolerance``).
        let tolerance: Double

        /// The void's bounding rows and columns.
        var bounds: (r0: Int, r1: Int, c0: Int, c1: Int) {
            var r0 = rows, r1 = 0, c0 = columns, c1 = 0
            for i in posts {
                let r = i / columns, c = i - r * columns
                r0 = min(r0, r); r1 = max(r1, r); c0 = min(c0, c); c1 = max(c1, c)
            }
            return (r0, r1, c0, c1)
        }

        /// A bound on ``reach(_:)`` that needs no distance transform (the multigrid solve does not
        /// use the reach, only the test against the limit does), when it is no more than
        /// `limit` and the void's box lies inside the grid (its rim then has every post): along
        /// its row, a post meets a known one at the first post outside the void (a neighbour of
        /// the void, so not void itself) no farther than half the box's width and one post,
        /// and likewise along its column. Nil otherwise.
        func reachBound(within limit: Double) -> Double? {
            let (r0, r1, c0, c1) = bounds
            guard r0 >= 1, r1 <= rows - 2, c0 >= 1, c1 <= columns - 2 else { return nil }
            let bound = min(Double((c1 - c0 + 2) / 2) * columnSpacing, Double((r1 - r0 + 2) / 2) * rowSpacing)
            return bound <= limit ? bound : nil
        }

        /// The farthest any post of the void lies from a known post, metres, measured along
        /// steps between neighbouring posts (eight directions; at most 8 % over the straight
        /// distance): two passes of a chamfer distance transform over the void's bounding box.
        /// Posts beyond the grid's edge are no known terrain.
        func reach(_ h: UnsafeMutableBufferPointer<Float>) -> Double {
            var (r0, r1, c0, c1) = bounds
            // One post of margin: the known rim (where the grid has it).
            r0 = max(r0 - 1, 0); r1 = min(r1 + 1, rows - 1); c0 = max(c0 - 1, 0); c1 = min(c1 + 1, columns - 1)
            let height = r1 - r0 + 1, width = c1 - c0 + 1
            var d = [Double](repeating: 0, count: height * width)
            for r in 0..<height {
                for c in 0..<width where h[(r0 + r) * columns + c0 + c].isNaN { d[r * width + c] = .infinity }
            }
            let diagonal = (rowSpacing * rowSpacing + columnSpacing * columnSpacing).squareRoot()
            d.withUnsafeMutableBufferPointer { d in
                // Forward from the north and west neighbours, backward from the south and east.
                for r in 0..<height {
                    for c in 0..<width where d[r * width + c] > 0 {
                        var best = d[r * width + c]
                        if c > 0 { best = min(best, d[r * width + c - 1] + columnSpacing) }
                        if r > 0 {
                            let above = (r - 1) * width + c
                            best = min(best, d[above] + rowSpacing)
                            if c > 0 { best = min(best, d[above - 1] + diagonal) }
                            if c < width - 1 { best = min(best, d[above + 1] + diagonal) }
                        }
                        d[r * width + c] = best
                    }
                }
                for r in stride(from: height - 1, through: 0, by: -1) {
                    for c in stride(from: width - 1, through: 0, by: -1) where d[r * width + c] > 0 {
                        var best = d[r * width + c]
                        if c < width - 1 { best = min(best, d[r * width + c + 1] + columnSpacing) }
                        if r < height - 1 {
                            let below = (r + 1) * width + c
                            best = min(best, d[below] + rowSpacing)
                            if c > 0 { best = min(best, d[below - 1] + diagonal) }
                            if c < width - 1 { best = min(best, d[below + 1] + diagonal) }
                        }
                        d[r * width + c] = best
                    }
                }
            }
            var farthest = 0.0
            for i in posts {
                let r = i / columns - r0, c = i % columns - c0
                farthest = max(farthest, d[r * width + c])
            }
            return farthest
        }

        /// Solves Laplace's equation over the void with the known rim fixed and writes the surface
        /// into `h`: by multigrid (``solveDense(_:slot:bounds:)``) unless `coarseToFine` is false,
        /// then by successive over-relaxation in red–black order, starting from the
        /// mean of the straight-line interpolations along the post's row and column between the
        /// nearest known posts (for a plane, already the answer). `slot` gives each post of the
        /// void its place in ``posts`` (and no other post a place ≥ 0); `reach` is its farthest
        /// post from known terrain, metres (``reach(_:)``). False when the void
        /// touches no known post (a grid all void), which then stays unknown.
        func solve(_ h: UnsafeMutableBufferPointer<Float>, slot: UnsafeMutableBufferPointer<Int32>, reach: Double,
                   coarseToFine: Bool) -> Bool {
            let (r0, r1, c0, c1) = bounds
            if coarseToFine { return solveDense(h, slot: slot, bounds: (r0, r1, c0, c1)) }
            let n = posts.count
            // Weights of the north–south and east–west neighbours: 1/spacing².
            let wr = 1 / (rowSpacing * rowSpacing), wc = 1 / (columnSpacing * columnSpacing)
            // For each post: the weighted sum of its known neighbours over the total weight, and
            // its up to four void neighbours (place, weight over the total; −1 for none).
            var fixed = [Double](repeating: 0, count: n)
            var neighbour = [Int32](repeating: -1, count: 4 * n)
            var weight = [Double](repeating: 0, count: 4 * n)
            var touchesKnown = false
            for (k, i) in posts.enumerated() {
                let r = i / columns, c = i - r * columns
                var total = 0.0, known = 0.0, m = 0
                func add(_ j: Int, _ w: Double) {
                    total += w
                    let s = slot[j]
                    if s >= 0, posts[Int(s)] == j {
                        neighbour[4 * k + m] = s
                        weight[4 * k + m] = w
                        m += 1
                    } else {
                        known += w * Double(h[j])
                        touchesKnown = true
                    }
                }
                if r > 0 { add(i - columns, wr) }
                if r < rows - 1 { add(i + columns, wr) }
                if c > 0 { add(i - 1, wc) }
                if c < columns - 1 { add(i + 1, wc) }
                fixed[k] = known / total
                for q in 0..<m { weight[4 * k + q] /= total }
            }
            guard touchesKnown else { return false }
            var x = posts.map { start(at: $0, h) }
            // Red–black: posts of one colour have neighbours only of the other.
            let red = (0..<n).filter { k in (posts[k] / columns + posts[k] % columns) % 2 == 0 }
            let black = (0..<n).filter { k in (posts[k] / columns + posts[k] % columns) % 2 != 0 }
            // The optimal relaxation for a square of side L, taken with L the void's width
            // (twice its farthest post from the rim, in posts), which governs how slowly a
            // smooth error decays; not its bounding box, which a winding void makes far larger.
            let side = min(Double(min(r1 - r0, c1 - c0) + 2), 2 * reach / max(rowSpacing, columnSpacing) + 2)
            let omega = 2 / (1 + sin(Double.pi / (side + 1)))
            // A cap against a pathological shape; convergence takes O(side) sweeps.
            let sweeps = 200 + 20 * (r1 - r0 + c1 - c0)
            // The error left is the last change over the share a sweep removes (ω − 1 of it
            // stays): over ten times the change on the real voids, so the change must fall a
            // good deal below the tolerance.
            let stop = tolerance / 20
            x.withUnsafeMutableBufferPointer { x in
                fixed.withUnsafeBufferPointer { fixed in neighbour.withUnsafeBufferPointer { neighbour in weight.withUnsafeBufferPointer { weight in
                    let colours = [red, black]
                    for _ in 0..<sweeps {
                        var largest = 0.0
                        for colour in colours {
                            for k in colour {
                                var mean = fixed[k]
                                for q in (4 * k)..<(4 * k + 4) {
                                    let s = neighbour[q]
                                    if s < 0 { break }
                                    mean += weight[q] * x[Int(s)]
                                }
                                let change = omega * (mean - x[k])
                                x[k] += change
                                largest = max(largest, abs(change))
                            }
                        }
                        if largest < stop { break }
                    }
                } } }
            }
            for (k, i) in posts.enumerated() { h[i] = Float(x[k]) }
            return true
        }

        /// ``solve(_:slot:reach:coarseToFine:)`` by multigrid (``DenseLaplace``), on a dense copy
        /// of the void's bounding box and the known rim around it: a number of steps that does
        /// not grow with the void, where the sweeps alone need more the wider it is. A row or
        /// column of the box beyond the grid's edge holds zeros that weigh nothing: the edge
        /// posts' own weight is the share of the neighbours they have, so that they are those
        /// neighbours' mean. False when the void touches no known post.
        private func solveDense(_ h: UnsafeMutableBufferPointer<Float>, slot: UnsafeMutableBufferPointer<Int32>,
                                bounds: (r0: Int, r1: Int, c0: Int, c1: Int)) -> Bool {
            let top = bounds.r0 - 1, left = bounds.c0 - 1
            let height = bounds.r1 - bounds.r0 + 3, width = bounds.c1 - bounds.c0 + 3
            var values = [Double](repeating: 0, count: height * width)
            var unknown = [Bool](repeating: false, count: height * width)
            let wr = 1 / (rowSpacing * rowSpacing), wc = 1 / (columnSpacing * columnSpacing)
            var diagonal: [Double]?
            // Other voids inside the box are never neighbours of this one's posts (nor read on the
            // coarse grids, which solve for corrections); they take the rim's mean, not NaN.
            var rimSum = 0.0, rimCount = 0
            var foreign: [Int] = []
            for r in 0..<height {
                let tr = top + r
                guard tr >= 0, tr < rows else { continue }
                for c in 0..<width {
                    let tc = left + c
                    guard tc >= 0, tc < columns else { continue }
                    let k = r * width + c, i = tr * columns + tc
                    let s = slot[i]
                    if s >= 0, posts[Int(s)] == i {
                        unknown[k] = true
                        if tr == 0 || tc == 0 || tr == rows - 1 || tc == columns - 1 {
                            if diagonal == nil { diagonal = [Double](repeating: 1, count: height * width) }
                            let have = wr * Double((tr > 0 ? 1 : 0) + (tr < rows - 1 ? 1 : 0))
                                + wc * Double((tc > 0 ? 1 : 0) + (tc < columns - 1 ? 1 : 0))
                            diagonal![k] = have / (2 * wr + 2 * wc)
                        }
                    } else if h[i].isNaN {
                        foreign.append(k)
                    } else {
                        values[k] = Double(h[i])
                        if r == 0 || c == 0 || r == height - 1 || c == width - 1 || unknown[k - width] || unknown[k - 1] {
                            rimSum += values[k]; rimCount += 1
                        }
                    }
                }
            }
            guard rimCount > 0 else { return false }
            let mean = rimSum / Double(rimCount)
            for k in foreign { values[k] = mean }
            let beyond = DenseLaplace.Beyond(north: top < 0, south: top + height > rows, west: left < 0, east: left + width > columns)
            DenseLaplace.solve(&values, unknown: unknown, diagonal: diagonal, beyond: beyond, height: height, width: width,
                               northSouth: wr / (2 * wr + 2 * wc), eastWest: wc / (2 * wr + 2 * wc),
                               guess: mean, tolerance: tolerance)
            for i in posts {
                let r = i / columns - top, c = i % columns - left
                h[i] = Float(values[r * width + c])
            }
            return true
        }

        /// The first guess at void post `i`: the mean of the straight lines between the nearest
        /// known posts along its row and along its column (one of them where only one side has
        /// known posts before the grid's edge, that post's height where only one post is known).
        private func start(at i: Int, _ h: UnsafeMutableBufferPointer<Float>) -> Double {
            let r = i / columns, c = i - r * columns
            var sum = 0.0, lines = 0, loneSum = 0.0, lone = 0
            for (position, count, stride) in [(c, columns, 1), (r, rows, columns)] {
                var before: (Int, Double)?, after: (Int, Double)?
                var k = position - 1
                while k >= 0 {
                    let v = h[i - (position - k) * stride]
                    if !v.isNaN { before = (position - k, Double(v)); break }
                    k -= 1
                }
                k = position + 1
                while k < count {
                    let v = h[i + (k - position) * stride]
                    if !v.isNaN { after = (k - position, Double(v)); break }
                    k += 1
                }
                if let (a, ha) = before, let (b, hb) = after {
                    sum += ha + (hb - ha) * Double(a) / Double(a + b)
                    lines += 1
                } else if let (_, v) = before ?? after {
                    loneSum += v
                    lone += 1
                }
            }
            return lines > 0 ? sum / Double(lines) : (lone > 0 ? loneSum / Double(lone) : 0)
        }
    }
}

/// A set of a grid's posts, one bit each: the posts ``VoidFill`` filled.
public struct PostMask: Sendable, Hashable {
    private var bits: [UInt64]
    /// How many posts are in the set.
    public private(set) var count = 0

    /// An empty set over `posts` posts.
    init(count posts: Int) { bits = [UInt64](repeating: 0, count: (posts + 63) / 64) }

    mutating func insert(_ i: Int) {
        let word = i >> 6, bit = UInt64(1) << UInt64(i & 63)
        if bits[word] & bit == 0 {
            bits[word] |= bit
            count += 1
        }
    }

    /// Whether post `i` (row-major index) is in the set.
    /// Inlined always: asked up to four times a point of `elevation --batch` on a filled tile,
    /// where a call each cost 12 instructions (9 M on the summit window).
    @inlinable @inline(__always) public func contains(_ i: Int) -> Bool { word(i >> 6) & (UInt64(1) << UInt64(i & 63)) != 0 }

    @usableFromInline @inline(__always) func word(_ k: Int) -> UInt64 { bits[k] }

    /// How many posts of `range` are in the set: a population count a word of 64 posts.
    func count(in range: Range<Int>) -> Int {
        guard !range.isEmpty else { return 0 }
        let first = range.lowerBound >> 6, last = (range.upperBound - 1) >> 6
        // The words' bits below the range's start and from its end on, masked off.
        let head = ~UInt64(0) << UInt64(range.lowerBound & 63)
        let tail = ~UInt64(0) >> UInt64(63 - ((range.upperBound - 1) & 63))
        guard first < last else { return (bits[first] & head & tail).nonzeroBitCount }
        var n = (bits[first] & head).nonzeroBitCount + (bits[last] & tail).nonzeroBitCount
        for k in (first + 1)..<last { n += bits[k].nonzeroBitCount }
        return n
    }

    /// Memory the set takes, bytes.
    var byteCount: Int { bits.count * MemoryLayout<UInt64>.stride }

    /// Calls `body` with each post of the set, in ascending order: a word at a time, so that
    /// the empty stretches of a tile cost one test per 64 posts.
    func forEach(_ body: (Int) -> Void) {
        for (k, word) in bits.enumerated() where word != 0 {
            var w = word
            while w != 0 {
                body(k << 6 | w.trailingZeroBitCount)
                w &= w - 1
            }
        }
    }
}
