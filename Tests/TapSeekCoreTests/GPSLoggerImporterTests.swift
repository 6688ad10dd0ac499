import Foundation
import TapSeekTestSupport
import Testing

@testable import TapSeekCore

@Suite struct GPSLoggerImporterTests {
    static let sample = SharedData.sensorLogs.appendingPathComponent("gpslogger_android_2017.csv")

    static func records(_ reader: LineReader) throws -> [ImportedRecord] {
        var importer = try GPSLoggerImporter(lines: reader)
        var out: [ImportedRecord] = []
        while let r = try importer.next() { out.append(r) }
        return out
    }

    /// The sample's first line "19" (added by its publisher) is skipped; the six fixes (lines
    /// 3–8) become location-only readings with ellipsoidal heights, as GPSLogger writes them.
    @Test(.enabled(if: SharedData.available(sample))) func sampleGivesLocationOnlyEllipsoidalReadings() throws {
        let records = try Self.records(LineReader(path: Self.sample.path))
        #expect(records.map(\.line) == [3, 4, 5, 6, 7, 8])
        for record in records {
            let reading = try #require(record.reading)
            #expect(reading.orientation == nil)
            #expect(reading.location.altitudeReference == .ellipsoid)
        }
        let first = try #require(records.first?.reading)
        #expect(first.location.latitude == 60.385390)
        #expect(first.location.longitude == 5.217217)
        #expect(first.location.altitude == 61.9)
        #expect(first.location.horizontalAccuracy == 7.0)
        // 2017-08-13T08:52:26Z: 17 391 days after 1970-01-01 (date -d @1502614346 -u).
        #expect(records.first?.time == Date(timeIntervalSince1970: 1_502_614_346))
        #expect(records.last?.reading?.location.altitude == 49.7)
    }

    @Test func badTimeAndMissingPositionAreErrorRecords() throws {
        let text = """
        time,lat,lon,elevation,accuracy
        2017-08-13 08:52:26,60.1,5.2,10,5
        2017-08-13T08:52:27Z,,5.2,10,5
        2017-08-13T08:52:28Z,91,5.2,10,5
        2017-08-13T08:52:29Z,60.1,5.2,,
        """
        let records = try Self.records(LineReader(source: MemoryByteSource(Array(text.utf8))))
        #expect(records.count == 4)
        guard case .failure(let noOffset) = records[0].result, case .failure(let empty) = records[1].result,
              case .failure(let range) = records[2].result else { Issue.record("expected three errors"); return }
        #expect(noOffset.column == "time")
        #expect(empty.description == "line 3, column \"lat\": is empty")
        #expect(range.code == .invalidValue)
        #expect(records[3].reading?.location.altitude == nil)
    }

    @Test func fileWithoutGPSLoggerHeaderIsRejected() {
        let text = "19\nsomething,else\n1,2\n"
        #expect(throws: ImportError.self) {
            try Self.records(LineReader(source: MemoryByteSource(Array(text.utf8))))
        }
    }
}
