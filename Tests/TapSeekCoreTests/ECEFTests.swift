import Foundation
import PropertyBased
import Testing
import TapSeekCore

struct ECEFTests {
    let wgs84 = Ellipsoid.wgs84

    /// Closed-form truths: the equator at the prime meridian sits at x = a, the pole at z = b.
    @Test func knownPointsHaveTheirTextbookCoordinates() {
        let origin = wgs84.ecef(GeodeticPosition(latitude: 0, longitude: 0, height: 0))
        #expect(abs(origin.x - 6_378_137) < 1e-9 && abs(origin.y) < 1e-9 && abs(origin.z) < 1e-9)
        let pole = wgs84.ecef(GeodeticPosition(latitude: 90, longitude: 0, height: 100))
        #expect(abs(pole.z - (6_356_752.314_245 + 100)) < 1e-3)
        let east = wgs84.ecef(GeodeticPosition(latitude: 0, longitude: 90, height: 0))
        #expect(abs(east.y - 6_378_137) < 1e-9)
        #expect(wgs84.geodetic(Vector3(0, 0, -6_356_752.314_245)).latitude == -90)
    }

    /// The sightline's model is built from these conversions and promises 0.2 mm: the round
    /// trip must be far better, a micrometre.
    @Test func roundTripIsExactToAMicrometreFromBelowSeaLevelToTenKilometres() async {
        await propertyCheck(count: 2000, input: Gen.double(in: -90...90), Gen.double(in: -180...180),
                            Gen.double(in: -500...10_000)) { lat, lon, height in
            let p = GeodeticPosition(latitude: lat, longitude: lon, height: height)
            let q = wgs84.geodetic(wgs84.ecef(p))
            // Compare as positions: a micrometre in any direction.
            let distance = (wgs84.ecef(q) - wgs84.ecef(p)).length
            #expect(distance < 1e-6)
            #expect(abs(q.height - height) < 1e-6)
            #expect(abs(q.latitude - lat) < 1e-10)
        }
    }

    @Test func localFrameIsOrthonormalAndUpFollowsTheNormal() async {
        await propertyCheck(input: Gen.double(in: -89.9...89.9), Gen.double(in: -180...180)) { lat, lon in
            let frame = LocalFrame(origin: GeodeticPosition(latitude: lat, longitude: lon, height: 0))
            #expect(abs(frame.east.dot(frame.north)) < 1e-12)
            #expect(abs(frame.east.cross(frame.north).dot(frame.up) - 1) < 1e-12)
            // A point 1000 m straight up the normal has height 1000 m and the same lat/lon.
            let above = frame.geodetic(ofENU: Vector3(0, 0, 1000))
            #expect(abs(above.height - 1000) < 1e-6)
            #expect(abs(above.latitude - lat) < 1e-9)
        }
    }
}
