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
            (scripts/build-search-index.sh builds it). Summits, passes, glaciers, lakes, huts and hotels come from \
            the places index (tapseek places import) when one is imported, found by any of their names \
            ("Saentis" finds Säntis): "kind" peak, pass, glacier, lake, terrain, water or poi, with "featureCode" \
            (GeoNames' code) and "elevation"; among equal matches they come before localities (huts and hotels \
            after). Without a places index, a name no locality has exactly says on stderr where summits come from.
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
        var search: PlaceSearch?
        var searchError: String?
        do {
            if let index {
                search = PlaceSearch(index: try PlaceIndex(contentsOf: URL(fileURLWithPath: index)), geocoder: try? Geocoder.default())
            } else {
                search = try PlaceSearch.default()
            }
        } catch {
            searchError = error.message
        }
        let gazetteer: Gazetteer?
        do {
            gazetteer = try GazetteerFiles.load()
        } catch {
            throw InputError(error.message)
        }
        // Without either index there is nothing to search; with an explicit --index, its error.
        if search == nil, gazetteer == nil || index != nil { throw InputError(searchError ?? "no place-search index") }
        let text = query.joined(separator: " ")
        let near = try nearPoint()
        let places = search?.search(text, options: .init(limit: limit, country: country, near: near)) ?? []
        let features = gazetteer?.search(text, limit: limit, country: country, near: near) ?? []
        // One list, best match first; among equals the named natural features (summits,
        // passes, glaciers, lakes) before the localities, and the localities before huts,
        // hotels and other features.
        enum Found { case place(PlaceSearch.Result), feature(Gazetteer.Match) }
        func rank(_ f: Found) -> (Double, Int) {
            switch f {
            case .place(let r): return (r.match.score, 1)
            case .feature(let m): return (m.score, m.feature.kind <= .lake ? 0 : 2)
            }
        }
        let found = (places.map(Found.place) + features.map(Found.feature)).enumerated()
            .sorted { a, b in
                let x = rank(a.element), y = rank(b.element)
                return x.0 != y.0 ? x.0 > y.0 : (x.1 != y.1 ? x.1 < y.1 : a.offset < b.offset)
            }
            .prefix(limit).map(\.element)
        if gazetteer == nil, !SearchKey.normalized(text).isEmpty, !places.contains(where: { $0.match.score >= 0.97 }) {
            StandardError.write("tapseek: no locality is named \"\(text)\"; summits, lakes, glaciers and passes come from a GeoNames gazetteer: import one with `tapseek places import FILE…` (e.g. CH.zip or allCountries.zip from geonames.org)")
        }
        var out = OutputBuffer()
        for f in found {
            switch f {
            case .place(let r): Self.write(r, to: &out)
            case .feature(let m): Self.write(m, countryName: search?.index.countryName(m.feature.isoCountryCode), to: &out)
            }
            out.newline()
        }
        out.flush()
    }

    /// The keys every search record opens with: name, position, country code and name.
    static func appendOpening(name: String, latitude: Double, longitude: Double, isoCountryCode: String, country: String?,
                              to out: inout OutputBuffer) {
        out.append("{\"name\":")
        out.appendJSONString(name)
        out.append(",\"latitude\":")
        out.appendShortest(latitude)
        out.append(",\"longitude\":")
        out.appendShortest(longitude)
        out.append(",\"isoCountryCode\":")
        out.appendJSONString(isoCountryCode)
        if let country {
            out.append(",\"country\":")
            out.appendJSONString(country)
        }
    }

    static func write(_ r: PlaceSearch.Result, to out: inout OutputBuffer) {
        let m = r.match
        appendOpening(name: m.name, latitude: m.latitude, longitude: m.longitude, isoCountryCode: m.isoCountryCode,
                      country: m.country, to: &out)
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
    }

    /// A gazetteer feature: the locality's keys, `kind` from its feature code (`peak`, `pass`,
    /// `glacier`, `lake`, `terrain`, `water`, `poi`) with the code itself as `featureCode`, and
    /// its `elevation` when GeoNames gives one.
    static func write(_ m: Gazetteer.Match, countryName: String?, to out: inout OutputBuffer) {
        let f = m.feature
        appendOpening(name: f.name, latitude: f.latitude, longitude: f.longitude, isoCountryCode: f.isoCountryCode,
                      country: countryName, to: &out)
        out.append(",\"kind\":")
        let kinds: [FeatureKind: String] = [.summit: "peak", .pass: "pass", .glacier: "glacier", .lake: "lake",
                                            .otherTerrain: "terrain", .otherWater: "water", .spot: "poi"]
        out.appendJSONString(kinds[f.kind] ?? "terrain")
        out.append(",\"featureCode\":")
        out.appendJSONString(f.featureCode)
        if let e = f.elevation { out.append(",\"elevation\":\(Int(e))") }
        out.append(",\"score\":")
        out.appendShortest(m.score)
        out.append(",\"population\":0")
        if let d = m.distance {
            out.append(",\"distance\":")
            out.appendFixed(d, decimals: 0)
        }
        out.append("}")
    }
}
