import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import TapSeekTestSupport
import Testing

@testable import TapSeekCore

/// The profile picture, checked as a reader sees it: the SVG is rendered to pixels by librsvg
/// (`rsvg-convert`) and read back through GDAL (`gdal_translate -of ENVI`), and the parts are
/// found by their colours.
///
/// The synthetic profile is built from closed forms independent of the plot: samples every 50 m
/// due north along a meridian, where the great-circle distance is R·Δφ exactly, with heights
/// that include the curvature-and-refraction drop δ(d) = d²(1 − k)/(2R) (R from the test
/// support's own WGS84 formulas). So a correct picture shows the terrain's top as one level row
/// and the ray as a straight line, while a picture that forgot the drop bows them by up to
/// 206 m (about 40 px).
@Suite struct ProfilePlotTests {
    static let latitude = 46.0, longitude = 8.0
    static let k = 0.13
    static let radius = SyntheticTerrain.Truth.meanRadius(latitude)
    static let eyeHeight = 1100.0
    static let plain = 1000.0
    static let voidRange = 20_000.0..<30_000.0
    static let wallStart = 50_000.0, wallSlope = 0.2
    static let hitDistance = 55_000.0
    /// The ray climbs from the eye to the wall's height at the hit, 2000 m (apparent).
    static let raySlope = (plain + wallSlope * (hitDistance - wallStart) - eyeHeight) / hitDistance

    static func drop(_ d: Double) -> Double { d * d * (1 - k) / (2 * radius) }
    static func latitude(at d: Double) -> Double { latitude + d / radius * 180 / .pi }

    /// Apparent terrain (drop removed), nil in the void.
    static func apparentTerrain(_ d: Double) -> Double? {
        if voidRange.contains(d) { return nil }
        return d < wallStart ? plain : plain + wallSlope * (d - wallStart)
    }

    /// The march's samples every 50 m, one past the hit as the march records them.
    static let samples: [SightlineMarch.ProfileSample] = stride(from: 50.0, through: hitDistance + 50, by: 50).map { d in
        SightlineMarch.ProfileSample(slantDistance: d, latitude: latitude(at: d), longitude: longitude,
                                     terrain: apparentTerrain(d).map { $0 + drop(d) },
                                     ray: eyeHeight + raySlope * d + drop(d))
    }

    static func plot(targetIsHit: Bool = true, title: String = "Synthetic wall") -> ProfilePlot {
        ProfilePlot(observer: .init(latitude: latitude, longitude: longitude, height: eyeHeight),
                    target: .init(latitude: latitude(at: hitDistance), longitude: longitude,
                                  height: apparentTerrain(hitDistance)! + drop(hitDistance)),
                    targetIsHit: targetIsHit, samples: samples, refraction: k, title: title)
    }

    static let picture: Result<RenderedPicture, Error> = Result { try RenderedPicture.render(svg: plot().svg()) }

    /// The frame found in the pixels: the axes' column and row, and the x axis's right end.
    struct Frame {
        var left: Int, right: Int, bottom: Int
        /// Column of ground distance `d`, with the axis from 0 to 60 km (its round end for a
        /// 55 km profile, checked in ``axesAreLabelledWithRoundTicks()``).
        func column(_ d: Double) -> Double { Double(left) + d / 60_000 * Double(right - left) }
    }

    static func frame(_ p: RenderedPicture) -> Frame {
        let axis = RenderedPicture.rgb(ProfilePlot.axisColour)
        var bestRow = (0, 0), bestColumn = (0, 0)
        for y in 0..<p.height {
            let count = (0..<p.width).count { p.matches(x: $0, y: y, axis, tolerance: 30) }
            if count > bestRow.1 { bestRow = (y, count) }
        }
        for x in 0..<p.width {
            let count = (0..<p.height).count { p.matches(x: x, y: $0, axis, tolerance: 30) }
            if count > bestColumn.1 { bestColumn = (x, count) }
        }
        var right = bestColumn.0
        while right + 1 < p.width, p.matches(x: right + 1, y: bestRow.0, axis, tolerance: 30) { right += 1 }
        return Frame(left: bestColumn.0, right: right, bottom: bestRow.0)
    }

    /// Centroid of the pixels of a colour inside the plotting area.
    static func centroid(_ p: RenderedPicture, _ colour: String, frame: Frame) -> (x: Double, y: Double)? {
        let rgb = RenderedPicture.rgb(colour)
        var sx = 0.0, sy = 0.0, n = 0.0
        for y in 0..<frame.bottom {
            for x in (frame.left - 8)...frame.right where x >= 0 && p.matches(x: x, y: y, rgb, tolerance: 30) {
                sx += Double(x); sy += Double(y); n += 1
            }
        }
        return n > 0 ? (sx / n, sy / n) : nil
    }

    /// Topmost terrain-coloured row of a column, if any.
    static func terrainTop(_ p: RenderedPicture, x: Int, frame: Frame) -> Int? {
        let terrain = RenderedPicture.rgb(ProfilePlot.terrainColour)
        return (0..<frame.bottom).first { p.matches(x: x, y: $0, terrain, tolerance: 30) }
    }

    /// Mean row of the ray's pixels in a column, if any.
    static func rayRow(_ p: RenderedPicture, x: Int, frame: Frame) -> Double? {
        let ray = RenderedPicture.rgb(ProfilePlot.rayColour)
        let rows = (0..<frame.bottom).filter { p.matches(x: x, y: $0, ray, tolerance: 30) }
        return rows.isEmpty ? nil : Double(rows.reduce(0, +)) / Double(rows.count)
    }

    // MARK: The picture

    @Test(.enabled(if: RenderedPicture.toolsAvailable, "needs rsvg-convert (librsvg2-bin) and gdal_translate"))
    func terrainFillsTheLowerPartBelowTheRayAtTheObserversEnd() throws {
        let p = try Self.picture.get()
        let frame = Self.frame(p)
        let terrain = RenderedPicture.rgb(ProfilePlot.terrainColour)
        for d in stride(from: 500.0, through: 5_000, by: 500) {
            let x = Int(frame.column(d).rounded())
            let top = try #require(Self.terrainTop(p, x: x, frame: frame), "no terrain at \(d) m")
            let ray = try #require(Self.rayRow(p, x: x, frame: frame), "no ray at \(d) m")
            #expect(Double(top) > ray + 5, "terrain top \(top) should lie below the ray \(ray) at \(d) m")
            let filled = (top + 1..<frame.bottom - 1).allSatisfy { p.matches(x: x, y: $0, terrain, tolerance: 30) }
            #expect(filled, "terrain should fill the column from its top down to the axis at \(d) m")
        }
    }

    @Test(.enabled(if: RenderedPicture.toolsAvailable, "needs rsvg-convert (librsvg2-bin) and gdal_translate"))
    func rayIsAStraightLineFromTheObserverToTheTarget() throws {
        let p = try Self.picture.get()
        let frame = Self.frame(p)
        let eye = try #require(Self.centroid(p, ProfilePlot.observerColour, frame: frame))
        let hit = try #require(Self.centroid(p, ProfilePlot.targetColour, frame: frame))
        #expect(abs(eye.x - Double(frame.left)) <= 1.5, "observer at distance 0")
        #expect(abs(hit.x - frame.column(Self.hitDistance)) <= 1.5, "target at 55 km")
        var worst = (column: 0, deviation: 0.0), checked = 0
        for x in Int(eye.x) + 10..<Int(hit.x) - 10 {
            let row = try #require(Self.rayRow(p, x: x, frame: frame), "the ray has a gap at column \(x)")
            let expected = eye.y + (hit.y - eye.y) * (Double(x) - eye.x) / (hit.x - eye.x)
            if abs(row - expected) > worst.deviation { worst = (x, abs(row - expected)) }
            checked += 1
        }
        #expect(checked > 600)
        // Without the drop the ray would bow by δ(27.5 km) ≈ 52 m at mid-way, about 10 rows.
        #expect(worst.deviation <= 1.0, "the ray leaves the straight line by \(worst.deviation) rows at column \(worst.column)")
    }

    @Test(.enabled(if: RenderedPicture.toolsAvailable, "needs rsvg-convert (librsvg2-bin) and gdal_translate"))
    func terrainThatFollowsTheCurvatureDrawsLevel() throws {
        let p = try Self.picture.get()
        let frame = Self.frame(p)
        var tops: [Int] = []
        for d in stride(from: 1_000.0, through: 49_000, by: 1_000) where !(19_000...31_000).contains(d) {
            tops.append(try #require(Self.terrainTop(p, x: Int(frame.column(d).rounded()), frame: frame)))
        }
        let spread = tops.max()! - tops.min()!
        // Without the drop the plain would sag by δ(49 km) = 164 m, about 30 rows.
        #expect(spread <= 1, "the plain's top should be one row, got rows \(tops.min()!)…\(tops.max()!)")
    }

    @Test(.enabled(if: RenderedPicture.toolsAvailable, "needs rsvg-convert (librsvg2-bin) and gdal_translate"))
    func voidLeavesAGapOfItsWidth() throws {
        let p = try Self.picture.get()
        let frame = Self.frame(p)
        let terrain = RenderedPicture.rgb(ProfilePlot.terrainColour)
        let row = frame.bottom - 3
        let bare = (frame.left + 2...frame.right - 2).filter { !p.matches(x: $0, y: row, terrain, tolerance: 30) }
        let first = try #require(bare.first), last = try #require(bare.last)
        // The gap runs from the last known sample (19 950 m) to the first after the void (30 000 m),
        // and past the hit (55 000 m) there is no terrain in the data.
        #expect(abs(Double(first) - frame.column(19_950)) <= 2, "gap starts at column \(first)")
        let inGap = bare.filter { Double($0) < frame.column(Self.hitDistance) - 2 }
        #expect(abs(Double(inGap.last!) - frame.column(30_000)) <= 2, "gap ends at column \(inGap.last!)")
        #expect(inGap.count >= Int(frame.column(30_000) - frame.column(19_950)) - 3, "the gap is one contiguous range")
        #expect(Double(last) > frame.column(Self.hitDistance), "no terrain drawn beyond the data")
        // Nothing in the void's columns is terrain, at any height.
        for x in Int(frame.column(20_500))...Int(frame.column(29_500)) {
            #expect(Self.terrainTop(p, x: x, frame: frame) == nil, "terrain drawn in the void at column \(x)")
        }
    }

    // MARK: The document

    @Test func axesAreLabelledWithRoundTicks() throws {
        let svg = Self.plot().svg()
        let texts = try SVGTexts(svg)
        #expect(texts.byID["x-title"] == "distance (km)")
        #expect(texts.byID["y-title"] == "height (m)")
        #expect(texts.inGroup["x-ticks"] == ["0", "10", "20", "30", "40", "50", "60"])
        // Apparent heights run from 1000 m (plain) to 2000 m (hit), padded by 5 %.
        #expect(texts.inGroup["y-ticks"] == ["800", "1000", "1200", "1400", "1600", "1800", "2000", "2200"])
    }

    @Test func documentIsWellFormedXMLWhateverTheTitle() throws {
        let svg = Self.plot(title: #"A & B <"tap"> \#u{7}"#).svg()
        let texts = try SVGTexts(svg)
        #expect(texts.title == #"A & B <"tap">  "#)
        #expect(svg.components(separatedBy: "http").count == 2,
                "the only URL is the SVG namespace: no external fonts, scripts or images")
        #expect(!svg.contains("<script") && !svg.contains("<image") && !svg.contains("@font-face"))
    }

    @Test func skylinePointLetsTheRayGoOnToTheEndOfTheMarch() throws {
        let figure = Self.plot(targetIsHit: false).figure()
        let target = try #require(figure.target)
        let end = try #require(figure.ray.last)
        #expect(end.d > target.d, "the ray passes the skyline point")
        #expect(abs(end.d - (Self.hitDistance + 50)) < 1e-6)
        let svg = Self.plot(targetIsHit: false).svg()
        #expect(try SVGTexts(svg).inGroup["legend"]?.contains("skyline point") == true)
        #expect(svg.contains(#"id="line-of-sight""#) && svg.contains(#"id="ray-beyond""#))
        #expect(!Self.plot().svg().contains(#"id="line-of-sight""#), "a hit needs no separate line of sight")
    }

    @Test func figureRemovesTheDropAndSplitsAtVoids() throws {
        let figure = Self.plot().figure()
        #expect(figure.terrainRuns.count == 2)
        #expect(figure.voids.count == 1)
        let void = try #require(figure.voids.first)
        #expect(abs(void.lowerBound - 19_950) < 1e-6 && abs(void.upperBound - 30_000) < 1e-6)
        let terrainError = figure.terrainRuns.joined().map { abs($0.h - Self.apparentTerrain($0.d)!) }.max() ?? .infinity
        #expect(terrainError < 1e-6, "apparent terrain off by \(terrainError) m")
        let rayError = figure.ray.map { abs($0.h - (Self.eyeHeight + Self.raySlope * $0.d)) }.max() ?? .infinity
        #expect(rayError < 1e-6, "apparent ray off by \(rayError) m")
    }

    @Test func emptyProfileStillDrawsAxesAndTheObserver() throws {
        let plot = ProfilePlot(observer: .init(latitude: 0, longitude: 0, height: 12), target: nil, targetIsHit: false,
                               samples: [], refraction: Self.k)
        let texts = try SVGTexts(plot.svg())
        #expect(texts.byID["x-title"] == "distance (km)")
        #expect(texts.inGroup["x-ticks"]?.isEmpty == false)
        #expect(plot.svg().contains(#"id="observer""#))
        #expect(!plot.svg().contains(#"id="target""#))
    }
}

/// The text of an SVG document, read with an XML parser (which also proves it well formed):
/// the `<title>`, texts by element id, and texts inside groups by the group's id.
struct SVGTexts {
    var title = ""
    var byID: [String: String] = [:]
    var inGroup: [String: [String]] = [:]

    struct Malformed: Error, CustomStringConvertible { var description: String }

    init(_ svg: String) throws {
        let delegate = Collector()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = delegate
        guard parser.parse() else {
            throw Malformed(description: "not well-formed XML: \(parser.parserError.map { "\($0)" } ?? "unknown error")")
        }
        title = delegate.title
        byID = delegate.byID
        inGroup = delegate.inGroup
    }

    private final class Collector: NSObject, XMLParserDelegate {
        var title = ""
        var byID: [String: String] = [:]
        var inGroup: [String: [String]] = [:]
        var groups: [String?] = []
        var element: (name: String, id: String?)?
        var text = ""

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            if name == "g" { groups.append(attributes["id"]) }
            if name == "text" || name == "title" {
                element = (name, attributes["id"])
                text = ""
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if name == "g" { groups.removeLast() }
            guard let current = element, current.name == name else { return }
            if name == "title" { title = text }
            if let id = current.id { byID[id] = text }
            if let group = groups.compactMap({ $0 }).last { inGroup[group, default: []].append(text) }
            element = nil
        }
    }
}

/// An SVG rendered to pixels by librsvg and read back through GDAL's ENVI raw format (PNG is
/// compressed; GDAL turns it into plain band-sequential bytes and a text header).
struct RenderedPicture {
    let width: Int
    let height: Int
    /// Red, green and blue planes, row-major, top row first.
    let planes: [[UInt8]]

    struct Failure: Error, CustomStringConvertible { var description: String }

    static var toolsAvailable: Bool {
        SharedData.isCI || (["rsvg-convert", "gdal_translate"].allSatisfy { tool in
            (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":").contains {
                FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)")
            }
        })
    }

    static func render(svg: String) throws -> RenderedPicture {
        let folder = try SharedData.temporaryDirectory("plot")
        defer { try? FileManager.default.removeItem(at: folder) }
        let svgURL = folder.appendingPathComponent("plot.svg"), png = folder.appendingPathComponent("plot.png")
        let raw = folder.appendingPathComponent("plot.raw")
        try Data(svg.utf8).write(to: svgURL)
        try SharedData.run("rsvg-convert", ["-f", "png", "-o", png.path, svgURL.path])
        try SharedData.run("gdal_translate", ["-q", "-of", "ENVI", "-co", "INTERLEAVE=BSQ", "--config", "GDAL_PAM_ENABLED", "NO", png.path, raw.path])
        return try read(raw: raw, header: folder.appendingPathComponent("plot.hdr"))
    }

    static func read(raw: URL, header: URL) throws -> RenderedPicture {
        let text = try String(contentsOf: header, encoding: .utf8)
        func value(_ key: String) throws -> String {
            for line in text.split(separator: "\n") {
                let parts = line.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if parts.count == 2, parts[0] == key { return parts[1] }
            }
            throw Failure(description: "ENVI header has no \(key)")
        }
        guard let width = Int(try value("samples")), let height = Int(try value("lines")),
              let bands = Int(try value("bands")), bands >= 3 else { throw Failure(description: "bad ENVI header: \(text)") }
        guard try value("data type") == "1", try value("interleave").lowercased() == "bsq" else {
            throw Failure(description: "expected bytes, band-sequential: \(text)")
        }
        let bytes = [UInt8](try Data(contentsOf: raw))
        let plane = width * height
        guard bytes.count == plane * bands else { throw Failure(description: "raw size \(bytes.count) ≠ \(plane) × \(bands)") }
        return RenderedPicture(width: width, height: height, planes: (0..<3).map { Array(bytes[($0 * plane)..<(($0 + 1) * plane)]) })
    }

    /// `#rrggbb` → components.
    static func rgb(_ hex: String) -> (Int, Int, Int) {
        let v = Int(hex.dropFirst(), radix: 16) ?? 0
        return ((v >> 16) & 255, (v >> 8) & 255, v & 255)
    }

    /// Whether a pixel is within `tolerance` of a colour in every component.
    func matches(x: Int, y: Int, _ colour: (Int, Int, Int), tolerance: Int) -> Bool {
        guard x >= 0, x < width, y >= 0, y < height else { return false }
        let i = y * width + x
        return abs(Int(planes[0][i]) - colour.0) <= tolerance && abs(Int(planes[1][i]) - colour.1) <= tolerance
            && abs(Int(planes[2][i]) - colour.2) <= tolerance
    }
}
