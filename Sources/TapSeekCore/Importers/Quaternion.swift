import Foundation

/// A rotation as a quaternion (x, y, z, w), `w` the scalar part, as CoreMotion, Android's rotation
/// vector and Sensor Logger write them. q and −q are the same rotation; logs flip between them.
public struct Quaternion: Sendable, Hashable {
    /// Vector part, x.
    public var x: Double
    /// Vector part, y.
    public var y: Double
    /// Vector part, z.
    public var z: Double
    /// Scalar part.
    public var w: Double

    /// A quaternion as written in a log (not necessarily of unit length; see ``normalized``).
    public init(x: Double, y: Double, z: Double, w: Double) {
        self.x = x
        self.y = y
        self.z = z
        self.w = w
    }

    /// Logged quaternions carry 6–8 significant digits; one whose length is further than this
    /// from 1 is not a rotation but a damaged or mis-assigned row.
    public static let normTolerance = 1e-2

    /// Euclidean length; 1 for a rotation.
    public var norm: Double { (x * x + y * y + z * z + w * w).squareRoot() }

    /// The unit quaternion, or nil when the length is not within ``normTolerance`` of 1.
    public var normalized: Quaternion? {
        let n = norm
        guard n.isFinite, abs(n - 1) <= Self.normTolerance else { return nil }
        return Quaternion(x: x / n, y: y / n, z: z / n, w: w / n)
    }

    /// `v` rotated by this unit quaternion: q·v·q*, i.e. a device vector expressed in the
    /// reference frame when q maps device → reference.
    public func rotate(_ v: Vector3) -> Vector3 {
        let u = Vector3(x, y, z)
        let t = 2 * u.cross(v)
        return v + w * t + u.cross(t)
    }

    /// Spherical linear interpolation between unit quaternions `a` (t = 0) and `b` (t = 1) along
    /// the shorter arc: `b` is negated first when `a·b < 0`, since q and −q are the same rotation
    /// and interpolating between them the long way would swing the device through a full turn.
    /// Falls back to a normalised linear blend when the two are within 1e-6 rad, where the slerp
    /// weights lose precision.
    public static func slerp(_ a: Quaternion, _ b: Quaternion, t: Double) -> Quaternion {
        var d = a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w
        var b = b
        if d < 0 {
            b = Quaternion(x: -b.x, y: -b.y, z: -b.z, w: -b.w)
            d = -d
        }
        let wa: Double, wb: Double
        let theta = acos(min(d, 1))
        if theta < 1e-6 {
            wa = 1 - t
            wb = t
        } else {
            let s = sin(theta)
            wa = sin((1 - t) * theta) / s
            wb = sin(t * theta) / s
        }
        let q = Quaternion(x: wa * a.x + wb * b.x, y: wa * a.y + wb * b.y, z: wa * a.z + wb * b.z, w: wa * a.w + wb * b.w)
        let n = q.norm
        return Quaternion(x: q.x / n, y: q.y / n, z: q.z / n, w: q.w / n)
    }
}
