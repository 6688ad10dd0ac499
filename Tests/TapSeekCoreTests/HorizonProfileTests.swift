import Foundation
import Testing
@testable import TapSeekCore

/// The running horizon of a level ray, as a viewshed reads it.
struct HorizonProfileTests {
    static let flatGeoid = Geoid(grid: ElevationGrid(north: 90, west: -180, latitudeSpacing: 180, longitudeSpacing: 360,
                                                     rows: 2, columns: 2, heights: [0, 0, 0, 0], boundsTerrain: false))

    /// A 3″ grid of 601 × 601 posts from 30.25° N, 10° E, each post's height from its metres east
    /// and south of the north-west corner.
    static func terrain(_ height: (_ east: Double, _ south: Double) -> Double) -> ElevationGrid {
        let n = 601, spacing = 1.0 / 1200
        let heights = (0..<(n * n)).map { i in Float(height(Double(i % n) * 80, Double(i / n) * 92.6)) }
        return ElevationGrid(north: 30.25, west: 10, latitudeSpacing: spacing, longitudeSpacing: spacing, rows: n, columns: n, heights: heights)
    }

    /// Rough hills that raise the horizon often.
    static let hills = terrain { x, y in
        500 + 250 * sin(x / 2100) * cos(y / 1700) + 60 * sin((x + y) / 430) + 25 * cos(x / 170 - y / 260)
    }

    /// A geoid of 15′ cells that tilts and bends by metres across each, more than EGM96 does.
    static let rollingGeoid: Geoid = {
        let n = 13
        let heights = (0..<(n * n)).map { i -> Float in
            let r = Double(i / n), c = Double(i % n)
            return Float(45 + 6 * sin(r * 1.3) * cos(c * 0.9) + 0.8 * r - 0.5 * c)
        }
        return Geoid(grid: ElevationGrid(north: 31.5, west: 8.75, latitudeSpacing: 0.25, longitudeSpacing: 0.25, rows: n, columns: n,
                                         heights: heights, boundsTerrain: false))
    }()

    /// A lake at 395 m, with hollows below it here and there (rough land, 380–394 m).
    static let lake = terrain { x, y in
        sin(x / 900) * cos(y / 700) + 0.3 * sin((x - y) / 310) > 0.7 ? 380 + 14 * abs(sin(x / 47 + y / 63)) : 395
    }

    /// Over a lake seen from 100 m above it, the horizon at d is the water's own tangent there,
    /// (395 + N − h_eye − c·d²)/d, N looked up at the ray's point: nearer water shows a lower
    /// tangent (it rises with distance this far out), and the hollows lower ones still. Its flat
    /// blocks are taken whole, across the geoid's cells (the eye sits near their corner), and the
    /// rises are far fewer than the cells crossed.
    @Test(arguments: [0.0, 61.0, 150.0, 222.0, 290.0])
    func overALakeTheHorizonIsTheWatersTangent(azimuth: Double) {
        var terrain = Self.lake
        let geoid = Self.rollingGeoid, refraction = 0.13, range = 20_000.0
        let start = GeodeticPosition(latitude: 30.02, longitude: 10.23, height: 0)
        let eye = GeodeticPosition(latitude: start.latitude, longitude: start.longitude,
                                   height: 495 + geoid.undulation(latitude: start.latitude, longitude: start.longitude))
        var scratch: [HorizonProfile.Rise] = []
        let profile = HorizonProfile.walk(azimuth: azimuth, eye: eye, geoid: geoid, refraction: refraction, range: range,
                                          scratch: &scratch, over: &terrain)
        var path = RayPath(eye: eye, direction: ViewDirection(azimuth: azimuth, elevation: 0).enu, geoid: geoid, refraction: refraction,
                           segmentLength: RayPath.skylineSegment)
        let curvature = (1 - refraction) / (2 * path.radius)
        var checked = 0, worst = 0.0
        for k in 1...4000 {
            let d = Double(k) * 5
            let p = path.point(at: d)
            let r = (Self.lake.north - p.latitude) / Self.lake.latitudeSpacing, c = (p.longitude - Self.lake.west) / Self.lake.longitudeSpacing
            guard r >= 0, c >= 0, r < Double(Self.lake.rows - 1), c < Double(Self.lake.columns - 1) else { break }
            let corners = [(0, 0), (0, 1), (1, 0), (1, 1)].map { Self.lake.post(row: Int(r) + $0.0, column: Int(c) + $0.1) }
            guard corners.allSatisfy({ $0 == 395 }) else { continue }
            let water = (395 + geoid.undulation(latitude: p.latitude, longitude: p.longitude) - eye.height - curvature * d * d) / d
            worst = max(worst, abs(profile.horizon(at: d) - water) * d)
            checked += 1
        }
        #expect(checked > 1500)
        // Within 0.1 mm of height at its distance.
        #expect(worst < 1e-4, "the horizon strays by \(worst) m of height")
        // Cells crossed: the track's run across the columns (80 m apart) and the rows (92.6 m).
        let crossed = range * (abs(sin(radians(azimuth))) / 80 + abs(cos(radians(azimuth))) / 92.6)
        #expect(Double(profile.rises.count) * 3 < crossed, "\(profile.rises.count) rises, \(crossed) cells crossed")
    }

    /// ``HorizonProfile/horizon(at:)`` through its index says what counting the rises before d
    /// one by one says: at random distances, at every rise's start and end and at every entry's
    /// distance of the index, with the doubles either side of them, and beyond the walk.
    @Test(arguments: [0.0, 47.0, 133.0, 251.0, 300.0])
    func horizonThroughTheIndexIsTheRunningMaximum(azimuth: Double) {
        var terrain = Self.hills
        let eye = GeodeticPosition(latitude: 30.0, longitude: 10.25, height: 900)
        var scratch: [HorizonProfile.Rise] = []
        let profile = HorizonProfile.walk(azimuth: azimuth, eye: eye, geoid: Self.flatGeoid, refraction: 0.13, range: 20_000,
                                          scratch: &scratch, over: &terrain)
        #expect(profile.rises.count > 5)
        func counted(_ d: Double) -> Double {
            guard let rise = profile.rises.last(where: { $0.start <= d }) else { return -.infinity }
            return d >= rise.end ? rise.after : max(rise.before, rise.highest(upTo: d))
        }
        var distances = (0..<2000).map { _ in Double.random(in: -100...21_000) } + [0, 20_000, 20_100, 1e9]
        for rise in profile.rises {
            for d in [rise.start, rise.end] { distances += [d.nextDown, d, d.nextUp] }
        }
        #expect(profile.startsBefore.count > 100)
        for k in profile.startsBefore.indices {
            let d = Double(k) / profile.entriesPerMetre
            distances += [d.nextDown, d, d.nextUp]
        }
        for d in distances {
            let a = profile.horizon(at: d), b = counted(d)
            #expect(a == b || (a.isNaN && b.isNaN), "at \(d) m: \(a) against \(b)")
        }
    }
}
