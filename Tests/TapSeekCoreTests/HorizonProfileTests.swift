import Foundation
import Testing
@testable import TapSeekCore

/// The running horizon of a level ray, as a viewshed reads it.
struct HorizonProfileTests {
    static let flatGeoid = Geoid(grid: ElevationGrid(north: 90, west: -180, latitudeSpacing: 180, longitudeSpacing: 360,
                                                     rows: 2, columns: 2, heights: [0, 0, 0, 0], boundsTerrain: false))

    /// Rough hills at 3″ that raise the horizon often.
    static let hills: ElevationGrid = {
        let n = 601, spacing = 1.0 / 1200
        var heights = [Float](repeating: 0, count: n * n)
        for r in 0..<n {
            for c in 0..<n {
                let y = Double(r) * 92.6, x = Double(c) * 80
                heights[r * n + c] = Float(500 + 250 * sin(x / 2100) * cos(y / 1700) + 60 * sin((x + y) / 430) + 25 * cos(x / 170 - y / 260))
            }
        }
        return ElevationGrid(north: 30.25, west: 10, latitudeSpacing: spacing, longitudeSpacing: spacing, rows: n, columns: n, heights: heights)
    }()

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
