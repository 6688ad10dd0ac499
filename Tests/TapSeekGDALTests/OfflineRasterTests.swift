import Foundation
import Testing
import TapSeekCore
import TapSeekGDAL
import TapSeekTestSupport

/// A DEM folder cannot make TapSeek reach the network (issue 10, item 9): a VRT whose source is
/// a URL is refused before GDAL opens it, and drivers that fetch from servers are not
/// registered.
@Suite(.enabled(if: SharedData.available(SharedData.dem), "needs ../shared/dem"))
struct OfflineRasterTests {
    static func vrt(source: String, size: Int = 1201) -> String {
        """
        <VRTDataset rasterXSize="\(size)" rasterYSize="\(size)">
          <SRS>EPSG:4326</SRS>
          <GeoTransform>9.0, 0.000833333, 0, 48.0, 0, -0.000833333</GeoTransform>
          <VRTRasterBand dataType="Int16" band="1">
            <SimpleSource><SourceFilename relativeToVRT="0">\(source)</SourceFilename><SourceBand>1</SourceBand></SimpleSource>
          </VRTRasterBand>
        </VRTDataset>
        """
    }

    @Test(arguments: ["/vsicurl/", "/vsicurl?url=", "", "/VSIS3/bucket/"])
    func aVRTWithANetworkSourceIsRefusedWithoutAConnection(prefix: String) throws {
        try #require(SharedData.exists(SharedData.dem), Comment(rawValue: SharedData.missing(SharedData.dem)))
        let server = try LoopbackTileServer(directory: SharedData.dem)
        let folder = try SharedData.temporaryDirectory("offline")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: SharedData.dem.appendingPathComponent("N27E086.hgt"),
                                         to: folder.appendingPathComponent("N27E086.hgt"))
        try Self.vrt(source: prefix + server.url("N47E009.hgt")).write(to: folder.appendingPathComponent("remote.vrt"),
                                                                        atomically: true, encoding: .utf8)
        let catalog = try ElevationCatalog(directory: folder.path, rasterReader: .gdal)
        #expect(catalog.tiles.count == 1)
        #expect(catalog.warnings.count == 1)
        #expect(catalog.warnings.first?.code == .skippedFile && catalog.warnings.first?.message.contains("remote.vrt") == true
                && catalog.warnings.first?.message.contains("refers to a network source") == true,
                "\(catalog.warnings)")
        #expect(server.requests.isEmpty, "\(server.requests)")
    }

    /// A VRT over a local tile still works: only network sources are refused.
    @Test func aVRTOverALocalTileIsRead() throws {
        try #require(SharedData.exists(SharedData.dem), Comment(rawValue: SharedData.missing(SharedData.dem)))
        let folder = try SharedData.temporaryDirectory("offline-local")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.vrt(source: SharedData.dem.appendingPathComponent("N47E009.hgt").path)
            .write(to: folder.appendingPathComponent("local.vrt"), atomically: true, encoding: .utf8)
        let catalog = try ElevationCatalog(directory: folder.path, rasterReader: .gdal)
        #expect(catalog.warnings.isEmpty, "\(catalog.warnings)")
        var sampler = TerrainSampler(catalog: catalog)
        #expect(sampler.elevation(latitude: 47.25, longitude: 9.34) != nil)
    }

    /// A raster larger than the whole tile cache (200 000² posts, 149 GiB as a grid) is refused
    /// with a warning saying what to do, instead of aborting every command on allocation
    /// (issue 10, item 3); the other tiles are served.
    @Test func aRasterLargerThanTheCacheIsRefused() throws {
        try #require(SharedData.exists(SharedData.dem), Comment(rawValue: SharedData.missing(SharedData.dem)))
        let folder = try SharedData.temporaryDirectory("huge")
        defer { try? FileManager.default.removeItem(at: folder) }
        try Self.vrt(source: SharedData.dem.appendingPathComponent("N47E009.hgt").path, size: 200_000)
            .write(to: folder.appendingPathComponent("national.vrt"), atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(at: SharedData.dem.appendingPathComponent("N27E086.hgt"),
                                         to: folder.appendingPathComponent("N27E086.hgt"))
        let catalog = try ElevationCatalog(directory: folder.path, rasterReader: .gdal)
        #expect(catalog.tiles.count == 1)
        let warning = try #require(catalog.warnings.first { $0.code == .skippedFile }).message
        #expect(warning.contains("national.vrt") && warning.contains("200000×200000 posts") && warning.contains("gdal_retile.py"), "\(warning)")
        var sampler = TerrainSampler(catalog: catalog)
        #expect(sampler.elevation(latitude: 27.99, longitude: 86.93) != nil)
    }
}
