import CProj

/// Karney's geodesics on the WGS84 ellipsoid through PROJ's `geodesic.h`
/// (accurate to about 15 nm; C. F. F. Karney, J. Geodesy 87, 43–55, 2013).
///
/// Latitudes, longitudes and azimuths in degrees (azimuth clockwise from true north);
/// distances in metres along the ellipsoid surface.
public enum Geodesic {
    /// The solution of a direct or inverse problem.
    public struct Line: Sendable, Hashable {
        public var latitude1: Double, longitude1: Double, azimuth1: Double
        public var latitude2: Double, longitude2: Double, azimuth2: Double
        /// Geodesic distance, metres.
        public var distance: Double
    }

    private static let wgs84: geod_geodesic = {
        var g = geod_geodesic()
        geod_init(&g, 6_378_137.0, 1 / 298.257_223_563)
        return g
    }()

    /// Direct problem: start point, initial azimuth and distance → end point and its forward azimuth.
    public static func direct(latitude: Double, longitude: Double, azimuth: Double, distance: Double) -> Line {
        var g = wgs84
        var lat2 = 0.0, lon2 = 0.0, azi2 = 0.0
        geod_direct(&g, latitude, longitude, azimuth, distance, &lat2, &lon2, &azi2)
        return Line(latitude1: latitude, longitude1: longitude, azimuth1: azimuth,
                    latitude2: lat2, longitude2: lon2, azimuth2: azi2, distance: distance)
    }

    /// Inverse problem: two points → distance and the azimuths at each end.
    public static func inverse(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Line {
        var g = wgs84
        var s12 = 0.0, azi1 = 0.0, azi2 = 0.0
        geod_inverse(&g, latitude1, longitude1, latitude2, longitude2, &s12, &azi1, &azi2)
        return Line(latitude1: latitude1, longitude1: longitude1, azimuth1: azi1,
                    latitude2: latitude2, longitude2: longitude2, azimuth2: azi2, distance: s12)
    }
}
