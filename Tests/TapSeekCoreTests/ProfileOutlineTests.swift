import TapSeekTestSupport
import Testing

@testable import TapSeekCore

/// The report's thinned profile against terrain built here in closed form: samples every 50 m
/// due north along a meridian (ground distance R·Δφ exactly), with refraction k = 1 so that the
/// drop d²(1 − k)/(2R) is zero and apparent heights are the heights themselves.
@Suite struct ProfileOutlineTests {
    static let latitude = 46.0, longitude = 8.0
    static let radius = SyntheticTerrain.Truth.meanRadius(latitude)
    static let eyeHeight = 1_500.0

    static func latitude(at d: Double) -> Double { latitude + d / radius * 180 / .pi }

    /// Samples every 50 m to `end` over `terrain` (nil: void), the ray level at eye height.
    static func samples(to end: Double, _ terrain: (Double) -> Double?) -> [SightlineMarch.ProfileSample] {
        stride(from: 50.0, through: end, by: 50).map { d in
            SightlineMarch.ProfileSample(slantDistance: d, latitude: latitude(at: d), longitude: longitude, terrain: terrain(d), ray: eyeHeight)
        }
    }

    static func plot(_ samples: [SightlineMarch.ProfileSample], target: Double?, height: Double = 0, isHit: Bool) -> ProfilePlot {
        ProfilePlot(observer: .init(latitude: latitude, longitude: longitude, height: eyeHeight),
                    target: target.map { .init(latitude: latitude(at: $0), longitude: longitude, height: height) },
                    targetIsHit: isHit, samples: samples, refraction: 1)
    }

    @Test func testThinningKeepsANarrowCrestThatEveryNthSampleMisses() {
        // A plain at 1 800 m with a crest of 1 949 m, one sample wide, at 4 700 m: 100 samples,
        // 8 bins; every 12th sample (what the report kept before) never lands on it.
        let crest = 4_700.0
        let samples = Self.samples(to: 5_000) { abs($0 - crest) < 1 ? 1_949 : 1_800 }
        #expect(stride(from: 0, to: samples.count, by: 12).allSatisfy { samples[$0].terrain == 1_800 })
        let outline = Self.plot(samples, target: crest, height: 1_949, isHit: false).outline(bins: 8)
        let points = outline.terrain.joined()
        #expect(points.count <= 8 + 2)
        let top = points.max { $0.height < $1.height }
        #expect(abs((top?.height ?? 0) - 1_949) < 1e-6, "the crest is kept at its height")
        #expect(abs((top?.distance ?? 0) - crest) < 1, "and at its distance")
        #expect(abs((outline.target?.distance ?? 0) - crest) < 1)
        #expect(abs((outline.target?.height ?? 0) - 1_949) < 1e-6)
    }

    @Test func testVoidsAreBandsAndSplitTheTerrain() {
        let samples = Self.samples(to: 10_000) { (3_000.0...4_500.0).contains($0) ? nil : 1_000 }
        let outline = Self.plot(samples, target: 10_000, height: 1_000, isHit: true).outline(bins: 16)
        #expect(outline.voids.count == 1)
        let void = outline.voids.first ?? 0...0
        // The band runs from the last known sample before the void to the first after it.
        #expect(abs(void.lowerBound - 2_950) < 1 && abs(void.upperBound - 4_550) < 1, "void \(void)")
        #expect(outline.terrain.count == 2)
        #expect(outline.terrain.joined().allSatisfy { !(void.lowerBound < $0.distance && $0.distance < void.upperBound) })
        #expect(abs((outline.terrain.first?.last?.distance ?? 0) - 2_950) < 1, "the terrain ends where the void begins")
        #expect(abs((outline.terrain.last?.first?.distance ?? 0) - 4_550) < 1)
    }

    @Test func testHeightsPerStretchKeepTheCrestAndLeaveVoidsEmpty() {
        let crest = 4_700.0
        let peaked = Self.plot(Self.samples(to: 5_000) { abs($0 - crest) < 1 ? 1_949 : 1_800 }, target: crest, height: 1_949, isHit: false)
        let heights = peaked.outline(bins: 8).heights(bins: 8)
        #expect(heights.count == 8)
        #expect(heights[Int(crest / 625)] == 1_949, "the crest's stretch carries its height: \(heights)")
        #expect(heights.allSatisfy { $0 == 1_800 || $0 == 1_949 })
        // 10 km in 16 stretches of 625 m; the void covers 3 000…4 500 m (samples 2 950 and 4 550
        // around it): stretches 5 and 6 (3 125…4 375 m) lie wholly inside.
        let holed = Self.plot(Self.samples(to: 10_000) { (3_000.0...4_500.0).contains($0) ? nil : 1_000 }, target: 10_000, height: 1_000, isHit: true)
        let stretches = holed.outline(bins: 16).heights(bins: 16)
        #expect(stretches[5] == nil && stretches[6] == nil)
        #expect(stretches.enumerated().allSatisfy { $0.offset == 5 || $0.offset == 6 || $0.element == 1_000 }, "\(stretches)")
        // Fewer samples (50, 100, 150, 200 m) than stretches (3.125 m): a stretch between two is
        // the straight line between them; before the first sample there is no terrain.
        let sparse = Self.plot(Self.samples(to: 200) { 1_000 + $0 }, target: nil, isHit: false).outline(bins: 64).heights(bins: 64)
        #expect(sparse[..<16].allSatisfy { $0 == nil })
        #expect(sparse[16...].allSatisfy { $0 != nil })
        #expect(abs((sparse[40] ?? 0) - (1_000 + 40.5 * 200 / 64)) < 1e-6)
    }

    @Test func testSkylinePointBeyondTheSamplesWidensThePicture() {
        // The march stops at 6 km; the skyline point, found by a scan, lies at 9 km.
        let samples = Self.samples(to: 6_000) { _ in 1_000 }
        let outline = Self.plot(samples, target: 9_000, height: 1_700, isHit: false).outline(bins: 16)
        #expect(abs(outline.length - 9_000) < 1)
        #expect(abs(outline.sampledLength - 6_000) < 1)
        #expect(outline.targetIsHit == false)
        #expect(abs(outline.rayEnd.distance - 6_000) < 1 && abs(outline.rayEnd.height - Self.eyeHeight) < 1e-6)
    }
}
