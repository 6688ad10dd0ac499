import Foundation

/// Laplace's equation on a dense rectangle of posts, solved by multigrid: the posts marked
/// unknown become the weighted mean of their four neighbours, the others stay as they are.
///
/// Successive over-relaxation alone needs a number of sweeps growing with the void's width,
/// because the smooth part of the error decays slowly under local averaging. Multigrid removes
/// that part on coarser grids (every other row and column, recursively), where it is no longer
/// smooth: a few Gauss–Seidel sweeps on each grid, the fine grid's residual carried down and
/// the coarse correction interpolated back up (V-cycles), until no post's residual (the
/// change a sweep would make) exceeds the tolerance. The fixed point is the same as the
/// sweeps' alone; the coarse grids only reach it in a number of cycles that does not grow with
/// the void.
enum DenseLaplace {
    /// Gauss–Seidel sweeps before and after each coarse correction.
    static let smoothing = 2
    /// Sweeps each way on the coarsest grid.
    static let coarsest = 8
    /// Most conjugate-gradient steps: a pathological void stops there, close to the surface if
    /// not within the tolerance.
    static let maximumCycles = 60

    /// One grid of the hierarchy: its shape, its unknown posts in two colours (red: row plus
    /// column even), whose neighbours are all of the other colour, and its working arrays
    /// (allocated once: a winding void's bounding box may be ten times its posts, so nothing
    /// per cycle may cost the box).
    private final class Grid {
        let height: Int, width: Int
        let unknown: [Bool]
        let red: UnsafeMutableBufferPointer<Int32>, black: UnsafeMutableBufferPointer<Int32>
        /// Each unknown post's row, red posts then black (the order of ``forEach(_:)``): the
        /// cycles carry residuals down and corrections up by row and column, which a division
        /// of the index would cost at every post of every cycle (tens of cycles each).
        let rows: UnsafeMutableBufferPointer<Int32>
        /// The correction solved on this grid (coarse grids), its right-hand side, and this
        /// grid's residual; zero on every known post, always.
        let x: UnsafeMutableBufferPointer<Double>, rhs: UnsafeMutableBufferPointer<Double>
        let residual: UnsafeMutableBufferPointer<Double>
        /// Each post's own weight in its equation and its inverse: 1 but for posts on the
        /// tile's edge, which lack a neighbour (``solve(_:unknown:diagonal:height:width:northSouth:eastWest:guess:tolerance:)``).
        let diagonal: UnsafeMutableBufferPointer<Double>, inverse: UnsafeMutableBufferPointer<Double>
        /// Whether every post's own weight is 1 (no post on the tile's edge): the smoothing then
        /// skips the multiplication by ``inverse``, by 1, which changes no bit.
        let unitDiagonal: Bool
        var count: Int { red.count + black.count }

        init(height: Int, width: Int, unknown: [Bool], diagonal: [Double]? = nil) {
            self.height = height; self.width = width; self.unknown = unknown
            unitDiagonal = diagonal == nil
            var red: [Int32] = [], black: [Int32] = [], redRows: [Int32] = [], blackRows: [Int32] = []
            for r in 1..<max(height - 1, 1) {
                for c in 1..<max(width - 1, 1) where unknown[r * width + c] {
                    if (r + c) & 1 == 0 {
                        red.append(Int32(r * width + c)); redRows.append(Int32(r))
                    } else {
                        black.append(Int32(r * width + c)); blackRows.append(Int32(r))
                    }
                }
            }
            self.red = .allocate(capacity: red.count); _ = self.red.initialize(from: red)
            self.black = .allocate(capacity: black.count); _ = self.black.initialize(from: black)
            rows = .allocate(capacity: red.count + black.count)
            _ = UnsafeMutableBufferPointer(rebasing: rows[..<red.count]).initialize(from: redRows)
            _ = UnsafeMutableBufferPointer(rebasing: rows[red.count...]).initialize(from: blackRows)
            x = .allocate(capacity: height * width); x.initialize(repeating: 0)
            rhs = .allocate(capacity: height * width); rhs.initialize(repeating: 0)
            residual = .allocate(capacity: height * width); residual.initialize(repeating: 0)
            self.diagonal = .allocate(capacity: height * width); self.inverse = .allocate(capacity: height * width)
            if let diagonal {
                _ = self.diagonal.initialize(from: diagonal)
                for k in 0..<(height * width) { inverse[k] = 1 / diagonal[k] }
            } else {
                self.diagonal.initialize(repeating: 1); inverse.initialize(repeating: 1)
            }
        }

        deinit {
            red.deallocate(); black.deallocate(); rows.deallocate(); x.deallocate(); rhs.deallocate(); residual.deallocate()
            diagonal.deallocate(); inverse.deallocate()
        }

        /// The grid of every other row and column: post (i, j) is post (2i, 2j) here, the last
        /// row and column clamped onto this grid's border (known), so its border is known too.
        /// Where a side of the rectangle lies beyond the tile (``Beyond``), the coarse grid's posts
        /// next to it take the mean of the neighbours they have, as the finest grid's do: with
        /// the missing neighbour counted as a known zero instead, the coarse corrections vanished
        /// along the tile's edge, where the error does not, and a void reaching the edge took
        /// two or three times the conjugate-gradient steps of one inside (14 against 6).
        func coarser(beyond: Beyond, northSouth a: Double, eastWest b: Double) -> Grid? {
            guard count > 64, height >= 7, width >= 7 else { return nil }
            let h = (height + 2) / 2, w = (width + 2) / 2
            var u = [Bool](repeating: false, count: h * w)
            for i in 1..<(h - 1) {
                for j in 1..<(w - 1) { u[i * w + j] = unknown[2 * i * width + 2 * j] }
            }
            guard beyond.any else { return Grid(height: h, width: w, unknown: u) }
            var diagonal = [Double](repeating: 1, count: h * w)
            for i in 1..<(h - 1) {
                for j in 1..<(w - 1) where u[i * w + j] {
                    var d = 1.0
                    if beyond.north && i == 1 { d -= a }
                    if beyond.south && i == h - 2 { d -= a }
                    if beyond.west && j == 1 { d -= b }
                    if beyond.east && j == w - 2 { d -= b }
                    diagonal[i * w + j] = d
                }
            }
            return Grid(height: h, width: w, unknown: u, diagonal: diagonal)
        }

        /// Calls `body` with every unknown post's index.
        @inline(__always) func forEach(_ body: (Int) -> Void) {
            for k in red { body(Int(k)) }
            for k in black { body(Int(k)) }
        }

        /// Calls `body` with every unknown post's index and row.
        @inline(__always) func forEachWithRow(_ body: (Int, Int) -> Void) {
            var n = 0
            for k in red { body(Int(k), Int(rows[n])); n += 1 }
            for k in black { body(Int(k), Int(rows[n])); n += 1 }
        }
    }

    /// Which sides of the rectangle lie beyond the tile: its outer row or column there holds
    /// no terrain, only zeros that weigh nothing (``solve(_:unknown:diagonal:beyond:height:width:northSouth:eastWest:guess:tolerance:)``).
    struct Beyond: Equatable {
        var north = false, south = false, west = false, east = false
        var any: Bool { north || south || west || east }
    }

    /// Solves in place.
    /// - Parameters:
    ///   - values: `height × width` heights, row-major, metres; unknown posts' entries are
    ///     overwritten, known ones read.
    ///   - unknown: which posts to solve for; no post on the rectangle's border may be unknown.
    ///   - diagonal: for each post, the share of the neighbours' total weight that it has (1
    ///     inside the tile; less on its edge, where a missing neighbour's post holds 0): the
    ///     post is then the mean of the neighbours it has. Nil: all 1. The coarse grids,
    ///     which only precondition, build theirs from `beyond`.
    ///   - beyond: the sides whose outer row or column lies beyond the tile; the coarse grids
    ///     give the posts next to them the same share as `diagonal` gives the finest grid's.
    ///   - northSouth, eastWest: weight of each north–south and each east–west neighbour in the
    ///     mean (twice their sum is 1).
    ///   - guess: where the unknown posts start, metres.
    ///   - tolerance: the surface's largest error allowed, metres.
    static func solve(_ values: inout [Double], unknown: [Bool], diagonal: [Double]? = nil, beyond: Beyond = Beyond(), height: Int, width: Int,
                      northSouth a: Double, eastWest b: Double, guess: Double, tolerance: Double) {
        var grids = [Grid(height: height, width: width, unknown: unknown, diagonal: diagonal)]
        while let next = grids[grids.count - 1].coarser(beyond: beyond, northSouth: a, eastWest: b) { grids.append(next) }
        let g = grids[0]
        values.withUnsafeMutableBufferPointer { v in
            g.forEach { v[$0] = guess }
            if grids.count == 1 {
                // A small void: over-relaxed sweeps alone settle it quickly (the optimal factor
                // for a square as wide as the box). The error left is about the last change over
                // the share a sweep removes, a few times the change here.
                let omega = 2 / (1 + sin(Double.pi / Double(min(height, width) - 1)))
                for _ in 0..<(50 * (height + width)) where sweep(g, v, g.rhs, a, b, times: 1, omega: omega) < tolerance / 10 {
                    break
                }
                return
            }
            // Conjugate gradients on the unknown posts, each step preconditioned by one V-cycle:
            // the cycle alone stalls where the coarse grids miss a void's thin arms (about
            // halving the error a cycle); the conjugate directions make up for it.
            let n = height * width
            let r = UnsafeMutableBufferPointer<Double>.allocate(capacity: n); r.initialize(repeating: 0)
            let z = UnsafeMutableBufferPointer<Double>.allocate(capacity: n); z.initialize(repeating: 0)
            let p = UnsafeMutableBufferPointer<Double>.allocate(capacity: n); p.initialize(repeating: 0)
            let q = UnsafeMutableBufferPointer<Double>.allocate(capacity: n); q.initialize(repeating: 0)
            defer { r.deallocate(); z.deallocate(); p.deallocate(); q.deallocate() }
            let d = g.diagonal
            g.forEach { k in r[k] = a * (v[k - width] + v[k + width]) + b * (v[k - 1] + v[k + 1]) - d[k] * v[k] }
            cycle(grids[...], z, r, a, b)
            var rz = 0.0
            g.forEach { k in p[k] = z[k]; rz += r[k] * z[k] }
            for _ in 0..<maximumCycles {
                var pq = 0.0
                g.forEach { k in
                    q[k] = d[k] * p[k] - a * (p[k - width] + p[k + width]) - b * (p[k - 1] + p[k + 1])
                    pq += p[k] * q[k]
                }
                guard pq > 0 else { break }
                let alpha = rz / pq
                g.forEach { k in
                    v[k] += alpha * p[k]
                    r[k] -= alpha * q[k]
                }
                g.forEach { z[$0] = 0 }
                cycle(grids[...], z, r, a, b)
                var next = 0.0, estimate = 0.0
                g.forEach { k in
                    next += r[k] * z[k]
                    estimate = max(estimate, abs(z[k]))
                }
                // The cycle's answer to the residual is the error's estimate (the error the cycle
                // would leave is a fraction of it); added, it leaves the surface well within the
                // tolerance. Not the residual itself, the change a sweep would make: the error
                // of a smooth surface spanning the void is many times its residual, most of all
                // where the void reaches the tile's edge (1.5 mm errors under residuals of 0.1 mm).
                if estimate < tolerance / 2 {
                    g.forEach { v[$0] += z[$0] }
                    break
                }
                let beta = next / rz
                rz = next
                g.forEach { k in p[k] = z[k] + beta * p[k] }
            }
        }
    }

    /// Red–black Gauss–Seidel sweeps of `x − mean(neighbours) = f` over the unknown posts
    /// (black first when `backward`), each change times `omega`; answers the largest change of the last sweep.
    @discardableResult
    private static func sweep(_ g: Grid, _ x: UnsafeMutableBufferPointer<Double>, _ f: UnsafeMutableBufferPointer<Double>,
                              _ a: Double, _ b: Double, times: Int, backward: Bool = false, omega: Double = 1) -> Double {
        var largest = 0.0
        let width = g.width, inverse = g.inverse
        // The colours in turn without an array of them, which cost an allocation a sweep (a
        // small void takes dozens of sweeps, each of a few posts).
        @inline(__always) func relax(_ colour: UnsafeMutableBufferPointer<Int32>) {
            for k32 in colour {
                let k = Int(k32)
                let change = omega * ((f[k] + a * (x[k - width] + x[k + width]) + b * (x[k - 1] + x[k + 1])) * inverse[k] - x[k])
                largest = max(largest, abs(change))
                x[k] += change
            }
        }
        for _ in 0..<times {
            largest = 0
            relax(backward ? g.black : g.red)
            relax(backward ? g.red : g.black)
        }
        return largest
    }

    /// ``sweep(_:_:_:_:_:times:backward:omega:)`` without over-relaxation and without the
    /// largest change, which the cycles never read: the same arithmetic to the bit (a change
    /// times 1, a mean times an inverse weight of 1), in fewer instructions a post.
    private static func smooth(_ g: Grid, _ x: UnsafeMutableBufferPointer<Double>, _ f: UnsafeMutableBufferPointer<Double>,
                               _ a: Double, _ b: Double, times: Int, backward: Bool = false) {
        let width = g.width, inverse = g.inverse, unit = g.unitDiagonal
        @inline(__always) func relax(_ colour: UnsafeMutableBufferPointer<Int32>) {
            if unit {
                for k32 in colour {
                    let k = Int(k32)
                    x[k] += (f[k] + a * (x[k - width] + x[k + width]) + b * (x[k - 1] + x[k + 1])) - x[k]
                }
            } else {
                for k32 in colour {
                    let k = Int(k32)
                    x[k] += (f[k] + a * (x[k - width] + x[k + width]) + b * (x[k - 1] + x[k + 1])) * inverse[k] - x[k]
                }
            }
        }
        for _ in 0..<times {
            relax(backward ? g.black : g.red)
            relax(backward ? g.red : g.black)
        }
    }

    /// One V-cycle on the first grid of `grids` (the rest coarser ones) for `x − mean = f`,
    /// from `x` (zero on known posts).
    private static func cycle(_ grids: ArraySlice<Grid>, _ x: UnsafeMutableBufferPointer<Double>,
                              _ f: UnsafeMutableBufferPointer<Double>, _ a: Double, _ b: Double) {
        let g = grids[grids.startIndex]
        guard grids.count > 1 else {
            // The coarsest grid, a few dozen posts: symmetric sweeps (forward then backward, so
            // that the cycle stays a symmetric preconditioner).
            smooth(g, x, f, a, b, times: coarsest)
            smooth(g, x, f, a, b, times: coarsest, backward: true)
            return
        }
        smooth(g, x, f, a, b, times: smoothing)
        let width = g.width, residual = g.residual, d = g.diagonal
        g.forEach { k in residual[k] = f[k] + a * (x[k - width] + x[k + width]) + b * (x[k - 1] + x[k + 1]) - d[k] * x[k] }
        let c = grids[grids.startIndex + 1]
        // Full weighting, times four: the coarse operator is four times the fine one on smooth
        // surfaces (spacing doubled). With the bilinear interpolation below, its transpose.
        let cw = c.width
        c.forEachWithRow { k, i in
            let m = 2 * k + 2 * i * (width - cw)
            let edges = residual[m - 1] + residual[m + 1] + residual[m - width] + residual[m + width]
            let corners = residual[m - width - 1] + residual[m - width + 1] + residual[m + width - 1] + residual[m + width + 1]
            c.rhs[k] = residual[m] + 0.5 * edges + 0.25 * corners
            c.x[k] = 0
        }
        cycle(grids.dropFirst(), c.x, c.rhs, a, b)
        let cx = c.x
        g.forEachWithRow { k, r in
            let col = k - r * width
            let i = r >> 1, j = col >> 1, i2 = i + (r & 1), j2 = j + (col & 1)
            x[k] += 0.25 * (cx[i * cw + j] + cx[i * cw + j2] + cx[i2 * cw + j] + cx[i2 * cw + j2])
        }
        smooth(g, x, f, a, b, times: smoothing, backward: true)
    }
}
