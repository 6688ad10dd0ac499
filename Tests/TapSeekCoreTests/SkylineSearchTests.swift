import Foundation
import Testing
@testable import TapSeekCore

/// The skyline search's test of whether terrain can still show above the best tangent so far.
struct SkylineSearchTests {
    /// ``SkylineSearch/canShow(aboveTangent:height:from:to:)`` against the largest tangent found
    /// by search, not by its closed form: terrain M metres over the eye shows (M − c·d²)/d at
    /// distance d, which rises and then falls (or only falls), so a ternary search over the
    /// distances finds its largest. Every case is asked just below and just above that largest,
    /// over stretches near and far, short and long, and open-ended, for refraction from −1 to
    /// 0.99 and terrain from 9 km below to 9 km above the eye.
    @Test func canShowAgreesWithTheLargestTangentFoundBySearch() {
        var random = SplitMix(seed: 40)
        let radius = 6_371_000.0
        var checked = 0, peaksInside = 0
        for _ in 0..<20_000 {
            let k = -1 + 1.99 * random.unit()
            let curvature = (1 - k) / (2 * radius)
            let eye = 3_000.0
            let m = -9_000 + 18_000 * random.unit()
            let d0 = random.unit() < 0.2 ? 0 : pow(10, 5 * random.unit())
            let d1 = random.unit() < 0.1 ? Double.infinity : d0 + pow(10, 5.5 * random.unit())
            let search = SkylineSearch(eye: eye, curvature: curvature, maximumTerrain: 9_000, highestUndulation: 90)
            // The largest of g over [near, d1]: the search's own nearest limit, and far enough
            // for an open end (g falls for good beyond its peak √(−M/c), under 10⁷ m here).
            let near = max(d0, SkylineSearch.nearest), far = min(d1, 1e8)
            func g(_ d: Double) -> Double { (m - curvature * d * d) / d }
            var (lo, hi) = (near, far)
            for _ in 0..<300 {
                let a = lo + (hi - lo) / 3, b = hi - (hi - lo) / 3
                if g(a) < g(b) { lo = a } else { hi = b }
            }
            let largest = max(max(g(near), g(far)), g((lo + hi) / 2))
            if m < 0, (-m / curvature).squareRoot() > near, (-m / curvature).squareRoot() < far { peaksInside += 1 }
            let margin = 1e-9 * max(1, abs(largest))
            #expect(search.canShow(aboveTangent: largest - margin, height: eye + m, from: d0, to: d1),
                    "M \(m), c \(curvature), \(d0)…\(d1): below \(largest)")
            #expect(!search.canShow(aboveTangent: largest + margin, height: eye + m, from: d0, to: d1),
                    "M \(m), c \(curvature), \(d0)…\(d1): above \(largest)")
            checked += 1
        }
        // The cases cover the peak inside the stretch as well as at either end.
        #expect(checked == 20_000 && peaksInside > 1_000 && peaksInside < 19_000)
    }

    /// Nothing shows above +∞, nor from a stretch that lies before the search's nearest point;
    /// anything shows above −∞ (the tangent before any terrain is seen).
    @Test func canShowAtTheLimits() {
        let search = SkylineSearch(eye: 1_000, curvature: 0.87 / (2 * 6_371_000.0), maximumTerrain: 9_000, highestUndulation: 90)
        #expect(search.canShow(aboveTangent: -.infinity, height: 0, from: 10, to: 20))
        #expect(search.canShow(aboveTangent: -.infinity, height: 5_000, from: 10, to: .infinity))
        #expect(!search.canShow(aboveTangent: .infinity, height: 5_000, from: 10, to: 20))
        #expect(!search.canShow(aboveTangent: -.infinity, height: 5_000, from: 0, to: SkylineSearch.nearest / 2))
    }
}

private extension SplitMix {
    /// Uniform in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
