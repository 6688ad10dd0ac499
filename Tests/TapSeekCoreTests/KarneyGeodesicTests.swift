import Testing
import TapSeekCore

/// The pure-Swift geodesics against GeographicLib's published answers.
struct KarneyGeodesicTests {
    let geodesic = KarneyGeodesic.wgs84

    /// Twenty lines of GeographicLib's test set GeodTest.dat (WGS84; C. F. F. Karney,
    /// geographiclib.sourceforge.io, "testgeod"), as the geodesic test program of PROJ and
    /// GeographicLib (`geodtest.c`) lists them: lat1, lon1, azi1, lat2, lon2 (unrolled), azi2,
    /// s12. Its values are exact to ≈ 1e−15 (computed with 1000-bit arithmetic).
    static let geodTest: [(Double, Double, Double, Double, Double, Double, Double)] = [
        (35.60777, -139.44815, 111.098748429560326, -11.17491, -69.95921, 129.289270889708762, 8935244.5604818305),
        (55.52454, 106.05087, 22.020059880982801, 77.03196, 197.18234, 109.112041110671519, 4105086.1713924406),
        (-21.97856, 142.59065, -32.44456876433189, 41.84138, 98.56635, -41.84359951440466, 8394328.894657671),
        (-66.99028, 112.2363, 173.73491240878403, -12.70631, 285.90344, 2.512956620913668, 11150344.2312080241),
        (-17.42761, 173.34268, -159.033557661192928, -15.84784, 5.93557, -20.787484651536988, 16076603.1631180673),
        (32.84994, 48.28919, 150.492927788121982, -56.28556, 202.29132, 48.113449399816759, 16727068.9438164461),
        (6.96833, 52.74123, 92.581585386317712, -7.39675, 206.17291, 90.721692165923907, 17102477.2496958388),
        (-50.56724, -16.30485, -105.439679907590164, -33.56571, -94.97412, -47.348547835650331, 6455670.5118668696),
        (-58.93002, -8.90775, 140.965397902500679, -8.91104, 133.13503, 19.255429433416599, 11756066.0219864627),
        (-68.82867, -74.28391, 93.774347763114881, -50.63005, -8.36685, 34.65564085411343, 3956936.926063544),
        (-10.62672, -32.0898, -86.426713286747751, 5.883, -134.31681, -80.473780971034875, 11470869.3864563009),
        (-21.76221, 166.90563, 29.319421206936428, 48.72884, 213.97627, 43.508671946410168, 9098627.3986554915),
        (-19.79938, -174.47484, 71.167275780171533, -11.99349, -154.35109, 65.589099775199228, 2319004.8601169389),
        (-11.95887, -116.94513, 92.712619830452549, 4.57352, 7.16501, 78.64960934409585, 13834722.5801401374),
        (-87.85331, 85.66836, -65.120313040242748, 66.48646, 16.09921, -4.888658719272296, 17286615.3147144645),
        (1.74708, 128.32011, -101.584843631173858, -11.16617, 11.87109, -86.325793296437476, 12942901.1241347408),
        (-25.72959, -144.90758, -153.647468693117198, -57.70581, -269.17879, -48.343983158876487, 9413446.7452453107),
        (-41.22777, 122.32875, 14.285113402275739, -7.57291, 130.37946, 10.805303085187369, 3812686.035106021),
        (11.01307, 138.25278, 79.43682622782374, 6.62726, 247.05981, 103.708090215522657, 11911190.819018408),
        (-29.47124, 95.14681, -163.779130441688382, -27.46601, -69.15955, -15.909335945554969, 13487015.8381145492),
    ]

    /// Difference of two longitudes or azimuths in degrees, modulo 360.
    static func angularGap(_ x: Double, _ y: Double) -> Double {
        let d = (x - y).truncatingRemainder(dividingBy: 360)
        return min(abs(d), 360 - abs(d))
    }

    @Test(arguments: 0..<20)
    func inverseMatchesGeodTest(index: Int) {
        let (lat1, lon1, azi1, lat2, lon2, azi2, s12) = Self.geodTest[index]
        let line = geodesic.inverse(latitude1: lat1, longitude1: lon1, latitude2: lat2, longitude2: lon2)
        #expect(abs(line.distance - s12) < 1e-8, "s12 \(line.distance) vs \(s12)")
        #expect(abs(line.azimuth1 - azi1) < 1e-12, "azi1 \(line.azimuth1) vs \(azi1)")
        #expect(abs(line.azimuth2 - azi2) < 1e-12, "azi2 \(line.azimuth2) vs \(azi2)")
    }

    @Test(arguments: 0..<20)
    func directMatchesGeodTest(index: Int) {
        let (lat1, lon1, azi1, lat2, lon2, azi2, s12) = Self.geodTest[index]
        let line = geodesic.direct(latitude: lat1, longitude: lon1, azimuth: azi1, distance: s12)
        #expect(abs(line.latitude2 - lat2) < 1e-12, "lat2 \(line.latitude2) vs \(lat2)")
        #expect(Self.angularGap(line.longitude2, lon2) < 1e-12, "lon2 \(line.longitude2) vs \(lon2)")
        #expect(abs(line.azimuth2 - azi2) < 1e-12, "azi2 \(line.azimuth2) vs \(azi2)")
    }

    /// Karney's worked examples, "Algorithms for geodesics" (2013), Tables 2, 3 and 5.
    @Test func paperExamples() {
        let direct = geodesic.direct(latitude: 40, longitude: 0, azimuth: 30, distance: 10_000_000)
        #expect(abs(direct.latitude2 - 41.79331020506) < 1e-11)
        #expect(abs(direct.longitude2 - 137.84490004377) < 1e-11)
        #expect(abs(direct.azimuth2 - 149.09016931807) < 1e-11)
        let short = geodesic.inverse(latitude1: -30.12345, longitude1: 0, latitude2: -30.12344, longitude2: 0.00005)
        #expect(abs(short.distance - 4.944208) < 1e-6)
        #expect(abs(short.azimuth1 - 77.04353354237) < 1e-8)
        #expect(abs(short.azimuth2 - 77.04350844913) < 1e-8)
        let antipodal = geodesic.inverse(latitude1: -30, longitude1: 0, latitude2: 29.9, longitude2: 179.8)
        #expect(abs(antipodal.distance - 19_989_832.827610) < 1e-3)
        #expect(abs(antipodal.azimuth1 - 161.890524) < 1e-6)
    }

    /// GeographicLib's regression cases (`GeodSolve` in geodtest.c): cases that broke earlier
    /// implementations — short lines, a pole as end point, nearly antipodal points.
    @Test(arguments: [
        (40.6, -73.8, 49.01666667, 2.55, 5_853_226.0, 0.5),
        (36.493349428792, 0, 36.49334942879201, 0.0000008, 0.072, 0.5e-3),
        (88.202499451857, 0, -88.202499451857, 179.981022032992859592, 20_003_898.214, 0.5e-3),
        (89.262080389218, 0, -89.262080389218, 179.992207982775375662, 20_003_925.854, 0.5e-3),
        (89.333123580033, 0, -89.333123580032997687, 179.99295812360148422, 20_003_926.881, 0.5e-3),
        (56.320923501171, 0, -56.320923501171, 179.664747671772880215, 19_993_558.287, 0.5e-3),
        (52.784459512564, 0, -52.784459512563990912, 179.634407464943777557, 19_991_596.095, 0.5e-3),
        (48.522876735459, 0, -48.52287673545898293, 179.599720456223079643, 19_989_144.774, 0.5e-3),
    ])
    func inverseRegressionCases(lat1: Double, lon1: Double, lat2: Double, lon2: Double, s12: Double, tolerance: Double) {
        let line = geodesic.inverse(latitude1: lat1, longitude1: lon1, latitude2: lat2, longitude2: lon2)
        #expect(abs(line.distance - s12) <= tolerance, "\(line.distance) vs \(s12)")
    }

    /// GeodSolve0/1: JFK to CDG and back, and a direct line ending at the pole (GeodSolve5).
    @Test func directRegressionCases() {
        let jfk = geodesic.inverse(latitude1: 40.6, longitude1: -73.8, latitude2: 49.01666667, longitude2: 2.55)
        #expect(abs(jfk.azimuth1 - 53.47022) <= 0.5e-5 && abs(jfk.azimuth2 - 111.59367) <= 0.5e-5)
        let cdg = geodesic.direct(latitude: 40.63972222, longitude: -73.77888889, azimuth: 53.5, distance: 5850e3)
        #expect(abs(cdg.latitude2 - 49.01467) <= 0.5e-5 && abs(cdg.longitude2 - 2.56106) <= 0.5e-5
                && abs(cdg.azimuth2 - 111.62947) <= 0.5e-5)
        let pole = geodesic.direct(latitude: 0.01777745589997, longitude: 30, azimuth: 0, distance: 10e6)
        #expect(abs(pole.latitude2 - 90) <= 0.5e-5)
        #expect(pole.longitude2 < 0
                ? abs(pole.longitude2 + 150) <= 0.5e-5 && abs(abs(pole.azimuth2) - 180) <= 0.5e-5
                : abs(pole.longitude2 - 30) <= 0.5e-5 && abs(pole.azimuth2) <= 0.5e-5)
    }

    /// GeodSolve2: nearly antipodal points on a prolate ellipsoid (a = 6400 km, f = −1/150).
    @Test func prolateAntipodalCase() {
        let prolate = KarneyGeodesic(ellipsoid: Ellipsoid(semiMajorAxis: 6.4e6, flattening: -1.0 / 150))
        for (lat, azimuth) in [(0.07476, 90.00078), (0.1, 90.00105)] {
            let line = prolate.inverse(latitude1: lat, longitude1: 0, latitude2: -lat, longitude2: 180)
            #expect(abs(line.azimuth1 - azimuth) <= 0.5e-5 && abs(line.azimuth2 - azimuth) <= 0.5e-5, "\(line)")
            #expect(abs(line.distance - 20_106_193) <= 0.5, "\(line.distance)")
        }
    }

    @Test func coincidentAndMeridionalPoints() {
        #expect(geodesic.inverse(latitude1: 20.001, longitude1: 0, latitude2: 20.001, longitude2: 0).distance == 0)
        // A quarter meridian of WGS84: 10 001 965.729 m (the meridian arc to the pole).
        let quarter = geodesic.inverse(latitude1: 0, longitude1: 10, latitude2: 90, longitude2: 10)
        #expect(abs(quarter.distance - 10_001_965.729) < 1e-3)
        // Along the equator the distance is a·λ.
        let equator = geodesic.inverse(latitude1: 0, longitude1: 0, latitude2: 0, longitude2: 90)
        #expect(abs(equator.distance - 6_378_137 * .pi / 2) < 1e-6)
        #expect(equator.azimuth1 == 90 && equator.azimuth2 == 90)
    }
}
