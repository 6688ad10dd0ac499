import Foundation
import Testing
import TapSeekTestSupport
@testable import TapSeekCore

/// The multigrid fill (``DenseLaplace``) reaches the surface that over-relaxed sweeps converge
/// to, on the real voids of N46E008 (3 286 voids, the largest 6 619 posts, some winding, some
/// holding other voids inside their box, 16 reaching the tile's edge, one of them 386 posts,
/// whose edge posts are the mean of the three neighbours they have), and on a void wider than
/// any there.
struct MultigridVoidFillTests {
    static let tile = SharedData.dem.appendingPathComponent("N46E008.tif")

    /// The largest difference between two fills, metres, over the filled posts.
    static func largestDifference(_ a: [Float], _ b: [Float], mask: PostMask) -> Double {
        var largest = 0.0
        for i in a.indices where mask.contains(i) { largest = max(largest, abs(Double(a[i]) - Double(b[i]))) }
        return largest
    }

    @Test(.enabled(if: SharedData.available(SharedData.dem), "needs ../shared/dem"))
    func realVoidsAreFilledWithTheConvergedSurfaceWithinTheTolerance() throws {
        try #require(SharedData.exists(Self.tile), Comment(rawValue: SharedData.missing(Self.tile)))
        let grid = try GeoTIFFTile.readGrid(path: Self.tile.path)
        let rowSpacing = grid.latitudeSpacing * VoidFill.metresPerDegree
        let columnSpacing = grid.longitudeSpacing * VoidFill.metresPerDegree * cos((grid.north + grid.south) / 2 * .pi / 180)
        var multigrid = grid.heights, converged = grid.heights
        let mask = try #require(VoidFill.fill(&multigrid, rows: grid.rows, columns: grid.columns,
                                              rowSpacing: rowSpacing, columnSpacing: columnSpacing))
        // The sweeps to a change of a two-thousandth of a millimetre: their fixed point to well
        // under the millimetre. (Before this fill, the sweeps stopped at a change of 1 mm and
        // left errors of up to 15 mm.)
        let sweptMask = try #require(VoidFill.fill(&converged, rows: grid.rows, columns: grid.columns, rowSpacing: rowSpacing,
                                                   columnSpacing: columnSpacing, coarseToFine: false, tolerance: 1e-5))
        #expect(mask == sweptMask)
        #expect(mask.count > 100_000)
        let largest = Self.largestDifference(multigrid, converged, mask: mask)
        #expect(largest < VoidFill.tolerance, "largest difference \(largest) m")
    }

    /// A window of the tile cut as `scripts/bench-terrains.sh` cuts its valley window (rows
    /// 102–772, columns 226–1199 of the 3″ tile around Andermatt): its three largest voids
    /// (4 987, 3 281 and 2 995 posts) run into the window's edge, where the posts take the
    /// mean of the neighbours they have and the coarse grids must do likewise
    /// (``DenseLaplace/Beyond``). The fill there is the sweeps' converged surface within the
    /// tolerance, as inside (stopped on the residual instead of the error's estimate, the
    /// fill with those coarse grids left 1.3 mm there).
    @Test(.enabled(if: SharedData.available(SharedData.dem), "needs ../shared/dem"))
    func voidsCutByTheGridsEdgeAreFilledWithTheConvergedSurfaceWithinTheTolerance() throws {
        try #require(SharedData.exists(Self.tile), Comment(rawValue: SharedData.missing(Self.tile)))
        let grid = try GeoTIFFTile.readGrid(path: Self.tile.path)
        let top = 102, left = 226, rows = 671, columns = 974
        var window = [Float](repeating: 0, count: rows * columns)
        for r in 0..<rows {
            for c in 0..<columns { window[r * columns + c] = grid.heights[(top + r) * grid.columns + left + c] }
        }
        let rowSpacing = grid.latitudeSpacing * VoidFill.metresPerDegree
        let columnSpacing = grid.longitudeSpacing * VoidFill.metresPerDegree * cos((grid.north + grid.south) / 2 * .pi / 180)
        // The voids reaching the window's edge, and the posts they hold.
        var edgePosts = 0
        var seen = Set<Int>()
        for i in window.indices where window[i].isNaN && !seen.contains(i) {
            var stack = [i], component = 0, edge = false
            seen.insert(i)
            while let j = stack.popLast() {
                component += 1
                let r = j / columns, c = j % columns
                if r == 0 || c == 0 || r == rows - 1 || c == columns - 1 { edge = true }
                for (k, ok) in [(j - columns, r > 0), (j + columns, r < rows - 1), (j - 1, c > 0), (j + 1, c < columns - 1)]
                where ok && window[k].isNaN && !seen.contains(k) {
                    seen.insert(k); stack.append(k)
                }
            }
            if edge { edgePosts += component }
        }
        #expect(edgePosts > 10_000, "posts of voids on the window's edge: \(edgePosts)")
        var multigrid = window, converged = window
        let mask = try #require(VoidFill.fill(&multigrid, rows: rows, columns: columns,
                                              rowSpacing: rowSpacing, columnSpacing: columnSpacing))
        let sweptMask = try #require(VoidFill.fill(&converged, rows: rows, columns: columns, rowSpacing: rowSpacing,
                                                   columnSpacing: columnSpacing, coarseToFine: false, tolerance: 1e-5))
        #expect(mask == sweptMask)
        let largest = Self.largestDifference(multigrid, converged, mask: mask)
        #expect(largest < VoidFill.tolerance, "largest difference \(largest) m")
    }

    /// A void 60 posts deep and 150 wide against the grid's north edge, and a band across the
    /// grid from its north edge to its south edge, in a plane rising eastward (2 m a post): a
    /// surface level across the edge, so the edge posts' mean of the neighbours they have
    /// holds it, and the fill must give the plane back.
    @Test func voidsOnTheGridsEdgeInAPlaneLevelAcrossTheEdgeAreFilledWithThePlane() throws {
        let rows = 121, columns = 241, spacing = 60.0
        func z(_ c: Int) -> Double { 800 + 2 * Double(c) }
        var heights = [Float](repeating: 0, count: rows * columns)
        for r in 0..<rows {
            for c in 0..<columns {
                let northVoid = r < 60 && (20..<170).contains(c)
                let band = (190..<230).contains(c)
                heights[r * columns + c] = northVoid || band ? .nan : Float(z(c))
            }
        }
        let mask = try #require(VoidFill.fill(&heights, rows: rows, columns: columns, rowSpacing: spacing,
                                              columnSpacing: spacing, reach: 10_000))
        #expect(mask.count == 60 * 150 + 40 * rows)
        var largest = 0.0
        for r in 0..<rows {
            for c in 0..<columns where mask.contains(r * columns + c) {
                largest = max(largest, abs(Double(heights[r * columns + c]) - z(c)))
            }
        }
        #expect(largest < VoidFill.tolerance, "largest error \(largest) m")
    }

    /// A disc 120 posts across (9 km at 3″ spacing north–south) in a saddle-shaped surface
    /// z = x² − y² (harmonic, so the fill must give it back up to the discretisation, which is
    /// exact for quadratics), with a known island inside it.
    @Test func aWideVoidInAHarmonicSurfaceIsFilledWithTheSurface() throws {
        let rows = 161, columns = 161, spacing = 50.0
        func z(_ r: Int, _ c: Int) -> Double {
            let x = Double(c - 80) * spacing, y = Double(r - 80) * spacing
            return 1500 + (x * x - y * y) / 20_000
        }
        var heights = [Float](repeating: 0, count: rows * columns)
        var truth = [Double](repeating: 0, count: rows * columns)
        for r in 0..<rows {
            for c in 0..<columns {
                truth[r * columns + c] = z(r, c)
                let dr = Double(r - 80), dc = Double(c - 80)
                let inDisc = dr * dr + dc * dc <= 60 * 60
                let island = abs(dr - 20) <= 3 && abs(dc + 10) <= 3
                heights[r * columns + c] = inDisc && !island ? .nan : Float(z(r, c))
            }
        }
        let mask = try #require(VoidFill.fill(&heights, rows: rows, columns: columns, rowSpacing: spacing,
                                              columnSpacing: spacing, reach: 10_000))
        #expect(mask.count > 11_000)
        var largest = 0.0
        for i in heights.indices where mask.contains(i) {
            largest = max(largest, abs(Double(heights[i]) - truth[i]))
        }
        // Float storage of ~1 500 m heights rounds to 0.1 mm.
        #expect(largest < VoidFill.tolerance, "largest error \(largest) m")
    }
}
