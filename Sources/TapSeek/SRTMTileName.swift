import Foundation

/// One 1° × 1° SRTM tile, named by the integer latitude and longitude of its south-west corner:
/// `N27E086` covers 27…28° N, 86…87° E (WGS84 degrees), with posts on all four edges
/// (pixel-is-point), so neighbouring tiles share their edge rows and columns.
public struct SRTMTileName: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Latitude of the south edge, whole degrees, −90…89.
    public let latitude: Int
    /// Longitude of the west edge, whole degrees, −180…179.
    public let longitude: Int

    /// The tile whose south-west corner is at these whole degrees; nil outside −90…89 / −180…179.
    public init?(latitude: Int, longitude: Int) {
        guard (-90...89).contains(latitude), (-180...179).contains(longitude) else { return nil }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Parses the canonical name `[NS]dd[EW]ddd` (either letter case), e.g. `N27E086`, `S38W071`.
    /// - Throws: ``TileFetchError`` naming the text when it is not such a name, or when it spells
    ///   the equator or prime meridian as `S00` / `W000` (those are `N00` / `E000`).
    public init(parsing text: String) throws(TileFetchError) {
        let bad = TileFetchError.invalidTileName(text)
        let chars = Array(text.uppercased().utf8)
        guard chars.count == 7 else { throw bad }
        func digits(_ range: Range<Int>) -> Int? {
            var value = 0
            for c in chars[range] {
                guard c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(c - UInt8(ascii: "0"))
            }
            return value
        }
        guard let latDegrees = digits(1..<3), let lonDegrees = digits(4..<7) else { throw bad }
        let latSign: Int, lonSign: Int
        switch chars[0] {
        case UInt8(ascii: "N"): latSign = 1
        case UInt8(ascii: "S"): latSign = -1
        default: throw bad
        }
        switch chars[3] {
        case UInt8(ascii: "E"): lonSign = 1
        case UInt8(ascii: "W"): lonSign = -1
        default: throw bad
        }
        // Zero has one spelling, so that one tile has one file name.
        if (latSign < 0 && latDegrees == 0) || (lonSign < 0 && lonDegrees == 0) { throw bad }
        guard let tile = SRTMTileName(latitude: latSign * latDegrees, longitude: lonSign * lonDegrees) else {
            throw bad
        }
        self = tile
    }

    /// `N27`, `S38`: hemisphere letter and two digits of the south edge.
    public var latitudeLabel: String {
        (latitude < 0 ? "S" : "N") + Self.padded(abs(latitude), width: 2)
    }

    /// `E086`, `W071`: hemisphere letter and three digits of the west edge.
    public var longitudeLabel: String {
        (longitude < 0 ? "W" : "E") + Self.padded(abs(longitude), width: 3)
    }

    /// The canonical name, e.g. `N27E086`.
    public var description: String { latitudeLabel + longitudeLabel }

    /// South to north, then west to east.
    public static func < (a: SRTMTileName, b: SRTMTileName) -> Bool {
        (a.latitude, a.longitude) < (b.latitude, b.longitude)
    }

    private static func padded(_ value: Int, width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
