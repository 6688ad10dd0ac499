import Foundation
import Testing
import TapSeek
import TapSeekTestSupport

/// Calibration on the real tiles: for cameras of known orientation the DEM's skyline is
/// projected into the image (by bisection on each column, the skyline searched at each ray's
/// own azimuth), the reading's orientation is then perturbed as phone sensors err, and the
/// calibration must find the true orientation again — and the tap the true target.
@Suite(.enabled(if: SharedData.available(SharedData.dem), "needs ../shared/dem"), .timeLimit(.minutes(10)))
struct CalibrationTests {
    static func locator() throws -> Locator {
        try #require(SharedData.exists(SharedData.dem), Comment(rawValue: SharedData.missing(SharedData.dem)))
        return Locator(catalog: try ElevationCatalog(directory: SharedData.dem.path, rasterReader: .gdal), geoid: try Geoid())
    }

    static let camera = Reading.CameraSettings(horizontalFOV: 63.7, imageWidth: 4032, imageHeight: 3024)

    struct Scene: Sendable, CustomTestStringConvertible {
        var name: String
        var location: Reading.Location
        var truth: CameraOrientation
        /// Sensor errors: heading, pitch, roll.
        var error: (Double, Double, Double)
        var tap: Reading.Tap
        var testDescription: String { name }
    }

    // Observers (WGS84 degrees, metres above mean sea level) a few metres above the ground.
    static let scenes = [
        Scene(name: "Appenzell toward the Säntis", location: .init(latitude: 47.3306, longitude: 9.4086, altitude: 790),
              truth: CameraOrientation(heading: 222, pitch: 7, roll: 1), error: (17, -2.5, 4), tap: .init(x: 2150, y: 1500)),
        Scene(name: "Kala Patthar toward Everest", location: .init(latitude: 27.9957, longitude: 86.8285, altitude: 5650),
              truth: CameraOrientation(heading: 80, pitch: 8, roll: -2), error: (-20, 3, -5), tap: .init(x: 2400, y: 1300)),
        Scene(name: "Grindelwald toward the Eiger", location: .init(latitude: 46.6240, longitude: 8.0410, altitude: 1040),
              truth: CameraOrientation(heading: 208, pitch: 24, roll: 0), error: (-9, 1.5, -3), tap: .init(x: 2016, y: 1900)),
    ]

    /// The true skyline's pixels under the scene's true orientation, where the DEM settles it
    /// (one tile each: toward the tile's edge the skyline may lie beyond the data).
    static func trace(_ scene: Scene, locator: Locator, columns: Int = 80) throws -> [Reading.Pixel] {
        SkylineTrace.pixels(camera: PinholeCamera(camera), orientation: scene.truth, columns: columns) { azimuth in
            (try? locator.skyline(from: scene.location, azimuths: [azimuth]))?.first.flatMap { $0.complete ? $0.elevationAngle : nil }
        }
    }

    /// The DEM's skyline traced whether settled or not: what a calibration that took the DEM's
    /// edge for the skyline would have matched.
    static func unsettledTrace(_ scene: Scene, locator: Locator, columns: Int = 80) throws -> [Reading.Pixel] {
        SkylineTrace.pixels(camera: PinholeCamera(camera), orientation: scene.truth, columns: columns) { azimuth in
            (try? locator.skyline(from: scene.location, azimuths: [azimuth]))?.first?.elevationAngle
        }
    }

    static func reading(_ scene: Scene, skyline: [Reading.Pixel] = [], landmarks: [Reading.Landmark] = [],
                        error: (Double, Double, Double)? = nil) -> Reading {
        let e = error ?? scene.error
        return Reading(location: scene.location,
                       orientation: .init(heading: normalizedAzimuth(scene.truth.heading + e.0), pitch: scene.truth.pitch + e.1,
                                          roll: scene.truth.roll + e.2),
                       camera: camera, tap: scene.tap, skyline: skyline, landmarks: landmarks)
    }

    @Test(arguments: scenes)
    func aTracedSkylineRecoversTheOrientationAndTheTarget(scene: Scene) throws {
        let locator = try Self.locator()
        let pixels = try Self.trace(scene, locator: locator)
        // One tile each: the skyline is settled in a quarter to a half of the columns.
        #expect(pixels.count >= 15, "only \(pixels.count) columns show the skyline")
        let reading = Self.reading(scene, skyline: pixels)
        let fit = try locator.calibrate(reading, jobs: 2)
        #expect(abs(remainder(fit.heading - scene.truth.heading, 360)) < 0.2, "heading \(fit.heading)")
        #expect(abs(fit.pitch - scene.truth.pitch) < 0.1, "pitch \(fit.pitch)")
        #expect(abs(fit.roll - scene.truth.roll) < 0.5, "roll \(fit.roll)")
        #expect(abs(fit.correction.heading + scene.error.0) < 0.2)
        #expect(fit.matched >= pixels.count * 9 / 10)

        // The tap, located with the calibration, lands where the true orientation puts it.
        var exact = Self.reading(scene, error: (0, 0, 0))
        exact.skyline = []
        let truth = locator.locate(exact)
        let calibrated = locator.locate(reading)
        let expected = try #require(truth.target), found = try #require(calibrated.target)
        #expect(calibrated.calibration == fit)
        #expect(calibrated.status == truth.status)
        let apart = Geodesic.inverse(latitude1: expected.latitude, longitude1: expected.longitude,
                                     latitude2: found.latitude, longitude2: found.longitude).distance
        #expect(apart < max(30, 0.005 * expected.distance), "\(apart) m from the true target \(expected.distance) m away")
        // Uncalibrated, the same tap lands far off.
        var raw = reading
        raw.skyline = []
        let off = try #require(locator.locate(raw).target)
        #expect(Geodesic.inverse(latitude1: expected.latitude, longitude1: expected.longitude,
                                 latitude2: off.latitude, longitude2: off.longitude).distance > 10 * max(apart, 10))
    }

    /// A trace as an edge detector gives it: pixels jittered by 3 px, and every fifth column on
    /// the silhouette of the terrain within 2 km (a foreground ridge) instead of the skyline.
    @Test(arguments: scenes)
    func aNoisyTraceWithForegroundRidgesStillCalibrates(scene: Scene) throws {
        let locator = try Self.locator()
        let near = Panorama.Settings(layers: [2000])
        var random = SplitMix64(seed: 11)
        var pixels: [Reading.Pixel] = []
        for (i, column) in stride(from: 25.0, to: 4032, by: 50).enumerated() {
            let foreground = i % 5 == 2
            let found = SkylineTrace.pixels(camera: PinholeCamera(Self.camera), orientation: scene.truth, columns: 1,
                                            in: column...column) { azimuth in
                let point = (try? locator.skyline(from: scene.location, azimuths: [azimuth], settings: near))?.first
                let settled = point?.complete == true ? point?.elevationAngle : nil
                // Columns where the DEM does not settle the skyline are not traced at all.
                guard let settled else { return nil }
                return foreground ? (point?.layers.first ?? nil) ?? settled : settled
            }
            for p in found {
                pixels.append(.init(x: min(max(p.x + 3 * (2 * random.nextUnit() - 1), 0), 4032),
                                    y: min(max(p.y + 3 * (2 * random.nextUnit() - 1), 0), 3024)))
            }
        }
        let fit = try locator.calibrate(Self.reading(scene, skyline: pixels), jobs: 2)
        #expect(abs(remainder(fit.heading - scene.truth.heading, 360)) < 0.5, "heading \(fit.heading)")
        #expect(abs(fit.pitch - scene.truth.pitch) < 0.5, "pitch \(fit.pitch)")
        #expect(abs(fit.roll - scene.truth.roll) < 0.5, "roll \(fit.roll)")
    }

    /// After calibration the samples spread by the calibration's sigma, not the compass's 10°:
    /// the true target lies in the calibrated 95 % region, and the raw reading's region is far
    /// wider.
    @Test func uncertaintyAfterCalibrationUsesTheResidual() throws {
        let locator = try Self.locator()
        let scene = Self.scenes[2]
        var reading = Self.reading(scene, skyline: try Self.trace(scene, locator: locator, columns: 40))
        reading.orientation?.headingAccuracy = 10
        let calibrated = locator.locate(reading, uncertainty: .init(samples: 200), jobs: 2)
        let fit = try #require(calibrated.calibration)
        let u = try #require(calibrated.uncertainty)
        #expect(u.sigmas.heading == fit.sigma && u.sigmas.pitch == fit.sigma && u.sigmas.roll == fit.sigma)
        var exact = Self.reading(scene, error: (0, 0, 0))
        exact.skyline = []
        let truth = try #require(locator.locate(exact).target)
        #expect(u.region95.contains(latitude: truth.latitude, longitude: truth.longitude))
        var raw = reading
        raw.skyline = []
        let wide = try #require(locator.locate(raw, uncertainty: .init(samples: 200), jobs: 2).uncertainty)
        #expect(wide.sigmas.heading == 10)
        #expect(wide.distance.p97_5 - wide.distance.p2_5 > 3 * (u.distance.p97_5 - u.distance.p2_5))
    }

    /// The library's batch carries a calibration along a log exactly as `tapseek batch` does,
    /// whatever the chunking; turned off, only the traced reading is calibrated.
    @Test func batchLocatorCarriesCalibrations() async throws {
        let locator = try Self.locator()
        let scene = Self.scenes[0]
        let traced = Self.reading(scene, skyline: try Self.trace(scene, locator: locator, columns: 40))
        var plain = traced
        plain.skyline = []
        let readings = [plain, traced, plain, plain]
        for (carries, chunkSize) in [(true, 1), (true, 3), (false, 2)] {
            let batch = BatchLocator(locator: locator, jobs: 2, chunkSize: chunkSize, carriesCalibration: carries)
            var results: [LocateResult] = []
            let stream = AsyncStream<Reading> { continuation in
                readings.forEach { continuation.yield($0) }
                continuation.finish()
            }
            for try await r in batch.results(forReadings: stream) { results.append(r) }
            #expect(results.map(\.line) == [1, 2, 3, 4])
            #expect(results[0].calibration == nil)
            #expect(results[1].calibration?.carriedFrom == nil && results[1].calibration != nil)
            for r in results[2...] {
                #expect(r.calibration?.carriedFrom == (carries ? 2 : nil), "chunks of \(chunkSize)")
                if carries { #expect(r.target == results[1].target) }
            }
        }
    }

    /// A summit's own coordinates as a landmark, its pixel from an independent aim (the
    /// brute-force sightline's refraction), fix the heading to 0.1°.
    @Test func oneLandmarkFixesTheHeading() throws {
        let locator = try Self.locator()
        let scene = Self.scenes[0]
        let saentis = (latitude: 47.2492, longitude: 9.3433, elevation: 2502.0)
        let o = scene.location
        let eye = GeodeticPosition(latitude: o.latitude, longitude: o.longitude,
                                   height: o.altitude! + locator.geoid.undulation(latitude: o.latitude, longitude: o.longitude))
        let direction = BruteForceSightline.aim(from: eye, latitude: saentis.latitude, longitude: saentis.longitude,
                                                msl: saentis.elevation, geoid: locator.geoid, refraction: 0.13)
        let pixel = try #require(scene.truth.pixel(of: direction, camera: PinholeCamera(Self.camera)))
        let landmark = Reading.Landmark(x: pixel.x, y: pixel.y, latitude: saentis.latitude, longitude: saentis.longitude,
                                        elevation: saentis.elevation)
        let fit = try locator.calibrate(Self.reading(scene, landmarks: [landmark], error: (-12, 2, 0)))
        #expect(abs(remainder(fit.heading - scene.truth.heading, 360)) < 0.1, "heading \(fit.heading)")
        #expect(abs(fit.pitch - scene.truth.pitch) < 0.1, "pitch \(fit.pitch)")
        #expect(fit.matched == 1)
        // Without an elevation, the DEM's: the summit post is within a few metres of 2502 m.
        var unknown = landmark
        unknown.elevation = nil
        let fromDEM = try locator.calibrate(Self.reading(scene, landmarks: [unknown], error: (-12, 2, 0)))
        #expect(abs(remainder(fromDEM.heading - scene.truth.heading, 360)) < 0.1)
    }

    /// From the Säntis's summit (2 505 m) every sightline leaves the one tile while terrain
    /// beyond could still rise above what the tile shows: the DEM's skyline there is the tile's
    /// edge or a lower bound. A trace of exactly that skyline is not matched against it — the
    /// calibration is refused and says that the DEM ends.
    @Test func calibrationDoesNotMatchASkylineTheDEMDoesNotSettle() throws {
        let locator = try Self.locator()
        let scene = Scene(name: "Säntis summit toward the east", location: .init(latitude: 47.2493, longitude: 9.3433, altitude: 2505),
                          truth: CameraOrientation(heading: 62, pitch: 0, roll: 0), error: (5, 0.5, 0), tap: .init(x: 2016, y: 1512))
        let pixels = try Self.unsettledTrace(scene, locator: locator)
        #expect(pixels.count >= 40, "only \(pixels.count) columns show the DEM's skyline")
        #expect(try Self.trace(scene, locator: locator).isEmpty)
        do {
            let fit = try locator.calibrate(Self.reading(scene, skyline: pixels), jobs: 2)
            Issue.record("fitted against the DEM's edge: \(fit)")
        } catch {
            #expect(error.code == .noFit && error.message.contains("DEM does not settle the skyline"), "\(error.message)")
        }
    }

    /// A trace of Everest's skyline offered as the Säntis's is refused, not fitted.
    @Test func aTraceFromAnotherPlaceIsRefused() throws {
        let locator = try Self.locator()
        let everest = try Self.trace(Self.scenes[1], locator: locator)
        do {
            let fit = try locator.calibrate(Self.reading(Self.scenes[0], skyline: everest))
            Issue.record("fitted \(fit)")
        } catch {
            #expect(error.code == .noFit, "\(error.message)")
        }
        // Located, the reading says so and keeps its own orientation.
        let result = locator.locate(Self.reading(Self.scenes[0], skyline: everest))
        #expect(result.calibration == nil)
        #expect(result.warnings.first?.code == .calibrationRefused && result.warnings.first?.message.hasPrefix("calibration refused: ") == true, "\(result.warnings)")
    }
}
