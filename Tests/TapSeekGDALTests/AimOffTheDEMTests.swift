import Foundation
import Testing
import TapSeekCore
import TapSeekGDAL
import TapSeekGeodesic
import TapSeekTestSupport

/// "Which way is Interlaken?" from the Eiger reading's observer, whose DEM (the shared tiles)
/// stops at 8° E: direction and distance need no terrain, so they are answered, checked here
/// against PROJ's geodesic and a closed-form elevation angle (issue 38: the answer was an
/// `outside-dem` error and nothing else).
@Suite(.enabled(if: SharedData.available(SharedData.dem), "needs ../shared/dem"))
struct AimOffTheDEMTests {
    /// The observer of README's Eiger reading (Kleine Scheidegg side), 2 950 m above sea level.
    static let observer = Reading(location: .init(latitude: 46.624, longitude: 8.041, altitude: 2950))
    /// Interlaken (GeoNames 2660253), on tile N46E007, which the shared data lacks.
    static let interlaken = (latitude: 46.68387, longitude: 7.86638)

    static func locator() throws -> Locator {
        try #require(SharedData.exists(SharedData.dem), Comment(rawValue: SharedData.missing(SharedData.dem)))
        return Locator(catalog: try ElevationCatalog(directory: SharedData.dem.path), geoid: try Geoid(gtxContentsOf: Geoid.defaultPath))
    }

    @Test func aTargetOffTheDEMGetsItsDirectionOverTheEllipsoidAndNoVisibility() throws {
        let locator = try Self.locator()
        let aim = locator.aim(AimRequest(observer: Self.observer,
                                         target: .position(latitude: Self.interlaken.latitude, longitude: Self.interlaken.longitude,
                                                           elevation: nil, name: "Interlaken")))
        #expect(aim.error == nil, "\(aim.error?.message ?? "")")
        #expect(aim.visible == nil && aim.blockedBy == nil)
        #expect(aim.target?.elevation == nil)
        #expect(aim.warnings.contains { $0.code == .targetOutsideDEM })

        let line = TapSeekGeodesic.Geodesic.inverse(latitude1: Self.observer.location.latitude, longitude1: Self.observer.location.longitude,
                                                    latitude2: Self.interlaken.latitude, longitude2: Self.interlaken.longitude)
        #expect(abs(aim.distance - line.distance) < 0.01, "distance \(aim.distance) m, PROJ \(line.distance) m")
        // The ray is aimed through the target, so its azimuth is the normal section's; over
        // 14 km it differs from the geodesic's by far less than a millidegree.
        #expect(abs(remainder(aim.azimuth - line.azimuth1, 360)) < 1e-3, "azimuth \(aim.azimuth)°, PROJ \(line.azimuth1)°")

        // Closed form on the sphere of the mean radius at the observer: the eye at R + h, the
        // target on the surface an angle θ = s/R away; refraction lifts the apparent angle by
        // k·θ/2. The ellipsoid's radius changes by well under 1 % over 14 km: < 0.001°.
        let phi = Self.observer.location.latitude * .pi / 180
        let a = 6_378_137.0, e2 = 0.00669437999014
        let w = 1 - e2 * sin(phi) * sin(phi)
        let radius = (a * (1 - e2) / (w * w.squareRoot()) * a / w.squareRoot()).squareRoot()
        let h = 2950 + locator.geoid.undulation(latitude: Self.observer.location.latitude, longitude: Self.observer.location.longitude)
        let theta = line.distance / radius
        let geometric = atan2(radius * cos(theta) - (radius + h), radius * sin(theta))
        let apparent = (geometric + locator.settings.refraction * theta / 2) * 180 / .pi
        #expect(abs(aim.elevationAngle - apparent) < 1e-3, "elevation angle \(aim.elevationAngle)°, closed form \(apparent)°")
    }

    /// A given elevation off the DEM is aimed at as given; whether terrain beyond the DEM hides
    /// it is still unknown (before issue 38 it was called visible).
    @Test func aTargetOffTheDEMWithItsElevationHasNoVisibilityEither() throws {
        let locator = try Self.locator()
        let aim = locator.aim(AimRequest(observer: Self.observer,
                                         target: .position(latitude: Self.interlaken.latitude, longitude: Self.interlaken.longitude,
                                                           elevation: 568, name: nil)))
        #expect(aim.error == nil && aim.visible == nil && aim.target?.elevation == 568)
        #expect(aim.elevationAngle < -5)
    }
}
