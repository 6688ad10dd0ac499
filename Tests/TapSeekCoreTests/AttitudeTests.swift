import Foundation
import PropertyBased
import Testing

@testable import TapSeekCore

@Suite struct AttitudeTests {
    /// The device axes of a camera pointed by heading h, pitch p and roll r, built by the camera
    /// model of conventions.md, written out here independently of the importer: roll turns the
    /// camera's x axis to (cos r, −sin r, 0) in (right, up, forward); pitch maps forward to
    /// (0, sin p, cos p); heading maps forward to (E, N) = (sin h, cos h) and right to
    /// (cos h, −sin h). Device +x = camera right, +y = camera up, −z = forward.
    static func axes(heading h: Double, pitch p: Double, roll r: Double) -> DeviceAttitude {
        let (sh, ch) = (sin(radians(h)), cos(radians(h)))
        let (sp, cp) = (sin(radians(p)), cos(radians(p)))
        let (sr, cr) = (sin(radians(r)), cos(radians(r)))
        // Level frame (right, up, forward) → ENU.
        func enu(_ right: Double, _ up: Double, _ forward: Double) -> Vector3 {
            Vector3(right * ch + forward * sh, -right * sh + forward * ch, up)
        }
        // Pitch about the right axis: up → (0, cos p, −sin p), forward → (0, sin p, cos p).
        func pitched(_ x: Double, _ y: Double, _ z: Double) -> Vector3 {
            enu(x, y * cp + z * sp, -y * sp + z * cp)
        }
        let right = pitched(cr, -sr, 0)
        let up = pitched(sr, cr, 0)
        let forward = pitched(0, 0, 1)
        return DeviceAttitude(xAxis: right, yAxis: up, zAxis: -forward)
    }

    static func angleDifference(_ a: Double, _ b: Double) -> Double {
        abs(normalizedAzimuth(a - b + 180) - 180)
    }

    /// Heading, pitch and roll built into an attitude by the camera model come back out.
    @Test func cameraAnglesInvertTheCameraModel() async {
        await propertyCheck(count: 500, input: Gen.double(in: 0..<360), Gen.double(in: -89.9...89.9), Gen.double(in: -179.9...179.9)) { h, p, r in
            let angles = Self.axes(heading: h, pitch: p, roll: r).cameraAngles
            #expect(Self.angleDifference(angles.heading, h) < 1e-8)
            #expect(abs(angles.pitch - p) < 1e-8)
            #expect(Self.angleDifference(angles.roll, r) < 1e-8)
        }
    }

    @Test func namedPoses() {
        // Upright portrait phone facing east: −z east, +y up → heading 90, level, no roll.
        let east = DeviceAttitude(xAxis: Vector3(0, -1, 0), yAxis: Vector3(0, 0, 1), zAxis: Vector3(-1, 0, 0)).cameraAngles
        #expect(abs(east.heading - 90) < 1e-12 && abs(east.pitch) < 1e-12 && abs(east.roll) < 1e-12)
        // Same, turned clockwise as seen from behind into landscape: +x (image right) points down.
        let landscape = DeviceAttitude(xAxis: Vector3(0, 0, -1), yAxis: Vector3(0, -1, 0), zAxis: Vector3(-1, 0, 0)).cameraAngles
        #expect(abs(landscape.roll - 90) < 1e-12)
        #expect(abs(landscape.heading - 90) < 1e-12)
        // Flat on a table, top edge north: the camera looks down; heading is the top edge's azimuth.
        let flat = DeviceAttitude(xAxis: Vector3(1, 0, 0), yAxis: Vector3(0, 1, 0), zAxis: Vector3(0, 0, 1)).cameraAngles
        #expect(abs(flat.pitch + 90) < 1e-12 && flat.roll == 0 && flat.heading == 0)
    }

    /// CoreMotion's frame is (north, west, up): a 90° turn about up (quaternion (0, 0, sin 45°,
    /// cos 45°)) takes device x from north to west, azimuth 270°.
    @Test func coreMotionQuaternionIsInNorthWestUp() {
        let s = 0.5.squareRoot()
        let a = DeviceAttitude.coreMotion(quaternion: Quaternion(x: 0, y: 0, z: s, w: s))
        #expect(abs(DeviceAttitude.azimuth(of: a.xAxis).degrees - 270) < 1e-12)
        let e = DeviceAttitude.coreMotion(yaw: .pi / 2, pitch: 0, roll: 0)
        #expect((e.xAxis - a.xAxis).length < 1e-12 && (e.yAxis - a.yAxis).length < 1e-12)
    }

    /// Android's azimuth is clockwise from (magnetic) north: azimuth 90° puts the top edge east.
    @Test func androidAzimuthIsClockwise() {
        let a = DeviceAttitude.android(azimuth: .pi / 2, pitch: 0, roll: 0)
        #expect(abs(DeviceAttitude.azimuth(of: a.yAxis).degrees - 90) < 1e-12)
    }

    @Test func rotatingAboutUpAddsToEveryAzimuth() {
        let a = Self.axes(heading: 10, pitch: 20, roll: 30).rotatedAboutUp(clockwiseDegrees: 45).cameraAngles
        #expect(abs(a.heading - 55) < 1e-9 && abs(a.pitch - 20) < 1e-9 && abs(a.roll - 30) < 1e-9)
    }

    /// A quaternion and its negation are one rotation; slerp between q and a sign-flipped
    /// neighbour must take the short way (the midpoint of a 10° turn is 5°, not 185°).
    @Test func slerpTakesTheShortArcAcrossASignFlip() {
        func aboutUp(_ degrees: Double) -> Quaternion {
            Quaternion(x: 0, y: 0, z: sin(radians(degrees) / 2), w: cos(radians(degrees) / 2))
        }
        let a = aboutUp(0)
        var b = aboutUp(10)
        b = Quaternion(x: -b.x, y: -b.y, z: -b.z, w: -b.w)
        let mid = Quaternion.slerp(a, b, t: 0.5)
        let x = DeviceAttitude(deviceToENU: mid).xAxis
        #expect(abs(degrees(atan2(x.y, x.x)) - 5) < 1e-9)
        #expect(abs(mid.norm - 1) < 1e-12)
        let same = Quaternion.slerp(a, a, t: 0.3)
        #expect(abs(same.w - 1) < 1e-12)
    }

    @Test func nonUnitQuaternionIsRejected() {
        #expect(Quaternion(x: 0, y: 0, z: 0, w: 0.5).normalized == nil)
        #expect(Quaternion(x: 0, y: 0, z: 0, w: .nan).normalized == nil)
        #expect(Quaternion(x: 0, y: 0, z: 0, w: 1.001).normalized?.w == 1)
    }
}
