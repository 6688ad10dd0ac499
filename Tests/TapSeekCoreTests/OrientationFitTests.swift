import Foundation
import Testing
import TapSeekCore
import TapSeekTestSupport

/// The orientation fit against skylines given in closed form: the true orientation is known,
/// the trace is found by bisection in the image, and the fit must find the orientation again.
struct OrientationFitTests {
    /// A ridge line with summits of several widths, degrees of apparent elevation by azimuth.
    static func ridge(_ azimuth: Double) -> Double {
        let a = azimuth * .pi / 180
        return 2 + 1.5 * sin(9 * a) + 0.8 * sin(23 * a + 1) + 0.3 * sin(61 * a)
    }

    static let camera = PinholeCamera(horizontalFOV: 63.7, imageWidth: 4032, imageHeight: 3024)

    /// The ridge sampled as a profile around `heading` (±80°), every 0.05°.
    static func profile(_ skyline: (Double) -> Double = ridge, around heading: Double) -> SkylineProfile {
        let start = heading - 80
        return SkylineProfile(startAzimuth: start, step: 0.05, angles: (0...3200).map { skyline(start + Double($0) * 0.05) })
    }

    static func trace(_ truth: CameraOrientation, columns: Int = 80, skyline: (Double) -> Double = ridge) -> [Reading.Pixel] {
        SkylineTrace.pixels(camera: camera, orientation: truth, columns: columns) { skyline($0) }
    }

    @Test(arguments: [(17.0, 2.0, -3.0), (-20.0, -3.0, 5.0), (8.5, 1.2, 0.7), (0.0, 0.0, 0.0), (-13.0, 2.9, -4.6)])
    func recoversAPerturbedOrientation(dHeading: Double, dPitch: Double, dRoll: Double) throws {
        let truth = CameraOrientation(heading: 208, pitch: 2, roll: 1.5)
        let pixels = Self.trace(truth)
        #expect(pixels.count > 60)
        let given = CameraOrientation(heading: truth.heading + dHeading, pitch: truth.pitch + dPitch, roll: truth.roll + dRoll)
        let fit = try OrientationFit.fit(given: given, camera: Self.camera, skyline: pixels, landmarks: [],
                                         profile: Self.profile(around: given.heading))
        #expect(abs(remainder(fit.heading - truth.heading, 360)) < 0.2, "heading \(fit.heading)")
        #expect(abs(fit.pitch - truth.pitch) < 0.1, "pitch \(fit.pitch)")
        #expect(abs(fit.roll - truth.roll) < 0.5, "roll \(fit.roll)")
        #expect(abs(fit.correction.heading - remainder(truth.heading - given.heading, 360)) < 0.2)
        #expect(fit.matched == pixels.count)
        #expect(fit.residual < 0.05)
        #expect(fit.warnings.isEmpty)
    }

    /// Pixels jittered by 3 px and a fifth of them on a foreground ridge below the skyline.
    @Test func noisyTraceWithForegroundPointsStillCalibrates() throws {
        let truth = CameraOrientation(heading: 95, pitch: 1, roll: -2)
        var random = SplitMix64(seed: 7)
        var pixels = Self.trace(truth, columns: 120)
        for i in pixels.indices {
            pixels[i].x = min(max(pixels[i].x + 3 * (2 * random.nextUnit() - 1), 0), Self.camera.imageWidth)
            pixels[i].y = min(max(pixels[i].y + 3 * (2 * random.nextUnit() - 1), 0), Self.camera.imageHeight)
            if i % 5 == 2 { pixels[i].y = min(pixels[i].y + 40 + 150 * random.nextUnit(), Self.camera.imageHeight) }
        }
        let given = CameraOrientation(heading: 95 - 12, pitch: 1 + 2.5, roll: -2 + 4)
        let fit = try OrientationFit.fit(given: given, camera: Self.camera, skyline: pixels, landmarks: [],
                                         profile: Self.profile(around: given.heading))
        #expect(abs(remainder(fit.heading - truth.heading, 360)) < 0.5)
        #expect(abs(fit.pitch - truth.pitch) < 0.5)
        #expect(abs(fit.roll - truth.roll) < 0.5)
        #expect(fit.matched >= pixels.count * 3 / 4)
    }

    /// One landmark fixes heading and pitch (roll as given); two also fix the roll.
    @Test func landmarksAloneCalibrate() throws {
        let truth = CameraOrientation(heading: 31, pitch: 4, roll: 2)
        func landmark(_ x: Double, _ y: Double) -> OrientationFit.Landmark {
            .init(pixel: .init(x: x, y: y), direction: ViewDirection(enu: truth.direction(ofPixelX: x, y: y, camera: Self.camera)))
        }
        let one = try OrientationFit.fit(given: CameraOrientation(heading: 40, pitch: 2, roll: 2), camera: Self.camera, skyline: [],
                                         landmarks: [landmark(2600, 1100)], profile: nil)
        #expect(abs(one.heading - 31) < 0.1, "heading \(one.heading)")
        #expect(abs(one.pitch - 4) < 0.1)
        #expect(one.roll == 2)
        #expect(one.warnings == [Warning(.rollKept, "roll kept as given: one landmark cannot fix it")])
        let two = try OrientationFit.fit(given: CameraOrientation(heading: 22, pitch: 6, roll: -1), camera: Self.camera, skyline: [],
                                         landmarks: [landmark(600, 1300), landmark(3500, 900)], profile: nil)
        #expect(abs(two.heading - 31) < 0.1, "heading \(two.heading)")
        #expect(abs(two.pitch - 4) < 0.1)
        #expect(abs(two.roll - 2) < 0.1)
        #expect(two.matched == 2)
        #expect(two.residual < 0.01)
    }

    @Test func hostileTracesAreRefusedClearly() throws {
        let given = CameraOrientation(heading: 208, pitch: 2, roll: 0)
        func refusal(_ pixels: [Reading.Pixel], _ landmarks: [OrientationFit.Landmark] = [],
                     profile: SkylineProfile? = OrientationFitTests.profile(around: 208)) -> CalibrationError? {
            do {
                _ = try OrientationFit.fit(given: given, camera: Self.camera, skyline: pixels, landmarks: landmarks, profile: profile)
                return nil
            } catch { return error }
        }
        #expect(refusal([])?.message == "skyline and landmarks are both empty: nothing to calibrate against")
        #expect(refusal([.init(x: 100, y: 100)])?.message == "a skyline trace needs at least 3 points, got 1")
        let outside = [Reading.Pixel(x: 10, y: 10), .init(x: 20, y: 20), .init(x: 5000, y: 20)]
        #expect(refusal(outside)?.message == "skyline[2] (5000.0, 20.0) lies outside the 4032×3024 image")
        let nan = [Reading.Pixel(x: 10, y: 10), .init(x: .nan, y: 20), .init(x: 30, y: 20)]
        #expect(refusal(nan)?.message.hasPrefix("skyline[1] must be a finite pixel") == true)
        // A trace of another skyline fits this one nowhere.
        let elsewhere = Self.trace(given, skyline: { 3 + 2 * sin(5 * $0 * .pi / 180 + 2) + 0.7 * sin(17 * $0 * .pi / 180) })
        #expect(elsewhere.count > 40)
        let wrong = try #require(refusal(elsewhere))
        #expect(wrong.code == .noFit, "\(wrong.message)")
        // A flat horizon (the sea) cannot fix a heading.
        let flat = SkylineProfile(startAzimuth: 120, step: 0.05, angles: [Double](repeating: 0.5, count: 3200))
        let sea = Self.trace(given, skyline: { _ in 0.5 })
        let featureless = try #require(refusal(sea, profile: flat))
        #expect(featureless.message.contains("ill-determined"), "\(featureless.message)")
    }

    /// A skyline of two identical summits 10° apart, and a trace narrow enough to show one:
    /// both headings fit, and the answer says so.
    @Test func aTraceThatFitsTwoHeadingsIsAmbiguous() throws {
        func twin(_ azimuth: Double) -> Double {
            let a = (azimuth - 200).truncatingRemainder(dividingBy: 10)
            let x = a < 0 ? a + 10 : a
            return 2 + 2 * exp(-(x - 5) * (x - 5) / 2)
        }
        let narrow = PinholeCamera(horizontalFOV: 8, zoom: 1, imageWidth: 1000, imageHeight: 750)
        let truth = CameraOrientation(heading: 215, pitch: 3, roll: 0)
        let pixels = SkylineTrace.pixels(camera: narrow, orientation: truth, columns: 50) { twin($0) }
        let given = CameraOrientation(heading: 213, pitch: 3, roll: 0)
        let start = given.heading - 80
        let profile = SkylineProfile(startAzimuth: start, step: 0.05, angles: (0...3200).map { twin(start + Double($0) * 0.05) })
        let fit = try OrientationFit.fit(given: given, camera: narrow, skyline: pixels, landmarks: [], profile: profile)
        #expect(fit.warnings.contains { $0.code == .ambiguousCalibration && $0.message.hasPrefix("ambiguous: headings") }, "\(fit.warnings)")
    }
}
