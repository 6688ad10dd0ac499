/// The number of decimal digits of a degree that a polyline keeps: a coordinate is stored as an
/// integer count of 10⁻ᵈⁱᵍⁱᵗˢ degree.
///
/// Google uses 5 digits (about 1.1 m of latitude); OSRM and Valhalla offer 6 (about 0.11 m),
/// which TapSeek uses for sightline profiles. Write it as an integer literal (`precision: 6`), or
/// build one from untrusted input with the failable ``init(digits:)``.
public struct PolylinePrecision: Sendable, Hashable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    /// The digits accepted: 0 through 15. Units are `Int64`, and a longitude of ±180° at 15
    /// digits is 1.8 × 10¹⁷ units (2⁶³ ≈ 9.2 × 10¹⁸), so the integer side is exact at every
    /// precision. A `Double` coordinate, though, holds about 16 significant digits: ``Polyline``
    /// says what the round trips guarantee (exactly through 13 digits, within |x| · 2⁻⁵⁰ beyond).
    public static let supportedDigits: ClosedRange<Int> = 0...15

    /// Google's default, 5 digits.
    public static let google: PolylinePrecision = 5
    /// OSRM's and Valhalla's `polyline6`, 6 digits.
    public static let osrm: PolylinePrecision = 6

    /// Decimal digits of a degree, within ``supportedDigits``.
    public let digits: Int
    /// 10^digits, exactly (every power of ten up to 10²² is a `Double` without rounding).
    let unitsPerDegree: Double
    /// The largest latitude and longitude magnitudes in units: 90 and 180 × 10^digits.
    let latitudeUnits: Int64
    let longitudeUnits: Int64

    /// A precision of `digits` decimal digits, or `nil` outside ``supportedDigits``.
    public init?(digits: Int) {
        guard Self.supportedDigits.contains(digits) else { return nil }
        self.digits = digits
        var scale: Int64 = 1
        for _ in 0..<digits { scale *= 10 }
        unitsPerDegree = Double(scale)
        latitudeUnits = 90 * scale
        longitudeUnits = 180 * scale
    }

    /// A literal precision; a literal outside ``supportedDigits`` is a programming error and traps.
    public init(integerLiteral digits: Int) {
        guard let precision = PolylinePrecision(digits: digits) else {
            preconditionFailure("polyline precision \(digits) is outside \(Self.supportedDigits)")
        }
        self = precision
    }

    public var description: String { String(digits) }
}
