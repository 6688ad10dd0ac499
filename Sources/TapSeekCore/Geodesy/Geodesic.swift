/// Geodesics on the WGS84 ellipsoid: the names the engine and its library callers use, answered
/// by the pure-Swift ``KarneyGeodesic`` (no PROJ).
///
/// Latitudes, longitudes and azimuths in degrees (azimuth clockwise from true north);
/// distances in metres along the ellipsoid surface; accurate to about 15 nm.
public enum Geodesic {
    /// The solution of a direct or inverse problem.
    public typealias Line = KarneyGeodesic.Line

    /// Direct problem: start point, initial azimuth and distance → end point and its forward azimuth.
    public static func direct(latitude: Double, longitude: Double, azimuth: Double, distance: Double) -> Line {
        KarneyGeodesic.wgs84.direct(latitude: latitude, longitude: longitude, azimuth: azimuth, distance: distance)
    }

    /// The inverse problem's distance alone, metres: ``inverse(latitude1:longitude1:latitude2:longitude2:)``'s
    /// `distance` to the bit, without computing the azimuths.
    public static func distance(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Double {
        KarneyGeodesic.wgs84.distance(latitude1: latitude1, longitude1: longitude1, latitude2: latitude2, longitude2: longitude2)
    }

    /// Inverse problem: two points → distance and the azimuths at each end.
    public static func inverse(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Line {
        KarneyGeodesic.wgs84.inverse(latitude1: latitude1, longitude1: longitude1, latitude2: latitude2, longitude2: longitude2)
    }
}
