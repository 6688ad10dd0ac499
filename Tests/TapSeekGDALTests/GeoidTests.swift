import Testing
import TapSeekCore
import TapSeekGDAL

/// EGM96 undulations from Debian's `egm96_15.gtx`, checked against NGA's published test points.
struct GeoidTests {
    static let geoid = try? Geoid()

    /// The sample output of NGA's EGM96 interpolation program (`OUTINTPT.DAT` in the
    /// WW15MGH.GRD readme, earth-info.nga.mil): latitude, longitude (0…360), undulation m.
    /// NGA interpolates with a spline, we bilinearly: they agree to better than 10 cm.
    @Test(arguments: [
        (38.6281550, 269.7791550, -31.628),
        (-14.6212170, 305.0211140, -2.969),
        (46.8743190, 102.4487290, -43.575),
        (-23.6174460, 133.8747120, 15.871),
        (38.6254730, 359.9995000, 50.066),
        (-0.4667440, 0.0023000, 17.329),
    ])
    func undulationMatchesNGATestValues(latitude: Double, longitude: Double, expected: Double) throws {
        let geoid = try #require(Self.geoid, "the EGM96 grid \(Geoid.defaultPath) is missing (Debian proj-data)")
        #expect(abs(geoid.undulation(latitude: latitude, longitude: longitude) - expected) < 0.1)
        // The same longitude written in −180…180 gives the same answer.
        #expect(abs(geoid.undulation(latitude: latitude, longitude: longitude - 360) - expected) < 0.1)
    }

    @Test func everestUndulationIsAboutMinus29Metres() throws {
        let geoid = try #require(Self.geoid)
        let n = geoid.undulation(latitude: 27.9883, longitude: 86.9250)
        #expect(n > -30 && n < -28, "N = \(n)")
    }

    @Test func heightsConvertBetweenDatumsBothWays() throws {
        let geoid = try #require(Self.geoid)
        let h = geoid.ellipsoidalHeight(orthometric: 8840, latitude: 27.9883, longitude: 86.9250)
        #expect(abs(geoid.orthometricHeight(ellipsoidal: h, latitude: 27.9883, longitude: 86.9250) - 8840) < 1e-9)
        #expect(h < 8840)
    }

    @Test func missingGridIsAOneLineError() {
        #expect(throws: GDALError.self) { try Geoid(contentsOf: "/nonexistent/egm96.gtx") }
    }
}
