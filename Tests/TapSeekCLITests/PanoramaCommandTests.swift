import Foundation
import Testing
import TapSeekTestSupport

/// `tapseek panorama` as a user runs it: JSON and GeoJSON on stdout, the picture rendered by
/// librsvg and checked by its pixels, and one-line errors.
@Suite(.enabled(if: SharedData.available(SharedData.dem), "needs ../shared/dem"), .timeLimit(.minutes(10)))
struct PanoramaCommandTests {
    static func run(_ arguments: [String]) throws -> CLIRunner.Result {
        try #require(SharedData.exists(SharedData.dem), Comment(rawValue: SharedData.missing(SharedData.dem)))
        return try CLIRunner.run(["panorama"] + arguments + ["--dem", SharedData.dem.path])
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Over a void (Finsteraarhorn's summit in N46E008) with no altitude, the one-line error
    /// names the option that fixes it (before issue 29: "the reading gives no altitude", though
    /// panorama reads no reading); with --altitude the panorama is drawn.
    @Test func overAVoidTheErrorNamesTheAltitudeOption() throws {
        let refused = try Self.run(["46.5367", "8.1258", "--azimuth-step", "10", "--range", "5000", "--no-fill-voids"])
        #expect(refused.status == 1 && refused.stdout.isEmpty)
        #expect(refused.stderrLines.count == 1 && refused.stderr.contains("void") && refused.stderr.contains("--altitude"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("reading gives"), "\(refused.stderr)")
        let given = try Self.run(["46.5367", "8.1258", "--altitude", "4280", "--azimuth-step", "10", "--range", "5000", "--no-fill-voids"])
        #expect(given.status == 0, "\(given.stderr)")
    }

    @Test func panoramaJSONHasOneSkylinePointPerStepAndItsPeaks() throws {
        let result = try Self.run(["27.9957", "86.8285", "--azimuth-step", "0.5", "--range", "30000"])
        #expect(result.status == 0, "\(result.stderr)")
        let panorama = try Self.json(result.stdout)
        let skyline = try #require(panorama["skyline"] as? [[String: Any]])
        #expect(skyline.count == 720)
        #expect(skyline.first?["azimuth"] as? Double == 0 && skyline.last?["azimuth"] as? Double == 359.5)
        for key in ["elevationAngle", "distance", "latitude", "longitude", "elevation"] {
            #expect(skyline.allSatisfy { $0[key] is Double }, "skyline \(key)")
        }
        #expect(panorama["refraction"] as? Double == 0.13 && panorama["azimuthStep"] as? Double == 0.5 && panorama["range"] as? Double == 30000)
        let observer = try #require(panorama["observer"] as? [String: Any])
        #expect(observer["groundElevation"] is Double && observer["altitude"] is Double)
        let peaks = try #require(panorama["peaks"] as? [[String: Any]])
        // Everest (8 849 m) is among the peaks.
        #expect(peaks.contains { abs(($0["elevation"] as? Double ?? 0) - 8849) < 30 })
        // Every entry says whether its skyline is settled; the tile ends 500 m to the north.
        #expect(skyline.allSatisfy { $0["complete"] is Bool })
        #expect(skyline.first?["complete"] as? Bool == false)
        #expect(panorama["warningCodes"] as? [String] == ["left-dem", "near-ground-hides-view"], "\(panorama["warnings"] ?? "")")
    }

    /// From the Säntis's summit at 2 505 m every azimuth leaves the tile N47E009 (47–48° N,
    /// 9–10° E) unsettled: each entry says `"complete":false`, no peak is listed (none on the
    /// border at longitude 10), a warning counts them; GeoJSON marks the skyline feature, and
    /// the picture hatches the sky of those azimuths.
    @Test func panoramaMarksAzimuthsThatReachTheDEMEdge() throws {
        let folder = try SharedData.temporaryDirectory("panorama-edge")
        defer { try? FileManager.default.removeItem(at: folder) }
        let svgURL = folder.appendingPathComponent("p.svg")
        let result = try Self.run(["47.2493", "9.3433", "--altitude", "2505", "--azimuth-step", "1", "--svg", svgURL.path])
        #expect(result.status == 0, "\(result.stderr)")
        let panorama = try Self.json(result.stdout)
        let skyline = try #require(panorama["skyline"] as? [[String: Any]])
        #expect(skyline.count == 360 && skyline.allSatisfy { $0["complete"] as? Bool == false })
        #expect(skyline.contains { abs(($0["longitude"] as? Double ?? 0) - 10) < 1e-4 })
        #expect((panorama["peaks"] as? [Any])?.isEmpty == true)
        let codes = try #require(panorama["warningCodes"] as? [String]), warnings = try #require(panorama["warnings"] as? [String])
        let edge = try #require(codes.firstIndex(of: "left-dem"))
        #expect(warnings[edge].hasPrefix("360 of 360 azimuths reach the edge of the DEM"), "\(warnings[edge])")
        let svg = try String(contentsOf: svgURL, encoding: .utf8)
        #expect(svg.contains("class=\"incomplete\""))

        let geojson = try Self.run(["47.2493", "9.3433", "--altitude", "2505", "--azimuth-step", "1", "--format", "geojson"])
        let features = try #require(try Self.json(geojson.stdout)["features"] as? [[String: Any]])
        let skylines = features.compactMap { $0["properties"] as? [String: Any] }.filter { $0["role"] as? String == "skyline" }
        #expect(skylines.count == 1 && skylines.first?["complete"] as? Bool == false)
        #expect(!features.contains { ($0["properties"] as? [String: Any])?["role"] as? String == "peak" })
    }

    /// Negative coordinates are plain arguments, and negative option values are values; the 1″
    /// New Zealand tile; GeoJSON output.
    @Test func negativeCoordinatesAndGeoJSON() throws {
        let result = try Self.run(["-37.75", "178.3", "--azimuth-step", "5", "--range", "20000", "--refraction", "-0.1",
                                   "--format", "geojson"])
        #expect(result.status == 0, "\(result.stderr)")
        let collection = try Self.json(result.stdout)
        #expect(collection["type"] as? String == "FeatureCollection")
        let features = try #require(collection["features"] as? [[String: Any]])
        let roles = features.compactMap { ($0["properties"] as? [String: Any])?["role"] as? String }
        #expect(roles.first == "observer" && roles.contains("skyline"))
        let observer = try #require(features.first?["properties"] as? [String: Any])
        #expect(observer["refraction"] as? Double == -0.1)
        let skyline = try #require(features.first { ($0["properties"] as? [String: Any])?["role"] as? String == "skyline" })
        let geometry = try #require(skyline["geometry"] as? [String: Any])
        #expect(["LineString", "MultiLineString"].contains(geometry["type"] as? String ?? ""))
    }

    /// The picture, rendered by librsvg: at azimuths where the skyline is smooth, the pixels a
    /// little above it are sky (blue) and those a little below are terrain (grey-blue, darker),
    /// and the compass labels are there.
    @Test func pictureShowsSkyAboveAndTerrainBelowTheSkyline() throws {
        let folder = try SharedData.temporaryDirectory("panorama")
        defer { try? FileManager.default.removeItem(at: folder) }
        let svgURL = folder.appendingPathComponent("p.svg"), png = folder.appendingPathComponent("p.png")
        let result = try Self.run(["27.9957", "86.8285", "--eye-height", "10", "--range", "30000", "--svg", svgURL.path])
        #expect(result.status == 0, "\(result.stderr)")
        let panorama = try Self.json(result.stdout)
        let skyline = try #require(panorama["skyline"] as? [[String: Any]])
        let peakAzimuths = try #require(panorama["peaks"] as? [[String: Any]]).compactMap { $0["azimuth"] as? Double }
        let svg = try String(contentsOf: svgURL, encoding: .utf8)
        for label in [">N<", ">NE<", ">E<", ">S<", ">W<", ">10°<", ">350°<"] { #expect(svg.contains(label), "label \(label)") }
        func attribute(_ name: String) throws -> Double {
            let range = try #require(svg.range(of: "\(name)=\""))
            return try #require(Double(svg[range.upperBound...].prefix { $0 != "\"" }))
        }
        let left = try attribute("data-left"), perAzimuth = try attribute("data-pixels-per-azimuth-degree")
        let top = try attribute("data-top"), topAngle = try attribute("data-top-angle")
        let perElevation = try attribute("data-pixels-per-elevation-degree")
        try SharedData.run("rsvg-convert", ["-f", "png", "-o", png.path, svgURL.path])
        var probes: [(x: Int, y: Int, sky: Bool)] = []
        let angles = try skyline.map { try #require($0["elevationAngle"] as? Double) }
        let complete = skyline.map { $0["complete"] as? Bool == true }
        var hatched: [(x: Int, y: Int)] = []
        for azimuth in stride(from: 5, to: 360, by: 10) {
            // Where the skyline is smooth over ±1° (a pixel column spans 0.25°) and no peak's
            // marker is near, 8 px above and below it; above an unsettled skyline, hatching.
            let i = azimuth * 10, angle = angles[i]
            guard (i - 10...i + 10).allSatisfy({ complete[($0 + 3600) % 3600] }) else {
                if (i - 10...i + 10).allSatisfy({ !complete[($0 + 3600) % 3600] }) {
                    hatched.append((Int(left + (Double(azimuth) + 0.05) * perAzimuth), Int(top + 4)))
                }
                continue
            }
            guard (i - 10...i + 10).allSatisfy({ abs(angles[($0 + 3600) % 3600] - angle) < 8 / perElevation }),
                  !peakAzimuths.contains(where: { abs($0 - Double(azimuth)) < 2 }) else { continue }
            let x = Int(left + (Double(azimuth) + 0.05) * perAzimuth), y = top + (topAngle - angle) * perElevation
            probes.append((x, Int(y - 8), true))
            probes.append((x, Int(y + 8), false))
        }
        #expect(probes.count >= 10, "only \(probes.count / 2) smooth azimuths")
        #expect(hatched.count >= 5, "only \(hatched.count) unsettled azimuths")
        // The hatching's tone has no sky's blue in it (sky: blue exceeds red by more than 20).
        let hatching = try Self.pixels(of: png, at: hatched.flatMap { p in (0..<8).map { (p.x + $0, p.y) } })
        #expect(hatching.contains { $0.2 - $0.0 < 20 }, "no hatching above unsettled azimuths: \(hatching)")
        let pixels = try Self.pixels(of: png, at: probes.map { ($0.x, $0.y) })
        for (probe, rgb) in zip(probes, pixels) {
            let blueness = rgb.2 - rgb.0
            if probe.sky {
                #expect(blueness > 20 && rgb.2 > 200, "(\(probe.x), \(probe.y)) should be sky, is \(rgb)")
            } else {
                #expect(rgb.2 < 235 && (rgb.0 + rgb.1 + rgb.2) < 3 * 215, "(\(probe.x), \(probe.y)) should be terrain, is \(rgb)")
            }
        }
    }

    /// The picture's labels: degree labels and compass letters on rows of their own (NW at 315°
    /// between 310° and 320° once overlapped both), a legend of the depth tones and of the
    /// hatching, and a title that says when the DEM ends before the range. Rendered by librsvg:
    /// it must render.
    @Test func pictureLabelsDoNotCollideAndTheLegendExplainsTheTones() throws {
        let folder = try SharedData.temporaryDirectory("panorama-labels")
        defer { try? FileManager.default.removeItem(at: folder) }
        let svgURL = folder.appendingPathComponent("p.svg"), png = folder.appendingPathComponent("p.png")
        let result = try Self.run(["27.9957", "86.8285", "--eye-height", "10", "--range", "30000", "--azimuth-step", "0.5", "--svg", svgURL.path])
        #expect(result.status == 0, "\(result.stderr)")
        let svg = try String(contentsOf: svgURL, encoding: .utf8)
        func y(ofText label: String) throws -> Double {
            let end = try #require(svg.range(of: ">\(label)</text>"), "no label \(label)")
            let start = try #require(svg[..<end.lowerBound].range(of: "<text ", options: .backwards))
            let attributes = svg[start.upperBound..<end.lowerBound]
            let y = try #require(attributes.range(of: " y=\""))
            return try #require(Double(attributes[y.upperBound...].prefix { $0 != "\"" }))
        }
        #expect(try y(ofText: "NW") - y(ofText: "310°") >= 12)
        for label in ["within 2 km", "within 20 km", "beyond 20 km", "the DEM ends first: skyline unsettled"] {
            #expect(svg.contains(">\(label)</text>"), "legend \(label)")
        }
        #expect(svg.contains("the DEM ends first on"), "title")
        try SharedData.run("rsvg-convert", ["-f", "png", "-o", png.path, svgURL.path])
        #expect(FileManager.default.fileExists(atPath: png.path))
    }

    /// RGB of PNG pixels, read by GDAL's `gdallocationinfo` (pixel/line coordinates).
    static func pixels(of png: URL, at points: [(Int, Int)]) throws -> [(Int, Int, Int)] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gdallocationinfo", "-valonly", png.path]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        input.fileHandleForWriting.write(Data(points.map { "\($0.0) \($0.1)\n" }.joined().utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let values = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).compactMap { Int($0) }
        // One line per band (R, G, B and maybe alpha) per point.
        let bands = values.count / max(points.count, 1)
        try #require(bands >= 3 && values.count == points.count * bands, "gdallocationinfo gave \(values.count) values")
        return (0..<points.count).map { (values[bands * $0], values[bands * $0 + 1], values[bands * $0 + 2]) }
    }

    @Test(arguments: [
        (["27.9", "86.8", "--azimuth-step", "0"], "--azimuth-step"),
        (["27.9", "86.8", "--range", "-5"], "--range"),
        (["27.9"], "LAT LON"),
        (["north", "86.8"], "latitude"),
    ])
    func badUsageIsOneLine(arguments: [String], mention: String) throws {
        let result = try Self.run(arguments)
        #expect(result.status != 0 && result.stdout.isEmpty)
        #expect(result.stderr.contains(mention), "\(result.stderr)")
    }

    @Test func observerOutsideTheDEMIsOneLineError() throws {
        let result = try Self.run(["10", "10"])
        #expect(result.status == 1 && result.stdout.isEmpty)
        #expect(result.stderrLines.count == 1 && result.stderr.contains("outside the DEM"), "\(result.stderr)")
    }
}
