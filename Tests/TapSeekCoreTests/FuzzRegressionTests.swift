import Foundation
import Testing

@testable import TapSeekCore

/// Inputs that the fuzz targets in `Fuzz/` (run by `scripts/fuzz.sh`) found to break an
/// invariant, cut down to what shows the fault, each kept so that it stays fixed.
@Suite struct FuzzRegressionTests {
    static func records(_ importer: some ImportedRecordSource) throws -> [ImportedRecord] {
        var importer = importer
        var out: [ImportedRecord] = []
        while let record = try importer.next() { out.append(record) }
        return out
    }

    static func lines(_ text: String) -> LineReader {
        LineReader(source: MemoryByteSource(Array(text.utf8)))
    }

    /// The failure of a record, or nil when it imported.
    static func failure(_ record: ImportedRecord) -> ImportError? {
        if case .failure(let error) = record.result { return error }
        return nil
    }

    /// phyphox target: heights and accuracies far beyond what a reading may carry (the reading
    /// decoder refuses altitudes outside −1000…50000 m and accuracies above 100 km) were imported
    /// as they stood, so an imported record could not be written and read back as reading JSON.
    /// Each is now an error record naming its line and column; the plausible line still imports.
    @Test func phyphoxAbsurdHeightsAndAccuraciesAreErrorRecords() throws {
        let csv = """
        "Time (s)","Latitude (°)","Longitude (°)","Height (m)","Velocity (m/s)","Direction (°)","Horizontal Accuracy (m)","Vertical Accuracy (°)"
        1,65.02,25.48,1602710,NaN,NaN,29,30
        2,65.02,25.48,14.6,NaN,NaN,9.64680439883e+20,30
        3,65.02,25.48,14.6,NaN,NaN,29,43000000000
        4,65.02,25.48,14.6,NaN,NaN,29,30
        """
        let records = try Self.records(PhyphoxImporter(lines: Self.lines(csv), timeline: nil))
        #expect(records.map(\.line) == [2, 3, 4, 5])
        let failures = records.map(Self.failure)
        #expect(failures[0]?.code == .invalidValue && failures[0]?.column == "Height (m)")
        #expect(failures[0]?.message.contains("outside −1000…50000 metres") == true)
        #expect(failures[1]?.column == "Horizontal Accuracy (m)")
        #expect(failures[2]?.column == "Vertical Accuracy (°)")
        #expect(failures[3] == nil)
    }

    /// A phyphox time file whose START lies far in the future gave dates past the year 9999,
    /// which `ISO8601DateTime.format` (and so every result line) cannot write.
    @Test func phyphoxTimesBeyondTheYear9999AreErrorRecords() throws {
        let time = """
        "event","experiment time","system time","system time text"
        "START",0.0,1e300,"x"
        """
        let timeline = try PhyphoxTimeline(lines: Self.lines(time))
        let csv = """
        "Time (s)","Latitude (°)","Longitude (°)"
        1,65.02,25.48
        """
        let records = try Self.records(PhyphoxImporter(lines: Self.lines(csv), timeline: timeline))
        #expect(records.count == 1)
        #expect(records.first?.time == nil)
        #expect(records.first.flatMap(Self.failure)?.column == "Time (s)")
    }

    /// Sensor Logger `time` (nanoseconds) of 1e40 is 1e31 s: a date no reading can carry.
    @Test func sensorLoggerTimesBeyondTheYear9999AreErrorRecords() throws {
        let csv = """
        time,seconds_elapsed,verticalAccuracy,horizontalAccuracy,altitude,longitude,latitude
        1e40,1,1,5,158.4,-80.86,35.13
        1707663722373377800,1,1,5,158.4,-80.86,35.13
        1707663723373377800,1,1,5,1e9,-80.86,35.13
        """
        let importer = try SensorLoggerImporter(orientation: nil, location: Self.lines(csv), platform: nil)
        let records = try Self.records(importer)
        #expect(records.count == 3)
        #expect(records.first.flatMap(Self.failure)?.column == "time")
        #expect(records[1].reading != nil)
        #expect(records[2].reading == nil && Self.failure(records[2])?.column == "altitude")
    }

    /// GPSLogger elevations and accuracies get the reading decoder's limits too.
    @Test func gpsLoggerAbsurdElevationIsAnErrorRecord() throws {
        let csv = """
        time,lat,lon,elevation,accuracy
        2017-10-02T09:01:23.000Z,51.5,-0.12,1e12,5
        2017-10-02T09:01:24.000Z,51.5,-0.12,20,250000
        2017-10-02T09:01:25.000Z,51.5,-0.12,20,5
        """
        let records = try Self.records(GPSLoggerImporter(lines: Self.lines(csv)))
        #expect(records.map { Self.failure($0)?.column } == ["elevation", "accuracy", nil])
    }

    /// SensorLog: an altitude of 1e9 m, a horizontal accuracy of 1e7 m and a heading accuracy of
    /// 500° are error records; negative accuracies keep their meaning (invalid fix, no altitude).
    @Test func sensorLogAbsurdValuesAreErrorRecords() throws {
        let header = "locationTimestamp_since1970(s),locationLatitude(WGS84),locationLongitude(WGS84),"
            + "locationAltitude(m),locationVerticalAccuracy(m),locationHorizontalAccuracy(m)"
        let csv = [header,
                   "1500000000,46.5,8.0,1e9,3,5",
                   "1500000001,46.5,8.0,500,3,1e7",
                   "1e300,46.5,8.0,500,3,5",
                   "1500000003,46.5,8.0,500,-1,5"].joined(separator: "\n")
        let records = try Self.records(SensorLogImporter(lines: Self.lines(csv)))
        #expect(records.map { Self.failure($0)?.column } == ["locationAltitude(m)", "locationHorizontalAccuracy(m)",
                                                              "locationTimestamp_since1970(s)", nil])
        #expect(records[3].reading?.location.altitude == nil)
        #expect(Self.failure(records[1])?.message.contains("above 100000 metres") == true)
    }

    /// Reading target (its encoder round trip, on a hand-written input): a zone offset carried
    /// 0000-01-01 into the year −1 and 9999-12-31 into 10000, which the encoder then wrote as
    /// `-001-12-31T23:00:00Z` and `10000-01-01T01:00:00Z`, text no decoder reads back.
    @Test func readingTimesOutsideTheYears0000To9999AreRefused() throws {
        let decoder = ReadingDecoder(requiresOrientation: false)
        func reading(_ time: String) -> String { #"{"time":"\#(time)","location":{"latitude":1,"longitude":2}}"# }
        for time in ["0000-01-01T00:00:00+01:00", "9999-12-31T23:59:59.9999-01:00", "9999-12-31T23:59:59.9996Z"] {
            #expect(throws: ReadingError.self, "\(time)") { try decoder.decode(reading(time)) }
        }
        for time in ["0000-01-01T00:00:00Z", "9999-12-31T23:59:59.999Z", "9999-12-31T23:59:59-00:00"] {
            let decoded = try decoder.decode(reading(time))
            let again = try decoder.decode(ReadingEncoder().encode(decoded))
            #expect(again.time == decoded.time, "\(time)")
        }
    }

    /// SensorLog: a magnetic-north attitude frame on a log without any time column gave
    /// readings with a magnetic heading and no time, which reading JSON does not allow (no
    /// declination without a date); such a row is now an error record.
    @Test func sensorLogMagneticHeadingWithoutTimeIsAnErrorRecord() throws {
        let csv = """
        locationLatitude(WGS84),locationLongitude(WGS84),motionYaw(rad),motionPitch(rad),motionRoll(rad),motionAttitudeReferenceFrame(txt)
        46.5,8.0,0.1,0.2,0.3,XMagneticNorthZVertical
        46.5,8.0,0.1,0.2,0.3,XTrueNorthZVertical
        """
        let records = try Self.records(SensorLogImporter(lines: Self.lines(csv)))
        #expect(records.count == 2)
        #expect(Self.failure(records[0])?.code == .missingValue)
        #expect(Self.failure(records[0])?.message.contains("magnetic") == true)
        #expect(records[1].reading?.orientation?.headingReference == .true)
    }

    /// Geocoder index target: a place record whose k-d split axis (a `Float` in `PLACEKD`) was
    /// NaN or huge trapped converting it to `Int` during a look-up. A damaged axis now searches
    /// along some axis instead; the tree may then miss the nearest place, but nothing traps.
    @Test func geocoderPlaceTreeWithDamagedSplitAxisDoesNotTrap() throws {
        for axis in [Float.nan, .infinity, -.infinity, 1e30, -1e30] {
            var file: [UInt8] = Array("TSGEOIDX".utf8)
            func append<T: FixedWidthInteger>(_ v: T) { withUnsafeBytes(of: v.littleEndian) { file += $0 } }
            func append(_ v: Float) { append(v.bitPattern) }
            append(IndexSections.formatVersion)
            append(UInt32(2))
            for (tag, offset, length) in [("PLACEKD", 64, 48), ("PLACE", 112, 24)] {
                file += Array(tag.utf8) + [UInt8](repeating: 0, count: 8 - tag.utf8.count)
                append(UInt64(offset))
                append(UInt64(length))
            }
            // Three places along x; the middle one splits the range (a bucket of 1).
            for (x, w) in [(Float(-0.5), Float(0)), (0, axis), (0.5, 0)] {
                append(x); append(Float(0.8)); append(Float(0)); append(w)
            }
            for _ in 0..<6 { append(UInt32.max) }
            let hit = try file.withUnsafeBytes { raw in
                let tree = try PlaceTree(sections: IndexSections(raw), bucket: 1)
                return tree.nearest(raw, to: SIMD3(0.5, 0.8, 0), in: 0..<3)
            }
            #expect(hit != nil, "axis \(axis)")
        }
    }

    /// Geocoder index target (a timeout): a node table whose node is its own child unfolded, in
    /// the nearest-border search near a pole (every column searched), into 4^24 cells per top
    /// cell. The search now visits at most as many nodes as the table holds (a few: it ends at
    /// once); the time limit is the hang guard that fails the unfolding search.
    @Test(.timeLimit(.minutes(10))) func geocoderNearestSearchOverACyclicNodeTableEnds() throws {
        let gridBytes = 4 * QuadGrid.columns * QuadGrid.rows
        var file: [UInt8] = Array("TSGEOIDX".utf8)
        func append<T: FixedWidthInteger>(_ v: T) { withUnsafeBytes(of: v.littleEndian) { file += $0 } }
        append(IndexSections.formatVersion)
        append(UInt32(3))
        let gridOffset = 96
        for (tag, offset, length) in [("CGRD", gridOffset, gridBytes), ("CNOD", gridOffset + gridBytes, 16),
                                      ("CLEF", gridOffset + gridBytes + 16, 8)] {
            file += Array(tag.utf8) + [UInt8](repeating: 0, count: 8 - tag.utf8.count)
            append(UInt64(offset))
            append(UInt64(length))
        }
        file += [UInt8](repeating: 0, count: gridOffset - file.count)
        let node0 = QuadGrid.tagNode << 30
        for _ in 0..<(QuadGrid.columns * QuadGrid.rows + 4) { append(node0) }   // every cell, and node 0's children
        file += [UInt8](repeating: 0, count: 8)
        let found = try file.withUnsafeBytes { raw in
            let layer = try PolygonLayer(sections: IndexSections(raw), prefix: "C", ownerCount: 1, trustsOpenSea: false)
            return layer.nearestOwner(raw, x: 179.99, y: 89.99, within: 10_000, accept: { _ in true })
        }
        #expect(found == nil)
    }
}
