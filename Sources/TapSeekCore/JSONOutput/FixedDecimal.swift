/// A number that the result JSON gives to a fixed number of decimal places: positions to 1e-7°
/// (1 cm), heights and distances to the centimetre.
///
/// ``CompactJSONEncoder`` writes it as that decimal (`27.9881206`, trailing zeros dropped);
/// any other encoder gets the rounded `Double`, which it prints the same way. Not finite
/// encodes as `null`, which JSON has in place of NaN.
public struct FixedDecimal: Encodable, Sendable, Hashable {
    public var value: Double
    /// Decimal places, 0…9.
    public var places: Int

    public init(_ value: Double, places: Int) {
        precondition((0...9).contains(places), "FixedDecimal takes 0…9 places")
        self.value = value
        self.places = places
    }

    /// The value rounded to ``places``, as a `Double`.
    public var rounded: Double {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = (value * scale).rounded()
        // Beyond 2⁵³ the digits are the number's own: rounding would only lose them.
        return abs(scaled) < 9e15 ? scaled / scale : value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if value.isFinite { try container.encode(rounded) } else { try container.encodeNil() }
    }
}

/// The interface's places, each rule written once.
extension FixedDecimal {
    /// A latitude or longitude: 1e-7° (1 cm on the ground).
    public static func position(_ degrees: Double) -> FixedDecimal { FixedDecimal(degrees, places: 7) }
    /// A height, distance or pixel coordinate: to the centimetre (the hundredth).
    public static func metres(_ value: Double) -> FixedDecimal { FixedDecimal(value, places: 2) }
    /// A direction of sight (azimuth, elevation angle, prominence): 1e-6°.
    public static func angle(_ degrees: Double) -> FixedDecimal { FixedDecimal(degrees, places: 6) }
    /// A share or probability, and a calibration's angles and residual (fitted to 1e-4°): 4 places.
    public static func fourPlaces(_ value: Double) -> FixedDecimal { FixedDecimal(value, places: 4) }
}
