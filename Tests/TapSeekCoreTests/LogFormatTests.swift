import Foundation
import TapSeekTestSupport
import Testing

@testable import TapSeekCore

@Suite struct LogFormatTests {
    static func detect(_ text: String) throws -> LogFormat {
        var reader = LineReader(source: MemoryByteSource(Array(text.utf8)))
        return try LogFormat.detect(&reader)
    }

    @Test(.enabled(if: SharedData.available(SharedData.sensorLogs))) func sharedSamplesAreRecognised() throws {
        let logs = SharedData.sensorLogs
        #expect(try LogFormat.detect(path: logs.appendingPathComponent("sensorlog_ios_iphoneX_2018.csv").path) == .sensorlog)
        #expect(try LogFormat.detect(path: logs.appendingPathComponent("gpslogger_android_2017.csv").path) == .gpslogger)
        #expect(try LogFormat.detect(path: logs.appendingPathComponent("phyphox_location.csv").path) == .phyphox)
        #expect(try LogFormat.detect(path: logs.appendingPathComponent("sensorlogger_android_2024").path) == .sensorlogger)
        #expect(try LogFormat.detect(path: logs.appendingPathComponent("sensorlogger_ios_2022").path) == .sensorlogger)
        #expect(try LogFormat.detect(path: logs.appendingPathComponent("sensorlogger_android_2024/Location.csv").path) == .sensorlogger)
    }

    @Test func jsonLinesByTheirFirstCharacter() throws {
        #expect(try Self.detect("\n  {\"location\": {}}\n") == .jsonl)
        #expect(try Self.detect("\u{FEFF}{}") == .jsonl)
    }

    @Test func detectionLeavesTheLinesForTheImporter() throws {
        var reader = LineReader(source: MemoryByteSource(Array("19\ntime,lat,lon\n2017-08-13T08:52:26Z,60,5\n".utf8)))
        #expect(try LogFormat.detect(&reader) == .gpslogger)
        var importer = try GPSLoggerImporter(lines: reader)
        #expect(try importer.next()?.line == 3)
    }

    @Test func unknownInputIsRejectedWithAReason() {
        #expect {
            try Self.detect("a,b,c\n1,2,3\n")
        } throws: { error in
            (error as? ImportError)?.code == .unsupportedLog
        }
    }

    /// A folder export: phyphox by meta/time.csv, opened through ``LogImport``.
    @Test(.enabled(if: SharedData.available(SharedData.sensorLogs))) func phyphoxFolderExportOpens() throws {
        let directory = try SharedData.temporaryDirectory("phyphox")
        defer { try? FileManager.default.removeItem(at: directory) }
        let meta = directory.appendingPathComponent("meta")
        try FileManager.default.createDirectory(at: meta, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: directory.appendingPathComponent("Location.csv"),
                                                   withDestinationURL: SharedData.sensorLogs.appendingPathComponent("phyphox_location.csv"))
        try FileManager.default.createSymbolicLink(at: meta.appendingPathComponent("time.csv"),
                                                   withDestinationURL: SharedData.sensorLogs.appendingPathComponent("phyphox_meta_time.csv"))
        #expect(try LogFormat.detect(path: directory.path) == .phyphox)
        var records = try LogImport.open(path: directory.path, format: .phyphox)
        let first = try #require(try records.next())
        #expect(first.time != nil)
        // The location file alone, beside its meta/ folder, finds the clock too.
        var single = try LogImport.open(path: directory.appendingPathComponent("Location.csv").path, format: .phyphox)
        #expect(try single.next()?.time == first.time)
    }

    @Test func jsonLinesAreNotImported() {
        #expect(throws: ImportError.self) {
            try LogImport.open(lines: LineReader(source: MemoryByteSource([])), format: .jsonl)
        }
    }
}
