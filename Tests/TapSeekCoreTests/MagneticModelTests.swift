import Foundation
import Testing
@testable import TapSeekCore
import TapSeekTestSupport

/// The World Magnetic Model 2025 against published values.
@Suite struct MagneticModelTests {
    /// One row of NOAA's test values: decimal year, height above the WGS84 ellipsoid (km),
    /// geodetic latitude and longitude (degrees), then D and I (degrees) and H, X, Y, Z, F (nT).
    struct TestValue: Sendable, CustomStringConvertible {
        var year, heightKm, latitude, longitude, d, i, h, x, y, z, f: Double
        var description: String { "\(year) \(heightKm) km \(latitude) \(longitude)" }
    }

    /// NOAA NCEI, WMM2025_TEST_VALUES.txt (https://www.ncei.noaa.gov/sites/default/files/2025-02/
    /// WMM2025_TEST_VALUES.txt), the first ten rows, full precision. D and I are rounded there to
    /// 0.01°, the components given to 1e-6 nT.
    static let noaaTestValues: [TestValue] = [
        .init(year: 2025.0, heightKm: 28, latitude: 89, longitude: -121, d: -99.77, i: 88.47,
              h: 1504.298146, x: -255.388723, y: -1482.460628, z: 56194.288771, f: 56214.419888),
        .init(year: 2025.0, heightKm: 65, latitude: 43, longitude: 93, d: 0.50, i: 64.10,
              h: 24300.764692, x: 24299.852822, y: 210.517066, z: 50037.923998, f: 55626.621348),
        .init(year: 2025.0, heightKm: 51, latitude: -33, longitude: 109, d: -5.49, i: -67.50,
              h: 21838.046477, x: 21737.778822, y: -2090.274098, z: -52710.00392, f: 57054.752538),
        .init(year: 2025.5, heightKm: 6, latitude: -36, longitude: -137, d: 20.28, i: -52.11,
              h: 25353.230658, x: 23781.930678, y: 8786.698927, z: -32577.518648, f: 41280.516301),
        .init(year: 2025.5, heightKm: 8, latitude: -66, longitude: 17, d: -33.14, i: -59.55,
              h: 18154.870136, x: 15201.438652, y: -9925.501123, z: -30881.123197, f: 35822.382382),
        .init(year: 2026.0, heightKm: 74, latitude: -57, longitude: 3, d: -22.51, i: -58.65,
              h: 14362.206593, x: 13268.119649, y: -5498.179626, z: -23576.062921, f: 27606.226129),
        .init(year: 2026.0, heightKm: 62, latitude: -14, longitude: 99, d: -1.43, i: -44.70,
              h: 33448.275663, x: 33437.82863, y: -835.919473, z: -33100.922253, f: 47058.03012),
        .init(year: 2026.5, heightKm: 14, latitude: 0, longitude: 80, d: -3.10, i: -17.15,
              h: 39489.089663, x: 39431.415992, y: -2133.456168, z: -12188.838466, f: 41327.424134),
        .init(year: 2027.0, heightKm: 37, latitude: -66, longitude: -5, d: -17.22, i: -59.04,
              h: 17159.8365, x: 16390.771268, y: -5079.626554, z: -28608.243575, f: 33360.029814),
        .init(year: 2027.5, heightKm: 73, latitude: -72, longitude: 95, d: -102.64, i: -76.49,
              h: 13306.747292, x: -2912.418045, y: -12984.118939, z: -55399.217725, f: 56974.931751),
    ]

    /// Published D and I carry two decimals, so agreement can only be asked to half a unit of
    /// the last digit plus a hair.
    static let angleTolerance = 0.0051
    /// The components are published to 1e-6 nT; the synthesis in doubles agrees far better than
    /// the 1 nT asked of it.
    static let componentTolerance = 0.01

    @Test(arguments: noaaTestValues)
    func matchesNOAATestValues(_ v: TestValue) throws {
        let field = try MagneticModel.wmm2025.field(latitude: v.latitude, longitude: v.longitude,
                                                    height: v.heightKm * 1000, decimalYear: v.year)
        #expect(abs(field.north - v.x) < Self.componentTolerance, "X \(field.north)")
        #expect(abs(field.east - v.y) < Self.componentTolerance, "Y \(field.east)")
        #expect(abs(field.down - v.z) < Self.componentTolerance, "Z \(field.down)")
        #expect(abs(field.horizontalIntensity - v.h) < Self.componentTolerance, "H \(field.horizontalIntensity)")
        #expect(abs(field.totalIntensity - v.f) < Self.componentTolerance, "F \(field.totalIntensity)")
        #expect(abs(field.declination - v.d) < Self.angleTolerance, "D \(field.declination)")
        #expect(abs(field.inclination - v.i) < Self.angleTolerance, "I \(field.inclination)")
    }

    /// The WMM2025 technical report's test table (the twelve points at 2025.0 and 2027.5, 0 and
    /// 100 km, 80°N 0°E, 0°N 120°E, 80°S 240°E), declinations to 0.01°.
    static let reportDeclinations: [(year: Double, heightKm: Double, latitude: Double, longitude: Double, d: Double)] = [
        (2025.0, 0, 80, 0, 1.28), (2025.0, 0, 0, 120, -0.16), (2025.0, 0, -80, 240, 68.78),
        (2025.0, 100, 80, 0, 0.85), (2025.0, 100, 0, 120, -0.15), (2025.0, 100, -80, 240, 68.21),
        (2027.5, 0, 80, 0, 2.59), (2027.5, 0, 0, 120, -0.24), (2027.5, 0, -80, 240, 68.49),
        (2027.5, 100, 80, 0, 2.16), (2027.5, 100, 0, 120, -0.23), (2027.5, 100, -80, 240, 67.93),
    ]

    @Test func matchesTheReportTable() throws {
        for v in Self.reportDeclinations {
            let d = try MagneticModel.wmm2025.field(latitude: v.latitude, longitude: v.longitude,
                                                    height: v.heightKm * 1000, decimalYear: v.year).declination
            #expect(abs(d - v.d) < Self.angleTolerance, "\(v): D \(d)")
        }
    }

    /// MathWorks Aerospace Toolbox documentation of `wrldmagm`, example "1000 meters over Natick,
    /// Massachusetts, on July 4, 2028, using WMM-2025": D = −13.6891°, I = 65.9899°,
    /// H = 2.0727e4 nT, F = 5.0940e4 nT. `decyear(2028,7,4)` is midnight UTC of day 186 of a
    /// leap year, which also pins our decimal year.
    @Test func matchesMathWorksNatickExample() throws {
        let date = try #require(ISO8601DateTime.parse("2028-07-04T00:00:00Z"))
        #expect(abs(decimalYear(date) - (2028 + 185.0 / 366)) < 1e-12)
        let field = try MagneticModel.wmm2025.field(latitude: 42.283, longitude: -71.35, height: 1000, date: date)
        #expect(abs(field.declination - -13.6891) < 0.00006)
        #expect(abs(field.inclination - 65.9899) < 0.00006)
        #expect(abs(field.horizontalIntensity - 20_727) < 0.6)
        #expect(abs(field.totalIntensity - 50_940) < 0.6)
        #expect(abs(field.north - 20_139) < 0.6)
        #expect(abs(field.east - -4_905) < 0.6)
        #expect(abs(field.down - 46_532) < 0.6)
    }

    @Test func magneticHeadingBecomesTrueByAddingTheDeclination() throws {
        let date = try #require(ISO8601DateTime.parse("2028-07-04T00:00:00Z"))
        // Natick, D ≈ −13.69°: a compass reading of 10° is 356.31° true.
        let t = try MagneticModel.wmm2025.magneticToTrue(heading: 10, latitude: 42.283, longitude: -71.35,
                                                         height: 1000, date: date)
        #expect(abs(t - 356.3109) < 0.0001)
    }

    @Test func aReadingsMagneticHeadingBecomesTrue() throws {
        let date = try #require(ISO8601DateTime.parse("2028-07-04T00:00:00Z"))
        var r = Reading(time: date, location: .init(latitude: 42.283, longitude: -71.35, altitude: 1000),
                        orientation: .init(heading: 10, headingReference: .magnetic, pitch: 0))
        #expect(abs(try #require(try r.trueHeading()) - 356.3109) < 0.0001)
        r.orientation?.headingReference = .true
        #expect(try r.trueHeading() == 10)
        r.orientation = nil
        #expect(try r.trueHeading() == nil)
        let untimed = Reading(location: .init(latitude: 1, longitude: 2),
                              orientation: .init(heading: 10, headingReference: .magnetic, pitch: 0))
        #expect(throws: MagneticModelError(.missingTime, "a magnetic heading needs the reading's time to be converted to true north")) {
            try untimed.trueHeading()
        }
        let late = Reading(time: try #require(ISO8601DateTime.parse("2031-01-01T00:00:00Z")),
                           location: .init(latitude: 1, longitude: 2),
                           orientation: .init(heading: 10, headingReference: .magnetic, pitch: 0))
        #expect(throws: MagneticModelError.self) { try late.trueHeading() }
    }

    @Test func refusesTimesOutsideTheModelValidity() throws {
        let model = MagneticModel.wmm2025
        for text in ["2024-12-31T23:59:59Z", "2030-01-01T00:00:01Z", "1999-01-01T00:00:00Z"] {
            let date = try #require(ISO8601DateTime.parse(text))
            #expect(throws: MagneticModelError.self) {
                try model.declination(latitude: 46, longitude: 8, height: 0, date: date)
            }
        }
        do {
            _ = try model.field(latitude: 46, longitude: 8, height: 0, decimalYear: 2031.25)
            Issue.record("expected a refusal")
        } catch {
            #expect(error.kind == .outsideValidity)
            #expect(error.description.contains("2031.250"))
            #expect(error.description.contains("2025.000–2030.000"))
        }
        // Both ends of the interval are inside.
        for edge in ["2025-01-01T00:00:00Z", "2030-01-01T00:00:00Z"] {
            let date = try #require(ISO8601DateTime.parse(edge))
            _ = try model.declination(latitude: 46, longitude: 8, height: 0, date: date)
        }
    }

    /// Readings of 2020–2025 (the shared 2024 Sensor Logger log) take WMM2020; 2025.0 on takes
    /// WMM2025; earlier times are refused, naming both models.
    @Test func theEngineModelPicksWMM2020ForEarlierYears() throws {
        let wmm = MagneticModel.wmm
        for t in [2020.0, 2022.3, 2024.999] {
            #expect(try wmm.field(latitude: 46, longitude: 8, height: 0, decimalYear: t)
                    == MagneticModel.wmm2020.field(latitude: 46, longitude: 8, height: 0, decimalYear: t))
        }
        for t in [2025.0, 2027.5, 2030.0] {
            #expect(try wmm.field(latitude: 46, longitude: 8, height: 0, decimalYear: t)
                    == MagneticModel.wmm2025.field(latitude: 46, longitude: 8, height: 0, decimalYear: t))
        }
        do {
            _ = try wmm.field(latitude: 46, longitude: 8, height: 0, decimalYear: 2019.5)
            Issue.record("expected a refusal")
        } catch {
            #expect(error.kind == .outsideValidity)
            #expect(error.description.contains("WMM-2025 (2025.000–2030.000) and WMM-2020 (2020.000–2025.000)"), "\(error.description)")
        }
    }

    /// WMM2020 carried to 2025.0 against WMM2025 at its epoch: two models from different
    /// satellite data, whose declinations agree within the models' stated accuracy (about 0.5°
    /// away from the poles; WMM2025 report) at places all over the world. A transcription error
    /// in either table would show here.
    @Test(arguments: [(46.6, 8.0), (42.3, -71.4), (-33.9, 151.2), (35.7, 139.7), (-23.5, -46.6), (64.1, -21.9), (1.3, 103.8), (-77.8, 166.7)])
    func wmm2020AndWMM2025AgreeWhereTheyMeet(latitude: Double, longitude: Double) throws {
        let old = try MagneticModel.wmm2020.field(latitude: latitude, longitude: longitude, height: 0, decimalYear: 2025.0)
        let new = try MagneticModel.wmm2025.field(latitude: latitude, longitude: longitude, height: 0, decimalYear: 2025.0)
        #expect(abs(old.declination - new.declination) < 0.5 + 0.5 * (abs(latitude) > 70 ? 1 : 0), "\(old.declination) vs \(new.declination)")
        #expect(abs(old.totalIntensity - new.totalIntensity) < 150)
    }

    /// The shared 2024 Sensor Logger log: every magnetic heading now turns to true north.
    @Test(.enabled(if: SharedData.available(SharedData.sensorLogs.appendingPathComponent("sensorlogger_android_2024"))))
    func the2024LogsMagneticHeadingsConvert() throws {
        var importer = try SensorLoggerImporter(members: DirectoryMembers(path: SharedData.sensorLogs.appendingPathComponent("sensorlogger_android_2024").path))
        var converted = 0
        while let record = try importer.next() {
            let reading = try record.result.get()
            #expect(reading.orientation?.headingReference == .magnetic)
            #expect(try reading.trueHeading() != nil)
            converted += 1
        }
        #expect(converted == 7)
    }

    @Test func refusesPositionsThatAreNotNumbersInRange() {
        let model = MagneticModel.wmm2025
        for (lat, lon, h) in [(91.0, 0.0, 0.0), (.nan, 0, 0), (0, .infinity, 0), (0, 0, .nan)] {
            #expect(throws: MagneticModelError.self) {
                try model.field(latitude: lat, longitude: lon, height: h, decimalYear: 2026)
            }
        }
    }

    /// At the north pole "north" along meridian λ points down meridian λ + 180°, so stepping the
    /// longitude by Δ turns the local north–east axes by Δ counter-clockwise (seen from above)
    /// while the horizontal field keeps one direction in space: D(λ) − λ must be constant. Also
    /// checks that the pole is finite (no 0/0 in the east component).
    @Test func poleDeclinationTurnsWithLongitude() throws {
        let model = MagneticModel.wmm2025
        let reference = try model.field(latitude: 90, longitude: 0, height: 0, decimalYear: 2026)
        #expect(reference.north.isFinite && reference.east.isFinite && reference.down.isFinite)
        for lon in stride(from: -180.0, through: 180, by: 30) {
            let f = try model.field(latitude: 90, longitude: lon, height: 0, decimalYear: 2026)
            #expect(abs(f.horizontalIntensity - reference.horizontalIntensity) < 1e-6)
            #expect(abs(f.down - reference.down) < 1e-6)
            let turned = normalizedLongitude(f.declination - lon - reference.declination)
            #expect(abs(turned) < 1e-6, "λ \(lon)")
        }
        // Just off the pole the field is continuous with the pole's.
        let near = try model.field(latitude: 90 - 1e-9, longitude: 0, height: 0, decimalYear: 2026)
        #expect(abs(near.north - reference.north) < 1e-3 && abs(near.east - reference.east) < 1e-3)
    }

    @Test func flagsTheBlackoutZoneNearTheMagneticPole() throws {
        // The first NOAA test point (89°N, H ≈ 1504 nT) lies in the blackout zone; Natick does not.
        let pole = try MagneticModel.wmm2025.field(latitude: 89, longitude: -121, height: 28_000, decimalYear: 2025)
        #expect(pole.isInBlackoutZone && pole.isInCautionZone)
        let natick = try MagneticModel.wmm2025.field(latitude: 42.283, longitude: -71.35, height: 1000, decimalYear: 2028.5)
        #expect(!natick.isInBlackoutZone && !natick.isInCautionZone)
    }

    static let cofFile = SharedData.root.appendingPathComponent("data/wmm/WMM_2025.COF")

    /// The embedded table must be the shipped coefficient file, number for number.
    @Test(.enabled(if: SharedData.available(cofFile)))
    func embeddedCoefficientsEqualTheShippedFile() throws {
        let url = Self.cofFile
        try #require(SharedData.exists(url), Comment(rawValue: SharedData.missing(url)))
        let text = try String(contentsOf: url, encoding: .utf8)
        let parsed = try MagneticModel(cof: text)
        let embedded = MagneticModel.wmm2025
        #expect(parsed.name == embedded.name)
        #expect(parsed.epoch == embedded.epoch)
        #expect(parsed.validity == embedded.validity)
        #expect(parsed.degree == 12)
        #expect(parsed == embedded)
        var lines = 0
        for line in text.split(whereSeparator: \.isNewline) {
            let f = line.split(whereSeparator: \.isWhitespace)
            guard f.count == 6, let n = Int(f[0]), let m = Int(f[1]) else { continue }
            let c = embedded.coefficients(n: n, m: m)
            #expect([c.g, c.h, c.gDot, c.hDot] == f[2...].map { Double($0)! }, "n \(n) m \(m)")
            lines += 1
        }
        #expect(lines == 90)
    }

    @Test func coefficientFileErrorsNameTheLine() {
        let bad = "    2025.0   WMM-2025   11/13/2024\n  1  0  -29351.8  0.0  12.0  0.0\n  1  1  x  4545.4  9.7  -21.5\n"
        do {
            _ = try MagneticModel(cof: bad)
            Issue.record("expected an error")
        } catch {
            #expect(error.kind == .invalidCoefficients)
            #expect(error.description.contains("line 3"))
        }
        #expect(throws: MagneticModelError.self) { try MagneticModel(cof: "") }
        #expect(throws: MagneticModelError.self) { try MagneticModel(cof: "2025.0 WMM 11/13/2024\n") }
    }
}
