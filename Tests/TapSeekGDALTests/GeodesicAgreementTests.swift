import PropertyBased
import Testing
import TapSeekCore
import TapSeekGeodesic

/// The pure-Swift geodesics agree with PROJ's `geodesic.h` (TapSeekGeodesic) on random lines.
struct GeodesicAgreementTests {
    static func angularGap(_ x: Double, _ y: Double) -> Double {
        let d = (x - y).truncatingRemainder(dividingBy: 360)
        return min(abs(d), 360 - abs(d))
    }

    @Test func inverseAgreesWithPROJ() async {
        await propertyCheck(count: 2000, input: Gen.double(in: -90...90), Gen.double(in: -540...540),
                            Gen.double(in: -90...90), Gen.double(in: -180...180)) { lat1, lon1, lat2, lon2 in
            let pure = KarneyGeodesic.wgs84.inverse(latitude1: lat1, longitude1: lon1, latitude2: lat2, longitude2: lon2)
            let proj = TapSeekGeodesic.Geodesic.inverse(latitude1: lat1, longitude1: lon1, latitude2: lat2, longitude2: lon2)
            #expect(abs(pure.distance - proj.distance) < 1e-7, "\(lat1) \(lon1) \(lat2) \(lon2): \(pure.distance) vs \(proj.distance)")
            // Azimuths are ill-defined only for (nearly) antipodal points, where PROJ's are too.
            if proj.distance < 19_900_000 {
                #expect(Self.angularGap(pure.azimuth1, proj.azimuth1) < 1e-9, "azi1 \(pure.azimuth1) vs \(proj.azimuth1)")
                #expect(Self.angularGap(pure.azimuth2, proj.azimuth2) < 1e-9, "azi2 \(pure.azimuth2) vs \(proj.azimuth2)")
            }
        }
    }

    /// Short lines, the ones the locator measures (observer to target, metres to hundreds of km).
    @Test func shortInverseAgreesWithPROJ() async {
        await propertyCheck(count: 2000, input: Gen.double(in: -89.9...89.9), Gen.double(in: -180...180),
                            Gen.double(in: -0.5...0.5), Gen.double(in: -0.5...0.5)) { lat, lon, dlat, dlon in
            let pure = KarneyGeodesic.wgs84.inverse(latitude1: lat, longitude1: lon, latitude2: lat + dlat / 10, longitude2: lon + dlon)
            let proj = TapSeekGeodesic.Geodesic.inverse(latitude1: lat, longitude1: lon, latitude2: lat + dlat / 10, longitude2: lon + dlon)
            #expect(abs(pure.distance - proj.distance) < 1e-8, "\(pure.distance) vs \(proj.distance)")
        }
    }

    @Test func directAgreesWithPROJ() async {
        await propertyCheck(count: 2000, input: Gen.double(in: -90...90), Gen.double(in: -180...180),
                            Gen.double(in: -180...180), Gen.double(in: 0...20_000_000)) { lat, lon, azimuth, distance in
            let pure = KarneyGeodesic.wgs84.direct(latitude: lat, longitude: lon, azimuth: azimuth, distance: distance)
            let proj = TapSeekGeodesic.Geodesic.direct(latitude: lat, longitude: lon, azimuth: azimuth, distance: distance)
            #expect(abs(pure.latitude2 - proj.latitude2) < 1e-11, "lat2 \(pure.latitude2) vs \(proj.latitude2)")
            // At a pole every longitude and azimuth is the same place.
            if abs(proj.latitude2) < 89.9999 {
                #expect(Self.angularGap(pure.longitude2, proj.longitude2) < 1e-11, "lon2 \(pure.longitude2) vs \(proj.longitude2)")
                #expect(Self.angularGap(pure.azimuth2, proj.azimuth2) < 1e-11, "azi2 \(pure.azimuth2) vs \(proj.azimuth2)")
            }
        }
    }

    @Test func directThenInverseReturnsTheDistance() async {
        await propertyCheck(input: Gen.double(in: -89...89), Gen.double(in: -180...180),
                            Gen.double(in: 0..<360), Gen.double(in: 1...15_000_000)) { lat, lon, azimuth, distance in
            let forward = KarneyGeodesic.wgs84.direct(latitude: lat, longitude: lon, azimuth: azimuth, distance: distance)
            let back = KarneyGeodesic.wgs84.inverse(latitude1: lat, longitude1: lon, latitude2: forward.latitude2, longitude2: forward.longitude2)
            #expect(abs(back.distance - distance) < 1e-6)
        }
    }
}
