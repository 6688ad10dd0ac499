import Foundation
import Testing
import TapSeekCore
import TapSeekTestSupport

/// A GeoTIFF too large to read whole is read window by window, each window decoding only its
/// own blocks: every window holds exactly the posts of the whole file there, and a catalog that
/// reads by windows answers as one that reads the file whole (to rounding: a window counts its
/// posts from its own corner).
@Suite(.enabled(if: SharedData.available(SharedData.dem), "needs ../shared/dem"))
struct GeoTIFFWindowTests {
    /// A 1° tile of 3 600 × 3 600 Float32 posts in 1 024² blocks (made by `gdal_translate`).
    static let cop: URL = {
        let folder = try! SharedData.temporaryDirectory("geotiff-windows")
        let file = folder.appendingPathComponent("Copernicus_DSM_COG_10_N46_00_E008_00_DEM.tif")
        try! CopernicusFixture.writeTile(to: file)
        return file
    }()

    private func expectWindowsMatch(_ path: String, _ windows: [DEMTile.Window], _ label: String) throws {
        let whole = try GeoTIFFTile.readGrid(path: path)
        for w in windows {
            let part = try GeoTIFFTile.readGrid(path: path, window: w)
            #expect(part.rows == w.rows && part.columns == w.columns, "\(label) \(w)")
            #expect(part.north == whole.north - Double(w.row) * whole.latitudeSpacing
                    && part.west == whole.west + Double(w.column) * whole.longitudeSpacing, "\(label) \(w): corner")
            var differing = 0
            for r in 0..<w.rows {
                for c in 0..<w.columns {
                    let a = part.heights[r * w.columns + c], b = whole.heights[(w.row + r) * whole.columns + w.column + c]
                    if a.bitPattern != b.bitPattern { differing += 1 }
                }
            }
            #expect(differing == 0, "\(label) \(w): \(differing) posts differ")
        }
    }

    @Test func windowsOfATiledFileHoldItsPosts() throws {
        let path = Self.cop.path
        let tile = try #require(try GeoTIFFTile.describe(path: path))
        let shape = try GeoTIFFTile.windowShape(path: path)
        #expect(shape.rows == 2048 && shape.columns == 2048)
        let windows = tile.windows(rows: shape.rows, columns: shape.columns)
        #expect(windows.count == 4 && windows.last == DEMTile.Window(row: 2048, column: 2048, rows: 1552, columns: 1552))
        try expectWindowsMatch(path, windows + [DEMTile.Window(row: 1024, column: 0, rows: 1024, columns: 3600)], "COG")
    }

    @Test func windowsOfAStripedFileSpanItsWidth() throws {
        let source = SharedData.dem.appendingPathComponent("N46E008.tif")
        let folder = try SharedData.temporaryDirectory("geotiff-strips")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("strips.tif").path
        try SharedData.run("gdal_translate", ["-q", "-co", "COMPRESS=DEFLATE", "-co", "BLOCKYSIZE=7", source.path, path])
        let tile = try #require(try GeoTIFFTile.describe(path: path))
        let shape = try GeoTIFFTile.windowShape(path: path)
        #expect(shape.columns >= tile.columns && shape.rows % 7 == 0)
        try expectWindowsMatch(path, [DEMTile.Window(row: 0, column: 0, rows: 700, columns: tile.columns),
                                      DEMTile.Window(row: 700, column: 0, rows: tile.rows - 700, columns: tile.columns)], "strips")
        // A window that cuts blocks is refused, naming it.
        #expect { try GeoTIFFTile.readGrid(path: path, window: DEMTile.Window(row: 3, column: 0, rows: 7, columns: tile.columns)) } throws: { error in
            "\(error)".contains("has no window of 7 × \(tile.columns) posts at row 3")
        }
    }

    /// The catalog forced to read by windows gives every height the whole-file catalog gives,
    /// near the windows' seams too, and reads only the windows it is asked about.
    @Test func catalogByWindowsAnswersAsTheWholeFile() throws {
        let directory = Self.cop.deletingLastPathComponent().path
        let whole = try ElevationCatalog(directory: directory, fillsVoids: false)
        let windowed = try ElevationCatalog(directory: directory, windowedAbove: 1, fillsVoids: false)
        #expect(whole.tiles.count == 1 && windowed.tiles.count == 4)
        var a = TerrainSampler(catalog: whole), b = TerrainSampler(catalog: windowed)
        _ = b.sample(latitude: 46.9, longitude: 8.1)
        #expect(windowed.cachedBytes > 0 && windowed.cachedBytes < whole.tiles[0].gridByteCount / 2, "one window read, not the file")
        var generator = SplitMix64(seed: 30)
        let seam = 47 - 2048.0 / 3600, seamEast = 8 + 2048.0 / 3600
        for k in 0..<3000 {
            var latitude = 46 + generator.nextUnit(), longitude = 8 + generator.nextUnit()
            if k % 3 == 0 { latitude = seam + (generator.nextUnit() - 0.5) / 1800 }
            if k % 3 == 1 { longitude = seamEast + (generator.nextUnit() - 0.5) / 1800 }
            let x = a.sample(latitude: latitude, longitude: longitude), y = b.sample(latitude: latitude, longitude: longitude)
            if case .height(let p) = x, case .height(let q) = y {
                #expect(abs(p - q) < 1e-6, "at \(latitude), \(longitude)")
            } else {
                #expect(x == y, "at \(latitude), \(longitude): \(x) vs \(y)")
            }
        }
    }
}
