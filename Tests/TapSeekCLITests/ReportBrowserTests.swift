import Foundation
import TapSeekTestSupport
import Testing

/// `tapseek report`'s page in a real browser: Debian's `chromium`, headless, with every host
/// unresolvable and a dead proxy (no network), opened at `#selftest`, where the page's own
/// script filters, clicks a row and a sightline as a user would and writes what happened into
/// the DOM (`<pre id="selftest-result">`), which `--dump-dom` hands back. What the page shows is
/// checked against `tapseek batch` over the same log, not against the page's own data.
///
/// Nothing here waits on the wall clock. Chromium runs on virtual time (`--virtual-time-budget`):
/// its timers fire in order as soon as the page is idle, virtual time stands still while a
/// load is pending, and the DOM is dumped once the page has spent its budget, however busy
/// the machine is. The page writes its marker (`selftest-result`) when its script is done,
/// and the test reads that marker. The only wall-clock limits are hang guards (10 minutes,
/// as in the other suites): a browser that never exits is killed and reported as hung.
@Suite(.serialized, .timeLimit(.minutes(10))) struct ReportBrowserTests {
    /// The browser, from scripts/setup.sh's package list; under CI a missing one fails.
    static let chromium: URL? = ["/usr/bin/chromium", "/usr/local/bin/chromium"].map(URL.init(fileURLWithPath:))
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    static var runs: Bool { (chromium != nil || SharedData.isCI) && SharedData.available(ReportFixture.tile) }

    /// Virtual milliseconds the page may spend before chromium dumps or shoots it. The page
    /// sets no repeating timer and draws no animation, so once its self-test is done it is idle
    /// and virtual time skips to the end: a long budget costs no wall time, and it is far
    /// beyond what the self-test's chain of zero-delay timers needs (a few virtual ms).
    static let virtualTimeBudget = 60_000

    /// A hang guard, not a deadline: seconds after which a browser that has not exited is
    /// killed (as CLIRunner's guard for `tapseek` itself).
    static let hangGuard: TimeInterval = 600

    /// Runs headless chromium on `page` with no network; returns stdout once chromium exits by
    /// itself (after the page has spent its virtual time budget).
    static func chromium(_ arguments: [String], page: URL, hash: String = "") throws -> String {
        let browser = try #require(chromium, "chromium is not installed (scripts/setup.sh installs it)")
        let profile = try SharedData.temporaryDirectory("chromium-profile")
        defer { try? FileManager.default.removeItem(at: profile) }
        let process = Process()
        process.executableURL = browser
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=\(profile.path)",
                             "--proxy-server=127.0.0.1:9", "--host-resolver-rules=MAP * ~NOTFOUND", "--window-size=1400,900",
                             "--virtual-time-budget=\(virtualTimeBudget)"] + arguments + [page.absoluteString + hash]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let hung = HangFlag()
        let killer = DispatchWorkItem { if process.isRunning { hung.set(); process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + hangGuard, execute: killer)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        killer.cancel()
        if hung.isSet { throw CLIRunner.Failure(description: "chromium hung: still running after \(Int(hangGuard)) s, killed") }
        return String(decoding: data, as: UTF8.self)
    }

    /// Set once, from the hang guard's queue, read after the browser has exited.
    final class HangFlag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        func set() { lock.withLock { value = true } }
        var isSet: Bool { lock.withLock { value } }
    }

    /// The self-test's findings, from the dumped DOM.
    /// `probes`: points (latitude, longitude) whose map pixel the page classifies as sea, land
    /// or other in its first view.
    static func selfTest(_ page: URL, probes: [(Double, Double)] = []) throws -> [String: Any] {
        let hash = probes.isEmpty ? "#selftest" : "#selftest=" + probes.map { "\($0.0),\($0.1)" }.joined(separator: ";")
        let dom = try chromium(["--dump-dom"], page: page, hash: hash)
        let start = try #require(dom.range(of: "<pre id=\"selftest-result\">"), "the self-test wrote no result; DOM: \(dom.prefix(500))")
        let end = try #require(dom[start.upperBound...].range(of: "</pre>"))
        let text = String(dom[start.upperBound..<end.lowerBound])
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        return try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// The place text the page filters on, from a batch record (as the page joins it).
    static func haystack(_ record: [String: Any]) -> String {
        let placemark = record["placemark"] as? [String: Any] ?? [:]
        let place = ["name", "locality", "administrativeArea", "isoCountryCode"].compactMap { placemark[$0] as? String }
        let warnings = record["warnings"] as? [String] ?? []
        let error = (record["error"] as? [String: Any])?["message"] as? String ?? ""
        return (place + warnings + [error, record["status"] as? String ?? ""]).joined(separator: " ").lowercased()
    }

    @Test(.enabled(if: runs))
    func testReportPageWorksInChromiumWithoutNetwork() throws {
        let fixture = try ReportFixture.make()
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        let page = fixture.directory.appendingPathComponent("report.html")
        let run = try CLIRunner.run(["report", fixture.log.path, "-o", page.path, "--dem", fixture.dem.path], environment: ["GDAL_PAM_ENABLED": "NO"])
        #expect(run.status == 0, "\(run.stderr)")
        let records = try ReportFixture.batch(fixture.log, dem: fixture.dem)
        let result = try Self.selfTest(page)

        #expect(result["problems"] as? [String] == [], "console errors: \(result["problems"] ?? "")")
        #expect(result["resources"] as? [String] == [], "requests: \(result["resources"] ?? "")")
        #expect(result["canvasPainted"] as? Bool == true)
        // One row per input line, in order, each with its line.
        let lines = records.compactMap { $0["line"] as? Int }
        #expect(lines.count == ReportFixture.lines.count)
        #expect(result["lines"] as? [Int] == lines)
        #expect(result["renderedRows"] as? Int == ReportFixture.lines.count)
        // Error lines are rows too, marked as errors.
        let errors = records.filter { $0["status"] as? String == "error" }.compactMap { $0["line"] as? Int }
        #expect(errors.count == 2)
        #expect(result["errorLines"] as? [Int] == errors)
        // A sightline per hit (and per skyline point).
        let sightlines = records.filter { ["hit", "horizon"].contains($0["status"] as? String) }.count
        #expect(sightlines > 20)
        #expect(result["sightlinesDrawn"] as? Int == sightlines)
        // Filtering by a place name leaves exactly the lines batch placed there.
        let place = try #require(result["filter"] as? String)
        let expected = records.filter { Self.haystack($0).contains(place.lowercased()) }.compactMap { $0["line"] as? Int }
        #expect(!expected.isEmpty && expected.count < lines.count, "the filter \(place) must keep some lines and drop others")
        #expect(result["filteredLines"] as? [Int] == expected)
        // A click on the Distance header sorts nearest first (lines without a target first, then by line).
        let byDistance = records.map { record -> (Double, Int) in
            let distance = (record["target"] as? [String: Any])?["distance"] as? Double
            return (distance.map { $0.rounded() } ?? -1, record["line"] as? Int ?? 0)
        }.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }.map(\.1)
        #expect(result["sortedLines"] as? [Int] == byDistance)
        // A row click selects the row and shows its profile; a sightline click selects its row.
        #expect(result["selectedLine"] as? Int == result["clickedLine"] as? Int)
        #expect(result["profileShown"] as? Bool == true)
        #expect(result["profileRay"] as? Bool == true)
        let mapLine = try #require(result["mapClickLine"] as? Int, "no sightline was clicked")
        #expect(result["mapClickRow"] as? Int == mapLine)
        #expect(mapLine != result["clickedLine"] as? Int)
        // Zoom and pan.
        #expect(abs((result["zoomFactor"] as? Double ?? 0) - 1.5) < 1e-9)
        #expect((result["panned"] as? [Double])?.map { $0.rounded() } == [50, 30])
    }

    /// A real phone log (Sensor Logger, Android, recorded where no shared tile is): every
    /// record is a row, every row an error marked as one, and the page still works.
    @Test(.enabled(if: runs && SharedData.available(SharedData.sensorLogs.appendingPathComponent("sensorlogger_android_2024"))))
    func testRealLogOfErrorsShowsEveryRecordMarked() throws {
        let export = SharedData.sensorLogs.appendingPathComponent("sensorlogger_android_2024")
        let fixture = try ReportFixture.make()
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        let page = fixture.directory.appendingPathComponent("real.html")
        let run = try CLIRunner.run(["report", export.path, "-o", page.path, "--dem", fixture.dem.path], environment: ["GDAL_PAM_ENABLED": "NO"])
        #expect(run.status == 0, "\(run.stderr)")
        let records = try ReportFixture.batch(export, dem: fixture.dem)
        let result = try Self.selfTest(page)
        #expect(result["problems"] as? [String] == [])
        #expect(result["resources"] as? [String] == [])
        let lines = records.compactMap { $0["line"] as? Int }
        #expect(!lines.isEmpty)
        #expect(result["lines"] as? [Int] == lines)
        #expect(result["errorLines"] as? [Int] == records.filter { $0["status"] as? String == "error" }.compactMap { $0["line"] as? Int })
    }

    /// Issue 38, item 11: a log on three continents opens on its densest place, over a map of
    /// coasts and borders, with each other place one click away.
    @Test(.enabled(if: runs && ContinentsFixture.available), .timeLimit(.minutes(3)))
    func testLogOverThreeContinentsOpensOnItsDensestPlaceWithTheOthersOneClickAway() throws {
        let fixture = try ContinentsFixture.make()
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        let page = fixture.directory.appendingPathComponent("report.html")
        let run = try CLIRunner.run(["report", fixture.log.path, "-o", page.path, "--dem", fixture.dem.path], environment: ["GDAL_PAM_ENABLED": "NO"])
        #expect(run.status == 0, "\(run.stderr)")
        let records = try ReportFixture.batch(fixture.log, dem: fixture.dem)
        // Open sea (Mediterranean, Indian Ocean) and deep inland (Sahara, central Australia).
        let result = try Self.selfTest(page, probes: [(35.5, 18.0), (-20.0, 80.0), (23.0, 13.0), (-25.0, 134.0)])
        #expect(result["problems"] as? [String] == [], "console errors: \(result["problems"] ?? "")")
        #expect(result["resources"] as? [String] == [])
        #expect(result["canvasPainted"] as? Bool == true)
        let linesAt = (0..<ContinentsFixture.places.count).map { k in
            records.filter { ContinentsFixture.place(of: $0) == k }.compactMap { $0["line"] as? Int }
        }
        #expect(linesAt.map(\.count) == ContinentsFixture.places.map(\.headings.count))
        // Opens on the Alps, the place with most readings, and shows only them.
        #expect(result["openView"] as? Int == 1)
        #expect(result["visibleLines"] as? [Int] == linesAt[0])
        // A button for all places and one a place; each shows its readings.
        #expect(result["buttons"] as? Int == 1 + ContinentsFixture.places.count)
        let shown = try #require(result["viewLines"] as? [[Int]])
        #expect(shown.count == 1 + ContinentsFixture.places.count)
        #expect(shown.first.map(Set.init) == Set(linesAt.joined()))
        for k in linesAt.indices { #expect(shown.dropFirst(1 + k).first == linesAt[k], "button \(k + 1)") }
        // The overview's basemap: sea where the sea is, land where the land is.
        #expect(result["probes"] as? [String] == ["sea", "sea", "land", "land"])
        #expect(result["noticeShown"] as? Bool == false, "every place has its DEM: \(result["notice"] ?? "")")
    }

    /// Issue 38, item 12: a GPSLogger track (no orientation) near Bergen, where the DEM has no
    /// tile: a line in input order, and a notice saying no DEM covers the area.
    @Test(.enabled(if: runs && SharedData.available(SharedData.sensorLogs.appendingPathComponent("gpslogger_android_2017.csv"))),
          .timeLimit(.minutes(1)))
    func testLocationOnlyLogIsDrawnAsATrackAndTheMapSaysNoDEMCoversIt() throws {
        let log = SharedData.sensorLogs.appendingPathComponent("gpslogger_android_2017.csv")
        let fixture = try ReportFixture.make()
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        let page = fixture.directory.appendingPathComponent("gps.html")
        let run = try CLIRunner.run(["report", log.path, "-o", page.path, "--dem", fixture.dem.path], environment: ["GDAL_PAM_ENABLED": "NO"])
        #expect(run.status == 0, "\(run.stderr)")
        let records = try ReportFixture.batch(log, dem: fixture.dem)
        // The positions in order, a repeated one counted once: the track's vertices.
        var positions: [[Double]] = []
        for record in records {
            guard let o = record["observer"] as? [String: Any], let latitude = o["latitude"] as? Double, let longitude = o["longitude"] as? Double else { continue }
            if positions.last != [latitude, longitude] { positions.append([latitude, longitude]) }
        }
        #expect(positions.count >= 3)
        let result = try Self.selfTest(page)
        #expect(result["problems"] as? [String] == [], "console errors: \(result["problems"] ?? "")")
        #expect(result["resources"] as? [String] == [])
        #expect(result["trackLines"] as? Int == 1, "minutes apart and metres apart: one stretch")
        #expect(result["trackPoints"] as? Int == positions.count)
        #expect(result["noticeShown"] as? Bool == true)
        #expect((result["notice"] as? String)?.contains("No DEM covers this area") == true, "\(result["notice"] ?? "")")
        #expect(result["buttons"] as? Int == 0, "one place: no buttons")
    }

    /// Issue 38, item 13: each profile shows its target, and the void bands its data holds.
    @Test(.enabled(if: runs), .timeLimit(.minutes(2)))
    func testProfileShowsItsTargetAndVoidBands() throws {
        let fixture = try VoidFixture.make()
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        let page = fixture.directory.appendingPathComponent("report.html")
        let run = try CLIRunner.run(["report", fixture.log.path, "-o", page.path, "--dem", fixture.dem.path], environment: ["GDAL_PAM_ENABLED": "NO"])
        #expect(run.status == 0, "\(run.stderr)")
        let rows = try ReportFixture.rows(ofPage: page)
        let records = try ReportFixture.batch(fixture.log, dem: fixture.dem)
        let result = try Self.selfTest(page)
        #expect(result["problems"] as? [String] == [])
        let profiles = try #require(result["profiles"] as? [[String: Any]])
        let profiled = rows.filter { $0[12] is [Any] }
        #expect(profiles.count == profiled.count && !profiles.isEmpty)
        for (drawn, row) in zip(profiles, profiled) {
            let line = row[0] as? Int
            #expect(drawn["line"] as? Int == line)
            let record = records.first { $0["line"] as? Int == line }
            #expect(drawn["target"] as? Bool == (record?["target"] is [String: Any]), "line \(line ?? 0): target marker")
            let voids = ((row[12] as? [Any])?[8] as? [Any])?.count ?? -1
            #expect(voids > 0, "line \(line ?? 0) crosses the void")
            #expect(drawn["voids"] as? Int == voids, "line \(line ?? 0): a band a void")
            #expect(drawn["terrain"] as? Int == 2, "line \(line ?? 0): terrain either side of the void")
        }
    }

    /// The README's screenshot: `TAPSEEK_UPDATE_SCREENSHOT=1 swift test --filter ReportBrowserTests`
    /// writes it to docs/images/report.png; otherwise to a temporary file, checked for being a
    /// picture of the page.
    @Test(.enabled(if: runs))
    func testScreenshotOfReport() throws {
        let fixture = try ReportFixture.make()
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        let page = fixture.directory.appendingPathComponent("report.html")
        let run = try CLIRunner.run(["report", fixture.log.path, "-o", page.path, "--dem", fixture.dem.path], environment: ["GDAL_PAM_ENABLED": "NO"])
        #expect(run.status == 0, "\(run.stderr)")
        let update = ProcessInfo.processInfo.environment["TAPSEEK_UPDATE_SCREENSHOT"] == "1"
        let shot = update ? CLIRunner.packageRoot.appendingPathComponent("docs/images/report.png")
                          : fixture.directory.appendingPathComponent("report.png")
        _ = try Self.chromium(["--screenshot=\(shot.path)"], page: page, hash: "#line=\(ReportFixture.screenshotLine)")
        let png = try Data(contentsOf: shot)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect(png.count > 50_000, "a screenshot of the map and table is not a blank page")
    }
}
