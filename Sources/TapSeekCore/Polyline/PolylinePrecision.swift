/// The number of decimal digits of a degree that a polyline keeps: a coordinate is stored as an
/// integer count of 10⁻ᵈⁱᵍⁱᵗˢ degree.
///
/// Google uses 5 digits (about 1.1 m of latitude); OSRM and Valhalla offer 6 (about 0.11 m),
/// which TapSeek uses for sightline profiles. Write it as an integer literal (`precision: 6`), or
/// build one from untrusted input with the failable ``init(digits:)``.
public struct PolylinePrecision: Sendable, Hashable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    /// The digits accepted: 0 through 12. At 12 digits a longitude of ±180° is 1.8 × 10¹⁴ units,
    /// still inside ``Polyline/maximumUnits``; at 13 it would not be.
    public static let supportedDigits: ClosedRange<Int> = 0...12

    /// Google's default, 5 digits.
    public static let google: PolylinePrecision = 5
    /// OSRM's and Valhalla's `polyline6`, 6 digits.
    public static let osrm: PolylinePrecision = 6

    /// Decimal digits of a degree, within ``supportedDigits``.
    public let digits: Int
    /// 10^digits, exactly (every power of ten up to 10²² is a `Double` without rounding).
    let unitsPerDegree: Double

    /// A precision of `digits` decimal digits, or `nil` outside ``supportedDigits``.
    public init?(digits: Int) {
        guard Self.supportedDigits.contains(digits) else { return nil }
        self.digits = digits
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        unitsPerDegree = scale
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
