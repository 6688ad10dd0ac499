import Foundation
import Testing
import TapSeekTestSupport

/// `tapseek` loads libgdal only when a raster needs it (issue 14, point 8): on SRTM tiles alone a
/// locate never loads it; on a GeoTIFF it does. glibc's `LD_DEBUG=files` lists every shared
/// library the process loads, on stderr.
@Suite(.enabled(if: SharedData.available(SharedData.dem), "needs ../shared/dem"))
struct LazyGDALTests {
    static let reading = #"{"location":{"latitude":27.95,"longitude":86.85},"orientation":{"heading":60,"pitch":5}}"#

    static func folder(with tile: String) throws -> URL {
        let source = SharedData.dem.appendingPathComponent(tile)
        try #require(SharedData.exists(source), Comment(rawValue: SharedData.missing(source)))
        let folder = try SharedData.temporaryDirectory("lazy-gdal")
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent(tile), withDestinationURL: source)
        return folder
    }

    @Test func locateOnSRTMTilesNeverLoadsGDAL() throws {
        let folder = try Self.folder(with: "N27E086.hgt")
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try CLIRunner.run(["locate", "-", "--dem", folder.path], stdin: Self.reading, environment: ["LD_DEBUG": "files"])
        #expect(r.status == 0, "\(r.stderr.suffix(500))")
        #expect(r.stdout.contains("\"target\""), "\(r.stdout)")
        #expect(r.stderr.contains("file=libc.so"), "LD_DEBUG lists no library at all")
        #expect(!r.stderr.contains("libgdal"), "libgdal was loaded")
        #expect(!r.stderr.contains("libproj"), "libproj was loaded")
    }

    @Test func aGeoTIFFLoadsGDALWhenItIsRead() throws {
        let folder = try Self.folder(with: "N46E008.tif")
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try CLIRunner.run(["elevation", "46.5775", "8.005", "--dem", folder.path], environment: ["LD_DEBUG": "files"])
        #expect(r.status == 0, "\(r.stderr.suffix(500))")
        #expect(r.stderr.contains("libgdal"))
    }
}
