/// Why ``Polyline/encode(_:precision:)`` could not write a coordinate: its latitude is not
/// within ±90° or its longitude not within ±180° (NaN and infinities included).
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

    /// `polyline: coordinate 3: latitude 430.0 is outside −90…90 degrees`.
    public var description: String {
        let range = field == .latitude ? "−90…90" : "−180…180"
        return "polyline: coordinate \(index): \(field.rawValue) \(value) is outside \(range) degrees"
    }
}
