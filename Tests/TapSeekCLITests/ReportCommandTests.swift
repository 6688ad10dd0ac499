import Foundation
import TapSeekTestSupport
import Testing

/// `tapseek report` as a user runs it: the page it writes holds one row per input line, in
/// order, agreeing with `tapseek batch` over the same log; bad usage is one line on stderr.
@Suite struct ReportCommandTests {
    @Test(.enabled(if: SharedData.available(ReportFixture.tile)))
    func testEveryInputLineIsOneRowAgreeingWithBatch() throws {
        let fixture = try ReportFixture.make()
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        let page = fixture.directory.appendingPathComponent("report.html")
        let run = try CLIRunner.run(["report", fixture.log.path, "-o", page.path, "--dem", fixture.dem.path], environment: ["GDAL_PAM_ENABLED": "NO"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.isEmpty)
        let rows = try ReportFixture.rows(ofPage: page)
        let records = try ReportFixture.batch(fixture.log, dem: fixture.dem)
        #expect(rows.count == ReportFixture.lines.count)
        #expect(rows.count == records.count)
        for (row, record) in zip(rows, records) {
            #expect(row[0] as? Int == record["line"] as? Int)
            #expect(row[2] as? String == record["status"] as? String)
            let target = record["target"] as? [String: Any]
            if let target, let latitude = target["latitude"] as? Double, let distance = target["distance"] as? Double {
                #expect(abs((row[5] as? Double ?? .nan) - latitude) < 1e-6)
                #expect(abs((row[8] as? Double ?? .nan) - distance) <= 0.5)
                #expect(row[12] is [Any], "line \(record["line"] ?? 0): a located reading has its profile")
            } else {
                #expect(row[5] is NSNull)
            }
            if record["status"] as? String == "error" {
                let message = (record["error"] as? [String: Any])?["message"] as? String ?? "?"
                #expect((row[11] as? String)?.contains(message) == true, "an error line carries its message")
            }
        }
        // The page fetches nothing: no URL outside the Content-Security-Policy's own words.
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(!html.contains("http://") && !html.contains("https://") && !html.contains("src=\"//"))
        #expect(html.contains("default-src 'none'"))
    }

    @Test(.enabled(if: SharedData.available(ReportFixture.tile)))
    func testUncertaintyAddsRegions() throws {
        let fixture = try ReportFixture.make()
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        let log = fixture.directory.appendingPathComponent("short.jsonl")
        try (ReportFixture.lines.prefix(4).joined(separator: "\n") + "\n").write(to: log, atomically: true, encoding: .utf8)
        let page = fixture.directory.appendingPathComponent("report.html")
        let run = try CLIRunner.run(["report", log.path, "-o", page.path, "--dem", fixture.dem.path, "--uncertainty", "--samples", "100"],
                                    environment: ["GDAL_PAM_ENABLED": "NO"])
        #expect(run.status == 0, "\(run.stderr)")
        let rows = try ReportFixture.rows(ofPage: page)
        #expect(rows.count == 4)
        #expect(rows.contains { ($0[13] as? [Any])?.isEmpty == false }, "some located reading has a 95 % region")
        // The relief covers the regions whole.
        let relief = try #require(try ReportFixture.data(ofPage: page)["relief"] as? [String: Any])
        let (south, west, north, east) = try (#require(relief["south"] as? Double), #require(relief["west"] as? Double),
                                              #require(relief["north"] as? Double), #require(relief["east"] as? Double))
        for row in rows {
            for polygon in row[13] as? [[[Double]]] ?? [] {
                for vertex in polygon {
                    #expect((south...north).contains(vertex[0]) && (west...east).contains(vertex[1]), "region vertex \(vertex) outside the map")
                }
            }
        }
    }

    @Test(.enabled(if: SharedData.available(SharedData.sensorLogs.appendingPathComponent("sensorlogger_android_2024"))))
    func testRealSensorLoggerExportGivesARowPerRecord() throws {
        let export = SharedData.sensorLogs.appendingPathComponent("sensorlogger_android_2024")
        let directory = try SharedData.temporaryDirectory("report-real")
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = directory.appendingPathComponent("report.html")
        let dem = directory.appendingPathComponent("dem")
        try FileManager.default.createDirectory(at: dem, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: dem.appendingPathComponent("N46E008.tif"), withDestinationURL: ReportFixture.tile)
        let run = try CLIRunner.run(["report", export.path, "-o", page.path, "--dem", dem.path], environment: ["GDAL_PAM_ENABLED": "NO"])
        #expect(run.status == 0, "\(run.stderr)")
        let records = try ReportFixture.batch(export, dem: dem)
        let rows = try ReportFixture.rows(ofPage: page)
        #expect(!rows.isEmpty)
        #expect(rows.map { $0[0] as? Int } == records.map { $0["line"] as? Int })
        #expect(rows.map { $0[2] as? String } == records.map { $0["status"] as? String })
    }

    @Test func testMissingOutputDirectoryIsOneLineNamingTheOption() throws {
        let run = try CLIRunner.run(["report", "-", "-o", "/nonexistent-dir/r.html"], stdin: "")
        #expect(run.status == 1)
        #expect(run.stderrLines.count == 1)
        #expect(run.stderr.contains("--output /nonexistent-dir/r.html"))
    }

    @Test func testMissingInputIsOneLineNamingTheFile() throws {
        let directory = try SharedData.temporaryDirectory("report-missing")
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = directory.appendingPathComponent("r.html")
        let run = try CLIRunner.run(["report", "/nonexistent-log.jsonl", "-o", page.path])
        #expect(run.status == 1)
        #expect(run.stderrLines.count == 1)
        #expect(run.stderr.contains("/nonexistent-log.jsonl"))
        #expect(!FileManager.default.fileExists(atPath: page.path))
    }

    @Test func testOutputDirectoryIsRefusedBeforeTheBatch() throws {
        let directory = try SharedData.temporaryDirectory("report-directory")
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try CLIRunner.run(["report", "-", "-o", directory.path], stdin: "{}\n")
        #expect(run.status == 1)
        #expect(run.stderrLines.count == 1)
        #expect(run.stderr.contains("--output \(directory.path): is a directory"))
    }

    @Test func testOutputIsRequired() throws {
        let run = try CLIRunner.run(["report", "-"], stdin: "")
        #expect(run.status == 2)
        #expect(run.stderr.contains("--output"))
    }

    /// The script and style the executable embeds are the resource files (run
    /// scripts/embed-report-resources.sh after editing them).
    @Test func testEmbeddedResourcesMatchTheirFiles() throws {
        let generated = try String(contentsOf: CLIRunner.packageRoot.appendingPathComponent("Sources/tapseek/Report/ReportResources.swift"), encoding: .utf8)
        for name in ["report.js", "report.css"] {
            let file = try String(contentsOf: CLIRunner.packageRoot.appendingPathComponent("Sources/tapseek/Report/Resources/\(name)"), encoding: .utf8)
            #expect(generated.contains("#\"\"\"\n" + file + "\"\"\"#"), "\(name) differs from ReportResources.swift: run scripts/embed-report-resources.sh")
        }
    }
}
