import Foundation
import TapSeekTestSupport
import Testing

@testable import TapSeekCore

@Suite struct PhyphoxImporterTests {
    static let location = SharedData.sensorLogs.appendingPathComponent("phyphox_location.csv")
    static let time = SharedData.sensorLogs.appendingPathComponent("phyphox_meta_time.csv")

    static func records(_ reader: LineReader, timeline: PhyphoxTimeline?) throws -> [ImportedRecord] {
        var importer = try PhyphoxImporter(lines: reader, timeline: timeline)
        var out: [ImportedRecord] = []
        while let r = try importer.next() { out.append(r) }
        return out
    }

    /// Experiment times become dates through meta/time.csv's START (UNIX 1739964421.115021):
    /// 6.807923317e−3 s → 1739964421.121829, 11.20818102 s → 1739964432.323202. Heights are
    /// about mean sea level; the "Vertical Accuracy (°)" column is metres.
    @Test(.enabled(if: SharedData.available(location))) func sampleWithItsTimeFile() throws {
        let timeline = try PhyphoxTimeline(lines: LineReader(path: Self.time.path))
        let records = try Self.records(LineReader(path: Self.location.path), timeline: timeline)
        #expect(records.count == 15)
        #expect(records.map(\.line) == Array(2...16))
        let first = try #require(records.first?.reading)
        #expect(abs(try #require(records.first?.time).timeIntervalSince1970 - 1_739_964_421.121829) < 1e-5)
        #expect(abs(try #require(records.last?.time).timeIntervalSince1970 - 1_739_964_432.323202) < 1e-5)
        #expect(first.location.latitude == 6.502446433e1)
        #expect(first.location.longitude == 2.548243086e1)
        #expect(first.location.altitude == 1.463160271e1)
        #expect(first.location.altitudeReference == .msl)
        #expect(first.location.horizontalAccuracy == 2.899903861e1)
        #expect(first.location.verticalAccuracy == 3.0e1)
        #expect(records.allSatisfy { $0.reading?.orientation == nil })
    }

    @Test(.enabled(if: SharedData.available(location))) func withoutTimeFileRecordsHaveNoTime() throws {
        let records = try Self.records(LineReader(path: Self.location.path), timeline: nil)
        #expect(records.count == 15)
        #expect(records.allSatisfy { $0.time == nil && $0.reading != nil })
    }

    /// After a pause the experiment clock resumes where it stopped while the system clock jumped:
    /// a sample at experiment time 150 s after a START at (100 s, UNIX 2000) is at UNIX 2050.
    @Test func pausedExperimentMapsTimesPerStart() throws {
        let time = """
        "event","experiment time","system time","system time text"
        "START",0.0,1000.0,"x"
        "PAUSE",100.0,1100.0,"x"
        "START",100.0,2000.0,"x"
        """
        let timeline = try PhyphoxTimeline(lines: LineReader(source: MemoryByteSource(Array(time.utf8))))
        #expect(timeline.date(experimentTime: 50) == Date(timeIntervalSince1970: 1050))
        #expect(timeline.date(experimentTime: 150) == Date(timeIntervalSince1970: 2050))
    }

    /// phyphox's "CSV (Semicolon, decimal comma)" export; NaN position → an error record.
    @Test func semicolonDecimalCommaExportAndNaNPosition() throws {
        let text = """
        "Time (s)";"Latitude (°)";"Longitude (°)";"Height (m)";"Velocity (m/s)";"Direction (°)";"Horizontal Accuracy (m)";"Vertical Accuracy (°)"
        1,5E0;6,5E1;2,5E1;1,4E1;NaN;NaN;2,9E1;3,0E1
        2,0E0;NaN;NaN;NaN;NaN;NaN;NaN;NaN
        """
        let records = try Self.records(LineReader(source: MemoryByteSource(Array(text.utf8))), timeline: nil)
        #expect(records.count == 2)
        let reading = try #require(records[0].reading)
        #expect(reading.location.latitude == 65)
        #expect(reading.location.altitude == 14)
        guard case .failure(let error) = records[1].result else { Issue.record("expected an error"); return }
        #expect(error.code == .missingValue)
        #expect(error.column == "Latitude (°)")
    }
}
