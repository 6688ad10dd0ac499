import Foundation

/// A URL pattern with placeholders that name a tile, so that any server layout can be used:
///
/// | placeholder | for `S38W071` | for `N27E086` |
/// |---|---|---|
/// | `{name}` | `S38W071` | `N27E086` |
/// | `{lat}` | `S38` | `N27` |
/// | `{lon}` | `W071` | `E086` |
/// | `{latitude}` | `-38` | `27` |
/// | `{longitude}` | `-71` | `86` |
///
/// The scheme must be `http`, `https` or `file`.
public struct TileURLTemplate: Sendable, Hashable, CustomStringConvertible {
    /// AWS Open Data "Terrain Tiles" (registry.opendata.aws/terrain-tiles), `skadi` layout:
    /// gzipped 1″ SRTM-format tiles (3601 × 3601 posts) with global coverage, public, no key.
    public static let skadi = "https://s3.amazonaws.com/elevation-tiles-prod/skadi/{lat}/{name}.hgt.gz"

    /// The public Copernicus GLO-30 bucket on AWS Open Data (registry.opendata.aws/copernicus-dem):
    /// one COG GeoTIFF per 1° tile in a folder of its name, no key.
    public static let copernicusGLO30 = "https://copernicus-dem-30m.s3.amazonaws.com/Copernicus_DSM_COG_10_{lat}_00_{lon}_00_DEM/Copernicus_DSM_COG_10_{lat}_00_{lon}_00_DEM.tif"

    /// The placeholders a template may use, without braces.
    public static let placeholders = ["name", "lat", "lon", "latitude", "longitude"]

    /// The pattern as given.
    public let pattern: String

    /// - Throws: ``TileFetchError`` when the pattern has an unknown or unclosed placeholder,
    ///   names no tile (needs `{name}`, or a latitude and a longitude placeholder), or does not
    ///   expand to an http, https or file URL.
    public init(_ pattern: String) throws(TileFetchError) {
        var used: Set<String> = []
        var rest = Substring(pattern)
        while let open = rest.firstIndex(of: "{") {
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw .invalidURLTemplate(pattern, "unclosed \"{\"")
            }
            let key = String(rest[rest.index(after: open)..<close])
            guard Self.placeholders.contains(key) else {
                let known = Self.placeholders.map { "{\($0)}" }.joined(separator: ", ")
                throw .invalidURLTemplate(pattern, "unknown placeholder {\(key)} (known: \(known))")
            }
            used.insert(key)
            rest = rest[rest.index(after: close)...]
        }
        let namesLatitude = used.contains("lat") || used.contains("latitude")
        let namesLongitude = used.contains("lon") || used.contains("longitude")
        guard used.contains("name") || (namesLatitude && namesLongitude) else {
            throw .invalidURLTemplate(pattern, "names no tile: use {name}, or {lat} and {lon}")
        }
        self.pattern = pattern
        let sample = SRTMTileName(latitude: 27, longitude: 86)!
        guard let url = URL(string: expand(for: sample)),
              let scheme = url.scheme?.lowercased(), ["http", "https", "file"].contains(scheme) else {
            throw .invalidURLTemplate(pattern, "not an http, https or file URL")
        }
    }

    /// The pattern with every placeholder replaced for `tile`.
    public func expand(for tile: SRTMTileName) -> String {
        pattern
            .replacingOccurrences(of: "{name}", with: tile.description)
            .replacingOccurrences(of: "{lat}", with: tile.latitudeLabel)
            .replacingOccurrences(of: "{lon}", with: tile.longitudeLabel)
            .replacingOccurrences(of: "{latitude}", with: String(tile.latitude))
            .replacingOccurrences(of: "{longitude}", with: String(tile.longitude))
    }

    /// The tile's URL. Never nil for a template that passed `init` (names are plain ASCII).
    public func url(for tile: SRTMTileName) -> URL {
        URL(string: expand(for: tile))!
    }

    public var description: String { pattern }
}
