import Foundation
import Testing
import TapSeekTestSupport

/// `tapseek places import|info` on the real Swiss GeoNames dump, and the names it gives
/// `locate`, `panorama`, `search` and `aim`. The index is built from `../shared/gazetteer/CH.txt`
/// into a temporary data directory; the truth is GeoNames' own coordinates and heights, and
/// sightlines built with `aim`'s geometry to look exactly at them.
@Suite(.enabled(if: SharedData.available(SharedData.gazetteer) && SharedData.available(SharedData.dem), "needs ../shared/gazetteer and ../shared/dem"))
struct PlacesCommandTests {
    /// A data directory holding CH.txt's index, imported once for the suite.
    static let data: Result<URL, any Error> = Result {
        let dir = try SharedData.temporaryDirectory("places")
        let result = try CLIRunner.run(["places", "import", SharedData.gazetteer.path, "--data", dir.path])
        guard result.status == 0 else { throw CLIRunner.Failure(description: "import failed: \(result.stderr)") }
        return dir
    }

    static func environment() throws -> [String: String] { ["TAPSEEK_DATA": try data.get().path] }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// The placemark of the reading that looks exactly where `aim` says the target appears
    /// from the observer (true heading, no tap: the image centre).
    static func placemarkLookingAt(_ target: [String: Double], from observer: (Double, Double)) throws -> (visible: Bool?, placemark: [String: Any]?) {
        let location: [String: Any] = ["latitude": observer.0, "longitude": observer.1]
        let request = try JSONSerialization.data(withJSONObject: ["location": location, "target": target])
        let aimed = try CLIRunner.run(["aim", "--dem", SharedData.dem.path], stdinData: request, environment: try environment())
        let aim = try json(aimed.stdout)
        let azimuth = try #require(aim["azimuth"] as? Double), angle = try #require(aim["elevationAngle"] as? Double)
        let reading = try JSONSerialization.data(withJSONObject: [
            "location": location,
            "orientation": ["heading": azimuth, "pitch": angle, "roll": 0, "headingReference": "true"],
        ])
        let located = try CLIRunner.run(["locate", "--dem", SharedData.dem.path], stdinData: reading, environment: try environment())
        #expect(located.status == 0, "\(located.stderr)")
        return (aim["visible"] as? Bool, try json(located.stdout)["placemark"] as? [String: Any])
    }

    @Test func importThenInfoListsSwitzerlandAndAReimportReplacesItsRows() throws {
        let dir = try SharedData.temporaryDirectory("places-reimport")
        defer { try? FileManager.default.removeItem(at: dir) }
        for _ in 0..<2 {
            let imported = try CLIRunner.run(["places", "import", SharedData.gazetteer.path, "--data", dir.path])
            #expect(imported.status == 0, "\(imported.stderr)")
        }
        let info = try CLIRunner.run(["places", "info", "--data", dir.path])
        #expect(info.status == 0)
        let answer = try Self.json(info.stdout)
        let countries = try #require(answer["countries"] as? [[String: Any]])
        #expect(countries.map { $0["isoCountryCode"] as? String } == ["CH"])
        // Every row of class T (6 833, the dump's README) and all of class H are kept, once.
        let lines = try String(contentsOf: SharedData.gazetteer, encoding: .utf8).split(separator: "\n")
        let kept = lines.filter { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false)
            return f.count == 19 && (f[6] == "T" || f[6] == "H" || (f[6] == "S" && ["HUT", "HUTS", "HTL", "RHSE", "OBPT", "OBS", "TOWR", "MNMT"].contains(f[7])))
        }.count
        #expect(countries.first?["features"] as? Int == kept)
        #expect(answer["features"] as? Int == kept)
    }

    @Test func anUnreadableFileImportsNothingAndAMalformedRowIsNamed() throws {
        let dir = try SharedData.temporaryDirectory("places-bad")
        defer { try? FileManager.default.removeItem(at: dir) }
        let missing = try CLIRunner.run(["places", "import", dir.appendingPathComponent("XX.txt").path, "--data", dir.path])
        #expect(missing.status == 1 && missing.stderrLines.count == 1 && missing.stderr.contains("XX.txt: no such file"))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("places-index.bin").path))
        let file = dir.appendingPathComponent("mixed.txt")
        let good = ["2658798", "Säntis", "Santis", "", "47.24938", "9.34224", "T", "MT", "CH", "", "", "", "", "", "0", "2503", "2423", "Europe/Zurich", "2012-01-01"]
        try (good.joined(separator: "\t") + "\nbroken row\n").write(to: file, atomically: true, encoding: .utf8)
        let mixed = try CLIRunner.run(["places", "import", file.path, "--data", dir.path])
        #expect(mixed.status == 0)
        #expect(mixed.stderr.contains("line 2: 1 columns"))
    }

    @Test(arguments: [(47.3393, 9.3422), (47.2494, 9.2098), (47.2943, 9.2275), (47.1326, 9.4416)])
    func aSightlineAimedAtTheSaentisNamesIt(observer: (Double, Double)) throws {
        let (visible, placemark) = try Self.placemarkLookingAt(["latitude": 47.24938, "longitude": 9.34224], from: observer)
        #expect(visible == true)
        #expect(placemark?["name"] as? String == "Säntis")
        #expect(placemark?["nameKind"] as? String == "MT")
        #expect((placemark?["nameDistance"] as? Double ?? .infinity) < 150)
    }

    /// The DEM has a void at the Eiger's GeoNames point, so the target is given GeoNames' height.
    @Test(arguments: [(46.6675 - 0.036, 8.0053), (46.6554, 8.0707), (46.6225, 8.1186), (46.5308, 8.0445)])
    func aSightlineAimedAtTheEigerNamesIt(observer: (Double, Double)) throws {
        let (visible, placemark) = try Self.placemarkLookingAt(["latitude": 46.57754, "longitude": 8.00529, "elevation": 3970], from: observer)
        #expect(visible == true)
        #expect(placemark?["name"] as? String == "Eiger")
    }

    /// Above Flums (1 048 m), over 3 km from every summit, lake, glacier, pass, hut or other
    /// feature of classes T, H and S in the dump: a hit there has no name.
    @Test func aSightlineOnTerrainFarFromEveryNamedFeatureGetsNoName() throws {
        let target = (47.05, 9.37)
        let lines = try String(contentsOf: SharedData.gazetteer, encoding: .utf8).split(separator: "\n")
        let nearest = lines.compactMap { line -> Double? in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard f.count == 19, ["T", "H", "S"].contains(f[6]), let lat = Double(f[4]), let lon = Double(f[5]) else { return nil }
            return hypot((lat - target.0) * 111_195, (lon - target.1) * 111_195 * cos(target.0 * .pi / 180))
        }.min() ?? 0
        #expect(nearest > 3_000)
        for observer in [(47.104, 9.37), (47.0967, 9.4096)] {
            let (visible, placemark) = try Self.placemarkLookingAt(["latitude": target.0, "longitude": target.1], from: observer)
            #expect(visible == true)
            #expect(placemark?["locality"] != nil)
            #expect(placemark?["name"] == nil)
        }
    }

    @Test func searchFindsTheSaentisByItsSpeltOutNameAndAimTakesTheEigerForTheMountain() throws {
        let found = try CLIRunner.run(["search", "Saentis", "--limit", "1"], environment: try Self.environment())
        #expect(found.status == 0, "\(found.stderr)")
        let first = try Self.json(found.stdout)
        #expect(first["name"] as? String == "Säntis" && first["featureCode"] as? String == "MT")
        #expect(first["latitude"] as? Double == 47.24938 && first["longitude"] as? Double == 9.34224)
        // Hotel Eiger in Grindelwald is nearer to this observer than the mountain.
        let request = #"{"location":{"latitude":46.6594,"longitude":8.0544},"target":{"name":"Eiger"}}"#
        let aimed = try CLIRunner.run(["aim", "--dem", SharedData.dem.path], stdin: request, environment: try Self.environment())
        let target = try #require(try Self.json(aimed.stdout)["target"] as? [String: Any])
        #expect(target["latitude"] as? Double == 46.57754 && target["longitude"] as? Double == 8.00529)
    }

    @Test func thePanoramaFromTheSaentisNamesItsNeighbours() throws {
        let dir = try SharedData.temporaryDirectory("places-panorama")
        defer { try? FileManager.default.removeItem(at: dir) }
        let svg = dir.appendingPathComponent("saentis.svg").path
        // On the summit: GeoNames' 2 503 m and the eye 2 m above (the DEM's post there is 60 m
        // lower, on the summit's flank); within the one shared tile's reach.
        let result = try CLIRunner.run(["panorama", "47.24938", "9.34224", "--altitude", "2505", "--range", "10000",
                                        "--dem", SharedData.dem.path, "--svg", svg],
                                       environment: try Self.environment())
        #expect(result.status == 0, "\(result.stderr)")
        let peaks = try #require(try Self.json(result.stdout)["peaks"] as? [[String: Any]])
        let names = Set(peaks.compactMap { $0["name"] as? String })
        #expect(names.isSuperset(of: ["Altmann", "Schäfler", "Ebenalp"]), "\(names)")
        #expect(!names.contains("Säntis"))   // the observer's own summit is not on its skyline
        let picture = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(picture.contains("Altmann 23"))
    }
}
