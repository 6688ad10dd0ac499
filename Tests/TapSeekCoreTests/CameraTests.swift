import Foundation
import PropertyBased
import Testing
@testable import TapSeekCore

/// The pinhole camera and its orientation against geometric facts that follow from the
/// conventions (docs/conventions.md, "Camera model") without going through the code's formulas.
@Suite struct CameraTests {
    /// An iPhone main camera: 63.7° across 4032 × 3024 pixels (the interface's example).
    static let phone = PinholeCamera(horizontalFOV: 63.7, imageWidth: 4032, imageHeight: 3024)

    /// Angular distance between two directions, degrees (robust near 0).
    static func angle(_ a: Vector3, _ b: Vector3) -> Double {
        degrees(atan2(a.cross(b).length, a.dot(b)))
    }

    /// Signed difference of azimuths, degrees in [−180, 180).
    static func azimuthDifference(_ a: Double, _ b: Double) -> Double { normalizedLongitude(a - b) }

    @Test(arguments: [(208.0, 26.0, 0.0), (0, 0, 0), (359.5, -45, 30), (90, 89, -170), (123.4, -10, 90)])
    func opticalAxisPointsAlongHeadingAndPitch(heading: Double, pitch: Double, roll: Double) {
        let o = CameraOrientation(heading: heading, pitch: pitch, roll: roll)
        let axis = ViewDirection(enu: o.forward)
        #expect(abs(Self.azimuthDifference(axis.azimuth, heading)) < 1e-9)
        #expect(abs(axis.elevation - pitch) < 1e-9)
        // The image centre pixel is the optical axis, whatever the roll.
        let centre = o.direction(ofPixelX: 2016, y: 1512, camera: Self.phone)
        #expect(Self.angle(centre, o.forward) < 1e-9)
        // No tap → the optical axis.
        #expect(o.direction(tap: nil, camera: Self.phone) == o.forward)
    }

    @Test func imageEdgesAtALevelPoseAreHalfTheFieldOfViewAway() {
        let o = CameraOrientation(heading: 208, pitch: 0)
        let right = ViewDirection(enu: o.direction(ofPixelX: 4032, y: 1512, camera: Self.phone))
        #expect(abs(Self.azimuthDifference(right.azimuth, 208 + 63.7 / 2)) < 1e-9)
        #expect(abs(right.elevation) < 1e-9)
        let left = ViewDirection(enu: o.direction(ofPixelX: 0, y: 1512, camera: Self.phone))
        #expect(abs(Self.azimuthDifference(left.azimuth, 208 - 63.7 / 2)) < 1e-9)
        // Square pixels: the vertical FOV is 2·atan(tan(hfov/2)·H/W) (conventions.md).
        let vfov = degrees(2 * atan(tan(radians(63.7 / 2)) * 3024 / 4032))
        let top = ViewDirection(enu: o.direction(ofPixelX: 2016, y: 0, camera: Self.phone))
        #expect(abs(top.elevation - vfov / 2) < 1e-9)
        #expect(abs(Self.azimuthDifference(top.azimuth, 208)) < 1e-9)
        let bottom = ViewDirection(enu: o.direction(ofPixelX: 2016, y: 3024, camera: Self.phone))
        #expect(abs(bottom.elevation + vfov / 2) < 1e-9)
        #expect(abs(Self.phone.verticalFOV - vfov) < 1e-9)
        #expect(abs(Self.phone.effectiveHorizontalFOV - 63.7) < 1e-9)
    }

    @Test(arguments: [1.0, 2.0, 3.5, 10.0])
    func zoomNarrowsTheFieldOfView(zoom: Double) {
        let camera = PinholeCamera(horizontalFOV: 63.7, zoom: zoom, imageWidth: 4032, imageHeight: 3024)
        let expectedHalf = degrees(atan(tan(radians(63.7 / 2)) / zoom))
        #expect(abs(camera.effectiveHorizontalFOV - 2 * expectedHalf) < 1e-9)
        let o = CameraOrientation(heading: 10, pitch: 0)
        let right = ViewDirection(enu: o.direction(ofPixelX: 4032, y: 1512, camera: camera))
        #expect(abs(right.azimuth - (10 + expectedHalf)) < 1e-9)
    }

    /// Roll +90°: the camera turned a quarter clockwise as seen from behind. The image's right
    /// edge now points at the ground and its top edge points to the right of the heading.
    @Test func aQuarterRollTurnsTheRightEdgeDownAndTheTopEdgeRight() {
        let o = CameraOrientation(heading: 40, pitch: 0, roll: 90)
        #expect(Self.angle(o.right, Vector3(0, 0, -1)) < 1e-9)
        let rightEdge = ViewDirection(enu: o.direction(ofPixelX: 4032, y: 1512, camera: Self.phone))
        #expect(abs(rightEdge.elevation + 63.7 / 2) < 1e-9)
        #expect(abs(rightEdge.azimuth - 40) < 1e-9)
        let topCentre = ViewDirection(enu: o.direction(ofPixelX: 2016, y: 0, camera: Self.phone))
        #expect(abs(topCentre.elevation) < 1e-9)
        #expect(abs(topCentre.azimuth - (40 + Self.phone.verticalFOV / 2)) < 1e-9)
    }

    /// With pitch 0 and roll r the horizon crosses the image centre and rises toward the right
    /// edge with slope tan r (the world appears turned against the camera), so the pixels on
    /// v = H/2 − (u − W/2)·tan r look exactly horizontally and those above it look up.
    @Test(arguments: [-30.0, 5.0, 20.0, 44.0])
    func rollTiltsTheHorizonInTheImage(roll: Double) {
        let o = CameraOrientation(heading: 300, pitch: 0, roll: roll)
        for u in stride(from: 0.0, through: 4032, by: 504) {
            let v = 1512 - (u - 2016) * tan(radians(roll))
            let onHorizon = ViewDirection(enu: o.direction(ofPixelX: u, y: v, camera: Self.phone))
            #expect(abs(onHorizon.elevation) < 1e-9, "u \(u)")
            let above = ViewDirection(enu: o.direction(ofPixelX: u, y: v - 10, camera: Self.phone))
            #expect(above.elevation > 0)
        }
        if roll > 0 {
            let rightEdge = ViewDirection(enu: o.direction(ofPixelX: 4032, y: 1512, camera: Self.phone))
            #expect(rightEdge.elevation < 0, "positive roll tips the right edge below the horizon")
        }
    }

    /// Looking straight up, the top of the image points backward over the observer's head and the
    /// bottom of the image toward the heading.
    @Test func pitchedStraightUpTheTopEdgeLooksBackward() {
        let o = CameraOrientation(heading: 75, pitch: 90)
        let top = ViewDirection(enu: o.direction(ofPixelX: 2016, y: 0, camera: Self.phone))
        #expect(abs(top.azimuth - 255) < 1e-9)
        #expect(abs(top.elevation - (90 - Self.phone.verticalFOV / 2)) < 1e-9)
        let bottom = ViewDirection(enu: o.direction(ofPixelX: 2016, y: 3024, camera: Self.phone))
        #expect(abs(bottom.azimuth - 75) < 1e-9)
    }

    /// A pixel on the image's horizontal centre line, α off axis, at pitch p and roll 0 looks
    /// along cos α·axis + sin α·(horizontal right). Spherical trigonometry then gives elevation
    /// asin(cos α·sin p) and azimuth h + atan2(sin α, cos α·cos p): at p = 60°, α = 30° the
    /// azimuth offset is 49.1°, not the 30° that adding pixel offsets × FOV/width would give.
    @Test func offAxisPixelsFollowSphericalTrigonometryNotLinearOffsets() {
        let p = 60.0
        let o = CameraOrientation(heading: 100, pitch: p)
        let f = Self.phone.focalLength
        for alpha in [-30.0, -10, 5, 30] {
            let u = 2016 + f * tan(radians(alpha))
            let d = ViewDirection(enu: o.direction(ofPixelX: u, y: 1512, camera: Self.phone))
            let a = radians(alpha), pr = radians(p)
            #expect(abs(d.elevation - degrees(asin(cos(a) * sin(pr)))) < 1e-9)
            let offset = degrees(atan2(sin(a), cos(a) * cos(pr)))
            #expect(abs(Self.azimuthDifference(d.azimuth, 100 + offset)) < 1e-9)
        }
        let u30 = 2016 + f * tan(radians(30.0))
        let d30 = ViewDirection(enu: o.direction(ofPixelX: u30, y: 1512, camera: Self.phone))
        #expect(abs(d30.azimuth - 100 - 49.1066) < 1e-4)
    }

    /// The map from camera to ENU is orthogonal; because the camera frame (x right, y up,
    /// z forward) is left-handed and ENU right-handed, its determinant is −1: up × right = forward.
    @Test func cameraAxesAreOrthonormalInENU() async {
        await propertyCheck(input: Gen.double(in: -720...720), Gen.double(in: -90...90), Gen.double(in: -360...360)) { h, p, r in
            let o = CameraOrientation(heading: h, pitch: p, roll: r)
            for v in [o.right, o.up, o.forward] { #expect(abs(v.length - 1) < 1e-12) }
            #expect(abs(o.right.dot(o.up)) < 1e-12 && abs(o.up.dot(o.forward)) < 1e-12 && abs(o.right.dot(o.forward)) < 1e-12)
            #expect(Self.angle(o.up.cross(o.right), o.forward) < 1e-9)
            // Roll turns about the optical axis only: the right axis stays perpendicular to it and
            // its elevation is −roll when the pitch is 0.
            let level = CameraOrientation(heading: h, pitch: 0, roll: r)
            #expect(abs(ViewDirection(enu: level.right).elevation - -degrees(asin(sin(radians(r))))) < 1e-9)
        }
    }

    /// Direction → pixel → direction, for any orientation, camera and pixel in the image.
    @Test func inverseProjectionRoundTrips() async {
        await propertyCheck(
            count: 1000,
            input: Gen.double(in: 0..<360), Gen.double(in: -90...90), Gen.double(in: -180...180),
            Gen.double(in: 20...120), Gen.double(in: 1...10), Gen.double(in: 0...1), Gen.double(in: 0...1)
        ) { h, p, r, fov, zoom, fu, fv in
            let camera = PinholeCamera(horizontalFOV: fov, zoom: zoom, imageWidth: 4000, imageHeight: 3000)
            let o = CameraOrientation(heading: h, pitch: p, roll: r)
            let u = fu * 4000, v = fv * 3000
            let d = o.direction(ofPixelX: u, y: v, camera: camera)
            #expect(abs(d.length - 1) < 1e-12)
            let back = o.pixel(of: 1234.5 * d, camera: camera)
            #expect(back != nil)
            if let back {
                #expect(abs(back.x - u) < 1e-6 && abs(back.y - v) < 1e-6, "(\(u), \(v)) → \(back)")
                #expect(camera.contains(pixelX: back.x.rounded(), y: back.y.rounded()))
            }
            // Behind the camera there is no pixel.
            #expect(o.pixel(of: -d, camera: camera) == nil)
        }
    }

    /// Readings that tap one target at different pixels, rolls and zooms, each with the
    /// orientation set so that the tapped pixel points at it, all look at the same target.
    @Test func aimingAPixelAtADirectionReproducesIt() async {
        await propertyCheck(
            count: 1000,
            input: Gen.double(in: 0..<360), Gen.double(in: -50...50), Gen.double(in: -180...180),
            Gen.double(in: 1...8), Gen.double(in: 0...1), Gen.double(in: 0...1)
        ) { azimuth, elevation, roll, zoom, fu, fv in
            let target = ViewDirection(azimuth: azimuth, elevation: elevation).enu
            let camera = PinholeCamera(horizontalFOV: 63.7, zoom: zoom, imageWidth: 4032, imageHeight: 3024)
            let u = fu * 4032, v = fv * 3024
            // No pixel's ray is more than 37.8° (the half-diagonal at zoom 1) off the optical
            // axis, and cos 37.8° = 0.79 > sin 50° = 0.77: every elevation within ±50° is
            // reachable with a pitch within ±90°.
            let o = CameraOrientation.aiming(pixelX: u, y: v, of: camera, roll: roll, at: 5 * target)
            #expect(o != nil)
            guard let o else { return }
            #expect(abs(o.pitch) <= 90 && o.roll == roll && (0..<360).contains(o.heading))
            #expect(Self.angle(o.direction(ofPixelX: u, y: v, camera: camera), target) < 1e-9)
            let seen = o.pixel(of: target, camera: camera)
            #expect(seen.map { abs($0.x - u) < 1e-6 && abs($0.y - v) < 1e-6 } == true)
        }
    }

    /// A tap at (u, v) under orientation O and, for another pixel, roll and zoom, the orientation
    /// O′ that aims that pixel the same way: both rays agree.
    @Test func twoReadingsAimedAtTheSameRayAgree() async {
        await propertyCheck(
            count: 1000,
            input: Gen.double(in: 0..<360), Gen.double(in: -12...12), Gen.double(in: -90...90),
            Gen.double(in: 0...1), Gen.double(in: 0...1), Gen.double(in: -180...180), Gen.double(in: 1...5)
        ) { h, p, r, fu, fv, r2, zoom2 in
            // Pitch within ±12° keeps the ray within ±50° of elevation (see above), which any
            // pixel can be aimed at.
            let o = CameraOrientation(heading: h, pitch: p, roll: r)
            let ray = o.direction(ofPixelX: fu * 4032, y: fv * 3024, camera: Self.phone)
            let zoomed = PinholeCamera(horizontalFOV: 63.7, zoom: zoom2, imageWidth: 4032, imageHeight: 3024)
            let u2 = (1 - fu) * 4032, v2 = fv * 3024
            guard let o2 = CameraOrientation.aiming(pixelX: u2, y: v2, of: zoomed, roll: r2, at: ray) else {
                Issue.record("no orientation aims (\(u2), \(v2)) at \(ViewDirection(enu: ray))")
                return
            }
            #expect(Self.angle(o2.direction(ofPixelX: u2, y: v2, camera: zoomed), ray) < 1e-9)
        }
    }

    /// Aiming the image centre is just pointing the optical axis: heading and pitch are the
    /// target's azimuth and elevation, for any roll.
    @Test func aimingTheCentreGivesTheTargetsAzimuthAndElevation() throws {
        for roll in [-120.0, 0, 33] {
            let o = try #require(CameraOrientation.aiming(
                pixelX: 2016, y: 1512, of: Self.phone, roll: roll,
                at: ViewDirection(azimuth: 208, elevation: 26).enu))
            #expect(abs(o.heading - 208) < 1e-9 && abs(o.pitch - 26) < 1e-9)
        }
    }

    /// The right-edge pixel is 31.85° off axis; with roll 0 it cannot be swung to the zenith by a
    /// pitch within −90…90.
    @Test func aimingRefusesUnreachableElevations() {
        let o = CameraOrientation.aiming(pixelX: 4032, y: 1512, of: Self.phone, roll: 0,
                                         at: Vector3(0, 0, 1))
        #expect(o == nil)
        // Rolled −90° (counter-clockwise) the right edge points up and the zenith is reached at
        // a pitch of 90° − 31.85°; rolled +90° it points down and would need 121.85°.
        let rolled = CameraOrientation.aiming(pixelX: 4032, y: 1512, of: Self.phone, roll: -90,
                                              at: Vector3(0, 0, 1))
        #expect(rolled != nil)
        if let rolled {
            #expect(abs(rolled.pitch - (90 - 63.7 / 2)) < 1e-9)
            #expect(Self.angle(rolled.direction(ofPixelX: 4032, y: 1512, camera: Self.phone), Vector3(0, 0, 1)) < 1e-9)
        }
        #expect(CameraOrientation.aiming(pixelX: 4032, y: 1512, of: Self.phone, roll: 90, at: Vector3(0, 0, 1)) == nil)
    }

    @Test func viewDirectionsOfTheCardinalAxes() {
        let cases: [(Vector3, Double, Double)] = [
            (Vector3(0, 1, 0), 0, 0), (Vector3(1, 0, 0), 90, 0), (Vector3(0, -1, 0), 180, 0),
            (Vector3(-1, 0, 0), 270, 0), (Vector3(1, 1, 2.squareRoot()), 45, 45), (Vector3(0, 0, -3), 0, -90),
        ]
        for (v, az, el) in cases {
            let d = ViewDirection(enu: v)
            #expect(abs(d.azimuth - az) < 1e-12 && abs(d.elevation - el) < 1e-12, "\(v)")
            #expect(Self.angle(d.enu, v) < 1e-12)
        }
    }

    @Test func cameraOfAReadingUsesItsSettings() {
        let settings = Reading.CameraSettings(horizontalFOV: 63.7, zoom: 2, imageWidth: 4032, imageHeight: 3024)
        let camera = PinholeCamera(settings)
        #expect(camera == PinholeCamera(horizontalFOV: 63.7, zoom: 2, imageWidth: 4032, imageHeight: 3024))
        // f = (W/2) / tan(hfov_eff/2) with tan(hfov_eff/2) = tan(hfov/2)/zoom.
        #expect(abs(camera.focalLength - 2016 / (tan(radians(31.85)) / 2)) < 1e-9)
        let o = CameraOrientation(heading: 0, pitch: 0)
        let tapped = o.direction(tap: Reading.Tap(x: 4032, y: 1512), camera: camera)
        #expect(abs(ViewDirection(enu: tapped).azimuth - degrees(atan(tan(radians(31.85)) / 2))) < 1e-9)
    }
}
