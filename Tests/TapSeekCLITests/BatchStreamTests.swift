import Foundation
import Testing
import TapSeekTestSupport

/// `batch --format auto` on paths that can be read only once (issue 10, item 2): the bytes read
/// to recognise the format are handed out again, so every input line gives its record.
struct BatchStreamTests {
    /// Writes `data` into a FIFO from another thread and runs batch on the FIFO's path.
    static func runThroughFIFO(_ data: Data, _ arguments: [String] = []) throws -> CLIRunner.Result {
        let folder = try SharedData.temporaryDirectory("fifo")
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("log").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = Thread {
            if let handle = FileHandle(forWritingAtPath: fifo) {
                handle.write(data)
                try? handle.close()
            }
        }
        writer.start()
        return try CLIRunner.run(["batch", fifo] + arguments)
    }

    @Test func jsonLinesThroughAFIFOLoseNothing() throws {
        let reading = #"{"location":{"latitude":36.34,"longitude":-84.18},"orientation":{"heading":196.1,"pitch":2.4}}"#
        let text = (1...3000).map { i in i % 500 == 0 ? "{broken \(i)" : reading }.joined(separator: "\n") + "\n"
        let result = try Self.runThroughFIFO(Data(text.utf8), ["--jobs", "2"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 3000)
        let numbers = try lines.map { line -> Int in
            let json = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return try #require(json["line"] as? Int)
        }
        #expect(numbers == Array(1...3000))
    }

    /// A phone log's CSV header is recognised through the FIFO, and every row still gives its
    /// record, as from the file itself.
    @Test(.enabled(if: SharedData.available(SharedData.sensorLogs)))
    func aCSVLogThroughAFIFOGivesTheSameRecords() throws {
        let log = SharedData.sensorLogs.appendingPathComponent("gpslogger_android_2017.csv")
        try #require(SharedData.exists(log), Comment(rawValue: SharedData.missing(log)))
        let direct = try CLIRunner.run(["batch", log.path])
        let piped = try Self.runThroughFIFO(try Data(contentsOf: log))
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout == direct.stdout)
        #expect(!piped.stdout.isEmpty)
    }

    /// A reading pretty-printed over many lines (as the project's examples are) is one reading,
    /// not one error per line (issue 10, item 12).
    @Test(arguments: ["cross-mountain.json", "calibrate-cross-mountain.json"])
    func aPrettyPrintedReadingIsOneRecord(_ example: String) throws {
        let path = SharedData.projectRoot.appendingPathComponent("examples").appendingPathComponent(example).path
        // The calibration example's skyline is settled only within the default DEM's 20 km.
        let range = example.hasPrefix("calibrate") ? ["--skyline-range", "20000"] : []
        let result = try CLIRunner.run(["batch", path] + range)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        let record = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(record["line"] as? Int == 1 && record["status"] as? String == "hit", "\(record)")
    }
}
