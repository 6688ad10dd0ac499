import Foundation
import Testing
import TapSeekTestSupport

/// `tapseek viewshed` as a user runs it: the GeoTIFF read back by GDAL's own tools, its cells
/// against `tapseek aim --batch`, the GeoJSON polygons checked by SpatiaLite, and one-line errors.
@Suite(.enabled(if: SharedData.available(SharedData.dem), "needs ../shared/dem"), .timeLimit(.minutes(10)))
struct ViewshedCommandTests {
    static func run(_ arguments: [String], stdin: String? = nil) throws -> CLIRunner.Result {
        try #require(SharedData.exists(SharedData.dem), Comment(rawValue: SharedData.missing(SharedData.dem)))
        return try CLIRunner.run(["viewshed"] + arguments + ["--dem", SharedData.dem.path], stdin: stdin)
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Runs a tool and returns its stdout.
    static func tool(_ name: String, _ arguments: [String], input: String = "") throws -> String {
        try SharedData.capture(name, arguments, input: input)
    }

    /// From the Säntis summit (its true 2 502 m, as the DEM's surface lies 45 m lower), 6 km: GDAL reads EPSG:4326, the size, the corner and pixel size of
    /// a grid centred on the tile's posts, Byte with no-data 255; its histogram gives the
    /// summary's counts; the cell centres read by `gdallocationinfo` say what `tapseek aim` says.
    @Test func geoTIFFOpensInGDALAndAgreesWithAim() throws {
        let directory = try SharedData.temporaryDirectory("viewshed-cli")
        defer { try? FileManager.default.removeItem(at: directory) }
        let tif = directory.appendingPathComponent("saentis.tif").path
        let result = try Self.run(["47.2492", "9.3433", "--altitude", "2504", "--range", "6000", "-o", tif, "--jobs", "2"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty)
        let summary = try Self.json(result.stdout)
        let rows = try #require(summary["rows"] as? Int), columns = try #require(summary["columns"] as? Int)
        let cells = try #require(summary["cells"] as? Int), visible = try #require(summary["visibleCells"] as? Int)
        #expect(visible > 0 && visible < cells && (summary["visibleArea"] as? Double ?? 0) > 0)
        #expect((summary["warnings"] as? [String]) == [])

        let info = try Self.json(try Self.tool("gdalinfo", ["-json", "-hist", tif]))
        #expect(info["driverShortName"] as? String == "GTiff")
        #expect(info["size"] as? [Int] == [columns, rows])
        let wkt = try #require((info["coordinateSystem"] as? [String: Any])?["wkt"] as? String)
        #expect(wkt.contains("ID[\"EPSG\",4326]"), "\(wkt)")
        let transform = try #require(info["geoTransform"] as? [Double])
        let spacing = 1.0 / 1200
        #expect(abs(transform[1] - spacing) < 1e-12 && abs(transform[5] + spacing) < 1e-12 && transform[2] == 0 && transform[4] == 0)
        // Cell centres on the 3″ posts: the corner lies half a post off the lattice.
        #expect(abs(remainder(transform[0] + spacing / 2, spacing)) < 1e-9 && abs(remainder(transform[3] - spacing / 2, spacing)) < 1e-9)
        let band = try #require((info["bands"] as? [[String: Any]])?.first)
        #expect(band["type"] as? String == "Byte" && band["noDataValue"] as? Double == 255)
        let histogram = try #require((band["histogram"] as? [String: Any])?["buckets"] as? [Int])
        #expect(histogram.count == 256 && histogram[1] == visible && histogram[0] == cells - visible)
        #expect(cells < rows * columns, "the corners of the square lie beyond the range")

        // Every 13th cell: GDAL's value at its centre against tapseek aim's visible.
        var points: [(Double, Double)] = []
        for r in stride(from: 3, to: rows, by: 13) {
            for c in stride(from: 5, to: columns, by: 13) {
                points.append((transform[3] - (Double(r) + 0.5) * spacing, transform[0] + (Double(c) + 0.5) * spacing))
            }
        }
        let values = try Self.tool("gdallocationinfo", ["-valonly", "-wgs84", tif],
                                   input: points.map { "\($0.1) \($0.0)\n" }.joined()).split(separator: "\n").map { Int($0) }
        #expect(values.count == points.count)
        let requests = points.map { #"{"location":{"latitude":47.2492,"longitude":9.3433,"altitude":2504},"target":{"latitude":\#($0.0),"longitude":\#($0.1)}}"# }
        let aim = try CLIRunner.run(["aim", "--batch", "--dem", SharedData.dem.path], stdin: requests.joined(separator: "\n") + "\n")
        #expect(aim.status == 0, "\(aim.stderr)")
        let answers = try aim.stdout.split(separator: "\n").map { try Self.json(String($0)) }
        #expect(answers.count == points.count)
        var compared = 0
        for (i, answer) in answers.enumerated() where i < values.count {
            guard let distance = answer["distance"] as? Double, let seen = answer["visible"] as? Bool else { continue }
            if distance > 6000 - 50 { continue }
            compared += 1
            #expect(values[i] == (seen ? 1 : 0), "cell at \(points[i]): GeoTIFF \(String(describing: values[i])), aim \(seen)")
        }
        #expect(compared > 100)
    }

    /// The GeoJSON's visible area is valid OGC polygons (SpatiaLite's ST_IsValid) whose area on
    /// the ellipsoid is the summary's `visibleArea`.
    @Test func geoJSONPolygonsAreValidAndHoldTheVisibleArea() throws {
        let directory = try SharedData.temporaryDirectory("viewshed-geojson")
        defer { try? FileManager.default.removeItem(at: directory) }
        let tif = directory.appendingPathComponent("v.tif").path, geojson = directory.appendingPathComponent("v.geojson")
        let result = try Self.run(["47.2840", "9.4300", "--range", "8000", "--target-height", "5", "-o", tif, "--format", "geojson"])
        #expect(result.status == 0, "\(result.stderr)")
        try Data(result.stdout.utf8).write(to: geojson)
        let collection = try Self.json(result.stdout)
        let features = try #require(collection["features"] as? [[String: Any]])
        let properties = try #require(features.first?["properties"] as? [String: Any])
        #expect(properties["role"] as? String == "observer" && properties["targetHeight"] as? Double == 5)
        let area = try #require(properties["visibleArea"] as? Double)
        let polygons = try #require((features.last?["geometry"] as? [String: Any])?["coordinates"] as? [Any])
        #expect(polygons.count > 10)
        let sql = "SELECT ST_IsValid(geometry) AS valid, ST_Area(geometry, 1) AS area FROM v WHERE role = 'visible'"
        let report = try Self.tool("ogrinfo", ["-q", "-dialect", "SQLite", "-sql", sql, geojson.path])
        #expect(report.contains("valid (Integer) = 1"), "\(report)")
        let measured = try #require(report.split(separator: "\n").first { $0.contains("area (Real) = ") }
            .flatMap { Double($0.split(separator: "=").last!.trimmingCharacters(in: .whitespaces)) })
        #expect(abs(measured - area) < 1e-4 * area, "SpatiaLite \(measured) m², summary \(area) m²")
    }

    @Test(arguments: [
        (["--target-height", "-1"], 2, "--target-height must be within 0…10000 metres, got -1.0"),
        (["--resolution", "0"], 2, "--resolution must be within (0, 3600] arc seconds, got 0.0"),
        (["--range", "0"], 2, "--range must be within (0, 2000000] metres, got 0.0"),
        (["--jobs", "0"], 2, "--jobs must be at least 1, got 0"),
        (["--altitude", "100000"], 2, "--altitude must be within −1000…50000 metres, got 100000.0"),
        (["--range", "2000000", "--resolution", "0.5"], 1, "at most 25000000"),
    ])
    func badOptionsGiveOneLineErrors(options: [String], status: Int32, message: String) throws {
        let result = try Self.run(["47.2492", "9.3433", "-o", "/tmp/never-written.tif"] + options)
        #expect(result.status == status)
        #expect(result.stderrLines.count == 1 || status == 2, "\(result.stderr)")
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func unwritableOutputAndAnObserverOutsideTheDEMAreOneLine() throws {
        let folder = try Self.run(["47.2492", "9.3433", "--range", "1000", "-o", "/nonexistent/v.tif"])
        #expect(folder.status == 1 && folder.stderrLines.count == 1 && folder.stderr.contains("--output /nonexistent/v.tif"))
        let outside = try Self.run(["10", "10", "-o", "/tmp/never-written.tif"])
        #expect(outside.status == 1 && outside.stderrLines.count == 1 && outside.stderr.contains("outside the DEM"), "\(outside.stderr)")
        let missing = try Self.run(["47.2492", "9.3433"])
        #expect(missing.status == 2)
    }

    /// `--jobs 1` works on one thread, start to end: a compressed GeoTIFF's blocks, which are
    /// otherwise shared out among the cores, are decoded one after another, and the geoid is
    /// read before the tile instead of beside it. The process's threads, counted in /proc while
    /// it runs, never exceed one; with `--jobs 2` the same count sees several, so the sampling
    /// does catch them. The two grids are the same bytes.
    @Test func jobsOneRunsOnOneThread() throws {
        let source = SharedData.dem.appendingPathComponent("N46E008.tif")
        try #require(SharedData.exists(source), Comment(rawValue: SharedData.missing(source)))
        let directory = try SharedData.temporaryDirectory("viewshed-jobs")
        defer { try? FileManager.default.removeItem(at: directory) }
        let dem = directory.appendingPathComponent("dem")
        try FileManager.default.createDirectory(at: dem, withIntermediateDirectories: true)
        // Nine 512-post blocks of 1 MiB: enough for the decode to share them out when allowed.
        try SharedData.run("gdal_translate", ["-q", "-of", "COG", "-ot", "Float32", "-co", "COMPRESS=DEFLATE", "-co", "PREDICTOR=3",
                                               "-co", "BLOCKSIZE=512", source.path, dem.appendingPathComponent("cog.tif").path])
        func mostThreads(jobs: Int) throws -> (threads: Int, grid: Data) {
            let output = directory.appendingPathComponent("jobs\(jobs).tif")
            let process = Process()
            process.executableURL = try CLIRunner.executable()
            process.arguments = ["viewshed", "46.6436", "8.4208", "--range", "3000", "--dem", dem.path, "-o", output.path,
                                 "--jobs", "\(jobs)"]
            process.environment = ProcessInfo.processInfo.environment.merging(["TAPSEEK_CACHE_DIR": "off"]) { _, new in new }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            var most = 0
            while process.isRunning {
                let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.processIdentifier)/task"))?.count ?? 0
                most = max(most, tasks)
            }
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "--jobs \(jobs)")
            return (most, try Data(contentsOf: output))
        }
        let one = try mostThreads(jobs: 1), two = try mostThreads(jobs: 2)
        #expect(one.threads == 1)
        #expect(two.threads > 1)
        #expect(one.grid == two.grid)
    }
}
