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
        let views = try #require(try ReportFixture.data(ofPage: page)["views"] as? [[String: Any]])
        #expect(views.count == 1, "one place, one view")
        let relief = try #require(views.first?["relief"] as? [String: Any])
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

    /// The box of a view or relief, degrees.
    static func box(_ object: [String: Any]?) -> (south: Double, west: Double, north: Double, east: Double)? {
        guard let o = object, let s = o["south"] as? Double, let w = o["west"] as? Double, let n = o["north"] as? Double,
              let e = o["east"] as? Double else { return nil }
        return (s, w, n, e)
    }

    static func contains(_ box: (south: Double, west: Double, north: Double, east: Double), _ latitude: Double, _ longitude: Double) -> Bool {
        (box.south...box.north).contains(latitude) && (box.west...box.east).contains(longitude)
    }

    /// Issue 38, item 11: a log on three continents was three dots on one grey map.
    @Test(.enabled(if: ContinentsFixture.available), .timeLimit(.minutes(3)))
    func testLogOverThreeContinentsOpensOnItsDensestPlaceWithAViewOfEach() throws {
        let fixture = try ContinentsFixture.make()
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        let page = fixture.directory.appendingPathComponent("report.html")
        let run = try CLIRunner.run(["report", fixture.log.path, "-o", page.path, "--dem", fixture.dem.path], environment: ["GDAL_PAM_ENABLED": "NO"])
        #expect(run.status == 0, "\(run.stderr)")
        let data = try ReportFixture.data(ofPage: page)
        let views = try #require(data["views"] as? [[String: Any]])
        let records = try ReportFixture.batch(fixture.log, dem: fixture.dem)
        let located = records.filter { $0["observer"] is [String: Any] }
        #expect(located.count == ContinentsFixture.lines.count)
        // An overview, then one view a place, most readings first; the page opens on the first.
        #expect(views.count == 1 + ContinentsFixture.places.count)
        #expect(data["open"] as? Int == 1)
        #expect(views.first?["count"] as? Int == located.count)
        let all = try #require(Self.box(views.first))
        for (k, place) in ContinentsFixture.places.enumerated() {
            let view = views[1 + k]
            let box = try #require(Self.box(view))
            let mine = located.filter { ContinentsFixture.place(of: $0) == k }
            #expect(view["count"] as? Int == mine.count, "view \(k + 1) counts the readings at \(place.country)")
            for record in located {
                let observer = try #require(record["observer"] as? [String: Any])
                let (latitude, longitude) = (observer["latitude"] as? Double ?? .nan, observer["longitude"] as? Double ?? .nan)
                #expect(Self.contains(box, latitude, longitude) == (ContinentsFixture.place(of: record) == k),
                        "view \(k + 1) holds exactly the observers at \(place.country)")
                #expect(Self.contains(all, latitude, longitude))
                if ContinentsFixture.place(of: record) == k, let target = record["target"] as? [String: Any] {
                    #expect(Self.contains(box, target["latitude"] as? Double ?? .nan, target["longitude"] as? Double ?? .nan))
                }
            }
            // Its own relief, over a tile that covers it, and the country's borders beneath.
            let relief = try #require(view["relief"] as? [String: Any])
            #expect((relief["covered"] as? Double ?? 0) > 0.5)
            let basemap = try #require(view["basemap"] as? [String: Any])
            let countries = Set((basemap["areas"] as? [[Any]] ?? []).compactMap { $0.first as? String })
            #expect(countries.contains(place.country), "the map of \(place.country) shows it: \(countries)")
        }
        // The overview's map spans the three countries, and has water between them.
        let overview = try #require(views.first?["basemap"] as? [String: Any])
        let countries = Set((overview["areas"] as? [[Any]] ?? []).compactMap { $0.first as? String })
        #expect(countries.isSuperset(of: Set(ContinentsFixture.places.map(\.country))))
        #expect((overview["runs"] as? [[Int]] ?? []).joined().contains(0))
    }

    /// Issue 38, item 12: a location-only log (GPSLogger, Bergen) where no DEM tile lies.
    @Test(.enabled(if: SharedData.available(SharedData.sensorLogs.appendingPathComponent("gpslogger_android_2017.csv"))))
    func testLocationOnlyLogWithoutDEMHasAnEmptyReliefAndAMap() throws {
        let log = SharedData.sensorLogs.appendingPathComponent("gpslogger_android_2017.csv")
        let fixture = try ReportFixture.make()
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        let page = fixture.directory.appendingPathComponent("gps.html")
        let run = try CLIRunner.run(["report", log.path, "-o", page.path, "--dem", fixture.dem.path], environment: ["GDAL_PAM_ENABLED": "NO"])
        #expect(run.status == 0, "\(run.stderr)")
        let records = try ReportFixture.batch(log, dem: fixture.dem)
        #expect(!records.isEmpty && records.allSatisfy { $0["status"] as? String == "location" })
        let views = try #require(try ReportFixture.data(ofPage: page)["views"] as? [[String: Any]])
        #expect(views.count == 1, "one track, one place")
        let relief = try #require(views.first?["relief"] as? [String: Any])
        #expect(relief["covered"] as? Double == 0, "the Eiger tile covers nothing near Bergen")
        #expect(relief["low"] == nil, "no height to tint")
        let basemap = try #require(views.first?["basemap"] as? [String: Any])
        #expect((basemap["areas"] as? [[Any]] ?? []).contains { $0.first as? String == "NO" })
    }

    /// Issue 38, item 13: a skyline point's profile had no target, and thinning the terrain to
    /// every n-th sample drew the crest below the skyline point.
    @Test(.enabled(if: SharedData.available(ReportFixture.tile)))
    func testProfileCarriesItsTargetAndKeepsTheCrestUnderIt() throws {
        let fixture = try ReportFixture.make()
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        let page = fixture.directory.appendingPathComponent("report.html")
        let run = try CLIRunner.run(["report", fixture.log.path, "-o", page.path, "--dem", fixture.dem.path], environment: ["GDAL_PAM_ENABLED": "NO"])
        #expect(run.status == 0, "\(run.stderr)")
        let rows = try ReportFixture.rows(ofPage: page)
        let records = try ReportFixture.batch(fixture.log, dem: fixture.dem)
        var horizons = 0
        for (row, record) in zip(rows, records) {
            guard let target = record["target"] as? [String: Any], let profile = row[12] as? [Any] else { continue }
            let distance = try #require(target["distance"] as? Double), elevation = try #require(target["elevation"] as? Double)
            let length = try #require(profile[0] as? Double)
            let targetDistance = try #require(profile[5] as? Double, "line \(row[0]): the profile names its target")
            let targetHeight = try #require(profile[6] as? Double)
            // Great-circle against geodesic distance: within 0.5 %, and the rounding.
            #expect(abs(targetDistance - distance) <= 0.005 * distance + 1, "line \(row[0])")
            // The drawn height is the elevation less the Earth's drop, at most d²/2R (no refraction).
            #expect(targetHeight <= elevation + 0.5 && targetHeight >= elevation - distance * distance / (2 * 6_350_000) - 0.5)
            #expect(targetDistance <= length + 0.5)
            guard record["status"] as? String == "horizon" else { continue }
            // A skyline point at a void's edge has no terrain beside it to compare.
            let voids = try #require(profile[8] as? [[Double]])
            guard !voids.contains(where: { $0[0] - length / 64 <= targetDistance && targetDistance <= $0[1] + length / 64 }) else { continue }
            horizons += 1
            // The skyline point lies on the terrain: in its stretch of the profile or the next
            // ones, the drawn terrain reaches it, to the rise between two samples 10 m apart
            // (--step) on the Eiger's steepest faces, 10 m; every n-th sample drew crests 27–38 m low.
            let heights = profile.dropFirst(9).map { $0 as? Double }
            let bin = min(Int(targetDistance / (length / Double(heights.count))), heights.count - 1)
            let crest = heights[max(bin - 1, 0)...min(bin + 1, heights.count - 1)].compactMap { $0 }.max()
            #expect(crest != nil, "line \(row[0]): terrain drawn near its skyline point")
            #expect((crest ?? 0) >= targetHeight - 10, "line \(row[0]): crest drawn at \(crest ?? 0) m under a skyline point at \(targetHeight) m")
        }
        #expect(horizons >= 5)
    }

    /// Issue 38, item 13: voids were blank gaps in the profile; they are bands of their own.
    @Test func testProfileVoidsAreBandsWithNoTerrainInThem() throws {
        let fixture = try VoidFixture.make()
        defer { try? FileManager.default.removeItem(at: fixture.directory) }
        let page = fixture.directory.appendingPathComponent("report.html")
        let run = try CLIRunner.run(["report", fixture.log.path, "-o", page.path, "--dem", fixture.dem.path], environment: ["GDAL_PAM_ENABLED": "NO"])
        #expect(run.status == 0, "\(run.stderr)")
        let rows = try ReportFixture.rows(ofPage: page)
        #expect(rows.count == VoidFixture.lines.count)
        // The void spans 46.15…46.30° N, 5.6 to 22.2 km north of the observers at 46.10° N.
        let metresPerDegree = 6_371_008.8 * Double.pi / 180
        let start = (VoidFixture.voidBand.lowerBound - 46.10) * metresPerDegree, end = (VoidFixture.voidBand.upperBound - 46.10) * metresPerDegree
        var banded = 0
        for row in rows {
            guard let profile = row[12] as? [Any] else { continue }
            let length = try #require(profile[0] as? Double)
            let voids = try #require(profile[8] as? [[Double]])
            let heights = profile.dropFirst(9).map { $0 as? Double }
            guard let void = voids.first else { continue }
            banded += 1
            #expect(voids.count == 1)
            // The band reaches from the last sample before the void to the first after: within
            // a post spacing (278 m) and a step (10 m) of its edges, and 0.5 % for the sphere.
            let post = VoidFixture.spacing * metresPerDegree
            #expect(abs(void[0] - start) <= post + 10 + 0.005 * start, "void \(void) against \(start)…\(end)")
            #expect(abs(void[1] - end) <= post + 10 + 0.005 * end, "void \(void) against \(start)…\(end)")
            // No terrain in a stretch wholly inside the void, terrain on either side of it.
            let stretch = length / Double(heights.count)
            for (k, height) in heights.enumerated() where Double(k) * stretch > void[0] && Double(k + 1) * stretch < void[1] {
                #expect(height == nil, "terrain drawn inside the void at \((Double(k) + 0.5) * stretch) m")
            }
            var runs = 0, inRun = false
            for height in heights {
                if height != nil, !inRun { runs += 1 }
                inRun = height != nil
            }
            #expect(runs == 2, "the terrain stops at the void and starts again after it")
        }
        #expect(banded > 0, "some sightline crosses the void: \(rows.map { $0[2] })")
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

    /// The page carries the script and style as they stand in Sources/tapseek/Report/Resources
    /// (compiled into the executable by SwiftPM's `embedInCode`), whole and unaltered.
    @Test func testPageCarriesTheResourceFilesVerbatim() throws {
        let page = FileManager.default.temporaryDirectory.appendingPathComponent("tapseek-resources-\(UUID().uuidString).html")
        defer { try? FileManager.default.removeItem(at: page) }
        // One bad line is enough for a page.
        let run = try CLIRunner.run(["report", "-", "-o", page.path], stdin: "{\"location\":{\"latitude\":\"x\"}}\n")
        #expect(run.status == 0, "\(run.stderr)")
        let html = try String(contentsOf: page, encoding: .utf8)
        for (name, element) in [("report.js", "<script>\n"), ("report.css", "<style>")] {
            let file = try String(contentsOf: CLIRunner.packageRoot.appendingPathComponent("Sources/tapseek/Report/Resources/\(name)"), encoding: .utf8)
            #expect(file.count > 1000 && html.contains(element + file), "\(name) is not in the page whole")
        }
    }
}
