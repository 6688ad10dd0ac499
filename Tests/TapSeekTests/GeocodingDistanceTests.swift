import Foundation
import TapSeek
import Testing

/// Lambert's distance (used for `localityDistance`) against Karney's geodesic from PROJ, which is
/// exact to nanometres: independent truth for the error bounds the doc comment states.
@Suite struct GeocodingDistanceTests {
    /// Deterministic pseudo-random pairs (SplitMix64).
    struct Pairs: Sequence, IteratorProtocol {
        var state: UInt64
        var remaining: Int
        let spread: Double

        mutating func uniform() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }

        mutating func next() -> (Double, Double, Double, Double)? {
            guard remaining > 0 else { return nil }
            remaining -= 1
            let lat1 = asin(2 * uniform() - 1) * 180 / .pi
            let lon1 = 360 * uniform() - 180
            let lat2 = Swift.min(90, Swift.max(-90, lat1 + (2 * uniform() - 1) * spread))
            let lon2 = lon1 + (2 * uniform() - 1) * spread
            return (lat1, lon1, lat2, lon2)
        }
    }

    func worstError(spread: Double) -> Double {
        var worst = 0.0
        for (lat1, lon1, lat2, lon2) in Pairs(state: UInt64(spread * 1000), remaining: 5000, spread: spread) {
            let lambert = Ellipsoid.wgs84.lambertDistance(latitude1: lat1, longitude1: lon1, latitude2: lat2, longitude2: lon2)
            let karney = Geodesic.inverse(latitude1: lat1, longitude1: lon1, latitude2: lat2, longitude2: lon2).distance
            worst = max(worst, abs(lambert - karney))
        }
        return worst
    }

    /// Up to about 100 km apart (a degree of latitude is 111 km): within a fifth of a metre.
    @Test func withinDecimetresForNearbyTowns() {
        #expect(worstError(spread: 0.7) < 0.2)
    }

    /// Within 10 km, where most towns are: within a few centimetres.
    @Test func withinCentimetresNextDoor() {
        #expect(worstError(spread: 0.07) < 0.05)
    }

    /// Up to thousands of kilometres apart: within Lambert's published ~10 m.
    @Test func withinTenMetresAcrossContinents() {
        #expect(worstError(spread: 40) < 15)
    }

    @Test func samePointIsZeroAndTheQuarterMeridianIsPublished() {
        #expect(Ellipsoid.wgs84.lambertDistance(latitude1: 12, longitude1: 34, latitude2: 12, longitude2: 34) == 0)
        // The WGS84 quarter meridian, 10 001 965.729 m (Karney, "Algorithms for geodesics", 2013).
        let quarter = Ellipsoid.wgs84.lambertDistance(latitude1: 0, longitude1: 0, latitude2: 90, longitude2: 0)
        #expect(abs(quarter - 10_001_965.729) < 15)
    }
}
