import Foundation

/// How a phone is turned: the directions of its axes in the local East-North-Up frame.
///
/// Device axes, iOS and Android alike: +x to the right edge, +y to the top edge, +z out of the
/// screen; the back camera looks along −z. The "north" of the frame is whatever the sensor used
/// (true, magnetic or, for CoreMotion's `xArbitrary…` frames, arbitrary): the caller tracks which.
public struct DeviceAttitude: Sendable, Hashable {
    /// Unit vectors, in ENU, of the device's +x, +y and +z axes (the columns of the rotation
    /// matrix device → ENU).
    public var xAxis: Vector3
    /// Unit ENU vector of the device's +y axis (the top edge).
    public var yAxis: Vector3
    /// Unit ENU vector of the device's +z axis (out of the screen; the back camera looks along −z).
    public var zAxis: Vector3

    /// From the ENU directions of the device axes; they must be orthonormal and right-handed.
    public init(xAxis: Vector3, yAxis: Vector3, zAxis: Vector3) {
        self.xAxis = xAxis
        self.yAxis = yAxis
        self.zAxis = zAxis
    }

    /// From a unit quaternion that maps device vectors straight into ENU: Android's rotation
    /// vector and Sensor Logger's Android `Orientation` quaternion (ENU with magnetic north).
    public init(deviceToENU q: Quaternion) {
        self.init(xAxis: q.rotate(Vector3(1, 0, 0)), yAxis: q.rotate(Vector3(0, 1, 0)), zAxis: q.rotate(Vector3(0, 0, 1)))
    }

    /// From a CoreMotion attitude quaternion in a `…ZVertical` reference frame, whose axes are
    /// x = reference north, y = west, z = up: ENU = M·R(q) with M = [[0,−1,0],[1,0,0],[0,0,1]]
    /// (east = −west, north = x).
    public static func coreMotion(quaternion q: Quaternion) -> DeviceAttitude {
        let d = DeviceAttitude(deviceToENU: q)
        return DeviceAttitude(xAxis: northWestUpToENU(d.xAxis), yAxis: northWestUpToENU(d.yAxis), zAxis: northWestUpToENU(d.zAxis))
    }

    /// From CoreMotion Euler angles (radians): R = Rz(yaw)·Rx(pitch)·Ry(roll) in the
    /// north-west-up reference frame, then ENU = M·R. Agrees with ``coreMotion(quaternion:)`` to
    /// 2e−4 per matrix element on real SensorLog rows (conventions.md).
    public static func coreMotion(yaw: Double, pitch: Double, roll: Double) -> DeviceAttitude {
        func r(_ v: Vector3) -> Vector3 {
            northWestUpToENU(rotateZ(rotateX(rotateY(v, roll), pitch), yaw))
        }
        return DeviceAttitude(xAxis: r(Vector3(1, 0, 0)), yAxis: r(Vector3(0, 1, 0)), zAxis: r(Vector3(0, 0, 1)))
    }

    /// From Android `SensorManager.getOrientation()` angles (radians; Sensor Logger's Android
    /// yaw/pitch/roll): R = Rz(−azimuth)·Rx(−pitch)·Ry(roll), device → ENU (magnetic north).
    public static func android(azimuth: Double, pitch: Double, roll: Double) -> DeviceAttitude {
        func r(_ v: Vector3) -> Vector3 { rotateZ(rotateX(rotateY(v, roll), -pitch), -azimuth) }
        return DeviceAttitude(xAxis: r(Vector3(1, 0, 0)), yAxis: r(Vector3(0, 1, 0)), zAxis: r(Vector3(0, 0, 1)))
    }

    /// The same attitude with every azimuth increased by `degrees` (a rotation about up, clockwise
    /// seen from above): re-references a frame whose north differs from the wanted one.
    public func rotatedAboutUp(clockwiseDegrees degrees: Double) -> DeviceAttitude {
        let a = radians(degrees), c = cos(a), s = sin(a)
        // A horizontal direction at azimuth θ is (E, N) = (sin θ, cos θ); adding a gives
        // (E cos a + N sin a, N cos a − E sin a).
        func r(_ v: Vector3) -> Vector3 { Vector3(v.x * c + v.y * s, v.y * c - v.x * s, v.z) }
        return DeviceAttitude(xAxis: r(xAxis), yAxis: r(yAxis), zAxis: r(zAxis))
    }

    /// Azimuth (degrees clockwise from the frame's north, [0, 360)) of a device axis given in ENU,
    /// with the length of its horizontal part (1 when level, 0 when vertical).
    public static func azimuth(of v: Vector3) -> (degrees: Double, horizontal: Double) {
        (normalizedAzimuth(TapSeekCore.degrees(atan2(v.x, v.y))), (v.x * v.x + v.y * v.y).squareRoot())
    }

    /// Below this horizontal length the optical axis is treated as exactly vertical (gimbal lock).
    static let verticalAxisThreshold = 1e-9

    /// The back camera's pointing, in the conventions of the reading JSON:
    /// - heading: azimuth of device −z, degrees clockwise from the frame's north, [0, 360);
    /// - pitch: elevation of −z above the horizontal, degrees, [−90, 90];
    /// - roll: about the optical axis, degrees (−180, 180], positive when device +x (the right edge
    ///   of a portrait image) tips below the horizon. Landscape photos therefore have roll ≈ ±90°;
    ///   tap pixels are then given in the portrait frame of the device.
    ///
    /// Exact: recomposing heading, pitch and roll by the camera model reproduces the matrix. When
    /// the optical axis is vertical within 1e-9 (heading and roll then describe the same turn)
    /// roll is 0 and heading carries the turn: it is the azimuth of +y looking down, of −y looking up.
    public var cameraAngles: (heading: Double, pitch: Double, roll: Double) {
        let forward = -zAxis
        let pitch = TapSeekCore.degrees(asin(max(-1, min(1, forward.z))))
        let (heading, horizontal) = Self.azimuth(of: forward)
        guard horizontal > Self.verticalAxisThreshold else {
            let up = Self.azimuth(of: forward.z < 0 ? yAxis : -yAxis).degrees
            return (up, pitch, 0)
        }
        // With roll r and pitch p the camera's x axis has up-component −sin r·cos p and its y axis
        // cos r·cos p (conventions.md, camera model); cos p > 0 here.
        let roll = TapSeekCore.degrees(atan2(-xAxis.z, yAxis.z))
        return (heading, pitch, roll == -180 ? 180 : roll)
    }

    /// x = north, y = west, z = up → (east, north, up).
    private static func northWestUpToENU(_ v: Vector3) -> Vector3 { Vector3(-v.y, v.x, v.z) }

    private static func rotateX(_ v: Vector3, _ a: Double) -> Vector3 {
        let c = cos(a), s = sin(a)
        return Vector3(v.x, c * v.y - s * v.z, s * v.y + c * v.z)
    }

    private static func rotateY(_ v: Vector3, _ a: Double) -> Vector3 {
        let c = cos(a), s = sin(a)
        return Vector3(c * v.x + s * v.z, v.y, -s * v.x + c * v.z)
    }

    private static func rotateZ(_ v: Vector3, _ a: Double) -> Vector3 {
        let c = cos(a), s = sin(a)
        return Vector3(c * v.x - s * v.y, s * v.x + c * v.y, v.z)
    }
}
