/// Google's encoded polyline format: a path of latitude/longitude pairs written as printable
/// ASCII, the way Google Maps, OSRM and Valhalla exchange routes and the way TapSeek writes a
/// sightline's terrain profile.
///
/// Each coordinate is rounded to an integer number of units of 10⁻ᵖ degree (p is the
/// ``PolylinePrecision``), each integer is written as the difference from the previous point's
/// (the first point's from zero), and each difference as a zig-zag varint of 5-bit chunks with 63
/// added, so that every character lies in `?` (63) … `~` (126). The algorithm is documented at
/// <https://developers.google.com/maps/documentation/utilities/polylinealgorithm>.
///
/// ```swift
/// let path = try Polyline.decode("_p~iF~ps|U_ulLnnqC_mqNvxq`@")
/// // [(38.5, -120.2), (40.7, -120.95), (43.252, -126.453)]
/// let text = try Polyline.encode(path)   // the same string again
/// ```
///
/// Coordinates are latitudes within ±90° and longitudes within ±180°: ``encode(_:precision:)``
/// refuses anything else, and ``decode(_:precision:)`` refuses a string whose running sums leave
/// that range, so that whatever one accepts the other accepts too.
///
/// Round trips, for `p` the precision's digits and `u` a coordinate in units:
/// - `decode(encode(x))` returns every coordinate of `x` within half a unit (0.5 × 10⁻ᵖ
///   degree) plus 3 ulps of `x`: the half unit is the format's rounding, the ulps the
///   floating-point product and quotient.
/// - `decode(s)` gives each coordinate as the `Double` nearest `u / 10ᵖ` while |u| ≤ 2⁵³
///   (always through 13 digits), and within |x| · 2⁻⁵² of it beyond.
/// - `encode(decode(s)) == s` for every accepted `s` (apart from redundant zero chunks, see
///   ``decode(_:precision:)``) whenever every |u| < ``exactUnits`` = 2⁵¹: at every coordinate
///   through 13 digits, within ±22.5° at 14 and ±2.25° at 15. Farther out at 14 and 15 digits a
///   `Double` no longer holds every unit, and a value may come back off by up to
///   1 + |u| · 2⁻⁵¹ units (at most 9 units at 14 digits, 81 at 15).
public enum Polyline {
    /// One vertex of a polyline: WGS84 degrees, latitude positive north, longitude positive
    /// east; encodable when the latitude is within ±90° and the longitude within ±180°.
    public struct Coordinate: Sendable, Hashable {
        /// Degrees, positive north.
        public var latitude: Double
        /// Degrees, positive east.
        public var longitude: Double

        public init(latitude: Double, longitude: Double) {
            self.latitude = latitude
            self.longitude = longitude
        }
    }

    /// Latitudes that encode and decode, degrees.
    public static let latitudeRange: ClosedRange<Double> = -90...90
    /// Longitudes that encode and decode, degrees.
    public static let longitudeRange: ClosedRange<Double> = -180...180

    /// Below this many units in magnitude, 2⁵¹, a coordinate survives `decode` then `encode`
    /// exactly.
    ///
    /// Why: a `Double` holds every integer up to 2⁵³, and converting units to degrees and back
    /// (`u / 10ᵖ`, then `× 10ᵖ`, each rounded once) errs by at most |u| · 2⁻⁵², under half a unit
    /// below 2⁵¹, so rounding recovers the same integer. ±180° is 1.8 × 10¹⁵ units at 13 digits,
    /// below 2⁵¹ ≈ 2.25 × 10¹⁵: every coordinate round-trips exactly through 13 digits.
    public static let exactUnits: Int64 = 1 << 51
}
