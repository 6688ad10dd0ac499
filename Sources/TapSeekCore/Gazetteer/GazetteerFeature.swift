/// One named feature of a ``Gazetteer``: a GeoNames row of feature class T (mountains, passes,
/// valleys…), H (lakes, glaciers, streams…) or one of the S codes people aim at (huts, hotels,
/// viewpoints).
public struct GazetteerFeature: Sendable, Hashable {
    /// GeoNames' id (`https://www.geonames.org/<id>`).
    public var geonameID: UInt32
    /// The name as GeoNames gives it (UTF-8, accents kept).
    public var name: String
    /// Degrees, WGS84, to 1e-6° as stored.
    public var latitude: Double
    public var longitude: Double
    /// Metres above mean sea level: GeoNames' `elevation`, else its `dem` column; nil when both
    /// are empty.
    public var elevation: Double?
    /// GeoNames' feature class: `T`, `H` or `S`.
    public var featureClass: Character
    /// GeoNames' feature code (`MT`, `PK`, `LK`, `GLCR`, `PASS`, `HTL`…).
    public var featureCode: String
    /// ISO 3166-1 alpha-2 as GeoNames files the row; empty for features in no country.
    public var isoCountryCode: String

    public init(geonameID: UInt32, name: String, latitude: Double, longitude: Double, elevation: Double?,
                featureClass: Character, featureCode: String, isoCountryCode: String) {
        self.geonameID = geonameID
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.elevation = elevation
        self.featureClass = featureClass
        self.featureCode = featureCode
        self.isoCountryCode = isoCountryCode
    }

    /// What the feature is, for naming rules and ranking.
    public var kind: FeatureKind { FeatureKind(featureClass: featureClass, code: featureCode) }
}

/// The groups of GeoNames feature codes TapSeek treats alike.
public enum FeatureKind: Int, Sendable, Hashable, Comparable {
    /// A point summit: `MT`, `PK`, `PKS`, `HLL`, `HLLS`, `VLC`, `NTK`, `BUTE`.
    case summit = 0
    /// A pass or saddle: `PASS`, `GAP`, `SDL`.
    case pass
    /// A glacier or ice cap: `GLCR`, `ICECAP`.
    case glacier
    /// A lake, reservoir, pond or lagoon.
    case lake
    /// A mountain range or any other class-T feature (valleys, ridges, slopes).
    case otherTerrain
    /// Any other class-H feature (streams, springs, bays).
    case otherWater
    /// A hut, hotel, viewpoint or other feature of class S.
    case spot

    public init(featureClass: Character, code: String) {
        if Self.summits.contains(code) { self = .summit }
        else if Self.passes.contains(code) { self = .pass }
        else if Self.glaciers.contains(code) { self = .glacier }
        else if Self.lakes.contains(code) { self = .lake }
        else if featureClass == "T" { self = .otherTerrain }
        else if featureClass == "H" { self = .otherWater }
        else { self = .spot }
    }

    public static func < (a: FeatureKind, b: FeatureKind) -> Bool { a.rawValue < b.rawValue }

    static let summits: Set<String> = ["MT", "PK", "PKS", "HLL", "HLLS", "VLC", "NTK", "BUTE"]
    static let passes: Set<String> = ["PASS", "GAP", "SDL"]
    static let glaciers: Set<String> = ["GLCR", "ICECAP"]
    static let lakes: Set<String> = ["LK", "LKS", "LKI", "LKN", "LKO", "LKC", "LKSI", "LKSN", "LKSC", "LKSB",
                                     "RSV", "RSVI", "LGN", "LGNS", "POND", "PONDS", "PNDI"]
    /// The class-S codes kept: what people aim at in the mountains (huts, hotels, viewpoints,
    /// observatories, towers, crosses and monuments on summits).
    static let keptSpots: Set<String> = ["HUT", "HUTS", "HTL", "RHSE", "OBPT", "OBS", "TOWR", "MNMT"]

    /// Whether a GeoNames row of this class and code belongs in a gazetteer.
    public static func isKept(featureClass: UInt8, code: Substring.UTF8View) -> Bool {
        switch featureClass {
        case UInt8(ascii: "T"), UInt8(ascii: "H"): return true
        case UInt8(ascii: "S"): return keptSpots.contains(String(Substring(code)))
        default: return false
        }
    }
}
