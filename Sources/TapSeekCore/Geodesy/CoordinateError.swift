/// A latitude/longitude that cannot name a place, with a one-line message naming the field.
public struct CoordinateError: Error, Sendable, Hashable, CustomStringConvertible {
    public let message: String
    public var description: String { message }

    /// Checks a WGS84 point: latitude finite and within −90…90, longitude finite. Returns the
    /// longitude wrapped into [−180, 180), so 190 means −170.
    public static func validated(latitude: Double, longitude: Double) throws(CoordinateError) -> (latitude: Double, longitude: Double) {
        guard latitude.isFinite else { throw CoordinateError(message: "latitude must be a finite number, got \(latitude)") }
        guard (-90...90).contains(latitude) else {
            throw CoordinateError(message: "latitude must be within -90…90, got \(latitude)")
        }
        guard longitude.isFinite else { throw CoordinateError(message: "longitude must be a finite number, got \(longitude)") }
        return (latitude, normalizedLongitude(longitude))
    }
}
