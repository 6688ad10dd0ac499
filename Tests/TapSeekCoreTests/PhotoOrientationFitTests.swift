import Foundation
import Testing
import TapSeekCore
import TapSeekTestSupport

/// The photo fit's judgement on skylines given in closed form, where the truth is known exactly.
struct PhotoOrientationFitTests {
    static let camera = PinholeCamera(horizontalFOV: 65, imageWidth: 800, imageHeight: 600)
    static let truth = CameraOrientation(heading: 100, pitch: 5, roll: 0)

    /// A skyline that bends gently about the view's centre: a parabola (0.8° at the edges,
    /// which a turn only lifts and tilts, as pitch and roll do) and a cubic (1.1°): turned by 1°
    /// and refitted in pitch and roll it still fits every point within the match tolerance, at
    /// about 0.03° rms; turned by 2°, at about 0.06°, it no longer does.
    static func bend(_ azimuth: Double) -> Double {
        let v = remainder(azimuth - truth.heading, 360) / 32
        return 3 + 0.8 * v * v + 1.1 * v * v * v
    }

    /// So the heading is known only to about a degree: the photo is calibrated, not refused,
    /// with its heading's 1-σ widened to half that turn and the answer marked imprecise, and
    /// the truth lies within 3 σ.
    @Test func aSkylineThatATurnStillFitsIsCalibratedWithAWidenedCovariance() throws {
        let points = SkylineTrace.pixels(camera: Self.camera, orientation: Self.truth, columns: 200) { Self.bend($0) }
        let given = CameraOrientation(heading: Self.truth.heading + 8, pitch: 0, roll: 0)
        let start = given.heading - 80
        let profile = SkylineProfile(startAzimuth: start, step: 0.05, angles: (0...3200).map { Self.bend(start + Double($0) * 0.05) })
        let fit = try PhotoOrientationFit.fit(given: given, camera: Self.camera, points: points, profile: profile,
                                              limits: .init(heading: 35, pitch: 25, roll: 10))
        let sigma = try #require(fit.calibration.covariance)[0][0].squareRoot()
        #expect(sigma >= 0.5 - 1e-9 && fit.imprecise == sigma, "heading 1-σ \(sigma)°, imprecise \(String(describing: fit.imprecise))")
        let error = abs(remainder(fit.calibration.heading - Self.truth.heading, 360))
        #expect(error <= 3 * sigma, "heading \(fit.calibration.heading)")
    }
}
