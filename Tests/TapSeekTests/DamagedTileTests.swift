import Foundation
import Testing
import TapSeek
import TapSeekTestSupport

/// A DEM file whose header reads but whose data is cut short is named as damaged wherever a
/// point falls in its footprint, never reported as "no tile" (issue 10, item 4).
@Suite(.enabled(if: SharedData.available(SharedData.dem), "needs ../shared/dem"))
struct DamagedTileTests {
    /// A copy of the Bernese GeoTIFF cut after its first 2 MB.
    static func truncatedFolder() throws -> URL {
        let source = SharedData.dem.appendingPathComponent("N46E008.tif")
        try #require(SharedData.exists(source), Comment(rawValue: SharedData.missing(source)))
        let folder = try SharedData.temporaryDirectory("damaged")
        let data = try Data(contentsOf: source)
        try data.prefix(2_000_000).write(to: folder.appendingPathComponent("N46E008.tif"))
        return folder
    }

    @Test func elevationSaysDamagedTile() throws {
        let folder = try Self.truncatedFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let service = ElevationService(catalog: try ElevationCatalog(directory: folder.path, rasterReader: .gdal), geoid: try Geoid())
        let e = try service.elevation(latitude: 46.5, longitude: 8.0)
        #expect(e.elevation == nil && e.reason == "damaged tile")
        #expect(e.detail?.hasPrefix("damaged DEM file \(folder.path)/N46E008.tif (") == true, "\(e.detail ?? "")")
        // Outside the footprint it is still plain "no tile".
        #expect(try service.elevation(latitude: 10, longitude: 10).reason == "no tile")
    }

    @Test func locateSaysTheObserverStandsInADamagedFile() throws {
        let folder = try Self.truncatedFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let locator = Locator(catalog: try ElevationCatalog(directory: folder.path, rasterReader: .gdal), geoid: try Geoid())
        let result = locator.locate(Reading(location: .init(latitude: 46.624, longitude: 8.041), orientation: .init(heading: 208, pitch: 26)))
        #expect(result.error?.code == .damagedDEM)
        #expect(result.error?.message.contains("damaged DEM file") == true, "\(result.error?.message ?? "")")
    }
}
