/// What the offline reverse geocoder says about a point, keyed like Apple's `CLPlacemark`.
///
/// Every field is optional: nil means unknown, and the JSON encoding then leaves the key out
/// (synthesised `Codable` uses `encodeIfPresent`). Sources and their known gaps are in
/// docs/data-sources.md.
public struct Placemark: Sendable, Hashable, Codable {
    /// ISO 3166-1 alpha-2 code of the country or territory (`"CH"`, `"RE"`, `"XK"`): the
    /// country tzdata files the point's time zone under (OpenStreetMap borders, territorial sea
    /// included), with documented overrides; nil in international waters.
    public var isoCountryCode: String?
    /// English name of the country or territory (`"Switzerland"`).
    public var country: String?
    /// First-level division (state, province, canton), from Natural Earth admin-1.
    public var administrativeArea: String?
    /// Second-level division as GeoNames files the nearest place (county, district); nil where
    /// GeoNames has none.
    public var subAdministrativeArea: String?
    /// The nearest GeoNames populated place (1000 people or more) in the same country.
    public var locality: String?
    /// Distance from the point to ``locality``, metres along the WGS84 ellipsoid (Lambert's
    /// formula to the place's coordinates as stored, within a metre below 100 km).
    public var localityDistance: Double?
    /// Name of the ocean or sea; this offline geocoder has no marine data, so always nil.
    public var ocean: String?
    /// Name of a lake or river; always nil (no inland-water data offline).
    public var inlandWater: String?
    /// A street address or point of interest; always nil (no such data offline).
    public var name: String?
    /// IANA time zone (`"Europe/Zurich"`; `"Etc/GMT-3"` on the open ocean), as CLPlacemark's
    /// `timeZone` names it.
    public var timeZone: String?
    /// ISO codes of other countries whose borders also hold the point (a disputed area, such as
    /// the Dollart between the Netherlands and Germany); nil where no one else claims it.
    /// ``isoCountryCode`` is the more specific claim: the smaller territory.
    public var alsoClaimedBy: [String]?

    public init(isoCountryCode: String? = nil, country: String? = nil, administrativeArea: String? = nil,
                subAdministrativeArea: String? = nil, locality: String? = nil, localityDistance: Double? = nil,
                ocean: String? = nil, inlandWater: String? = nil, name: String? = nil, timeZone: String? = nil,
                alsoClaimedBy: [String]? = nil) {
        self.isoCountryCode = isoCountryCode
        self.country = country
        self.administrativeArea = administrativeArea
        self.subAdministrativeArea = subAdministrativeArea
        self.locality = locality
        self.localityDistance = localityDistance
        self.ocean = ocean
        self.inlandWater = inlandWater
        self.name = name
        self.timeZone = timeZone
        self.alsoClaimedBy = alsoClaimedBy
    }
}

extension Placemark {
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
        try c.encodeIfPresent(timeZone, forKey: .timeZone)
        try c.encodeIfPresent(alsoClaimedBy, forKey: .alsoClaimedBy)
    }
}
