/// What the offline reverse geocoder says about a point, keyed like Apple's `CLPlacemark`.
///
/// Every field is optional: nil means unknown, and the JSON encoding then leaves the key out
/// (synthesised `Codable` uses `encodeIfPresent`). Sources and their known gaps are in
/// docs/guides/data.md.
public struct Placemark: Sendable, Hashable, Codable {
    // The stored properties are built by the memberwise initialiser the compiler synthesises,
    // which the public one below calls: Swift 6.3 builds a struct of four or more strings that
    // an initialiser sets field by field in a temporary, then copies it out and destroys the
    // temporary (a retain and a release per string, 500 instructions of the 2 800 a look-up
    // takes, cachegrind), where the synthesised one builds it in place. Two things keep the two
    // initialisers apart: `localityDistance` is stored last, so their labels differ in order,
    // and `Optional<…>` is spelt out, so the synthesised one has no default arguments and a
    // call that leaves some out can only mean the public one.
    /// ISO 3166-1 alpha-2 code of the country or territory (`"CH"`, `"RE"`, `"XK"`): the
    /// country tzdata files the point's time zone under (OpenStreetMap borders, territorial sea
    /// included), with documented overrides; nil in international waters.
    public var isoCountryCode: Optional<String>
    /// English name of the country or territory (`"Switzerland"`).
    public var country: Optional<String>
    /// First-level division (state, province, canton), from Natural Earth admin-1.
    public var administrativeArea: Optional<String>
    /// Second-level division as GeoNames files the nearest place (county, district); nil where
    /// GeoNames has none.
    public var subAdministrativeArea: Optional<String>
    /// The nearest GeoNames populated place (1000 people or more) in the same country.
    public var locality: Optional<String>
    /// Name of the ocean or sea; this offline geocoder has no marine data, so always nil.
    public var ocean: Optional<String>
    /// Name of a lake or river; always nil (no inland-water data offline).
    public var inlandWater: Optional<String>
    /// The named natural feature the point lies on — a summit's top or upper flank, a lake, a
    /// pass, a glacier — from the imported GeoNames gazetteer (``FeatureNaming``); nil when no
    /// feature is close enough, or none is imported.
    public var name: Optional<String>
    /// IANA time zone (`"Europe/Zurich"`; `"Etc/GMT-3"` on the open ocean), as CLPlacemark's
    /// `timeZone` names it.
    public var timeZone: Optional<String>
    /// ISO codes of other countries whose borders also hold the point (a disputed area, such as
    /// the Dollart between the Netherlands and Germany); nil where no one else claims it.
    /// ``isoCountryCode`` is the more specific claim: the smaller territory.
    public var alsoClaimedBy: Optional<[String]>
    /// Distance from the point to ``locality``, metres along the WGS84 ellipsoid (Lambert's
    /// formula to the place's coordinates as stored, within a metre below 100 km).
    public var localityDistance: Optional<Double>
    /// GeoNames' feature code of ``name`` (`MT`, `PK`, `LK`, `GLCR`, `PASS`…).
    public var nameKind: Optional<String>
    /// Metres (horizontal) from the point to ``name``'s GeoNames coordinates.
    public var nameDistance: Optional<Double>
}

extension Placemark {
    /// A placemark with the given fields; nil (the default) leaves one unknown.
    public init(isoCountryCode: String? = nil, country: String? = nil, administrativeArea: String? = nil,
                subAdministrativeArea: String? = nil, locality: String? = nil, localityDistance: Double? = nil,
                ocean: String? = nil, inlandWater: String? = nil, name: String? = nil, nameKind: String? = nil,
                nameDistance: Double? = nil, timeZone: String? = nil, alsoClaimedBy: [String]? = nil) {
        self.init(isoCountryCode: isoCountryCode, country: country, administrativeArea: administrativeArea,
                  subAdministrativeArea: subAdministrativeArea, locality: locality, ocean: ocean,
                  inlandWater: inlandWater, name: name, timeZone: timeZone, alsoClaimedBy: alsoClaimedBy,
                  localityDistance: localityDistance, nameKind: nameKind, nameDistance: nameDistance)
    }

    /// This placemark with the feature named (``FeatureNaming``): `name`, `nameKind`,
    /// `nameDistance`, and for a lake `inlandWater` too, as `CLPlacemark` names it.
    public mutating func setFeature(_ feature: FeatureName) {
        name = feature.name
        nameKind = feature.featureCode
        nameDistance = feature.distance
        if feature.kind == .lake { inlandWater = feature.name }
    }

    /// The known keys only, in the interface's order; ``localityDistance`` to the metre.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(isoCountryCode, forKey: .isoCountryCode)
        try c.encodeIfPresent(country, forKey: .country)
        try c.encodeIfPresent(administrativeArea, forKey: .administrativeArea)
        try c.encodeIfPresent(subAdministrativeArea, forKey: .subAdministrativeArea)
        try c.encodeIfPresent(locality, forKey: .locality)
        try c.encodeIfPresent(localityDistance.map { FixedDecimal($0, places: 0) }, forKey: .localityDistance)
        try c.encodeIfPresent(ocean, forKey: .ocean)
        try c.encodeIfPresent(inlandWater, forKey: .inlandWater)
        try c.encodeIfPresent(name, forKey: .name)
        try c.encodeIfPresent(nameKind, forKey: .nameKind)
        try c.encodeIfPresent(nameDistance.map { FixedDecimal($0, places: 0) }, forKey: .nameDistance)
        try c.encodeIfPresent(timeZone, forKey: .timeZone)
        try c.encodeIfPresent(alsoClaimedBy, forKey: .alsoClaimedBy)
    }
}
