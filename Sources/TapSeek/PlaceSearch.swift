import Foundation

/// Offline place search (forward geocoding): places by name, with their first-level region from
/// the reverse geocoder when its index is there.
///
/// ```swift
/// let search = try PlaceSearch.default()
/// let best = search.search("Zurch", options: .init(limit: 1)).first   // Zürich, CH
/// ```
///
/// A value type over a memory-mapped ``PlaceIndex``: opening takes well under a millisecond,
/// and one instance may be shared by any number of threads.
public struct PlaceSearch: Sendable {
    /// A place found: the index's match and its first-level region.
    public struct Result: Sendable, Hashable {
        public var match: PlaceIndex.Match
        /// The region of the reverse geocoder at the place, when it lies in the same country.
        public var administrativeArea: String?
    }

    /// The index file's name inside a data directory.
    public static let defaultIndexName = "search-index.bin"
    /// Environment variable naming the index file when no path is given.
    public static let environmentVariable = "TAPSEEK_SEARCH_INDEX"

    public let index: PlaceIndex
    /// Names regions; nil leaves `administrativeArea` out.
    public let geocoder: Geocoder?

    public init(index: PlaceIndex, geocoder: Geocoder? = nil) {
        self.index = index
        self.geocoder = geocoder
    }

    /// The index `$TAPSEEK_SEARCH_INDEX` names, else `search-index.bin` in the first data
    /// directory that holds one (see ``DataDirectories``).
    public static func defaultURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let path = environment[environmentVariable], !path.isEmpty { return URL(fileURLWithPath: path) }
        return DataDirectories(environment: environment).file(named: defaultIndexName)
            ?? URL(fileURLWithPath: "/usr/share/tapseek").appendingPathComponent(defaultIndexName)
    }

    /// Opens the index at ``defaultURL(environment:)`` and, when it is built, the reverse
    /// geocoder's.
    public static func `default`() throws(GeocoderIndexError) -> PlaceSearch {
        let url = defaultURL()
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw GeocoderIndexError("place-search index \(url.path): no such file; build it with scripts/build-search-index.sh")
        }
        return PlaceSearch(index: try PlaceIndex(contentsOf: url), geocoder: try? Geocoder.default())
    }

    /// The places matching `query`, best first (see ``PlaceIndex``).
    public func search(_ query: String, options: PlaceIndex.Options = .init()) -> [Result] {
        index.search(query, options: options).map { match in
            let placemark = try? geocoder?.placemark(latitude: match.latitude, longitude: match.longitude)
            let region = placemark?.isoCountryCode == match.isoCountryCode ? placemark?.administrativeArea : nil
            return Result(match: match, administrativeArea: region)
        }
    }

    /// Places of the name considered for an aim target: enough that the one near the observer
    /// is among them when many places share the name (the ranking puts larger places first).
    static let aimCandidates = 100

    /// An aim target by name, for ``Locator/aim(_:resolve:)``: the place nearest the observer
    /// (degrees) whose name — one of its names in the index — is exactly `name` after
    /// normalisation (``SearchKey/normalized(_:)``), within ``AimRequest/nameSearchRadius``; its
    /// elevation the DEM's. A match that forgives typing errors, or lies farther, is not taken:
    /// "Säntis" is not Santos in Brazil. Then the closest matches come back for the message.
    public func target(named name: String, near latitude: Double, _ longitude: Double) -> AimRequest.NameLookup {
        let matches = index.search(name, options: .init(limit: Self.aimCandidates, near: (latitude, longitude)))
        // Quality 1 and 0.97 are exact matches of a place's own name or of another of its names.
        let exact = matches.filter { $0.score >= 0.97 }
        if let nearest = exact.min(by: { ($0.distance ?? .infinity) < ($1.distance ?? .infinity) }),
           let distance = nearest.distance, distance <= AimRequest.nameSearchRadius {
            return .found(.position(latitude: nearest.latitude, longitude: nearest.longitude, elevation: nil, name: nearest.name))
        }
        // Exact names first (nearest first), then the search's own order.
        let offered = exact.sorted { ($0.distance ?? .infinity) < ($1.distance ?? .infinity) } + matches.filter { $0.score < 0.97 }
        return .notFound(candidates: offered.prefix(3).map {
            AimRequest.Candidate(name: $0.name, isoCountryCode: $0.isoCountryCode, distance: $0.distance ?? .nan)
        })
    }
}
