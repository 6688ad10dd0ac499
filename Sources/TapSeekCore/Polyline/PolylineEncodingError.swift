/// Why ``Polyline/encode(_:precision:)`` could not write a coordinate: it is NaN or infinite,
/// or at the chosen precision it is more than ``Polyline/maximumUnits`` units from zero.
public struct PolylineEncodingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Which half of the coordinate failed.
    public enum Field: String, Sendable, Hashable {
        case latitude, longitude
    }

    /// Zero-based index of the coordinate in the input array.
    public var index: Int
    /// The field that cannot be encoded.
    public var field: Field
    /// The offending value, degrees.
    public var value: Double
    /// The precision it was to be written at.
    public var precision: PolylinePrecision

    public init(index: Int, field: Field, value: Double, precision: PolylinePrecision) {
        self.index = index
        self.field = field
        self.value = value
        self.precision = precision
    }

    public var description: String {
        let limit = Double(Polyline.maximumUnits) / precision.unitsPerDegree
        return "polyline: coordinate \(index): \(field.rawValue) \(value) cannot be encoded at "
            + "precision \(precision); it must be finite and within ±\(limit) degrees"
    }
}
