import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import TapSeekTestSupport
import Testing

/// `tapseek locate --plot FILE.svg` run end to end over real terrain: the SVG the command writes
/// is read back as XML and rendered by librsvg. The picture's pixels are checked in detail in
/// TapSeekCoreTests' ProfilePlotTests; here the real march must come out right in it.
@Suite struct ProfilePlotCommandTests {
    static let eiger = LocateGeoJSONTests.eiger
    static let eigerTile = LocateGeoJSONTests.eigerTile
    static let crossMountain = CLIRunner.packageRoot.appendingPathComponent("examples/cross-mountain.json")
    /// The default DEM, made by scripts/make-default-dem.sh at set-up.
    static let defaultDEM = CLIRunner.packageRoot.appendingPathComponent("dem/jacksboro.tif")

    /// Parts of the SVG by element id: circles' centres, the ray's points, the rectangles and
    /// texts inside groups.
    struct Drawing {
        var circles: [String: (x: Double, y: Double)] = [:]
        var ray: [(x: Double, y: Double)] = []
        var lines: [String: (x1: Double, y1: Double, x2: Double, y2: Double)] = [:]
        var rectangles: [String: [(x: Double, width: Double)]] = [:]
        var texts: [String: String] = [:]
        var legend: [String] = []

        init(svg: String) throws {
            let collector = Collector()
            let parser = XMLParser(data: Data(svg.utf8))
            parser.delegate = collector
            guard parser.parse() else { throw CLIRunner.Failure(description: "the SVG is not well-formed XML") }
            self = collector.drawing
        }
        fileprivate init() {}
    }

    private final class Collector: NSObject, XMLParserDelegate {
        var drawing = Drawing()
        var groups: [String?] = []
        var textID: String?
        var text = ""

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes a: [String: String] = [:]) {
            switch name {
            case "g": groups.append(a["id"])
            case "circle":
                if let id = a["id"], let x = a["cx"].flatMap(Double.init), let y = a["cy"].flatMap(Double.init) {
                    drawing.circles[id] = (x, y)
                }
            case "line":
                let v = ["x1", "y1", "x2", "y2"].compactMap { a[$0].flatMap(Double.init) }
                if let id = a["id"], v.count == 4 { drawing.lines[id] = (v[0], v[1], v[2], v[3]) }
            case "polyline" where a["id"] == "ray":
                drawing.ray = (a["points"] ?? "").split(separator: " ").compactMap { pair in
                    let xy = pair.split(separator: ",").compactMap { Double($0) }
                    return xy.count == 2 ? (xy[0], xy[1]) : nil
                }
            case "rect":
                if let group = groups.last ?? nil, let x = a["x"].flatMap(Double.init), let w = a["width"].flatMap(Double.init) {
                    drawing.rectangles[group, default: []].append((x, w))
                }
            case "text":
                textID = a["id"] ?? groups.last ?? nil
                text = ""
            default: break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if name == "g" { groups.removeLast() }
            if name == "text" {
                if textID == "legend" { drawing.legend.append(text) } else if let id = textID { drawing.texts[id] = text }
                textID = nil
            }
        }
    }

    static func plot(_ reading: String, _ arguments: [String]) throws -> (run: CLIRunner.Result, svg: String?) {
        let folder = try SharedData.temporaryDirectory("plot")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("profile.svg")
        let run = try CLIRunner.run(["locate", "-", "--plot", file.path] + arguments, stdin: reading,
                                    environment: ["GDAL_PAM_ENABLED": "NO"])
        let svg = (try? Data(contentsOf: file)).map { String(decoding: $0, as: UTF8.self) }
        return (run, svg)
    }

    /// Width and height from a PNG's IHDR chunk (bytes 16…23, big-endian).
    static func pngSize(_ data: Data) -> (width: Int, height: Int)? {
        let bytes = [UInt8](data)
        guard bytes.count > 24, bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else { return nil }
        func word(_ i: Int) -> Int { bytes[i..<i + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (word(16), word(20))
    }

    // MARK: Real terrain

    @Test(.enabled(if: SharedData.available(eigerTile)))
    func eigerPlotShowsTheVoidBeforeTheHitAndRenders() throws {
        try #require(SharedData.exists(Self.eigerTile), "\(SharedData.missing(Self.eigerTile))")
        // From 4 600 m, above the tile's highest post, down over the Eiger's north-face voids
        // (kept unknown) onto known terrain beyond them.
        let overTheVoids = #"{"location":{"latitude":46.65,"longitude":8.06,"altitude":4600},"orientation":{"heading":200,"pitch":-6}}"#
        let (run, svg) = try Self.plot(overTheVoids, ["--dem", SharedData.dem.path, "--no-fill-voids"])
        #expect(run.status == 0, "\(run.stderr)")
        let plain = try CLIRunner.run(["locate", "-", "--dem", SharedData.dem.path, "--no-fill-voids"], stdin: overTheVoids)
        #expect(run.stdout == plain.stdout, "--plot leaves the result unchanged")

        let drawing = try Drawing(svg: try #require(svg, "no SVG written"))
        #expect(drawing.texts["x-title"] == "distance (km)")
        #expect(drawing.texts["y-title"] == "height (m)")
        #expect(drawing.legend.contains("hit"))
        let observer = try #require(drawing.circles["observer"]), target = try #require(drawing.circles["target"])
        // The march crossed a void (its warning says so) before the hit: a band lies between.
        let voids = try #require(drawing.rectangles["voids"])
        #expect(!voids.isEmpty)
        #expect(voids.allSatisfy { $0.x > observer.x && $0.x + $0.width <= target.x + 0.5 }, "\(voids) between \(observer) and \(target)")

        // librsvg renders it at its declared size.
        let folder = try SharedData.temporaryDirectory("render")
        defer { try? FileManager.default.removeItem(at: folder) }
        let svgURL = folder.appendingPathComponent("p.svg"), png = folder.appendingPathComponent("p.png")
        try Data(svg!.utf8).write(to: svgURL)
        try SharedData.run("rsvg-convert", ["-f", "png", "-o", png.path, svgURL.path])
        let size = try #require(Self.pngSize(try Data(contentsOf: png)))
        #expect(size.width == 960 && size.height == 540)
    }

    @Test(.enabled(if: SharedData.available(defaultDEM)))
    func realRayDrawsStraightFromTheEyeToTheHit() throws {
        try #require(SharedData.exists(Self.defaultDEM), "\(SharedData.missing(Self.defaultDEM))")
        let reading = try String(contentsOf: Self.crossMountain, encoding: .utf8)
        let (run, svg) = try Self.plot(reading, [])
        #expect(run.status == 0, "\(run.stderr)")
        let drawing = try Drawing(svg: try #require(svg))
        let observer = try #require(drawing.circles["observer"]), target = try #require(drawing.circles["target"])
        let first = try #require(drawing.ray.first), last = try #require(drawing.ray.last)
        #expect(abs(first.x - observer.x) < 0.11 && abs(first.y - observer.y) < 0.11, "the ray starts at the eye")
        #expect(abs(last.x - target.x) < 0.11 && abs(last.y - target.y) < 0.11, "the ray ends at the hit")
        // The march computes its ray in ECEF over the ellipsoid and the geoid; less the drop
        // d²(1 − k)/2R it must draw straight. Forgetting the drop would bow it by δ(8 km) ≈ 4.4 m
        // (2 units at this scale) in the middle and 17.6 m at the end.
        #expect(drawing.ray.count > 100)
        let slope: Double = (last.y - first.y) / (last.x - first.x)
        var worst = 0.0
        for p in drawing.ray {
            let chord: Double = first.y + slope * (p.x - first.x)
            worst = max(worst, abs(p.y - chord))
        }
        #expect(worst <= 0.3, "the ray leaves the straight line by \(worst) units")
    }

    @Test(.enabled(if: SharedData.available(defaultDEM)))
    func skylinePointIsMarkedAndTheRayGoesOn() throws {
        try #require(SharedData.exists(Self.defaultDEM), "\(SharedData.missing(Self.defaultDEM))")
        let reading = try String(contentsOf: Self.crossMountain, encoding: .utf8)
            .replacingOccurrences(of: "\"pitch\": 2.40", with: "\"pitch\": 20")
        let (run, svg) = try Self.plot(reading, [])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(#""status":"horizon""#))
        let drawing = try Drawing(svg: try #require(svg))
        #expect(drawing.legend.contains("skyline point") && drawing.legend.contains("line of sight"))
        let observer = try #require(drawing.circles["observer"]), target = try #require(drawing.circles["target"])
        // The line of sight runs from the eye to the skyline point.
        let sight = try #require(drawing.lines["line-of-sight"])
        #expect(abs(sight.x1 - observer.x) < 0.11 && abs(sight.y1 - observer.y) < 0.11)
        #expect(abs(sight.x2 - target.x) < 0.11 && abs(sight.y2 - target.y) < 0.11)
        // The ray, steeper, passes above the skyline point: its straight continuation, drawn
        // from the march's last sample, is higher (smaller y) at the skyline point's distance.
        let end = try #require(drawing.ray.last), beyond = try #require(drawing.lines["ray-beyond"])
        #expect(abs(beyond.x1 - end.x) < 0.11 && abs(beyond.y1 - end.y) < 0.11)
        #expect(beyond.x2 > target.x)
        let yAtTarget = beyond.y1 + (beyond.y2 - beyond.y1) * (target.x - beyond.x1) / (beyond.x2 - beyond.x1)
        #expect(yAtTarget < target.y, "the ray is above the skyline point")
    }

    // MARK: Errors

    @Test func missingFolderIsOneLineErrorAndNoResult() throws {
        let folder = try SharedData.temporaryDirectory("plot-error")
        defer { try? FileManager.default.removeItem(at: folder) }
        try LocateGeoJSONTests.antimeridianScene(in: folder)
        let run = try CLIRunner.run(["locate", "-", "--dem", folder.path, "--plot", "/nonexistent-tapseek-folder/p.svg"],
                                    stdin: LocateGeoJSONTests.eastward)
        #expect(run.status == 1)
        #expect(run.stderrLines.count == 1)
        #expect(run.stderr.contains("--plot") && run.stderr.contains("/nonexistent-tapseek-folder"))
        #expect(run.stdout.isEmpty)
    }
}
