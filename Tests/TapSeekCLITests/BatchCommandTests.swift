import Foundation
import Testing
import TapSeekTestSupport

/// `tapseek batch` run end to end as a built executable: one result line per input record, in
/// order, broken lines as error records, real phone logs without loss.
@Suite(.enabled(if: SharedData.available(SharedData.dem), "needs ../shared/dem"))
struct BatchCommandTests {
    let dem = ["--dem", SharedData.dem.path]

    /// Grindelwald (46.6240 N, 8.0410 E) looking 208° at 26° up: the Eiger's north face
    /// (summit 46.5775 N, 8.0050 E, 3967 m by swisstopo, 3933 m in the SRTM tile).
    static let eiger = #"{"id":"eiger","time":"2026-07-14T09:31:05Z","location":{"latitude":46.6240,"longitude":8.0410},"orientation":{"heading":208,"pitch":26}}"#
    /// The same observer looking 20° down: the ground a few metres away (cheap to locate).
    static let ground = #"{"id":"ground","location":{"latitude":46.6240,"longitude":8.0410},"orientation":{"heading":208,"pitch":-20}}"#
    /// No orientation: a location-only record.
    static let locationOnly = #"{"id":"where","location":{"latitude":46.6240,"longitude":8.0410,"altitude":1100}}"#
    /// In the Gulf of Guinea, 1000 km from any shared tile.
    static let outside = #"{"id":"sea","location":{"latitude":10,"longitude":10},"orientation":{"heading":0,"pitch":0}}"#

    func json(_ line: Substring) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not a JSON object: \(line.prefix(200))")
    }

    /// The stdout lines (a final newline does not open an empty last line).
    func lines(_ stdout: String) -> [Substring] {
        var lines = stdout.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        return lines
    }

    func write(_ bytes: [UInt8], named name: String) throws -> URL {
        let folder = try SharedData.temporaryDirectory("batch")
        let url = folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url
    }

    func errorMessage(_ record: [String: Any]) -> String {
        (record["error"] as? [String: Any])?["message"] as? String ?? ""
    }

    func errorCode(_ record: [String: Any]) -> String {
        (record["error"] as? [String: Any])?["code"] as? String ?? ""
    }

    // MARK: JSON Lines

    @Test func brokenLinesBecomeErrorRecordsNamingTheirLineAndTheRunGoesOn() throws {
        try #require(SharedData.exists(SharedData.dem), Comment(rawValue: SharedData.missing(SharedData.dem)))
        var bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array((Self.eiger + "\n").utf8)           // 1: BOM
        bytes += Array((Self.ground + "\r\n").utf8)                                          // 2: CRLF
        bytes += Array(#"{"id":"cut","location":{"latitude":46.62,"longi"#.utf8) + [0x0A]    // 3: truncated
        bytes += Array(#"{"id":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8) + [0x0A]        // 4: invalid UTF-8
        bytes += Array("[1]\n".utf8)                                                         // 5: no object
        bytes += Array(#"{"id":""#.utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 10 << 20)
            + Array(#"","location":{"latitude":46.6,"longitude":8}}"#.utf8) + [0x0A]          // 6: 10 MiB
        bytes += Array(#"{"location":{"longitude":8.041},"orientation":{"heading":208,"pitch":26}}"#.utf8) + [0x0A] // 7
        bytes += Array((Self.locationOnly + "\n").utf8)                                      // 8
        bytes += Array((Self.outside + "\n").utf8)                                           // 9
        bytes += Array(Self.ground.utf8)                                                     // 10: no final newline
        let file = try write(bytes, named: "broken.jsonl")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }

        let r = try CLIRunner.run(["batch", file.path, "--jobs", "2"] + dem)
        #expect(r.status == 0, "\(r.stderr)")
        let out = lines(r.stdout)
        try #require(out.count == 10, "expected 10 result lines, got \(out.count)")
        let records = try out.map(json)
        #expect(records.map { $0["line"] as? Int } == Array(1...10))

        // The Eiger reading hits within 300 m of the summit (3 967 m): on its filled north face,
        // which the ray at 26° meets just below the top.
        #expect(records[0]["status"] as? String == "hit")
        let target = records[0]["target"] as? [String: Any]
        let dLat = ((target?["latitude"] as? Double ?? 0) - 46.5775) * 111_195
        let dLon = ((target?["longitude"] as? Double ?? 0) - 8.0050) * 111_195 * cos(46.5775 * .pi / 180)
        #expect((dLat * dLat + dLon * dLon).squareRoot() < 300)
        #expect((3800..<3967).contains(target?["elevation"] as? Double ?? 0), "\(String(describing: target))")
        #expect(records[0]["id"] as? String == "eiger" && records[0]["time"] as? String == "2026-07-14T09:31:05Z")
        #expect(records[1]["status"] as? String == "hit" && records[1]["id"] as? String == "ground")
        #expect(records[9]["status"] as? String == "hit" && records[9]["id"] as? String == "ground")

        for (index, needle) in [(2, "invalid JSON"), (3, "UTF-8"), (4, "JSON object"), (5, "longer than"), (6, "location.latitude is missing")] {
            let record = records[index], n = index + 1
            #expect(record["status"] as? String == "error")
            #expect(errorCode(record) == "bad-input")
            #expect(errorMessage(record).hasPrefix("line \(n): "), "line \(n): \(errorMessage(record))")
            #expect(errorMessage(record).contains(needle), "line \(n): \(errorMessage(record))")
            #expect(record["target"] == nil)
        }
        #expect(records[7]["status"] as? String == "location")
        #expect(records[8]["status"] as? String == "error" && errorCode(records[8]) == "outside-dem")

        // stderr: the summary line alone (no progress, stderr is a file), counting by status.
        #expect(r.stderrLines.count == 1, "\(r.stderr)")
        #expect(!r.stderr.contains("\r"))
        #expect(r.stderr.contains("10 results") && r.stderr.contains("3 hit") && r.stderr.contains("1 location")
                && r.stderr.contains("6 error (5 bad-input, 1 outside-dem)"), "\(r.stderr)")
    }

    /// Blank lines (empty, spaces and tabs, a lone CR) are no readings: no record, and the other
    /// lines keep their numbers (before issue 29 each became an error record). With --numbered
    /// too, as Spark sends them.
    @Test func blankLinesGetNoRecord() throws {
        let r = try CLIRunner.run(["batch", "--format", "jsonl"] + dem, stdin: Self.ground + "\n\n  \t\n\r\n" + Self.ground + "\n\n")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try lines(r.stdout).map { try json($0)["line"] as? Int } == [1, 5])
        #expect(r.stderr.contains("2 results") && !r.stderr.contains("error"), "\(r.stderr)")
        let numbered = try CLIRunner.run(["batch", "--numbered"] + dem, stdin: "3\t" + Self.ground + "\n4\t \n7\t" + Self.ground + "\n")
        #expect(try lines(numbered.stdout).map { try json($0)["line"] as? Int } == [3, 7])
    }

    /// A broken line's message names its line and the column in it, not a "line 1" of its own
    /// (before issue 29: "line 2: invalid JSON at line 1, column 1").
    @Test func aBrokenLineNamesItsColumnNotALineOne() throws {
        let r = try CLIRunner.run(["batch", "--format", "jsonl"] + dem, stdin: Self.ground + "\nxyz\n")
        let message = errorMessage(try json(try #require(lines(r.stdout).last)))
        #expect(message == "line 2: invalid JSON at column 1: expected a value, found 'x'")
    }

    /// The summary counts in the singular for one (before issue 29: "1 results").
    @Test func oneResultIsOneResult() throws {
        let r = try CLIRunner.run(["batch", "--format", "jsonl"] + dem, stdin: Self.ground + "\n")
        #expect(r.stderr.contains("batch: 1 result in "), "\(r.stderr)")
    }

    /// An error record has exactly the interface's shape.
    @Test func errorRecordHasTheInterfaceShape() throws {
        let r = try CLIRunner.run(["batch", "--format", "jsonl"] + dem, stdin: Self.ground + "\n{\n")
        #expect(r.status == 0, "\(r.stderr)")
        let out = lines(r.stdout)
        try #require(out.count == 2)
        let record = try json(out[1])
        #expect(record["line"] as? Int == 2 && record["status"] as? String == "error")
        #expect(errorCode(record) == "bad-input" && errorMessage(record).hasPrefix("line 2: "))
        #expect(record["id"] == nil && record["target"] == nil && record["observer"] == nil)
    }

    /// Several chunks (over 1024 lines) of mixed records: the very same bytes with one job and two.
    @Test func outputIsIdenticalForOneJobAndTwo() throws {
        var text = ""
        for i in 0..<2600 {
            switch i % 7 {
            case 0: text += Self.locationOnly
            case 1: text += Self.outside
            case 2: text += "{broken \(i)"
            case 3: text += ""
            default:
                // Short sightlines all around the observer: each heading a different cell.
                text += #"{"id":"r\#(i)","location":{"latitude":46.6240,"longitude":8.0410},"orientation":{"heading":\#(i % 360),"pitch":-15}}"#
            }
            text += "\n"
        }
        let file = try write(Array(text.utf8), named: "mixed.jsonl")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let one = try CLIRunner.run(["batch", file.path, "--jobs", "1"] + dem, timeout: 600)
        let two = try CLIRunner.run(["batch", file.path, "--jobs", "2"] + dem, timeout: 600)
        #expect(one.status == 0 && two.status == 0, "\(one.stderr) \(two.stderr)")
        // Every non-blank line has its record, under its own number.
        let expected = (1...2600).filter { ($0 - 1) % 7 != 3 }
        #expect(lines(one.stdout).count == expected.count)
        #expect(one.stdoutData == two.stdoutData)
        let numbers = try lines(two.stdout).map { try json($0)["line"] as? Int }
        #expect(numbers == expected)
    }

    /// Under a terminal (`script` gives the command a pseudo-terminal) stderr shows a live
    /// progress line with rate and ETA, cleared before the summary. A reader that waits a second
    /// before draining stdout makes the run outlast the first redraw interval in any build.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs util-linux script"))
    func progressLineOnlyOnATerminal() throws {
        let text = (0..<4000).map { #"{"location":{"latitude":46.6240,"longitude":8.0410},"orientation":{"heading":\#($0 % 360),"pitch":-15}}"# }
            .joined(separator: "\n")
        let file = try write(Array(text.utf8), named: "progress.jsonl")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let typescript = file.deletingLastPathComponent().appendingPathComponent("typescript")
        let command = ([try CLIRunner.executable().path, "batch", "--jobs", "1", file.path] + dem).joined(separator: " ")
        try SharedData.run("script", ["-q", "-e", "-c", command + " | (sleep 1; cat >/dev/null)", typescript.path])
        let screen = try String(contentsOf: typescript, encoding: .utf8)
        #expect(screen.contains("\r\u{1B}[K[") && screen.contains("results") && screen.contains("/s") && screen.contains("ETA"), "\(screen)")
        #expect(screen.contains("\r\u{1B}[Ktapseek: batch: 4000 results"), "\(screen)")
    }

    @Test func readsStandardInput() throws {
        let r = try CLIRunner.run(["batch", "-"] + dem, stdin: Self.locationOnly + "\n" + Self.ground + "\n")
        #expect(r.status == 0, "\(r.stderr)")
        let statuses = try lines(r.stdout).map { try json($0)["status"] as? String }
        #expect(statuses == ["location", "hit"])
    }

    @Test func emptyInputGivesNoRecordsAndSucceeds() throws {
        let r = try CLIRunner.run(["batch", "--format", "jsonl"] + dem, stdin: "")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains("0 results"))
    }

    @Test func missingFileIsBadInputOnOneLine() throws {
        let r = try CLIRunner.run(["batch", "/nonexistent/readings.jsonl"] + dem)
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        #expect(r.stderrLines.count == 1 && r.stderr.contains("/nonexistent/readings.jsonl"), "\(r.stderr)")
    }

    /// A stream that fails mid-way (here a folder read as JSON Lines) is bad input: exit status 1
    /// with the reason, after the summary of what was written.
    @Test func unreadableStreamIsBadInput() throws {
        let folder = try SharedData.temporaryDirectory("batch-folder")
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try CLIRunner.run(["batch", "--format", "jsonl", folder.path] + dem)
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        #expect(r.stderrLines.last?.contains("cannot read \(folder.path)") == true, "\(r.stderr)")
    }

    @Test func unrecognisedInputIsBadInput() throws {
        let r = try CLIRunner.run(["batch"] + dem, stdin: "hello\nworld\n")
        #expect(r.status == 1)
        #expect(r.stderrLines.count == 1 && r.stderr.contains("unrecognised"), "\(r.stderr)")
    }

    @Test(arguments: [["--jobs", "0"], ["--every", "-1"], ["--min-move", "nan"], ["--format", "gpx"]])
    func badOptionsAreBadUsage(arguments: [String]) throws {
        let r = try CLIRunner.run(["batch"] + arguments + dem, stdin: Self.ground)
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
    }

    // MARK: GeoJSON

    /// The records of a GeoJSON Text Sequence: each must open with RS (0x1E) and end its line.
    func sequenceRecords(_ stdout: String) throws -> [[String: Any]] {
        try stdout.split(separator: "\n").map { line in
            #expect(line.first == "\u{1E}", "RFC 8142: a record opens with RS: \(line.prefix(40))")
            return try json(line.drop(while: { $0 == "\u{1E}" }))
        }
    }

    /// `--output geojson` is what help says: a GeoJSON Text Sequence (RFC 8142) of one Feature
    /// per reading, a 3-D target Point with the result's fields, its line and id as properties,
    /// null geometry for an error or a location-only record; GDAL reads it as one layer of 3D
    /// points. Before issue 29 each reading gave five features, 2-D and 3-D mixed, without RS.
    @Test func geojsonIsATextSequenceOfOneTargetPointPerReading() throws {
        let input = [Self.eiger, "{broken", "", Self.locationOnly].joined(separator: "\n") + "\n"
        let r = try CLIRunner.run(["batch", "--format", "geojson"] + dem, stdin: input)
        #expect(r.status == 0, "\(r.stderr)")
        let records = try sequenceRecords(r.stdout)
        try #require(records.count == 3)
        let properties = records.map { $0["properties"] as? [String: Any] ?? [:] }
        #expect(records.allSatisfy { $0["type"] as? String == "Feature" })
        #expect(properties.map { $0["line"] as? Int } == [1, 2, 4])
        let point = try #require(records[0]["geometry"] as? [String: Any])
        #expect(point["type"] as? String == "Point" && (point["coordinates"] as? [Double])?.count == 3)
        #expect(properties[0]["id"] as? String == "eiger" && properties[0]["status"] as? String == "hit")
        #expect(properties[0]["distance"] is Double && properties[0]["observerLatitude"] is Double)
        #expect(records[1]["geometry"] is NSNull && (properties[1]["error"] as? [String: Any])?["code"] as? String == "bad-input")
        #expect(records[2]["geometry"] is NSNull && properties[2]["status"] as? String == "location")

        let folder = try SharedData.temporaryDirectory("geojsonseq")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("targets.geojsons")
        try Data(r.stdout.utf8).write(to: file)
        let info = try SharedData.capture("ogrinfo", ["-ro", "-al", "-so", file.path], input: "")
        #expect(info.contains("GeoJSONSeq") && info.contains("Geometry: 3D Point") && info.contains("Feature Count: 3"), "\(info)")
    }

    /// `--geojson-sightlines`: the same one Feature per reading, drawn as the 3-D line from the
    /// eye to the target; without GeoJSON output it is a usage error, not silently ignored.
    @Test func geojsonSightlinesAreOneLineStringPerReading() throws {
        let r = try CLIRunner.run(["batch", "--output", "geojson", "--geojson-sightlines"] + dem,
                                  stdin: Self.eiger + "\n" + Self.outside + "\n")
        #expect(r.status == 0, "\(r.stderr)")
        let records = try sequenceRecords(r.stdout)
        try #require(records.count == 2)
        let line = try #require(records[0]["geometry"] as? [String: Any])
        let positions = try #require(line["coordinates"] as? [[Double]])
        #expect(line["type"] as? String == "LineString" && positions.count == 2 && positions.allSatisfy { $0.count == 3 })
        #expect(records[1]["geometry"] is NSNull)
        let alone = try CLIRunner.run(["batch", "--geojson-sightlines"] + dem, stdin: Self.eiger + "\n")
        #expect(alone.status == 2 && alone.stdout.isEmpty && alone.stderr.contains("--output geojson"), "\(alone.stderr)")
    }

    // MARK: --numbered

    /// The lines of `bytes` as a plain file's reader splits them: at `\n`, a last line without one
    /// kept, a final `\n` opening no empty line.
    func rawLines(_ bytes: [UInt8]) -> [[UInt8]] {
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        if lines.last == [] { lines.removeLast() }
        return lines
    }

    /// Lines sent as `N<TAB>line` in any order and any grouping give, line for line, what plain
    /// batch gives for the whole file: the same numbers in results and messages, a byte-order mark
    /// dropped from line 1 only, a CR before the newline dropped, a 10 MiB line's length counted
    /// as in the file, and a lone `{` read as a broken line, not as a pretty-printed reading.
    @Test func numberedLinesAreAnsweredAsPlainBatchAnswersTheWholeFile() throws {
        var bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array((Self.eiger + "\n").utf8)           // 1: BOM
        bytes += Array("{\n".utf8)                                                          // 2: a lone {
        bytes += Array((Self.ground + "\r\n").utf8)                                          // 3: CRLF
        bytes += Array(#"{"id":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8) + [0x0A]        // 4: invalid UTF-8
        bytes += Array("[1]\n".utf8)                                                         // 5: no object
        bytes += Array(#"{"id":""#.utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 10 << 20)
            + Array(#"","location":{"latitude":46.6,"longitude":8}}"#.utf8) + [0x0D, 0x0A]    // 6: 10 MiB, CRLF
        bytes += Array((Self.locationOnly + "\n").utf8)                                      // 7
        bytes += Array((Self.outside + "\n").utf8)                                           // 8
        bytes += Array(Self.ground.utf8)                                                     // 9: no final newline
        let file = try write(bytes, named: "whole.jsonl")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let plain = try CLIRunner.run(["batch", file.path, "--format", "jsonl"] + dem)
        #expect(plain.status == 0, "\(plain.stderr)")
        let expected = lines(plain.stdout)
        try #require(expected.count == 9)

        // Two parts, each in its own order, as two processes of a split log get them.
        let raw = rawLines(bytes)
        for part in [[9, 1, 5, 3, 7], [2, 8, 4, 6]] {
            var input: [UInt8] = []
            for n in part { input += Array("\(n)\t".utf8) + raw[n - 1] + [0x0A] }
            let r = try CLIRunner.run(["batch", "--numbered"] + dem, stdinData: Data(input))
            #expect(r.status == 0, "\(r.stderr)")
            let got = lines(r.stdout)
            try #require(got.count == part.count, "\(r.stdout)")
            for (n, line) in zip(part, got) {
                #expect(line == expected[n - 1], "line \(n): \(line.prefix(300)) ≠ \(expected[n - 1].prefix(300))")
            }
        }
    }

    @Test func numberedLineWithoutItsNumberStopsTheRun() throws {
        let r = try CLIRunner.run(["batch", "--numbered"] + dem, stdin: "3\t\(Self.ground)\n\(Self.ground)\n")
        #expect(r.status == 1, "\(r.stderr)")
        #expect(r.stderr.contains("line 2: no line number"), "\(r.stderr)")
    }

    @Test func numberedTakesJSONLinesOnly() throws {
        let r = try CLIRunner.run(["batch", "--numbered", "--format", "sensorlog"] + dem, stdin: "1\t\(Self.ground)\n")
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stdout.isEmpty)
    }

    /// `--min-move` on JSON Lines keeps the first reading at a place and drops the repeats, but
    /// keeps every broken line's error record.
    @Test func minMoveThinsJSONLinesButKeepsErrorRecords() throws {
        let far = #"{"id":"far","location":{"latitude":46.7,"longitude":8.0410,"altitude":1100}}"#
        let input = [Self.locationOnly, Self.locationOnly, "{", Self.locationOnly, far].joined(separator: "\n")
        let r = try CLIRunner.run(["batch", "--min-move", "100"] + dem, stdin: input)
        #expect(r.status == 0, "\(r.stderr)")
        let records = try lines(r.stdout).map(json)
        #expect(records.map { $0["line"] as? Int } == [1, 3, 5])
        #expect(records.map { $0["status"] as? String } == ["location", "error", "location"])
    }

    // MARK: Real phone logs

    /// The 1-based numbers of the data lines of a CSV: the lines after the first that starts
    /// with `header`, as a reader of the file counts them.
    func dataLines(of url: URL, header: String) throws -> [Int] {
        let text = try String(contentsOf: url, encoding: .utf8)
        var rows = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        if rows.last == "" { rows.removeLast() }
        let headerIndex = try #require(rows.firstIndex { $0.hasPrefix(header) }, "no header \(header) in \(url.path)")
        return Array((headerIndex + 2)...rows.count)
    }

    func runLog(_ path: URL, extra: [String] = []) throws -> [[String: Any]] {
        let r = try CLIRunner.run(["batch", path.path, "--format", "auto"] + extra + dem)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderrLines.count == 1, "\(r.stderr)")
        return try lines(r.stdout).map(json)
    }

    /// GPSLogger has no orientation: every fix is a location-only record carrying its time.
    /// The log is near Bergen, outside the shared tiles, so the ground is unknown.
    @Test func gpsLoggerGivesALocationRecordPerFix() throws {
        let log = SharedData.sensorLogs.appendingPathComponent("gpslogger_android_2017.csv")
        try #require(SharedData.exists(log), Comment(rawValue: SharedData.missing(log)))
        let records = try runLog(log)
        #expect(records.map { $0["line"] as? Int } == (try dataLines(of: log, header: "time,lat,lon")))
        #expect(records.allSatisfy { $0["status"] as? String == "location" })
        #expect(records.first?["time"] as? String == "2017-08-13T08:52:26Z")
        let observer = records.first?["observer"] as? [String: Any]
        #expect(observer?["latitude"] as? Double == 60.38539 && observer?["longitude"] as? Double == 5.217217)
    }

    /// `--every 60` on the GPSLogger fixes at 08:52:26, 08:53:00, 08:53:57, 08:55:55, 08:57:57
    /// and 09:00:06 (lines 3–8) keeps the first and each one 60 s or more after the last kept:
    /// 08:53:00 is only 34 s later, the rest are 91, 118, 122 and 129 s apart.
    @Test func everyThinsALogByTime() throws {
        let log = SharedData.sensorLogs.appendingPathComponent("gpslogger_android_2017.csv")
        try #require(SharedData.exists(log), Comment(rawValue: SharedData.missing(log)))
        let records = try runLog(log, extra: ["--every", "60"])
        #expect(records.map { $0["line"] as? Int } == [3, 5, 6, 7, 8])
    }

    /// phyphox location export (Oulu, outside the shared tiles): location-only records.
    @Test func phyphoxGivesALocationRecordPerSample() throws {
        let log = SharedData.sensorLogs.appendingPathComponent("phyphox_location.csv")
        try #require(SharedData.exists(log), Comment(rawValue: SharedData.missing(log)))
        let records = try runLog(log)
        #expect(records.map { $0["line"] as? Int } == (try dataLines(of: log, header: "\"Time (s)\"")))
        #expect(records.allSatisfy { $0["status"] as? String == "location" })
    }

    /// SensorLog (iOS, Austin TX) has an attitude, so its rows are sightlines; no shared tile covers
    /// Texas, so each is an `outside-dem` error record with its line and time. None is lost.
    @Test func sensorLogGivesARecordPerRow() throws {
        let log = SharedData.sensorLogs.appendingPathComponent("sensorlog_ios_iphoneX_2018.csv")
        try #require(SharedData.exists(log), Comment(rawValue: SharedData.missing(log)))
        let records = try runLog(log)
        #expect(records.map { $0["line"] as? Int } == (try dataLines(of: log, header: "loggingTime")))
        #expect(records.allSatisfy { $0["status"] as? String == "error" && errorCode($0) == "outside-dem" && $0["time"] is String })
    }

    /// Sensor Logger (Android) export folder: one record per Orientation.csv row, which drives the join.
    @Test func sensorLoggerFolderGivesARecordPerOrientationRow() throws {
        let folder = SharedData.sensorLogs.appendingPathComponent("sensorlogger_android_2024")
        try #require(SharedData.exists(folder), Comment(rawValue: SharedData.missing(folder)))
        let records = try runLog(folder)
        let expected = try dataLines(of: folder.appendingPathComponent("Orientation.csv"), header: "time")
        #expect(records.map { $0["line"] as? Int } == expected)
        #expect(records.allSatisfy { ["hit", "horizon", "error"].contains($0["status"] as? String ?? "") && $0["time"] is String })
    }

    /// The iOS Sensor Logger sample has no Location.csv: no reading can have a position, which is
    /// one clear error rather than a silent empty output.
    @Test func sensorLoggerWithoutLocationIsBadInput() throws {
        let folder = SharedData.sensorLogs.appendingPathComponent("sensorlogger_ios_2022")
        try #require(SharedData.exists(folder), Comment(rawValue: SharedData.missing(folder)))
        let r = try CLIRunner.run(["batch", folder.path] + dem)
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        #expect(r.stderrLines.count == 1 && r.stderr.contains("Location.csv") && r.stderr.contains(folder.path), "\(r.stderr)")
    }

    /// With `--location` (a log recorded at a known spot, here the Säntis summit) the iOS
    /// sample's Orientation.csv rows are sightlines from there: a record per row, each observer
    /// at the given spot (issue 38: the whole export was rejected). `report` takes it too.
    @Test func sensorLoggerWithoutLocationTakesTheGivenLocation() throws {
        let folder = SharedData.sensorLogs.appendingPathComponent("sensorlogger_ios_2022")
        try #require(SharedData.exists(folder), Comment(rawValue: SharedData.missing(folder)))
        let r = try CLIRunner.run(["batch", folder.path, "--location", "47.2493,9.3433,2504"] + dem)
        #expect(r.status == 0, "\(r.stderr)")
        let records = try lines(r.stdout).map(json)
        #expect(records.map { $0["line"] as? Int } == (try dataLines(of: folder.appendingPathComponent("Orientation.csv"), header: "time")))
        for record in records {
            let observer = record["observer"] as? [String: Any]
            #expect(observer?["latitude"] as? Double == 47.2493 && observer?["longitude"] as? Double == 9.3433
                    && observer?["altitude"] as? Double == 2504, "\(record)")
            #expect(["hit", "horizon"].contains(record["status"] as? String ?? ""), "\(record)")
        }
        let page = try SharedData.temporaryDirectory("report-location").appendingPathComponent("report.html")
        defer { try? FileManager.default.removeItem(at: page.deletingLastPathComponent()) }
        let report = try CLIRunner.run(["report", folder.path, "-o", page.path, "--location", "47.2493,9.3433"] + dem)
        #expect(report.status == 0 && SharedData.exists(page), "\(report.stderr)")
    }

    /// JSON Lines readings take `--location` in place of their own, or of none.
    @Test func locationOptionPlacesJSONLinesReadings() throws {
        let input = """
            {"orientation":{"heading":120,"pitch":-3}}
            {"location":{"latitude":10,"longitude":10},"orientation":{"heading":120,"pitch":-3}}

            """
        let r = try CLIRunner.run(["batch", "-", "--location", "47.2493,9.3433"] + dem, stdin: input)
        #expect(r.status == 0, "\(r.stderr)")
        let records = try lines(r.stdout).map(json)
        #expect(records.count == 2)
        for record in records {
            let observer = record["observer"] as? [String: Any]
            #expect(observer?["latitude"] as? Double == 47.2493 && observer?["longitude"] as? Double == 9.3433, "\(record)")
        }
    }

    /// A `--location` that is not LAT,LON[,ALT] in range is a usage error naming the option.
    @Test(arguments: ["95,8", "47", "47,9,x", "47,200", "47,9,1,2", "47,9,-5000"])
    func badLocationIsAUsageErrorNamingTheOption(text: String) throws {
        let r = try CLIRunner.run(["batch", "-", "--location", text] + dem, stdin: "")
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.stderrLines.first?.contains("--location must be LAT,LON") == true && r.stderrLines.first?.contains(text) == true, "\(r.stderr)")
    }

    /// A CSV log through stdin is recognised by its header like a file.
    @Test func gpsLoggerThroughStandardInput() throws {
        let log = SharedData.sensorLogs.appendingPathComponent("gpslogger_android_2017.csv")
        try #require(SharedData.exists(log), Comment(rawValue: SharedData.missing(log)))
        let r = try CLIRunner.run(["batch"] + dem, stdinData: try Data(contentsOf: log))
        #expect(r.status == 0, "\(r.stderr)")
        #expect(lines(r.stdout).count == 6)
    }
}
