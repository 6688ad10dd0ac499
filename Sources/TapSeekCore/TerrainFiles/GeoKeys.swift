/// The GeoKey directory of a GeoTIFF (OGC GeoTIFF 1.1, §7.1; tag 34735): a header of four
/// SHORTs (version 1, revision, minor revision, key count) and four SHORTs per key — its id,
/// where its value lies (0: in the entry itself; 34736/34737: the double or text parameters)
/// and the value. Only keys held in the entry are kept: the ones that say what the CRS is.
struct GeoKeys {
    /// Keys read (GeoTIFF 1.1, Annex B).
    enum Key {
        static let modelType: UInt16 = 1024, rasterType: UInt16 = 1025
        static let geographicType: UInt16 = 2048, geodeticDatum: UInt16 = 2050, primeMeridian: UInt16 = 2051
        static let angularUnits: UInt16 = 2054, projectedType: UInt16 = 3072
    }
    /// Values of `GTModelTypeGeoKey` and `GTRasterTypeGeoKey`, and the EPSG codes that make a
    /// CRS plain WGS84 longitude/latitude in degrees.
    static let geographicModel = 2, pixelIsPoint = 2
    static let wgs84 = 4326, wgs84Datum = 6326, greenwich = 8901, degree = 9102

    /// Short values by key id; keys whose value lies elsewhere are absent.
    let values: [UInt16: Int]
    /// Every key id present, wherever its value lies.
    let keys: Set<UInt16>

    /// - Parameter shorts: the tag's values, in order.
    init?(shorts: [Int]) {
        guard shorts.count >= 4, shorts[0] == 1 else { return nil }
        var values: [UInt16: Int] = [:], keys = Set<UInt16>()
        for k in 0..<min(shorts[3], (shorts.count - 4) / 4) {
            let at = 4 + 4 * k
            let id = UInt16(truncatingIfNeeded: shorts[at])
            keys.insert(id)
            if shorts[at + 1] == 0 { values[id] = shorts[at + 3] }
        }
        self.values = values
        self.keys = keys
    }

    /// Why the CRS is not geographic WGS84 in degrees (EPSG:4326), nil when it is.
    var notWGS84Geographic: String? {
        if keys.contains(Key.projectedType) || values[Key.modelType] != Self.geographicModel {
            return "a projected or unknown CRS (model type \(values[Key.modelType].map(String.init) ?? "none"))"
        }
        guard values[Key.geographicType] == Self.wgs84 else {
            return "geographic CRS \(values[Key.geographicType].map(String.init) ?? "user-defined"), not EPSG:4326"
        }
        if let m = values[Key.primeMeridian], m != Self.greenwich { return "prime meridian \(m)" }
        if let u = values[Key.angularUnits], u != Self.degree { return "angular unit \(u)" }
        if keys.contains(Key.primeMeridian) && values[Key.primeMeridian] == nil { return "a user-defined prime meridian" }
        if keys.contains(Key.angularUnits) && values[Key.angularUnits] == nil { return "a user-defined angular unit" }
        return nil
    }

    /// Whether pixels are points (`RasterPixelIsPoint`) rather than areas (the default).
    var isPixelIsPoint: Bool { values[Key.rasterType] == Self.pixelIsPoint }
}
