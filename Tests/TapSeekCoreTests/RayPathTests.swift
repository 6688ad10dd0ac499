import Foundation
import PropertyBased
import Testing
@testable import TapSeekCore
import TapSeekTestSupport

/// The ray's piecewise-quadratic model against exact conversions of the ECEF line, and the
/// quadratic root finder the cell walk relies on.
struct RayPathTests {
    /// Anywhere on Earth, any direction, 0–60 km above the lowest land: with sightline segments
    /// the model's ground point stays within 1 mm of the exact one (0.3 mm is reached at 66°)
    /// and its height within 0.2 mm, refraction included; with the skyline's 20 km segments,
    /// 64 times that (the error grows as the cube of the length).
    @Test(arguments: [(RayPath.sightlineSegment, 1e-3, 2e-4), (RayPath.skylineSegment, 0.064, 0.013)])
    func modelStaysCloseToTheExactRay(segment: (length: Double, ground: Double, height: Double)) async {
        await propertyCheck(count: 2000, input: Gen.double(in: -70...70), Gen.double(in: -180...180), Gen.double(in: 0..<360),
                            Gen.double(in: -30...30), Gen.double(in: -400...8000), Gen.double(in: 0...60_000)) { lat, lon, azimuth, elevation, height, s in
            let eye = GeodeticPosition(latitude: lat, longitude: lon, height: height)
            let error = Self.modelError(eye: eye, azimuth: azimuth, elevation: elevation, segmentLength: segment.length, at: s)
            guard error.exact.height > -500 else { return }
            #expect(error.ground < segment.ground, "ground off by \(error.ground) m at \(s) m")
            #expect(abs(error.height) < segment.height, "height off by \(error.height) m")
        }
    }

    /// Per metre of horizontal run, the modelled ground tracks of a level ray (20 km segments)
    /// and of a sightline (5 km) stray from the exact ray's by 0.9 and 0.1 of
    /// `Viewshed.trackDrift(latitude:)` at most, and their heights by 10⁻⁷ each: what a
    /// viewshed's bounds allow for the models (`Viewshed.Sweep.Margin`), from the equator to
    /// 85°, where the longitude's quadratic errs most (2.3·10⁻⁴ a metre for a level ray).
    @Test func modelledTracksStrayWithinTheViewshedsAllowance() async {
        await propertyCheck(count: 3000, input: Gen.double(in: -85...85), Gen.double(in: -180...180), Gen.double(in: 0..<360),
                            Gen.double(in: -30...30), Gen.double(in: -400...9000), Gen.double(in: 1...60_000)) { lat, lon, azimuth, elevation, height, s in
            let eye = GeodeticPosition(latitude: lat, longitude: lon, height: height)
            for (length, pitch, share) in [(RayPath.skylineSegment, 0.0, 0.9), (RayPath.sightlineSegment, elevation, 0.1)] {
                let error = Self.modelError(eye: eye, azimuth: azimuth, elevation: pitch, segmentLength: length, at: s)
                let horizontal = s * cos(pitch * .pi / 180)
                let allowance = Viewshed.trackDrift(latitude: max(abs(lat), abs(error.exact.latitude)))
                #expect(error.ground / horizontal <= share * allowance,
                        "\(length) m segments from \(lat)°: track off by \(error.ground / horizontal) a metre at \(s) m")
                #expect(abs(error.height) <= 1e-7 * horizontal, "\(length) m segments from \(lat)°: height off by \(error.height) m at \(s) m")
            }
        }
    }

    /// How far the model's point at slant distance s lies from the exact ray's, on the ground and
    /// in height (refraction's drop, k = 0.13, taken off the exact line's), the geoid flat.
    static func modelError(eye: GeodeticPosition, azimuth: Double, elevation: Double, segmentLength: Double, at s: Double)
        -> (ground: Double, height: Double, exact: GeodeticPosition) {
        let geoid = Geoid(grid: ElevationGrid(north: 90, west: -180, latitudeSpacing: 180, longitudeSpacing: 360, rows: 2, columns: 2,
                                              heights: [0, 0, 0, 0]))
        let direction = ViewDirection(azimuth: azimuth, elevation: elevation).enu
        var path = RayPath(eye: eye, direction: direction, geoid: geoid, refraction: 0.13, segmentLength: segmentLength)
        let model = path.point(at: s)
        let frame = LocalFrame(origin: eye)
        let exact = Ellipsoid.wgs84.geodetic(frame.originECEF + s * frame.ecefVector(fromENU: direction))
        let radius = SyntheticTerrain.Truth.meanRadius(eye.latitude)
        let horizontal = s * cos(elevation * .pi / 180)
        let drop = 0.13 * horizontal * horizontal / (2 * radius)
        let north = (model.latitude - exact.latitude) * .pi / 180 * SyntheticTerrain.Truth.meridianRadius(eye.latitude)
        var dLon = model.longitude - exact.longitude
        dLon -= 360 * (dLon / 360).rounded()
        let east = dLon * .pi / 180 * SyntheticTerrain.Truth.primeVerticalRadius(exact.latitude) * cos(exact.latitude * .pi / 180)
        return ((north * north + east * east).squareRoot(), model.height - (exact.height - drop), exact)
    }

    /// The track and the skyline's seeds read ground points from the segments in place
    /// (``RayPath/appendGroundTrack(every:below:to:)``, ``RayPath/groundPoint(at:)``): every point
    /// must be ``RayPath/point(at:)``'s to the bit, across segment ends and the antimeridian,
    /// and the track must hold exactly the points k·500 m short of its end.
    @Test func theTrackAndGroundPointsAreTheRaysPointsToTheBit() async {
        let geoid = Geoid(grid: ElevationGrid(north: 90, west: -180, latitudeSpacing: 180, longitudeSpacing: 360, rows: 2, columns: 2,
                                              heights: [0, 0, 0, 0]))
        await propertyCheck(count: 300, input: Gen.double(in: -70...70), Gen.double(in: 170...190), Gen.double(in: 0..<360),
                            Gen.double(in: -10...30), Gen.double(in: 0...60_000)) { lat, lon, azimuth, elevation, s in
            let eye = GeodeticPosition(latitude: lat, longitude: normalizedLongitude(lon), height: 2000)
            let direction = ViewDirection(azimuth: azimuth, elevation: elevation).enu
            var reference = RayPath(eye: eye, direction: direction, geoid: geoid, refraction: 0.13)
            var tracked = reference, probed = reference
            var track: [Polyline.Coordinate] = []
            tracked.appendGroundTrack(every: 500, below: s, to: &track)
            var k = 1
            while Double(k) * 500 < s {
                let p = reference.point(at: Double(k) * 500)
                let g = probed.groundPoint(at: Double(k) * 500)
                #expect(g.latitude.bitPattern == p.latitude.bitPattern && g.longitude.bitPattern == p.longitude.bitPattern)
                guard k <= track.count else { break }
                #expect(track[k - 1].latitude.bitPattern == p.latitude.bitPattern)
                #expect(track[k - 1].longitude.bitPattern == normalizedLongitude(p.longitude).bitPattern)
                k += 1
            }
            #expect(track.count == k - 1, "\(track.count) points for a track of \(s) m")
        }
    }

    /// ``smallest(_:_:_:)`` and ``largest(_:_:_:)`` stand in for the standard library's
    /// three-argument `min` and `max` in the walk: the same bits for every order of equal,
    /// signed-zero, infinite and NaN arguments.
    @Test func threeWayMinimumAndMaximumAreTheStandardLibrarys() {
        let values: [Double] = [-.infinity, -2, -0.0, 0, 1e-300, 3, .infinity, .nan]
        for x in values { for y in values { for z in values {
            #expect(smallest(x, y, z).bitPattern == Swift.min(x, y, z).bitPattern, "min(\(x), \(y), \(z))")
            #expect(largest(x, y, z).bitPattern == Swift.max(x, y, z).bitPattern, "max(\(x), \(y), \(z))")
        } } }
    }

    @Test func firstCrossingFindsTheNearerRootAhead() {
        // (u − 2)(u − 5) = u² − 7u + 10
        let q = Quadratic(a: 1, b: -7, c: 10)
        #expect(abs(q.firstCrossing(of: 0, after: 0, limit: 10) - 2) < 1e-12)
        #expect(abs(q.firstCrossing(of: 0, after: 2.5, limit: 10) - 5) < 1e-12)
        #expect(q.firstCrossing(of: 0, after: 5.5, limit: 10) == .infinity)
        #expect(q.firstCrossing(of: -10, after: 0, limit: 10) == .infinity)   // below its minimum
        // A nearly straight track: tiny curvature, the root of the line to 1e-12.
        let line = Quadratic(a: 1e-12, b: 0.01, c: 3)
        #expect(abs(line.firstCrossing(of: 4, after: 0, limit: 1000) - 100) < 1e-6)
        #expect(abs(Quadratic(a: 0, b: -2, c: 1).firstCrossing(of: 0, after: 0, limit: 1) - 0.5) < 1e-15)
    }

    @Test func firstContactIsTheFirstRootOrNone() throws {
        let level = Quadratic(a: 0, b: 0, c: 0)
        // Ray 1 m up, descending 2 m across the cell over level terrain: contact at w = 0.5.
        #expect(try #require(FirstHit.firstContact(Quadratic(a: 0, b: -2, c: 1), above: level)) == 0.5)
        // A dip that reaches 1 cm below within the cell: contact before the dip's bottom.
        let dip = try #require(FirstHit.firstContact(Quadratic(a: 4, b: -4, c: 0.99), above: level))
        #expect(dip > 0 && dip < 0.5)
        // A dip that stays 1 cm above: none.
        #expect(FirstHit.firstContact(Quadratic(a: 4, b: -4, c: 1.01), above: level) == nil)
        // Below at entry (after a void): contact at once.
        #expect(FirstHit.firstContact(Quadratic(a: 0, b: 0, c: -1), above: level) == 0)
    }
}
