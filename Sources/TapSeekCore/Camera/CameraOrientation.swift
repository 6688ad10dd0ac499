import Foundation

/// Where a camera points: heading, pitch and roll of its optical axis, and the rotation they make
/// from the camera frame (x right, y up, z forward) into the local East-North-Up frame (x east,
/// y north, z up).
///
/// The rotation applies roll about the optical axis, then pitch about the camera's x axis, then
/// heading about the local up axis:
/// - roll r: the camera's x axis goes to (cos r, −sin r, 0) in the level camera frame (x right,
///   y up, z forward-horizontal) — positive roll turns the camera clockwise as seen from behind,
///   tipping the image's right edge below the horizon;
/// - pitch p: the optical axis goes to (0, sin p, cos p);
/// - heading h: forward-horizontal goes to (E, N) = (sin h, cos h) and level-right to
///   (cos h, −sin h).
///
/// Angles in degrees. The heading is taken to be from **true** north: convert a magnetic heading
/// first (``MagneticModel/magneticToTrue(heading:latitude:longitude:height:date:)``). Rotation
/// results are exact to rounding (≈ 1e−16 per component).
public struct CameraOrientation: Sendable, Hashable {
    /// Degrees clockwise from true north of the optical axis (any value; used through sin/cos).
    public let heading: Double
    /// Degrees of elevation of the optical axis, positive up, −90…90.
    public let pitch: Double
    /// Degrees about the optical axis, positive = clockwise as seen from behind the camera.
    public let roll: Double

    /// ENU unit vector of the camera's x axis: toward the image's right edge.
    public let right: Vector3
    /// ENU unit vector of the camera's y axis: toward the image's top edge.
    public let up: Vector3
    /// ENU unit vector of the optical axis (camera z): where the image centre looks.
    public let forward: Vector3

    /// An orientation from its angles in degrees (heading from true north).
    public init(heading: Double, pitch: Double, roll: Double = 0) {
        self.heading = heading
        self.pitch = pitch
        self.roll = roll
        let h = radians(heading), p = radians(pitch), r = radians(roll)
        let sh = sin(h), ch = cos(h), sp = sin(p), cp = cos(p), sr = sin(r), cr = cos(r)

        /// Level camera frame (x right, y up, z forward-horizontal) → ENU: the heading turn.
        func enu(level x: Double, _ y: Double, _ z: Double) -> Vector3 {
            Vector3(x * ch + z * sh, -x * sh + z * ch, y)
        }
        /// Rolled camera frame → level frame: the pitch turn about x.
        func level(rolled x: Double, _ y: Double, _ z: Double) -> Vector3 {
            enu(level: x, y * cp + z * sp, -y * sp + z * cp)
        }
        // Columns of the full rotation: the camera axes after roll, pitch and heading.
        right = level(rolled: cr, -sr, 0)
        up = level(rolled: sr, cr, 0)
        forward = level(rolled: 0, 0, 1)
    }

    /// A camera-frame vector → the same vector in ENU.
    @inlinable public func enu(fromCamera v: Vector3) -> Vector3 {
        v.x * right + v.y * up + v.z * forward
    }

    /// An ENU vector → the same vector in the camera frame (the transpose rotation).
    @inlinable public func camera(fromENU v: Vector3) -> Vector3 {
        Vector3(v.dot(right), v.dot(up), v.dot(forward))
    }

    /// The ENU unit direction seen at pixel (x, y) of `camera`'s image.
    public func direction(ofPixelX x: Double, y: Double, camera: PinholeCamera) -> Vector3 {
        enu(fromCamera: camera.ray(throughPixelX: x, y: y))
    }

    /// The ENU unit direction of a reading's sightline: through the tapped pixel when there is a
    /// tap and a camera, else along the optical axis.
    public func direction(tap: Reading.Tap?, camera: PinholeCamera?) -> Vector3 {
        guard let tap, let camera else { return forward }
        return direction(ofPixelX: tap.x, y: tap.y, camera: camera)
    }

    /// Where an ENU direction (any length) appears in `camera`'s image: a pixel from the top-left
    /// corner, y down; nil if the direction is sideways or behind the camera. The pixel may lie
    /// outside the image.
    public func pixel(of direction: Vector3, camera: PinholeCamera) -> (x: Double, y: Double)? {
        camera.pixel(of: self.camera(fromENU: direction))
    }
}
