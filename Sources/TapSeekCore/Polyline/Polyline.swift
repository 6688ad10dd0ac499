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
/// Round trips: `decode(encode(x))` returns every coordinate of `x` within half a unit
/// (0.5 × 10⁻ᵖ degree) plus a few ulps of the input; `encode(decode(s)) == s` for every string
/// `decode` accepts, because the decoder accepts only the canonical encoding of each value.
public enum Polyline {
    /// One vertex of a polyline: WGS84 degrees, latitude positive north, longitude positive
    /// east. The format does not check ranges, so any finite value that fits
    /// ``Polyline/maximumUnits`` at the chosen precision is encodable.
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

    /// The largest magnitude, in units of 10⁻ᵖ degree, that a coordinate may have: 2⁵⁰.
    ///
    /// Why this bound: a `Double` holds every integer up to 2⁵³ exactly, and converting units to
    /// degrees and back (`units / 10ᵖ`, then `× 10ᵖ`) errs by at most 2⁻⁵² of the magnitude,
    /// which stays under a quarter unit below 2⁵⁰, so rounding always recovers the same integer.
    /// That is what makes `encode(decode(s)) == s` exact. Every longitude in ±180° fits up to
    /// precision 12 (180 × 10¹² ≈ 1.8 × 10¹⁴ < 2⁵⁰ ≈ 1.13 × 10¹⁵).
    public static let maximumUnits: Int64 = 1 << 50
}
