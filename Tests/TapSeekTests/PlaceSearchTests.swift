import Foundation
import TapSeek
import TapSeekTestSupport
import Testing

/// The real index that `scripts/build-search-index.sh` builds into `data/build/` (CI builds it
/// before the tests). Without it the suite is skipped on a developer machine and fails in CI.
enum PlaceSearchFixture {
    static let indexURL = SharedData.projectRoot.appendingPathComponent("data/build/search-index.bin")
    static var available: Bool { SharedData.exists(indexURL) || SharedData.isCI }

    static func open() throws -> PlaceSearch {
        PlaceSearch(index: try PlaceIndex(contentsOf: indexURL), geocoder: try? GeocoderFixture.open())
    }
}

@Suite(.enabled(if: PlaceSearchFixture.available, "search index not built: run scripts/build-search-index.sh"))
struct PlaceSearchTests {
    let search: PlaceSearch

    init() throws {
        search = try PlaceSearchFixture.open()
    }

    func best(_ query: String, _ options: PlaceIndex.Options = .init()) -> PlaceIndex.Match? {
        search.index.search(query, options: options).first
    }

    /// Case, accents, transliterations and typing errors: GeoNames' coordinates of Zürich are
    /// 47.36667 N, 8.55 E.
    @Test(arguments: ["Zürich", "zurich", "ZURICH", "Zuerich", "Zurch", "Zuirch", "Zürih", "Zurigo", "Цюрих", "チューリッヒ"])
    func findsZurich(_ query: String) throws {
        let m = try #require(best(query), "\(query)")
        #expect(m.name == "Zürich" && m.isoCountryCode == "CH" && m.country == "Switzerland", "\(query): \(m)")
        #expect(abs(m.latitude - 47.36667) < 1e-4 && abs(m.longitude - 8.55) < 1e-4)
        #expect(m.kind == "locality")
    }

    @Test func scoresRankExactAboveAlternateAboveTypos() throws {
        #expect(best("Zürich")?.score == 1)
        #expect(best("Zurigo")?.score == 0.97)
        #expect(best("Zurch")?.score == 0.85)
        #expect(best("Grindelwlad")?.name == "Grindelwald")
        #expect(best("Lauterbrunen")?.name == "Lauterbrunnen")
        // Two errors (a letter missing twice) from eight letters on.
        let twice = try #require(best("Lautrbrunen"))
        #expect(twice.name == "Lauterbrunnen" && twice.score == 0.7)
        // München is known by its German name too; the most populous São Paulo comes first.
        #expect(best("München")?.name == "Munich")
        #expect(best("sao paulo")?.isoCountryCode == "BR")
    }

    /// Multi-word names, --country and --near.
    @Test func multiWordNamesCountryAndNear() throws {
        #expect(best("Saint-Gervais-les-Bains")?.isoCountryCode == "FR")
        #expect(best("saint gervais les bains")?.name == "Saint-Gervais-les-Bains")
        #expect(best("new york")?.name == "New York City")
        let swissBern = try #require(best("Bern", .init(country: "ch")))
        #expect(swissBern.isoCountryCode == "CH")
        #expect(search.index.search("Bern", options: .init(limit: 20, country: "US")).allSatisfy { $0.isoCountryCode == "US" })
        // Two places called Fribourg/Freiburg: near Basel the German one comes first, near Bern the Swiss one.
        let nearBasel = try #require(best("Freiburg", .init(near: (47.56, 7.59))))
        #expect(nearBasel.isoCountryCode == "DE" && nearBasel.distance.map { $0 < 60_000 } == true)
        let all = search.search("Grindelwald", options: .init(limit: 1))
        #expect(all.first?.administrativeArea == "Bern")
    }

    @Test(arguments: ["", "   ", "!!!", "xqzzvwk", String(repeating: "a", count: 300)])
    func emptyOrAbsurdQueriesFindNothing(_ query: String) {
        #expect(search.index.search(query).isEmpty)
    }

    /// `aim` at a name: the place search resolves it near the observer (Interlaken, 16 km), and
    /// only an exact name within 500 km; "Grindelwal" (a typing error) and Grindelwald seen from
    /// Tennessee are not found, with the closest matches offered.
    @Test func aimTargetsByName() throws {
        guard case .found(let target) = search.target(named: "Grindelwald", near: 46.686, 7.863),
              case .position(let lat, let lon, let elevation, let name) = target else { Issue.record("not found"); return }
        #expect(abs(lat - 46.62396) < 1e-4 && abs(lon - 8.03601) < 1e-4 && elevation == nil && name == "Grindelwald")
        #expect(search.target(named: "xqzzvwk", near: 46.686, 7.863) == .notFound(candidates: []))
        guard case .notFound(let typo) = search.target(named: "Grindelwal", near: 46.686, 7.863) else { Issue.record("typo taken"); return }
        #expect(typo.first?.name == "Grindelwald" && (typo.first?.distance ?? 0) > 10_000)
        guard case .notFound(let far) = search.target(named: "Grindelwald", near: 36.34, -84.18) else { Issue.record("far taken"); return }
        #expect(far.first?.name == "Grindelwald" && (far.first?.distance ?? 0) > 7_000_000)
    }
}
