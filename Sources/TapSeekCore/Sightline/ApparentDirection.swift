import Foundation

extension ViewDirection {
    /// The direction in which an eye sees a point through the refracting air: the straight
    /// line's azimuth, and its elevation angle raised by refraction's k·d/(2R) (the sightline
    /// bends down with curvature k/R and so leaves the eye that much above the chord; d ground
    /// distance, R the Gaussian mean radius at the eye). The same geometry as the panorama's
    /// skyline angles.
    ///
    /// - Parameters:
    ///   - eye, point: heights above the WGS84 ellipsoid.
    ///   - refraction: coefficient k (``MarchSettings/refraction``).
    public static func apparent(from eye: GeodeticPosition, to point: GeodeticPosition, refraction: Double) -> ViewDirection {
        let v = LocalFrame(origin: eye).enu(of: point)
        var direction = ViewDirection(enu: v)
        let azimuth = (v.x * v.x + v.y * v.y) == 0 ? 0 : direction.azimuth
        let distance = Ellipsoid.wgs84.surfaceDistance(from: eye, to: point, azimuth: azimuth)
        let radius = Ellipsoid.wgs84.meanRadius(latitude: radians(eye.latitude))
        direction.elevation = min(90, direction.elevation + degrees(refraction * distance / (2 * radius)))
        return direction
    }
}
