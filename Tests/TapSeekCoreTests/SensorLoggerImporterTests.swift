import Foundation
import TapSeekTestSupport
import Testing

@testable import TapSeekCore

@Suite struct SensorLoggerImporterTests {
    static let android = SharedData.sensorLogs.appendingPathComponent("sensorlogger_android_2024")
    static let ios = SharedData.sensorLogs.appendingPathComponent("sensorlogger_ios_2022")

    static func drain(_ importer: SensorLoggerImporter) throws -> [ImportedRecord] {
        var importer = importer
        var out: [ImportedRecord] = []
        while let r = try importer.next() { out.append(r) }
        return out
    }

    static func reader(_ text: String) -> LineReader {
        LineReader(source: MemoryByteSource(Array(text.utf8)))
    }

    /// Expected camera angles of the Android sample's first orientation row (line 2), from its
    /// yaw/pitch/roll alone by the closed form of R = Rz(−yaw)·Rx(−pitch)·Ry(roll) applied to
    /// (0, 0, −1): (−sin r, −sin p·cos r, −cos p·cos r) before the azimuth turn, so
    /// heading = yaw° + atan2(−sin r, −sin p·cos r) = −170.6099° + 3.0661° → 192.45624753293393,
    /// pitch = asin(−cos p·cos r) = −53.2111344403547 (python, math module). The importer reads
    /// the quaternion instead: the two agree to a few 1e−6°.
    @Test(.enabled(if: SharedData.available(android))) func androidQuaternionAgreesWithItsYawPitchRoll() throws {
        let records = try Self.drain(SensorLoggerImporter(members: DirectoryMembers(path: Self.android.path)))
        #expect(records.map(\.line) == Array(2...8))
        let first = try #require(records.first?.reading)
        let o = try #require(first.orientation)
        #expect(o.headingReference == .magnetic)
        #expect(abs(o.heading - 192.45624753293393) < 1e-4)
        #expect(abs(o.pitch - -53.2111344403547) < 1e-4)
        // time = 1707663721344068000 ns.
        #expect(abs(try #require(records.first?.time).timeIntervalSince1970 - 1_707_663_721.344068) < 1e-6)
    }

    /// Every row: quaternion path (what the importer uses) against the Euler path, both through
    /// the app's own numbers, to 2e−4 rad.
    @Test(.enabled(if: SharedData.available(android))) func androidEulerPathMatchesQuaternionPathOnEveryRow() throws {
        let text = try String(contentsOf: Self.android.appendingPathComponent("Orientation.csv"), encoding: .utf8)
        let header = text.split(separator: "\n")[0]
        #expect(header == "time,seconds_elapsed,qz,qy,qx,qw,roll,pitch,yaw")
        // The same file without its quaternion columns (renamed away), so the Euler angles are used.
        let eulerOnly = text.replacingOccurrences(of: "qz,qy,qx,qw", with: "a,b,c,d")
        let location = try String(contentsOf: Self.android.appendingPathComponent("Location.csv"), encoding: .utf8)
        let byQuaternion = try Self.drain(SensorLoggerImporter(orientation: Self.reader(text), location: Self.reader(location), platform: .android))
        let byEuler = try Self.drain(SensorLoggerImporter(orientation: Self.reader(eulerOnly), location: Self.reader(location), platform: .android))
        #expect(byQuaternion.count == 7 && byEuler.count == 7)
        let tolerance = degrees(2e-4)
        for (q, e) in zip(byQuaternion, byEuler) {
            let a = try #require(q.reading?.orientation)
            let b = try #require(e.reading?.orientation)
            #expect(abs(a.heading - b.heading) < tolerance)
            #expect(abs(a.pitch - b.pitch) < tolerance)
            #expect(abs(a.roll - b.roll) < tolerance)
        }
    }

    /// The orientation rows (t = 1707663721.34…1721.40 s) precede the first fix (1722.37 s) by
    /// about 1 s, within the 10 s allowance: they take that fix, ellipsoidal altitude as written.
    @Test(.enabled(if: SharedData.available(android))) func androidRowsBeforeTheFirstFixTakeIt() throws {
        let records = try Self.drain(SensorLoggerImporter(members: DirectoryMembers(path: Self.android.path)))
        for record in records {
            let location = try #require(record.reading?.location)
            #expect(location.latitude == 35.1379197)
            #expect(location.longitude == -80.8670152)
            #expect(location.altitude == 158.39999389648438)
            #expect(location.altitudeReference == .ellipsoid)
            #expect(location.horizontalAccuracy == 7.796000003814697)
        }
        let tight = try Self.drain(SensorLoggerImporter(members: DirectoryMembers(path: Self.android.path), maximumFixDistance: 0.5))
        guard case .failure(let error) = tight.first?.result else { Issue.record("expected an error record"); return }
        #expect(error.code == .noLocation)
        #expect(error.line == 2)
    }

    /// An orientation sample between the second and third fixes (t = 1707663723.229233 s;
    /// fixes at 1722.7291046 and 1723.729233) sits at f = 0.5000641917577783 of the way:
    /// latitude 35.1379149 + (35.1378939 − 35.1379149)·f = 35.137904398651976, longitude
    /// −80.86702680071895, horizontal accuracy 7.593454240212496 (python). One 30 s after the last
    /// fix is an error record; so is a damaged orientation row, each at its own line.
    @Test(.enabled(if: SharedData.available(android))) func locationIsInterpolatedBetweenFixes() throws {
        let orientation = """
        time,seconds_elapsed,qz,qy,qx,qw,roll,pitch,yaw
        1707663723229233000,0,0,0,0,1,0,0,0
        1707663757730052400,0,0,0,0,1,0,0,0
        1707663757730052400,0,0,0,0
        """
        let location = try String(contentsOf: Self.android.appendingPathComponent("Location.csv"), encoding: .utf8)
        let records = try Self.drain(SensorLoggerImporter(orientation: Self.reader(orientation), location: Self.reader(location), platform: .android))
        #expect(records.map(\.line) == [2, 3, 4])
        let l = try #require(records[0].reading?.location)
        // Nanosecond stamps near 1.7e18 become seconds in a Double with 0.24 µs resolution, so f
        // carries ~2e−7 of rounding: 4e−12° of latitude, 1e−7 m of accuracy.
        #expect(abs(l.latitude - 35.137904398651976) < 1e-10)
        #expect(abs(l.longitude - -80.86702680071895) < 1e-10)
        #expect(abs(l.horizontalAccuracy! - 7.593454240212496) < 1e-6)
        // Identity rotation vector: device axes = ENU; the camera (−z) looks straight down.
        #expect(abs(records[0].reading!.orientation!.pitch + 90) < 1e-9)
        guard case .failure(let late) = records[1].result, case .failure(let damaged) = records[2].result else {
            Issue.record("expected two error records"); return
        }
        #expect(late.code == .noLocation)
        #expect(late.description == "line 3: no Location.csv fix within 10.0 s of this sample (nearest 30.0 s away)")
        #expect(damaged.code == .malformedLine)
    }

    @Test(.enabled(if: SharedData.available(android))) func exportWithoutOrientationGivesLocationOnlyRecords() throws {
        let location = try String(contentsOf: Self.android.appendingPathComponent("Location.csv"), encoding: .utf8)
        let records = try Self.drain(SensorLoggerImporter(orientation: nil, location: Self.reader(location), platform: nil))
        #expect(records.map(\.line) == Array(2...8))
        #expect(records.allSatisfy { $0.reading != nil && $0.reading?.orientation == nil })
        #expect(records.last?.reading?.location.altitude == 157.89999389648438)
    }

    /// The published iOS export has no Location.csv: it cannot give readings, and says why.
    @Test(.enabled(if: SharedData.available(ios))) func iosSampleWithoutLocationIsRejected() throws {
        #expect {
            try SensorLoggerImporter(members: DirectoryMembers(path: Self.ios.path))
        } throws: { error in
            (error as? ImportError)?.code == .unsupportedLog
        }
    }

    /// The iOS orientation rows joined with a stand-in Location.csv (two fixes around them):
    /// - the phone lies face up, so the camera looks nearly straight down; Gravity.csv, a
    ///   separate sensor, gives the tilt: row 2 g = (−0.12385, 0.08912, −9.80546) m/s² →
    ///   atan(√(gx² + gy²)/|gz|) = 0.8915° → pitch −89.10849849707661°;
    /// - looking down, heading + roll is the azimuth of the image's top (device +y), which for a
    ///   level phone is 270° − yaw (CoreMotion yaw turns device x counter-clockwise from north,
    ///   +y is 90° counter-clockwise of x): row 2 yaw 1.385315374962279 rad → 190.62727572007827°;
    /// - headings are true north; the stand-in's MSL altitude column is used as `.msl`.
    @Test(.enabled(if: SharedData.available(ios))) func iosRowsPointDownWithTheGravityTilt() throws {
        let directory = try SharedData.temporaryDirectory("sensorlogger-ios")
        defer { try? FileManager.default.removeItem(at: directory) }
        for name in ["Orientation.csv", "Metadata.csv"] {
            try FileManager.default.createSymbolicLink(at: directory.appendingPathComponent(name),
                                                       withDestinationURL: Self.ios.appendingPathComponent(name))
        }
        try Data("""
        time,seconds_elapsed,altitude,altitudeAboveMeanSeaLevel,latitude,longitude,horizontalAccuracy,verticalAccuracy
        1663326947000000000,0,60.0,13.0,51.44,5.48,4,3
        1663326948000000000,1,60.0,13.0,51.44,5.48,4,3

        """.utf8).write(to: directory.appendingPathComponent("Location.csv"))
        let records = try Self.drain(SensorLoggerImporter(members: DirectoryMembers(path: directory.path)))
        #expect(records.count == 7)
        let first = try #require(records.first?.reading)
        let o = try #require(first.orientation)
        #expect(o.headingReference == .true)
        #expect(abs(o.pitch - -89.10849849707661) < 1e-3)
        #expect(abs(normalizedAzimuth(o.heading + o.roll) - 190.62727572007827) < 0.05)
        #expect(first.location.altitude == 13)
        #expect(first.location.altitudeReference == .msl)
        // Row 5 (line 5): gravity (−0.12086, 0.09180, −9.80548) → −89.1132187913575°; yaw
        // 1.4326199644278221 → 187.91692239210366°.
        let fourth = try #require(records[3].reading?.orientation)
        #expect(abs(fourth.pitch - -89.1132187913575) < 1e-3)
        #expect(abs(normalizedAzimuth(fourth.heading + fourth.roll) - 187.91692239210366) < 0.05)
    }

    @Test func orientationWithoutPlatformIsRejected() {
        #expect(throws: ImportError.self) {
            try SensorLoggerImporter(orientation: Self.reader("time,qx,qy,qz,qw\n"), location: Self.reader("time,latitude,longitude\n"),
                                     platform: nil)
        }
    }
}
