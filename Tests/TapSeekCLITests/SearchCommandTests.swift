import Foundation
import Testing
import TapSeekTestSupport

/// `tapseek search` and `tapseek aim` by name as a user runs them, on the built index.
@Suite(.enabled(if: SharedData.exists(SharedData.projectRoot.appendingPathComponent("data/build/search-index.bin")) || SharedData.isCI,
                "search index not built: run scripts/build-search-index.sh"))
struct SearchCommandTests {
    static func lines(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
    }

    @Test func printsJSONLinesBestFirst() throws {
        let result = try CLIRunner.run(["search", "Zuerich", "--limit", "3"])
        #expect(result.status == 0, "\(result.stderr)")
        let places = try Self.lines(result.stdout)
        #expect(places.count == 3)
        let first = places[0]
        #expect(first["name"] as? String == "Zürich" && first["isoCountryCode"] as? String == "CH")
        #expect(first["country"] as? String == "Switzerland" && first["administrativeArea"] as? String == "Zürich")
        #expect(first["kind"] as? String == "locality" && first["score"] as? Double == 1)
        #expect(first["latitude"] as? Double == 47.36667 && first["longitude"] as? Double == 8.55)
        let near = try Self.lines(try CLIRunner.run(["search", "new", "york", "--near", "40.7,-74", "--limit", "1"]).stdout)
        #expect(near.first?["name"] as? String == "New York City" && near.first?["distance"] is Double)
        let swiss = try Self.lines(try CLIRunner.run(["search", "Bern", "--country", "CH"]).stdout)
        #expect(!swiss.isEmpty && swiss.allSatisfy { $0["isoCountryCode"] as? String == "CH" })
    }

    @Test(arguments: [[""], ["   "], ["!!!"]])
    func emptyOrAbsurdQueriesPrintNothing(_ query: [String]) throws {
        let result = try CLIRunner.run(["search"] + query)
        #expect(result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty, "\(result.stderr)")
    }

    /// Without a places index (an empty data directory first), a name no locality has says
    /// where summits come from, on stderr (issue 39); stdout stays empty and the run succeeds.
    @Test func aNameNothingMatchesSaysWhereSummitsComeFromWhenNoPlacesAreImported() throws {
        let empty = try SharedData.temporaryDirectory("no-places")
        defer { try? FileManager.default.removeItem(at: empty) }
        let result = try CLIRunner.run(["search", "xqzzvwk"], environment: ["TAPSEEK_DATA": empty.path, "XDG_DATA_HOME": empty.path])
        #expect(result.status == 0 && result.stdout.isEmpty)
        #expect(result.stderrLines.count == 1 && result.stderr.contains("places import"))
    }

    @Test(arguments: [["Bern", "--near", "abc"], ["Bern", "--near", "91,0"], ["Bern", "--limit", "0"],
                      ["Bern", "--country", "CHE"], ["Bern", "--limit"]])
    func malformedOptionsAreUsageErrors(_ arguments: [String]) throws {
        let result = try CLIRunner.run(["search"] + arguments)
        #expect(result.status == 2, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    /// A target given by name is the place of exactly that name nearest the observer.
    @Test func aimResolvesANamedTarget() throws {
        try #require(SharedData.exists(SharedData.dem) || !SharedData.isCI, Comment(rawValue: SharedData.missing(SharedData.dem)))
        guard SharedData.exists(SharedData.dem) else { return }
        let request = #"{"location":{"latitude":46.6594,"longitude":8.0544},"target":{"name":"grindelwald"}}"#
        let result = try CLIRunner.run(["aim", "--dem", SharedData.dem.path], stdin: request)
        #expect(result.status == 0, "\(result.stderr)")
        let aim = try #require(try Self.lines(result.stdout).first)
        let target = try #require(aim["target"] as? [String: Any])
        #expect(target["name"] as? String == "Grindelwald")
        #expect(abs((target["latitude"] as? Double ?? 0) - 46.62396) < 1e-4)
        #expect(aim["visible"] is Bool && aim["azimuth"] is Double)
        let unknown = try CLIRunner.run(["aim", "--dem", SharedData.dem.path], stdin: #"{"location":{"latitude":46.6594,"longitude":8.0544},"target":{"name":"xqzzvwk"}}"#)
        #expect(unknown.status == 1 && unknown.stderr.isEmpty)
        let error = try #require(try Self.lines(unknown.stdout).first?["error"] as? [String: String])
        #expect(error["code"] == "not-found")
        #expect(error["message"] == "target.name \"xqzzvwk\" names no place within 500 km of the observer and matches no known place; give target.latitude and target.longitude")
    }
}
