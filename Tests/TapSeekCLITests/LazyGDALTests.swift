import Foundation
import Testing
import TapSeekTestSupport

/// `tapseek` loads libgdal only when a raster needs it (issue 14, point 8; issue 30): on SRTM
/// tiles and GeoTIFFs in EPSG:4326 — the default DEM among them — a locate never loads it; on a
/// projected GeoTIFF it does. glibc's `LD_DEBUG=files` (and `libs`) list every shared library the
/// process loads, on stderr.
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

    /// README's main command, as written: the default DEM is a GeoTIFF in EPSG:4326.
    @Test func readmeLocateOnTheDefaultGeoTIFFNeverLoadsGDAL() throws {
        let example = CLIRunner.packageRoot.appendingPathComponent("examples/cross-mountain.json")
        let dem = CLIRunner.packageRoot.appendingPathComponent("dem/jacksboro.tif")
        try #require(FileManager.default.fileExists(atPath: dem.path), "the default DEM is missing: run scripts/setup.sh")
        let r = try CLIRunner.run(["locate", example.path, "--dem", dem.deletingLastPathComponent().path], environment: ["LD_DEBUG": "libs"])
        #expect(r.status == 0, "\(r.stderr.suffix(500))")
        #expect(r.stdout.contains("\"status\":\"hit\""), "\(r.stdout)")
        #expect(r.stderr.contains("libc.so"), "LD_DEBUG lists no library at all")
        #expect(!r.stderr.contains("libgdal"), "libgdal was loaded")
    }

    /// `dem info` over the shared GeoTIFFs in EPSG:4326 reads every post without GDAL.
    @Test func demInfoOnGeographicGeoTIFFsNeverLoadsGDAL() throws {
        let folder = try Self.folder(with: "N46E008.tif")
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["N43E006.tiff", "n31_e035_3arc_v2.tif"] {
            try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent(name),
                                                       withDestinationURL: SharedData.dem.appendingPathComponent(name))
        }
        let r = try CLIRunner.run(["dem", "info", folder.path], environment: ["LD_DEBUG": "files"])
        #expect(r.status == 0, "\(r.stderr.suffix(500))")
        #expect(r.stdout.components(separatedBy: "GTiff").count == 4, "\(r.stdout)")
        #expect(!r.stderr.contains("libgdal"), "libgdal was loaded")
        let e = try CLIRunner.run(["elevation", "46.5775", "8.005", "--dem", folder.path], environment: ["LD_DEBUG": "files"])
        #expect(e.status == 0 && e.stdout.contains("elevation"), "\(e.stdout) \(e.stderr.suffix(300))")
        #expect(!e.stderr.contains("libgdal"), "libgdal was loaded")
    }

    /// A projected GeoTIFF still reads, through GDAL, loaded then.
    @Test func aProjectedGeoTIFFLoadsGDALWhenItIsRead() throws {
        let folder = try Self.folder(with: "N43E006_3857.tiff")
        defer { try? FileManager.default.removeItem(at: folder) }
        let r = try CLIRunner.run(["elevation", "43.5", "6.5", "--dem", folder.path], environment: ["LD_DEBUG": "files"])
        #expect(r.status == 0, "\(r.stderr.suffix(500))")
        #expect(r.stdout.contains("\"elevation\":"), "\(r.stdout)")
        #expect(r.stderr.contains("libgdal"))
    }
}
