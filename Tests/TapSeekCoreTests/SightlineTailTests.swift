import Foundation
import PropertyBased
import Testing
@testable import TapSeekCore

/// ``SightlineTail``'s closed forms against the ray `aim` walks (``RayPath``, exactly converted
/// points): the ray's height and ground track near the target, within half their margins.
struct SightlineTailTests {
    @Test func theTailsHeightAndTrackAreTheRays() async {
        let geoid = Geoid(grid: ElevationGrid(north: 90, west: -180, latitudeSpacing: 180, longitudeSpacing: 360, rows: 2, columns: 2,
                                              heights: [0, 0, 0, 0]))
        let worst = Locked((height: 0.0, track: 0.0))
        await propertyCheck(count: 2000, input: Gen.double(in: -70...70), Gen.double(in: 0..<360), Gen.double(in: 300...60_000),
                            Gen.double(in: -400...6000), Gen.double(in: -3000...3000), Gen.double(in: -1...1)) { lat, azimuth, distance, eyeHeight, rise, k in
            let eye = GeodeticPosition(latitude: lat, longitude: 179.9, height: eyeHeight)
            let frame = LocalFrame(origin: eye)
            let radius = Ellipsoid.wgs84.meanRadius(latitude: radians(lat))
            let offset = frame.ecefVector(fromENU: Vector3(distance * sin(radians(azimuth)), distance * cos(radians(azimuth)), 0))
            let ground = Ellipsoid.wgs84.geodetic(frame.originECEF + offset)
            let height = max(-400, eyeHeight + rise)
            let vertical = Ellipsoid.wgs84.vertical(latitude: ground.latitude, longitude: ground.longitude)
            let v = frame.enu(ofECEF: vertical.point(height: height))
            let run = (v.x * v.x + v.y * v.y).squareRoot()
            let sight = TargetSight(eye: eye, frame: frame, radius: radius, above: vertical, height: height, refraction: k)
            let tail = SightlineTail(frame: frame, target: vertical, latitude: ground.latitude, longitude: ground.longitude,
                                     height: height, run: run, refraction: k, radius: radius)
            #expect(abs(tail.reach - sight.reach) < 1e-3 && abs(tail.tolerance - sight.tolerance) < 1e-6)
            var path = RayPath(eye: eye, direction: sight.direction, geoid: geoid, refraction: k, frame: frame, longitudeByArctangent: true)
            let drift = Viewshed.trackDrift(latitude: abs(lat) + distance / 110_000)
            var l = tail.tolerance
            while l <= min(SightlineTail.longest, sight.reach - 1) {
                let exact = path.point(at: sight.reach - l)
                let heightError = abs(exact.height - (height + tail.rise(l))) / tail.heightMargin(back: l)
                let modelled = tail.groundPoint(back: l)
                let north = (exact.latitude - modelled.latitude) * .pi / 180 * 6.36e6
                var dLon = exact.longitude - modelled.longitude
                dLon -= 360 * (dLon / 360).rounded()
                let east = dLon * .pi / 180 * 6.39e6 * cos(radians(exact.latitude))
                let trackError = (north * north + east * east).squareRoot() / tail.pad(back: l, drift: drift)
                worst.withLock { $0 = (max($0.height, heightError), max($0.track, trackError)) }
                #expect(heightError < 0.5, "height off by \(heightError) of the margin at \(l) m")
                #expect(trackError < 0.5, "track off by \(trackError) of the pad at \(l) m")
                l += 97
            }
        }
        let seen = worst.withLock { $0 }
        print("sightline tail: worst height error \(seen.height) of the margin, track \(seen.track) of the pad")
    }

    /// The geoid's steepest gradient over a window (the tails' bound on how far the undulation
    /// moves along a stretch) bounds its change between any two points of the window, and is no
    /// more than the whole grid's: a rough random geoid of 1° cells.
    @Test func theGeoidsSlopeOverAWindowBoundsItsChangeThere() async {
        var generator = SystemRandomNumberGenerator()
        let heights = (0..<(181 * 361)).map { _ in Float.random(in: -100...100, using: &generator) }
        let geoid = Geoid(grid: ElevationGrid(north: 90, west: -180, latitudeSpacing: 1, longitudeSpacing: 1, rows: 181, columns: 361,
                                              heights: heights))
        await propertyCheck(count: 300, input: Gen.double(in: -80...80), Gen.double(in: -200...200), Gen.double(in: 0.01...2),
                            Gen.double(in: 0...1), Gen.double(in: 0...1), Gen.double(in: 0...1), Gen.double(in: 0...1)) { lat, lon, size, a, b, c, d in
            let south = lat - size / 2, north = lat + size / 2
            let west = lon - size, east = lon + size
            let slope = geoid.steepestGradient(south: south, north: north, west: west, east: east)
            #expect(slope <= geoid.steepestGradient * (1 + 1e-9))
            let p = (south + a * (north - south), west + b * (east - west)), q = (south + c * (north - south), west + d * (east - west))
            // The ground distance between them, at most (the larger radius, the wider parallel).
            let dy = (p.0 - q.0) * .pi / 180 * 6.4e6
            let dx = (p.1 - q.1) * .pi / 180 * 6.4e6 * cos(radians(south < 0 && north > 0 ? 0 : min(abs(south), abs(north))))
            let change = abs(geoid.undulation(latitude: p.0, longitude: p.1) - geoid.undulation(latitude: q.0, longitude: q.1))
            #expect(change <= slope * (dx * dx + dy * dy).squareRoot() * 1.01 + 1e-9, "\(change) m over \(p), \(q)")
        }
    }
}
