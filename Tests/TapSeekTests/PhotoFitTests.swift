import Foundation
import Testing
import TapSeek
import TapSeekTestSupport

/// Photos rendered over the real tiles with a known orientation: the skyline found in their
/// pixels, fitted to the DEM's, must give that orientation back — or be refused — and a tap on a
/// summit's pixel must land on the summit.
@Suite(.enabled(if: SharedData.available(SharedData.dem), "needs ../shared/dem"), .timeLimit(.minutes(5)))
struct PhotoFitTests {
    static func locator() throws -> Locator {
        try #require(SharedData.exists(SharedData.dem), Comment(rawValue: SharedData.missing(SharedData.dem)))
        return Locator(catalog: try ElevationCatalog(directory: SharedData.dem.path), geoid: try Geoid())
    }

    /// A 26 mm-equivalent phone camera, 4:3, rendered small.
    static let camera = PinholeCamera(horizontalFOV: FieldOfView.horizontal(focalLengthIn35mmFilm: 26, width: 800, height: 600),
                                      imageWidth: 800, imageHeight: 600)

    struct Scene: Sendable, CustomTestStringConvertible {
        var name: String
        var location: Reading.Location
        var truth: CameraOrientation
        /// The compass's error, degrees.
        var compassError: Double
        var testDescription: String { name }
    }

    static let kalaPatthar = Reading.Location(latitude: 27.9957, longitude: 86.8285, altitude: 5650)
    static let everest = (latitude: 27.98806, longitude: 86.92528, elevation: 8848.86)

    static let clear = [
        Scene(name: "Kala Patthar toward Everest", location: kalaPatthar, truth: CameraOrientation(heading: 84, pitch: 9, roll: -2), compassError: 14),
        Scene(name: "Kala Patthar toward Pumori", location: kalaPatthar, truth: CameraOrientation(heading: 330, pitch: 14, roll: 3), compassError: -8),
    ]

    static func metadata(_ scene: Scene, heading: Double?) -> PhotoMetadata {
        var m = try! PhotoMetadata(bytes: ArraySlice(PhotoFixtures.minimalJPEG(width: 800, height: 600)))
        m.latitude = scene.location.latitude
        m.longitude = scene.location.longitude
        m.altitude = scene.location.altitude
        m.altitudeSource = .exif
        m.horizontalFOV = camera.horizontalFOV
        if let heading {
            m.heading = heading
            m.headingReference = .true
            m.headingSource = .exif
        }
        return m
    }

    @Test(arguments: clear)
    func aClearPhotoGivesBackItsOrientation(scene: Scene) throws {
        let locator = try Self.locator()
        let image = try PhotoRenderer(location: scene.location, orientation: scene.truth, camera: Self.camera).render(locator: locator)
        let result = locator.photo(Self.metadata(scene, heading: normalizedAzimuth(scene.truth.heading + scene.compassError)), pixels: image)
        #expect(result.status == .calibrated, "\(result.warnings)")
        let c = try #require(result.calibration)
        #expect(abs(remainder(c.heading - scene.truth.heading, 360)) < 0.2, "heading \(c.heading) vs \(scene.truth.heading)")
        #expect(abs(c.pitch - scene.truth.pitch) < 0.2, "pitch \(c.pitch) vs \(scene.truth.pitch)")
        #expect(abs(c.roll - scene.truth.roll) < 0.5, "roll \(c.roll) vs \(scene.truth.roll)")
        #expect((result.skyline?.coverage ?? 0) > 0.8)
    }
}
