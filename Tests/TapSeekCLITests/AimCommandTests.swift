import Foundation
import Testing
import TapSeekTestSupport

/// `tapseek aim` as a user runs it on the real Säntis tile: one request, GeoJSON, the picture,
/// JSON Lines with --batch, and one-line errors.
@Suite(.enabled(if: SharedData.available(SharedData.dem), "needs ../shared/dem"), .timeLimit(.minutes(10)))
struct AimCommandTests {
    static func run(_ arguments: [String], stdin: String? = nil) throws -> CLIRunner.Result {
        try #require(SharedData.exists(SharedData.dem), Comment(rawValue: SharedData.missing(SharedData.dem)))
        return try CLIRunner.run(["aim"] + arguments + ["--dem", SharedData.dem.path], stdin: stdin)
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// From the Säntis summit: the Hoher Kasten is in sight; from Appenzell the Säntis is hidden
    /// by the foothills a kilometre away.
    static let summitToKasten = #"{"id":"k","location":{"latitude":47.2492,"longitude":9.3433},"target":{"latitude":47.2840,"longitude":9.4860,"name":"Hoher Kasten"}}"#
    static let appenzellToSaentis = #"{"location":{"latitude":47.3306,"longitude":9.4086},"orientation":{"heading":222,"pitch":5},"camera":{"horizontalFOV":63.7,"imageWidth":4032,"imageHeight":3024},"target":{"latitude":47.2492,"longitude":9.3433,"elevation":2502}}"#

    @Test func oneRequestAnswersTheInterfaceFields() throws {
        let seen = try Self.run([], stdin: Self.summitToKasten)
        #expect(seen.status == 0, "\(seen.stderr)")
        let a = try Self.json(seen.stdout)
        #expect(a["id"] as? String == "k" && a["visible"] as? Bool == true && a["blockedBy"] == nil && a["pixel"] == nil)
        #expect((a["target"] as? [String: Any])?["name"] as? String == "Hoher Kasten")
        for key in ["azimuth", "elevationAngle", "distance", "slantRange"] { #expect(a[key] is Double, "\(key)") }
        #expect(abs((a["azimuth"] as? Double ?? 0) - 70.2) < 0.5)

        let hidden = try Self.json(try Self.run([], stdin: Self.appenzellToSaentis).stdout)
        #expect(hidden["visible"] as? Bool == false)
        let blocker = try #require(hidden["blockedBy"] as? [String: Double])
        #expect((blocker["distance"] ?? 0) > 500 && (blocker["distance"] ?? 1e9) < 2000)
        let pixel = try #require(hidden["pixel"] as? [String: Any])
        #expect(pixel["inFrame"] as? Bool == true && pixel["x"] is Double && pixel["behindCamera"] as? Bool == false)
    }

    @Test func geoJSONAndThePicture() throws {
        let directory = try SharedData.temporaryDirectory("aim")
        defer { try? FileManager.default.removeItem(at: directory) }
        let svg = directory.appendingPathComponent("aim.svg").path
        let result = try Self.run(["--format", "geojson", "--plot", svg], stdin: Self.appenzellToSaentis)
        #expect(result.status == 0, "\(result.stderr)")
        let collection = try Self.json(result.stdout)
        let features = try #require(collection["features"] as? [[String: Any]])
        let roles = features.compactMap { ($0["properties"] as? [String: Any])?["role"] as? String }
        #expect(roles == ["target", "observer", "sightline", "blockedBy"])
        let picture = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(picture.hasPrefix("<svg") || picture.hasPrefix("<?xml"))
        #expect(picture.contains("hidden by terrain"))
    }

    /// The picture of a hidden target (the Säntis from Appenzell, behind the foothills a
    /// kilometre away) draws the terrain along the whole line to the target, marks the terrain
    /// in the way, and calls the target hidden, not a hit.
    @Test func aimPlotOfAHiddenTargetDrawsTheWholeLine() throws {
        let directory = try SharedData.temporaryDirectory("aim-hidden")
        defer { try? FileManager.default.removeItem(at: directory) }
        let svg = directory.appendingPathComponent("aim.svg").path
        let result = try Self.run(["--plot", svg], stdin: Self.appenzellToSaentis)
        #expect(result.status == 0, "\(result.stderr)")
        let picture = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(picture.contains(">target (hidden)<") && picture.contains(">blocked by terrain<") && picture.contains(#"id="blocked-by""#))
        #expect(!picture.contains(">hit<"))
        func number(after marker: String, in text: Substring) -> Double? {
            guard let r = text.range(of: marker) else { return nil }
            return Double(text[r.upperBound...].prefix { $0 != "\"" })
        }
        let all = Substring(picture)
        let targetX = try #require(number(after: "cx=\"", in: all[(all.range(of: #"id="target""#)?.upperBound ?? all.endIndex)...]))
        let terrain = try #require(picture.range(of: #"<g id="terrain""#))
        let group = picture[terrain.upperBound...]
        let end = try #require(group.range(of: "</g>"))
        // Path data: M x,y L x,y … Z.
        let xs = group[..<end.lowerBound].split(whereSeparator: { " \"MLZ".contains($0) }).compactMap { pair -> Double? in
            let parts = pair.split(separator: ",")
            return parts.count == 2 ? Double(parts[0]) : nil
        }
        #expect((xs.max() ?? 0) >= targetX - 5, "terrain drawn to x = \(xs.max() ?? 0), target at \(targetX)")
    }

    /// An error record leaves out what is unknown, as every record does: no `"observer":null`
    /// when the observer was never placed.
    @Test func anErrorRecordLeavesTheUnknownObserverOut() throws {
        let result = try Self.run(["--batch"], stdin: #"{"location":{"latitude":10,"longitude":10},"target":{"latitude":10.1,"longitude":10}}"#)
        #expect(result.status == 0)
        let record = try Self.json(result.stdout)
        #expect(record["line"] as? Int == 1)
        #expect(record["error"] != nil && !record.keys.contains("observer"), "\(result.stdout)")
    }

    /// A single request that cannot be answered says so once: its error record on stdout, exit
    /// 1, nothing on stderr (before issue 29 the message went to stderr as well).
    @Test func anUnanswerableRequestIsItsErrorRecordAlone() throws {
        let result = try Self.run([], stdin: #"{"location":{"latitude":10,"longitude":10},"target":{"latitude":10.1,"longitude":10}}"#)
        #expect(result.status == 1)
        let error = try #require(try Self.json(result.stdout)["error"] as? [String: String])
        #expect(error["code"] == "outside-dem" && error["message"]?.contains("outside the DEM") == true, "\(error)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }

    /// Every non-blank input line gives exactly one output line, in order, with its number.
    @Test func batchIsJSONLinesInAndOut() throws {
        let input = [Self.summitToKasten, "", "{broken", Self.appenzellToSaentis, #"{"location":{"latitude":47.3,"longitude":9.4}}"#, " \t"]
            .joined(separator: "\n") + "\n"
        let result = try Self.run(["--batch", "--jobs", "2"], stdin: input)
        #expect(result.status == 0, "\(result.stderr)")
        let records = try result.stdout.split(separator: "\n").map { try Self.json(String($0)) }
        // Blank lines (2 and 6) are no requests and get no record (before issue 29: errors).
        #expect(records.count == 4)
        #expect(records.map { $0["line"] as? Int } == [1, 3, 4, 5])
        #expect(records[0]["visible"] as? Bool == true && records[2]["visible"] as? Bool == false)
        for (i, line) in [(1, 3), (3, 5)] {
            let error = try #require(records[i]["error"] as? [String: String])
            #expect(error["code"] == "bad-input" && error["message"]?.hasPrefix("line \(line): ") == true, "\(error)")
        }
        #expect((records[3]["error"] as? [String: String])?["message"] == "line 5: target is missing")
    }

    @Test(arguments: [
        (#"{"location":{"latitude":47.33,"longitude":9.41},"target":{"latitude":47.25}}"#, "tapseek: request: target.longitude is missing\n"),
        (#"{"location":{"latitude":47.33,"longitude":9.41},"target":{"latitude":47.25,"longitude":9.34,"elevation":"high"}}"#,
         "tapseek: request: target.elevation must be a number, got \"high\"\n"),
        (#"{"location":{"latitude":47.33,"longitude":9.41},"target":{}}"#, "tapseek: request: target needs latitude and longitude, or a name\n"),
    ])
    func badRequestsGiveOneLineErrors(input: String, message: String) throws {
        let result = try Self.run([], stdin: input)
        #expect(result.status == 1)
        #expect(result.stderr == message)
        #expect(result.stdout.isEmpty)
    }

    /// A target off the DEM without an elevation is aimed at on the ellipsoid: direction and
    /// distance, no `visible` (unknown) unless DEM terrain blocks the way, and the warning
    /// (issue 38: it was an `outside-dem` error record and nothing else).
    @Test func aTargetWithoutHeightOffTheDEMIsAimedAtOverTheEllipsoid() throws {
        // Interlaken from above Grindelwald: the shared tiles end at 8° E.
        let result = try Self.run([], stdin: #"{"location":{"latitude":46.624,"longitude":8.041,"altitude":2950},"target":{"latitude":46.68387,"longitude":7.86638}}"#)
        #expect(result.status == 0, "\(result.stderr)")
        let record = try Self.json(result.stdout)
        #expect(record["error"] == nil && record["visible"] == nil, "\(record)")
        #expect((record["azimuth"] as? Double).map { abs($0 - 296.6) < 1 } == true, "\(record)")
        #expect((record["target"] as? [String: Any])?["elevation"] == nil)
        #expect((record["warningCodes"] as? [String])?.contains("target-outside-dem") == true)
    }

    /// A request that reads but cannot be answered: the message is in its error record.
    @Test func aTargetAtTheObserverIsAnErrorRecord() throws {
        let result = try Self.run([], stdin: #"{"location":{"latitude":47.33,"longitude":9.41},"target":{"latitude":47.33,"longitude":9.41}}"#)
        #expect(result.status == 1 && result.stderr.isEmpty)
        #expect(Self.errorMessage(result) == "the target is the observer's own position")
    }

    /// The message of a single request's error record on stdout ("" when there is none).
    static func errorMessage(_ result: CLIRunner.Result) -> String {
        ((try? json(result.stdout))?["error"] as? [String: String])?["message"] ?? ""
    }

    /// A name is the place of exactly that name nearest the observer, within 500 km; a fuzzy
    /// match (Säntis → Santos, Brazil; Everest → Everett, Washington) or a far one is
    /// `not-found`, naming the closest matches with their distances. Grindelwald's coordinates,
    /// 46°37′29″ N 8°02′02″ E (Wikipedia), come back from Appenzell; from Tennessee the same name
    /// lies 7 000 km away and is refused.
    @Test(.enabled(if: SharedData.exists(SharedData.projectRoot.appendingPathComponent("data/build/search-index.bin")) || SharedData.isCI,
                   "search index not built: run scripts/build-search-index.sh"))
    func aimByNameTakesOnlyAnExactNameNearTheObserver() throws {
        func request(_ name: String, _ latitude: Double = 47.3306, _ longitude: Double = 9.4086) -> String {
            #"{"location":{"latitude":\#(latitude),"longitude":\#(longitude)},"target":{"name":"\#(name)"}}"#
        }
        for (name, offered) in [("Säntis", "Santos (BR, "), ("Everest", "Everett (US, ")] {
            let result = try Self.run([], stdin: request(name))
            // As for any request that decodes: the error record on stdout, exit 1.
            #expect(result.status == 1)
            #expect((try Self.json(result.stdout)["error"] as? [String: String])?["code"] == "not-found")
            let message = Self.errorMessage(result)
            #expect(message.contains("target.name \"\(name)\" names no place within 500 km of the observer"), "\(message)")
            #expect(message.contains(offered), "\(message)")
        }
        let found = try Self.run([], stdin: request("grindelwald"))
        #expect(found.status == 0, "\(found.stderr)")
        let target = try #require(try Self.json(found.stdout)["target"] as? [String: Any])
        #expect(abs((target["latitude"] as? Double ?? 0) - 46.6247) < 0.01 && abs((target["longitude"] as? Double ?? 0) - 8.0339) < 0.01)
        #expect(target["name"] as? String == "Grindelwald")
        let far = try Self.run([], stdin: request("Grindelwald", 36.34, -84.18))
        #expect(far.status == 1 && Self.errorMessage(far).contains("Grindelwald (CH, 7"), "\(far.stdout)")
    }

    @Test func usageErrors() throws {
        #expect(try Self.run(["--batch", "--plot", "x.svg"], stdin: "").status == 2)
        #expect(try Self.run(["--batch", "--format", "geojson"], stdin: "").status == 2)
        #expect(try Self.run(["--jobs", "0"], stdin: "").status == 2)
    }
}
