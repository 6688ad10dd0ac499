import Foundation

/// A direction seen from the observer: azimuth and elevation angle, degrees.
///
/// ``azimuth`` is clockwise from true north in [0, 360); ``elevation`` is above the local
/// horizontal plane in [−90, 90]. Straight up or down the azimuth is undefined and reported as 0.
/// In the local East-North-Up frame the direction is (cos e·sin a, cos e·cos a, sin e).
public struct ViewDirection: Sendable, Hashable {
    /// Degrees clockwise from true north, [0, 360).
    public var azimuth: Double
    /// Degrees above the horizontal plane, [−90, 90].
    public var elevation: Double

    /// A direction from its angles in degrees, taken as given.
    public init(azimuth: Double, elevation: Double) {
        self.azimuth = azimuth
        self.elevation = elevation
    }

    /// The direction of an ENU vector (x east, y north, z up; any nonzero length).
    public init(enu v: Vector3) {
        let horizontal = (v.x * v.x + v.y * v.y).squareRoot()
        azimuth = horizontal == 0 ? 0 : normalizedAzimuth(degrees(atan2(v.x, v.y)))
        elevation = degrees(atan2(v.z, horizontal))
    }

    /// The unit ENU vector of this direction.
    public var enu: Vector3 {
        let a = radians(azimuth), e = radians(elevation)
        return Vector3(cos(e) * sin(a), cos(e) * cos(a), sin(e))
    }
}
