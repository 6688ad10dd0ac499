import Foundation
import Testing
import TapSeek
import TapSeekTestSupport

/// `TileFetcher` with `source: .copernicus` over a loopback server laid out as the public bucket
/// is: each tile a COG in a folder of its name.
@Suite(.enabled(if: SharedData.available(SharedData.dem), "needs ../shared/dem"))
struct CopernicusFetchTests {
    static let name = "Copernicus_DSM_COG_10_N46_00_E008_00_DEM"

    /// A folder served as the bucket, holding one tile made from the shared N46E008.tif under
    /// the name `servedAs` (that cell's name by default).
    private func bucket(servedAs served: String = Self.name) throws -> URL {
        let root = try SharedData.temporaryDirectory("copernicus-bucket")
        let folder = root.appendingPathComponent(served)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try CopernicusFixture.writeTile(to: folder.appendingPathComponent("\(served).tif"))
        return root
    }

    /// The bucket's own layout, on the loopback server.
    private func template(_ server: LoopbackTileServer) throws -> TileURLTemplate {
        let path = TileURLTemplate.copernicusGLO30.replacingOccurrences(of: "https://copernicus-dem-30m.s3.amazonaws.com/", with: "")
        #expect(path != TileURLTemplate.copernicusGLO30, "the default template names the bucket")
        return try TileURLTemplate(server.url(path))
    }

    @Test func tileArrivesUnderTheBucketsNameAndIsNotFetchedTwice() async throws {
        let served = try bucket()
        let directory = try SharedData.temporaryDirectory("copernicus-fetch")
        defer { try? FileManager.default.removeItem(at: served); try? FileManager.default.removeItem(at: directory) }
        let server = try LoopbackTileServer(directory: served)
        let fetcher = TileFetcher(directory: directory.path, template: try template(server), source: .copernicus)
        let tile = try SRTMTileName(parsing: "N46E008")
        let original = try Data(contentsOf: served.appendingPathComponent("\(Self.name)/\(Self.name).tif"))

        let result = try await fetcher.fetch(tile)
        let size = Int64(original.count)
        #expect(result == .stored(file: "\(Self.name).tif", bytes: size, transferred: size, resumedAt: 0))
        #expect(try Data(contentsOf: directory.appendingPathComponent("\(Self.name).tif")) == original)
        #expect(server.requests == ["GET /\(Self.name)/\(Self.name).tif -"])
        #expect(try await fetcher.fetch(tile) == .present(file: "\(Self.name).tif", bytes: size))
        #expect(server.requests.count == 1, "a present tile must not be requested")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["\(Self.name).tif"])

        // The catalog knows it by its name: heights above EGM2008.
        let catalog = try ElevationCatalog(directory: directory.path)
        #expect(catalog.tiles.map(\.verticalDatum) == [.egm2008])
        #expect(abs(catalog.tiles[0].north - 47) < 1e-9 && abs(catalog.tiles[0].west - 8) < 1e-9)
    }

    @Test func interruptedDownloadResumes() async throws {
        let served = try bucket()
        let directory = try SharedData.temporaryDirectory("copernicus-resume")
        defer { try? FileManager.default.removeItem(at: served); try? FileManager.default.removeItem(at: directory) }
        let server = try LoopbackTileServer(directory: served, options: ["--cut-after", "3000000"])
        let fetcher = TileFetcher(directory: directory.path, template: try template(server), source: .copernicus)
        let tile = try SRTMTileName(parsing: "N46E008")
        await #expect(throws: TileFetchError.self) { try await fetcher.fetch(tile) }
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("\(Self.name).part").path))
        guard case .stored(_, let bytes, let transferred, let resumedAt) = try await fetcher.fetch(tile) else {
            Issue.record("not stored")
            return
        }
        #expect(resumedAt == 3_000_000 && transferred == bytes - 3_000_000)
        #expect(try Data(contentsOf: directory.appendingPathComponent("\(Self.name).tif"))
                == Data(contentsOf: served.appendingPathComponent("\(Self.name)/\(Self.name).tif")))
    }

    /// A file that is not the tile asked for — another cell's, or no GeoTIFF at all — is
    /// refused with the reason and leaves nothing behind.
    @Test func wrongFilesAreRefused() async throws {
        let served = try bucket(servedAs: "Copernicus_DSM_COG_10_N47_00_E008_00_DEM")
        let srtm = served.appendingPathComponent("Copernicus_DSM_COG_10_N47_00_E009_00_DEM")
        try FileManager.default.createDirectory(at: srtm, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: SharedData.dem.appendingPathComponent("N47E009.hgt"),
                                         to: srtm.appendingPathComponent("Copernicus_DSM_COG_10_N47_00_E009_00_DEM.tif"))
        let directory = try SharedData.temporaryDirectory("copernicus-wrong")
        defer { try? FileManager.default.removeItem(at: served); try? FileManager.default.removeItem(at: directory) }
        let server = try LoopbackTileServer(directory: served)
        let fetcher = TileFetcher(directory: directory.path, template: try template(server), source: .copernicus)
        for (name, reason) in [("N47E008", "its posts span 46.00028…47.00000° latitude, 8.00000…8.99972° longitude, not the 1° of N47E008"),
                               ("N47E009", "not a GeoTIFF in EPSG:4326 that TapSeek reads")] {
            await #expect {
                try await fetcher.fetch(SRTMTileName(parsing: name))
            } throws: { error in
                let error = error as? TileFetchError
                return error?.kind == .corrupt && error?.description == "\(name): the server's file is not a Copernicus GLO-30 tile: \(reason)"
            }
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        #expect(try await fetcher.fetch(SRTMTileName(parsing: "N00W150")) == .noTile(url: server.url("Copernicus_DSM_COG_10_N00_00_W150_00_DEM/Copernicus_DSM_COG_10_N00_00_W150_00_DEM.tif")))
    }
}
