import ArgumentParser
import Foundation
import TapSeek

/// `tapseek search QUERY`: offline place search.
struct SearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Find places by name, offline.",
        discussion: """
            Prints JSON Lines, best first: {"name","latitude","longitude","isoCountryCode","country",\
            "administrativeArea","kind","score","population"[,"distance"]}. Case, accents and small typing \
            errors do not matter ("zurich", "Zuerich" and "Zurch" find Zürich). Ranked by match quality, then \
            the order of magnitude of the population, then the distance to --near, then the population. An \
            empty query, or one that matches nothing, prints nothing and succeeds. The index comes from \
            --index, else $TAPSEEK_SEARCH_INDEX, else search-index.bin in the first TapSeek data directory ($TAPSEEK_DATA, the installation, XDG data dirs) \
            (scripts/build-search-index.sh builds it).
            """
    )

    @Argument(help: "The name to look for; several words are one name.")
    var query: [String] = []

    @Option(parsing: .unconditional, help: ArgumentHelp("Prefer places near this point.", valueName: "lat,lon"))
    var near: String?

    @Option(parsing: .unconditional, help: "Most places printed.")
    var limit: Int = 5

    @Option(help: ArgumentHelp("Only places of this country (ISO 3166-1 alpha-2).", valueName: "CC"))
    var country: String?

    @Option(help: "The place-search index file.")
    var index: String?

    func validate() throws {
        guard limit >= 1, limit <= 1000 else { throw ValidationError("--limit must be within 1…1000, got \(limit)") }
        if let country, country.count != 2 || !country.allSatisfy({ $0.isASCII && $0.isLetter }) {
            throw ValidationError("--country must be a two-letter ISO 3166-1 code such as CH, got \"\(country)\"")
        }
        _ = try nearPoint()
    }

    /// `--near` as a point; a usage error when it is not "lat,lon" within range.
    func nearPoint() throws -> (latitude: Double, longitude: Double)? {
        guard let near else { return nil }
        let parts = near.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 2, let lat = parts[0], let lon = parts[1], (-90...90).contains(lat), (-180...180).contains(lon) else {
            throw ValidationError("--near must be \"lat,lon\" in degrees (latitude −90…90, longitude −180…180), got \"\(near)\"")
        }
        return (lat, lon)
    }

    func run() throws {
        let search: PlaceSearch
        do {
            if let index {
                search = PlaceSearch(index: try PlaceIndex(contentsOf: URL(fileURLWithPath: index)), geocoder: try? Geocoder.default())
            } else {
                search = try PlaceSearch.default()
            }
        } catch {
            throw InputError(error.message)
        }
        let results = search.search(query.joined(separator: " "), options: .init(limit: limit, country: country, near: try nearPoint()))
        var out = OutputBuffer()
        for r in results {
            let m = r.match
            out.append("{\"name\":")
            out.appendJSONString(m.name)
            out.append(",\"latitude\":")
            out.appendShortest(m.latitude)
            out.append(",\"longitude\":")
            out.appendShortest(m.longitude)
            out.append(",\"isoCountryCode\":")
            out.appendJSONString(m.isoCountryCode)
            if let country = m.country {
                out.append(",\"country\":")
                out.appendJSONString(country)
            }
            if let region = r.administrativeArea {
                out.append(",\"administrativeArea\":")
                out.appendJSONString(region)
            }
            out.append(",\"kind\":")
            out.appendJSONString(m.kind)
            out.append(",\"score\":")
            out.appendShortest(m.score)
            out.append(",\"population\":\(m.population)")
            if let d = m.distance {
                out.append(",\"distance\":")
                out.appendFixed(d, decimals: 0)
            }
            out.append("}")
            out.newline()
        }
        out.flush()
    }
}
