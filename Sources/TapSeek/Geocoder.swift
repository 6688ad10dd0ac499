import Foundation

/// The offline reverse geocoder: country, time zone, first-level region and nearest town for
/// any point, with no network.
///
/// ```swift
/// let geocoder = try Geocoder.default()
/// let placemark = try geocoder.placemark(latitude: 46.5775, longitude: 8.0050)
/// // placemark.isoCountryCode == "CH", placemark.administrativeArea == "Bern"
/// ```
///
/// A value type over a memory-mapped index (``GeocoderIndex``): opening takes about a
/// millisecond, and one instance may be shared by any number of threads.
public struct Geocoder: Sendable {
    /// The index file's name inside a data directory.
    public static let defaultIndexName = "geocoder-index.bin"
    /// Environment variable naming the index file when no path is given.
    public static let environmentVariable = "TAPSEEK_GEOCODER"

    /// The underlying index, for callers that want its metadata or cheaper look-ups.
    public let index: GeocoderIndex
    /// Where the index was read from.
    public let url: URL

    /// Opens the index at `url` (memory-mapped).
    /// - Throws: ``GeocoderIndexError`` naming the file when it is missing, unreadable or not an
    ///   index of this format.
    public init(contentsOf url: URL) throws(GeocoderIndexError) {
        index = try GeocoderIndex(contentsOf: url)
        self.url = url
    }

    /// The index `$TAPSEEK_GEOCODER` names, else `geocoder-index.bin` in the first data
    /// directory that holds one (see ``DataDirectories``).
    public static func defaultURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let path = environment[environmentVariable], !path.isEmpty { return URL(fileURLWithPath: path) }
        return DataDirectories(environment: environment).file(named: defaultIndexName)
            ?? URL(fileURLWithPath: "/usr/share/tapseek").appendingPathComponent(defaultIndexName)
    }

    /// Opens the index at ``defaultURL(environment:)``.
    /// - Throws: ``GeocoderIndexError``; when no data directory holds an index, one naming them all.
    public static func `default`() throws(GeocoderIndexError) -> Geocoder {
        let url = defaultURL()
        let environment = ProcessInfo.processInfo.environment
        if environment[environmentVariable] ?? "" == "", !FileManager.default.fileExists(atPath: url.path) {
            let searched = DataDirectories(environment: environment).locations.map(\.data.path)
            throw GeocoderIndexError("no \(defaultIndexName) in \(searched.joined(separator: ", ")) (set \(DataDirectories.environmentVariable) or \(environmentVariable)); build it with scripts/build-geocoder-index.sh")
        }
        return try Geocoder(contentsOf: url)
    }

    /// Country, region and nearest town at a point; see ``GeocoderIndex/placemark(latitude:longitude:)``.
    /// - Parameters: WGS84 degrees; the longitude wraps into [−180, 180).
    /// - Throws: ``CoordinateError`` for a latitude outside ±90 or a non-finite coordinate.
    public func placemark(latitude: Double, longitude: Double) throws(CoordinateError) -> Placemark {
        try index.placemark(latitude: latitude, longitude: longitude)
    }
}
