import Foundation
import TapSeekTestSupport
import Testing

@testable import TapSeekCore

/// SensorLog (iOS) wide CSV: the real sample is an iPhone X on a car dashboard in landscape
/// (gravity along device +x), attitude in `XArbitraryCorrectedZVertical`, driving south.
@Suite struct SensorLogImporterTests {
    static let sample = SharedData.sensorLogs.appendingPathComponent("sensorlog_ios_iphoneX_2018.csv")

    static func records(_ reader: LineReader) throws -> [ImportedRecord] {
        var importer = try SensorLogImporter(lines: reader)
        var out: [ImportedRecord] = []
        while let r = try importer.next() { out.append(r) }
        return out
    }

    static func records(text: String) throws -> [ImportedRecord] {
        try records(LineReader(source: MemoryByteSource(Array(text.utf8))))
    }

    static func sampleRecords() throws -> [ImportedRecord] {
        try records(LineReader(path: sample.path))
    }

    /// Expected camera angles of the sample's five data rows (lines 2–6), computed outside this
    /// code with numpy from the row's own columns:
    /// R = M·R(q) from `motionQuaternionX…W`, M = [[0,−1,0],[1,0,0],[0,0,1]];
    /// heading = locationTrueHeading + az(R·(0,0,−1)) − az(R·(0,1,0)), az(v) = atan2(vE, vN);
    /// pitch = asin((R·(0,0,−1))U); roll = atan2(−(R·x̂)U, (R·ŷ)U).
    static let expected: [(line: Int, heading: Double, pitch: Double, roll: Double)] = [
        (2, 181.18092078314217, -0.3786856272307193, 91.53993567766602),
        (3, 181.1679171154174, -0.3979271382259659, 91.5493955943146),
        (4, 181.19021435699935, -0.3426940928918737, 91.5204232793868),
        (5, 181.190190350698, -0.22047791781769435, 91.41012217972535),
        (6, 181.19260688850056, -0.18680904890266878, 91.37245051612527),
    ]

    @Test(.enabled(if: SharedData.available(sample))) func cameraHeadingFollowsTheTrueHeadingIdentity() throws {
        let records = try Self.sampleRecords()
        #expect(records.map(\.line) == Self.expected.map(\.line))
        for (record, want) in zip(records, Self.expected) {
            let o = try #require(record.reading?.orientation)
            #expect(abs(o.heading - want.heading) < 1e-6, "line \(record.line)")
            #expect(abs(o.pitch - want.pitch) < 1e-6, "line \(record.line)")
            #expect(abs(o.roll - want.roll) < 1e-6, "line \(record.line)")
            #expect(o.headingReference == .true)
            #expect(o.headingAccuracy == 10)
        }
    }

    /// A camera looking out of the windscreen points along the car's track: the GPS course
    /// (181.35° on every row) agrees with the camera heading (conventions.md: median 0.13° over
    /// the whole drive). Landscape with the phone's right edge down gives roll ≈ +90°.
    @Test(.enabled(if: SharedData.available(sample))) func cameraHeadingAgreesWithGPSCourse() throws {
        let course = 181.3503723144531
        for record in try Self.sampleRecords() {
            let o = try #require(record.reading?.orientation)
            #expect(abs(o.heading - course) < 0.5)
            #expect(abs(o.pitch) < 2)
            #expect(abs(o.roll - 90) < 3)
        }
    }

    /// The same log with its quaternion columns removed (as a user may configure SensorLog) goes
    /// through the Euler angles motionYaw/Pitch/Roll: the two agree to 2e−4 rad (conventions.md).
    @Test(.enabled(if: SharedData.available(sample))) func eulerOnlyLogAgreesWithQuaternionLog() throws {
        let text = try String(contentsOf: Self.sample, encoding: .utf8)
        let rows = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let drop = Set(rows[0].indices.filter { rows[0][$0].hasPrefix("motionQuaternion") })
        #expect(drop.count == 4)
        let stripped = rows.map { fields in
            fields.indices.filter { !drop.contains($0) }.map { fields[$0] }.joined(separator: ",")
        }.joined(separator: "\n")
        let euler = try Self.records(text: stripped)
        let quaternion = try Self.sampleRecords()
        #expect(euler.count == quaternion.count)
        let tolerance = degrees(2e-4)
        for (e, q) in zip(euler, quaternion) {
            let a = try #require(e.reading?.orientation)
            let b = try #require(q.reading?.orientation)
            #expect(abs(a.heading - b.heading) < tolerance)
            #expect(abs(a.pitch - b.pitch) < tolerance)
            #expect(abs(a.roll - b.roll) < tolerance)
        }
    }

    /// Position and altitude come as written, mean sea level; time is `loggingTime` (local,
    /// 10:31:37.097 on 2018-04-08) shifted by the UTC offset inferred from the row's UTC stamps
    /// (latest 1523201496.99 = 15:31:36.99Z → −5 h, US Central Daylight Time): 1523201497.097.
    @Test(.enabled(if: SharedData.available(sample))) func locationAndTimeOfTheFirstRow() throws {
        let first = try #require(try Self.sampleRecords().first)
        let reading = try #require(first.reading)
        #expect(reading.location.latitude == 30.32761344474721)
        #expect(reading.location.longitude == -97.75601718861044)
        #expect(reading.location.altitude == 209.261)
        #expect(reading.location.altitudeReference == .msl)
        #expect(reading.location.horizontalAccuracy == 8)
        #expect(reading.location.verticalAccuracy == 3)
        let t = try #require(first.time)
        #expect(abs(t.timeIntervalSince1970 - 1_523_201_497.097) < 1e-6)
        #expect(reading.time == first.time)
    }

    static let smallHeader = "loggingTime(txt),locationTimestamp_since1970(s),locationLatitude(WGS84),locationLongitude(WGS84),"
        + "locationAltitude(m),locationVerticalAccuracy(m),locationHorizontalAccuracy(m),locationTrueHeading(°),"
        + "locationMagneticHeading(°),locationHeadingAccuracy(°),motionAttitudeReferenceFrame(txt),"
        + "motionQuaternionX(R),motionQuaternionY(R),motionQuaternionZ(R),motionQuaternionW(R)"

    /// Phone flat (identity attitude: device x = the frame's x, y = its west, +y at azimuth 270°
    /// of the arbitrary frame) with a compass reading of 300° → the frame is turned 30° from
    /// north. Then the phone stands upright facing the frame's x (device −z along x, +y up,
    /// quaternion (½, −½, −½, ½)): CLHeading is meaningless (+y vertical) and ignored; the camera
    /// heading is 0° + 30° = 30°, level, no roll.
    @Test func northOffsetCarriesOverToAnUprightPhone() throws {
        let text = """
        \(Self.smallHeader)
        2024-05-01 12:00:00.000,1714564800,46.5,8.0,1000,5,5,300,298,5,XArbitraryCorrectedZVertical,0,0,0,1
        2024-05-01 12:00:01.000,1714564801,46.5,8.0,1000,5,5,123,121,5,XArbitraryCorrectedZVertical,0.5,-0.5,-0.5,0.5
        """
        let records = try Self.records(text: text)
        let flat = try #require(records[0].reading?.orientation)
        #expect(abs(flat.pitch + 90) < 1e-9)
        let upright = try #require(records[1].reading?.orientation)
        #expect(abs(upright.heading - 30) < 1e-9)
        #expect(abs(upright.pitch) < 1e-9)
        #expect(abs(upright.roll) < 1e-9)
        // 12:00 wall clock with the UTC stamp 1714564800 = 2024-05-01T12:00:00Z → offset 0.
        #expect(records[1].time == Date(timeIntervalSince1970: 1_714_564_801))
    }

    @Test func uprightPhoneWithoutAnEarlierCompassFixIsAnErrorRecord() throws {
        let text = """
        \(Self.smallHeader)
        2024-05-01 12:00:01.000,1714564801,46.5,8.0,1000,5,5,123,121,5,XArbitraryCorrectedZVertical,0.5,-0.5,-0.5,0.5
        """
        let record = try #require(try Self.records(text: text).first)
        guard case .failure(let error) = record.result else { Issue.record("expected an error record"); return }
        #expect(error.code == .missingValue)
        #expect(error.line == 2)
        #expect(error.column == "locationTrueHeading(°)")
    }

    /// SensorLog's sentinels: −1 true heading → the magnetic heading is used and says so;
    /// −1 horizontal accuracy → CoreLocation's invalid fix → an error record naming the column;
    /// −1 vertical accuracy → altitude left out; a truncated row → an error record; the
    /// `XTrueNorthZVertical` frame needs no compass at all.
    @Test func sentinelsAndDamagedRows() throws {
        let text = """
        \(Self.smallHeader)
        2024-05-01 12:00:00.000,1714564800,46.5,8.0,1000,5,5,-1,298,5,XArbitraryCorrectedZVertical,0,0,0,1
        2024-05-01 12:00:01.000,1714564801,46.5,8.0,1000,5,-1,300,298,5,XArbitraryCorrectedZVertical,0,0,0,1
        2024-05-01 12:00:02.000,1714564802,46.5,8.0,1000,-1,5,300,298,5,XArbitraryCorrectedZVertical,0,0,0,1
        2024-05-01 12:00:03.000,1714564803,46.5,8.0,1000,5,5,300,298

        2024-05-01 12:00:04.000,1714564804,46.5,8.0,-9999,5,5,-1,-1,-1,XTrueNorthZVertical,0.5,-0.5,-0.5,0.5
        """
        let records = try Self.records(text: text)
        #expect(records.map(\.line) == [2, 3, 4, 5, 7])
        // Flat phone, +y at 270° of the frame, magnetic 298° → a 28° turn; −z straight down.
        let magnetic = try #require(records[0].reading?.orientation)
        #expect(magnetic.headingReference == .magnetic)
        #expect(abs(magnetic.pitch + 90) < 1e-9)
        guard case .failure(let invalidFix) = records[1].result else { Issue.record("expected an error"); return }
        #expect(invalidFix.column == "locationHorizontalAccuracy(m)")
        #expect(records[2].reading?.location.altitude == nil)
        #expect(records[2].reading?.location.verticalAccuracy == nil)
        guard case .failure(let truncated) = records[3].result else { Issue.record("expected an error"); return }
        #expect(truncated.code == .malformedLine)
        #expect(truncated.description.hasPrefix("line 5: 9 fields where the header has 15"))
        // True-north frame, upright facing x = north: heading 0, no compass, no altitude (−9999).
        let absolute = try #require(records[4].reading)
        #expect(absolute.location.altitude == nil)
        #expect(absolute.orientation?.headingReference == .true)
        #expect(abs(absolute.orientation!.heading) < 1e-9 || abs(absolute.orientation!.heading - 360) < 1e-9)
        #expect(absolute.orientation?.headingAccuracy == nil)
    }

    @Test func logWithoutAttitudeGivesLocationOnlyReadings() throws {
        let text = """
        loggingTime(txt),locationLatitude(WGS84),locationLongitude(WGS84),locationAltitude(m)
        2024-05-01T12:00:00.000+02:00,46.5,8.0,1000
        """
        let record = try #require(try Self.records(text: text).first)
        let reading = try #require(record.reading)
        #expect(reading.orientation == nil)
        #expect(record.time == Date(timeIntervalSince1970: 1_714_557_600))
    }

    @Test func nonNumberIsAnErrorRecordNamingLineAndColumn() throws {
        let text = """
        locationLatitude(WGS84),locationLongitude(WGS84)
        46.5x,8.0
        """
        let record = try #require(try Self.records(text: text).first)
        guard case .failure(let error) = record.result else { Issue.record("expected an error"); return }
        #expect(error.description == "line 2, column \"locationLatitude(WGS84)\": \"46.5x\" is not a number")
    }
}
