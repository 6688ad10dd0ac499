import Foundation
import Testing
@testable import TapSeekCore

/// The tangents that the points of a sightline show, as a viewshed's level rays measure
/// tangents, against `Viewshed.sightlineSpread`: computed here in closed form on a sphere, in
/// the vertical plane through the eye, the target and the centre, where the sightline stays.
struct ViewshedSpreadTests {
    static let radius = 6_371_000.0

    /// The eye `eyeHeight` metres over the sphere, the target `distance` metres of arc away and
    /// `targetHeight` metres up, refraction k: the target's own tangent t, the aimed elevation
    /// tangent T, and the lowest and highest tangents of the sightline's points up to where the
    /// viewshed stops walking it (`tolerance` short of the target, as `TargetSight` does).
    static func tangents(eyeHeight h0: Double, distance: Double, targetHeight h: Double, k: Double)
        -> (t: Double, elevation: Double, x: Double, lowest: Double, highest: Double) {
        let r = radius, r0 = r + h0, c = (1 - k) / (2 * r)
        // Points by (horizontal, up) in the eye's frame: the centre at (0, −r0).
        func point(height: Double, angle: Double) -> (x: Double, z: Double) {
            ((r + height) * sin(angle), (r + height) * cos(angle) - r0)
        }
        // A level ray has run r0·tan β over the ground an angle β from the eye.
        func tangent(height: Double, angle: Double) -> Double {
            let d = r0 * tan(angle)
            return (height - h0 - c * d * d) / d
        }
        let angle = distance / (r + h)
        let target = point(height: h, angle: angle)
        // The cell's own tangent as the viewshed takes it (from the target's horizontal
        // distance and height, not from the level ray over it).
        let t = Viewshed.tangent(x: target.x, height: h, eyeHeight: h0, radius: r, curvature: c).tangent
        // Aimed above the target by refraction's drop k·x²/(2R), along the target's vertical.
        var lifted = target
        for _ in 0..<3 { lifted = point(height: h + k * lifted.x * lifted.x / (2 * r), angle: angle) }
        let reach = (lifted.x * lifted.x + lifted.z * lifted.z).squareRoot()
        let ux = lifted.x / reach, uz = lifted.z / reach
        let cut = reach - max(30, 0.005 * (target.x * target.x + target.z * target.z).squareRoot())
        var lowest = Double.infinity, highest = -Double.infinity
        // Evenly along the line, and ever nearer the eye down to a millimetre (where τ tends to T).
        let steps = 4000
        let distances = (1...steps).map { cut * Double($0) / Double(steps) } + (0..<120).map { cut * pow(10, -Double($0) / 20) }
        for s in distances {
            let px = s * ux, pz = s * uz + r0
            let beta = atan2(px, pz)
            // Refraction lowers the line along the vertical by k·x²/(2R) at horizontal distance x.
            let height = (px * px + pz * pz).squareRoot() - r - k * px * px / (2 * r)
            // The level rays leave out terrain nearer than half a metre (SkylineSearch.nearest).
            guard r0 * tan(beta) >= SkylineSearch.nearest else { continue }
            let tau = tangent(height: height, angle: beta)
            lowest = min(lowest, tau)
            highest = max(highest, tau)
        }
        return (t, lifted.z / lifted.x, target.x, lowest, highest)
    }

    @Test func aSightlinesPointsShowTangentsFromItsElevationsToItsOwnWithinTheSpread() {
        var worst = 0.0, cases = 0
        for eye in [-430.0, 0, 500, 3000, 8848] {
            for distance in [150.0, 400, 1000, 3000, 10_000, 30_000, 100_000, 300_000, 400_000] {
                for rise in [-8800.0, -5000, -3000, -1000, -300, -30, 0, 30, 300, 1000, 3000, 8000] {
                    let target = eye + rise
                    guard target >= -420, target <= 8900 else { continue }
                    for k in [-1.0, -0.5, 0, 0.13, 0.5, 1] {
                        let found = Self.tangents(eyeHeight: eye, distance: distance, targetHeight: target, k: k)
                        // With the sweep's curvature margin for the heights, 4·10⁻¹⁰ a metre.
                        let spread = Viewshed.sightlineSpread(elevation: found.elevation, x: found.x, rise: rise,
                                                              radius: Self.radius, refraction: k) + 4e-10 * found.x
                        // Beyond the span from min(t, T) to t, by how much (10⁻⁷ is this arithmetic's
                        // own rounding: heights of 6.4·10⁶ m radii differenced half a metre from the eye).
                        let below = min(found.t, found.elevation) - found.lowest, above = found.highest - found.t
                        let stray = max(below, above, 0)
                        #expect(stray <= 0.5 * spread + 1e-7,
                                "eye \(eye) m, \(distance) m away, \(rise) m up, k \(k): strays \(stray), spread \(spread)")
                        if spread > 1e-6 { worst = max(worst, stray / spread) }
                        cases += 1
                    }
                }
            }
        }
        print("sightline spread: \(cases) sightlines, the largest stray \(worst) of the spread")
        #expect(cases > 1000)
    }

    /// Why the spread matters: 5 km below an eye 1 500 m up, the line leaves the eye at a
    /// tangent 7·10⁻⁵ below the cell's own, more than the 2·10⁻⁵ a viewshed's bounds allowed
    /// for everything else; terrain grazing the line near the eye shows a tangent that low.
    @Test func aSteepSightlineLeavesTheEyeWellBelowItsOwnTangent() {
        let found = Self.tangents(eyeHeight: 1500, distance: 5000, targetHeight: 0, k: MarchSettings.defaultRefraction)
        #expect(found.t - found.elevation > 5e-5 && found.t - found.elevation < 1e-4)
        #expect(found.lowest < found.t - 5e-5)
        // Closed form to first order: (x/R)·T².
        #expect(abs((found.t - found.elevation) - found.x / Self.radius * found.elevation * found.elevation) < 2e-6)
    }
}
