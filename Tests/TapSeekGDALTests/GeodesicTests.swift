import Foundation
import PropertyBased
import Testing
import TapSeekGeodesic

/// Karney's geodesics through PROJ, against the worked examples of C. F. F. Karney,
/// "Algorithms for geodesics", J. Geodesy 87 (2013) 43–55, Tables 2, 3 and 5 (WGS84).
struct GeodesicTests {
    @Test func directProblemMatchesKarneyTable2() {
        let line = Geodesic.direct(latitude: 40, longitude: 0, azimuth: 30, distance: 10_000_000)
        #expect(abs(line.latitude2 - 41.79331020506) < 1e-11)
        #expect(abs(line.longitude2 - 137.84490004377) < 1e-11)
        #expect(abs(line.azimuth2 - 149.09016931807) < 1e-11)
    }

    @Test func shortInverseProblemMatchesKarneyTable3() {
        let line = Geodesic.inverse(latitude1: -30.12345, longitude1: 0, latitude2: -30.12344, longitude2: 0.00005)
        #expect(abs(line.distance - 4.944208) < 1e-6)
        #expect(abs(line.azimuth1 - 77.04353354237) < 1e-8)
        #expect(abs(line.azimuth2 - 77.04350844913) < 1e-8)
    }

    @Test func nearlyAntipodalInverseMatchesKarneyTable5() {
        let line = Geodesic.inverse(latitude1: -30, longitude1: 0, latitude2: 29.9, longitude2: 179.8)
        #expect(abs(line.distance - 19_989_832.827610) < 1e-3)
        #expect(abs(line.azimuth1 - 161.890524) < 1e-6)
    }

    @Test func directThenInverseReturnsTheDistanceAndAzimuth() async {
        await propertyCheck(input: Gen.double(in: -89...89), Gen.double(in: -180...180),
                            Gen.double(in: 0..<360), Gen.double(in: 1...15_000_000)) { lat, lon, azimuth, distance in
            let forward = Geodesic.direct(latitude: lat, longitude: lon, azimuth: azimuth, distance: distance)
            let back = Geodesic.inverse(latitude1: lat, longitude1: lon, latitude2: forward.latitude2, longitude2: forward.longitude2)
            #expect(abs(back.distance - distance) < 1e-3)
        }
    }
}
