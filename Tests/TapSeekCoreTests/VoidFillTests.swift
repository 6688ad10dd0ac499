import Foundation
import Testing
@testable import TapSeekCore

/// Void filling against closed-form truth: a tilted plane with a hole in it. A plane is linear
/// in the posts' ground coordinates, so the discrete Laplace fill must give it back to
/// rounding; a ray through the hole must then hit where the plane says.
struct VoidFillTests {
    static let north = 46.5, west = 8.0, spacing = 1.0 / 1200
    static let rows = 121, columns = 121

    /// The plane: 2 000 m at the north-west post, rising 0.9 m a row southward and 0.35 m a
    /// column eastward (slopes of 1 % and 0.5 % at 3″).
    static func plane(latitude: Double, longitude: Double) -> Double {
        2000 + 0.9 * (north - latitude) / spacing + 0.35 * (longitude - west) / spacing
    }

    /// The plane's posts, with the posts for which `hole(row, column)` holds made voids.
    static func grid(hole: (Int, Int) -> Bool) -> ElevationGrid {
        var heights = [Float](repeating: 0, count: rows * columns)
        for r in 0..<rows {
            for c in 0..<columns {
                heights[r * columns + c] = hole(r, c) ? .nan
                    : Float(plane(latitude: north - Double(r) * spacing, longitude: west + Double(c) * spacing))
            }
        }
        return ElevationGrid(north: north, west: west, latitudeSpacing: spacing, longitudeSpacing: spacing,
                             rows: rows, columns: columns, heights: heights)
    }

    /// An irregular hole: a disc of radius 12 posts with a slot cut from it, about 1 km across.
    static func hole(_ r: Int, _ c: Int) -> Bool {
        let dr = Double(r - 60), dc = Double(c - 55)
        return dr * dr + dc * dc <= 144 || (r >= 58 && r <= 61 && c >= 55 && c <= 80)
    }

    @Test func fillOfAHoleInAPlaneIsThePlane() throws {
        let holed = Self.grid(hole: Self.hole)
        #expect(holed.voidFraction > 0)
        let filled = holed.fillingVoids()
        #expect(filled.voidFraction == 0)
        let mask = try #require(filled.filled)
        var holePosts = 0, worst = 0.0
        for r in 0..<Self.rows {
            for c in 0..<Self.columns {
                let i = r * Self.columns + c
                #expect(mask.contains(i) == Self.hole(r, c))
                guard Self.hole(r, c) else { continue }
                holePosts += 1
                let truth = Self.plane(latitude: Self.north - Double(r) * Self.spacing, longitude: Self.west + Double(c) * Self.spacing)
                worst = max(worst, abs(Double(filled.heights[i]) - truth))
            }
        }
        #expect(mask.count == holePosts)
        #expect(abs(filled.filledFraction - Double(holePosts) / Double(Self.rows * Self.columns)) < 1e-12)
        // Float heights of ~2 100 m hold 0.12 mm steps; the solver stops at 0.1 mm changes.
        #expect(worst < 0.01, "largest error \(worst) m")
        // The pyramid is built from the filled heights: its top is the grid's highest post.
        #expect(filled.pyramid.maximum(level: filled.pyramid.levels - 1, row: 0, column: 0) == filled.maximumHeight)
        #expect(!filled.pyramid.hasVoid(level: filled.pyramid.levels - 1, row: 0, column: 0))
    }

    @Test func filledPointsAreMarkedAndKnownOnesAreNot() {
        let filled = Self.grid(hole: Self.hole).fillingVoids()
        #expect(filled.isFilled(latitude: Self.north - 60.5 * Self.spacing, longitude: Self.west + 55.5 * Self.spacing))
        #expect(!filled.isFilled(latitude: Self.north - 10.5 * Self.spacing, longitude: Self.west + 10.5 * Self.spacing))
        // On a known post beside the hole, the filled neighbour has no weight.
        #expect(!filled.isFilled(latitude: Self.north - 60 * Self.spacing, longitude: Self.west + 42 * Self.spacing))
    }

    /// A hole 41 posts across at 3″ has posts 1.9 km from known ground north–south but only
    /// 1.3 km east–west at 46.5°: filled. One 81 posts across (3.7 km from the rim) is not:
    /// it stays a void, and the grid says so.
    @Test func voidsFartherThanTheReachFromKnownTerrainStayUnknown() {
        let small = Self.grid { r, c in abs(r - 60) <= 20 && abs(c - 60) <= 20 }.fillingVoids()
        #expect(small.voidFraction == 0 && small.filled != nil)
        let large = Self.grid { r, c in abs(r - 60) <= 40 && abs(c - 60) <= 59 }.fillingVoids()
        #expect(large.filled == nil && large.voidFraction > 0.4)
    }

    @Test func aMaskCountsItsPostsInAnyRangeAsOneByOneWould() {
        // Word boundaries, single words, empty ranges and the last partial word.
        var mask = PostMask(count: 200)
        for i in [0, 1, 62, 63, 64, 100, 127, 128, 129, 190, 199] { mask.insert(i) }
        for lower in [0, 1, 5, 63, 64, 65, 127, 128, 150, 199, 200] {
            for upper in [lower, lower + 1, 64, 120, 128, 129, 191, 200] where upper >= lower && upper <= 200 {
                let expected = (lower..<upper).filter { mask.contains($0) }.count
                #expect(mask.count(in: lower..<upper) == expected, "\(lower)..<\(upper)")
            }
        }
    }

    @Test func aGridWithoutVoidsIsLeftAsItIs() {
        let whole = Self.grid { _, _ in false }
        let same = whole.fillingVoids()
        #expect(same.filled == nil && same.heights == whole.heights && same.filledFraction == 0)
    }

    /// A ray aimed into the hole: with the hole unfilled it meets the void and the march says
    /// the terrain is unknown; filled, it hits the plane, on the plane's own height and on the
    /// ray, exactly where the march over the intact plane hits.
    @Test func rayThroughAFilledHoleHitsWhereThePlaneSays() throws {
        let intact = Self.grid { _, _ in false }
        let holed = Self.grid(hole: Self.hole)
        let filled = holed.fillingVoids()
        // From 2 km north of the hole's centre, 300 m above the plane there, 8° down toward it.
        let latitude = Self.north - 60 * Self.spacing + 0.018, longitude = Self.west + 55 * Self.spacing
        let eyeMSL = Self.plane(latitude: latitude, longitude: longitude) + 300
        func march(_ grid: ElevationGrid) -> SightlineMarch.Result {
            SightlineMarchTests.march(latitude: latitude, longitude: longitude, eyeMSL: eyeMSL, azimuth: 180, elevation: -8, over: grid)
        }
        let truth = march(intact), onFill = march(filled), unknown = march(holed)
        #expect(truth.outcome == .hit && onFill.outcome == .hit)
        #expect(filled.isFilled(latitude: onFill.latitude, longitude: onFill.longitude), "the hit lies in the hole")
        #expect(abs(onFill.elevation - Self.plane(latitude: onFill.latitude, longitude: onFill.longitude)) < 0.01)
        #expect(abs(onFill.slantRange - truth.slantRange) < 0.02, "\(onFill.slantRange) vs \(truth.slantRange)")
        #expect(onFill.filledTerrain?.targetOnFilled == true)
        #expect(unknown.outcome == .terrainUnknown, "\(unknown.outcome) at \(unknown.elevation) m")
        #expect(unknown.unknownStretch != nil)
    }
}
