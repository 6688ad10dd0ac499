/// A point given by WGS84 geodetic latitude and longitude (degrees) and a height in metres above
/// the WGS84 **ellipsoid**. Orthometric (mean-sea-level) heights are converted with ``Geoid``
/// before they become a `GeodeticPosition`.
public struct GeodeticPosition: Sendable, Hashable {
    /// Degrees, −90…90, positive north.
    public var latitude: Double
    /// Degrees, positive east (any value; trigonometry does not care about wrapping).
    public var longitude: Double
    /// Metres above the WGS84 ellipsoid.
    public var height: Double

    public init(latitude: Double, longitude: Double, height: Double = 0) {
        self.latitude = latitude
        self.longitude = longitude
        self.height = height
    }
}
