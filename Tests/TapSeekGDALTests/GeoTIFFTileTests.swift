import Foundation
import Testing
import TapSeekCore
import TapSeekGDAL
import TapSeekTestSupport

/// The pure-Swift GeoTIFF reader gives exactly what GDAL gives — the same lattice to the last
/// bit and the same value at every post — on every shared GeoTIFF in EPSG:4326, on the default
/// DEM, and on files GDAL writes in every layout the reader claims; it leaves every other
/// GeoTIFF to GDAL.
@Suite(.enabled(if: SharedData.available(SharedData.dem), "needs ../shared/dem"))
struct GeoTIFFTileTests {
    /// The shared GeoTIFFs in EPSG:4326 (the README of ../shared/dem lists them) and the default DEM.
    static let geographicFiles = ["N43E006.tiff", "N46E008.tif", "n31_e035_3arc_v2.tif"]
    static let projectedFiles = ["N43E006_3857.tiff"]
    static let defaultDEM = SharedData.projectRoot.appendingPathComponent("dem/jacksboro.tif")

    /// Reads `path` both ways and expects the same tile description and the same grid.
    static func expectSameAsGDAL(_ path: String, _ label: String) throws {
        let pure = try #require(try GeoTIFFTile.describe(path: path), "\(label): the pure reader declines it")
        let gdal = try GDALRasterReader().describe(path: path)
        #expect(pure.north.bitPattern == gdal.north.bitPattern && pure.west.bitPattern == gdal.west.bitPattern,
                "\(label): corner \(pure.north), \(pure.west) vs \(gdal.north), \(gdal.west)")
        #expect(pure.latitudeSpacing.bitPattern == gdal.latitudeSpacing.bitPattern
                && pure.longitudeSpacing.bitPattern == gdal.longitudeSpacing.bitPattern, "\(label): spacing")
        #expect(pure.rows == gdal.rows && pure.columns == gdal.columns && pure.driver == gdal.driver, "\(label): shape")
        PureTerrainReaderTests.expectIdentical(try GeoTIFFTile.readGrid(path: path), try ElevationGrid(contentsOf: path), label)
    }

    @Test(arguments: geographicFiles)
    func sharedGeoTIFFReadsTheSamePostsAsGDAL(name: String) throws {
        let url = SharedData.dem.appendingPathComponent(name)
        try #require(SharedData.exists(url), Comment(rawValue: SharedData.missing(url)))
        try Self.expectSameAsGDAL(url.path, name)
    }

    @Test func defaultDEMReadsTheSamePostsAsGDAL() throws {
        try #require(SharedData.exists(Self.defaultDEM), "the default DEM is missing: run scripts/setup.sh")
        try Self.expectSameAsGDAL(Self.defaultDEM.path, "dem/jacksboro.tif")
    }

    /// No GeoTIFF of the shared data is left out of the comparison above.
    @Test func everySharedGeoTIFFIsCompared() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: SharedData.dem.path)
            .filter { $0.lowercased().hasSuffix(".tif") || $0.lowercased().hasSuffix(".tiff") }.sorted()
        #expect(names == (Self.geographicFiles + Self.projectedFiles).sorted())
    }

    /// A projected GeoTIFF is left to GDAL, which still reads it (reprojected) in a catalog.
    @Test func projectedGeoTIFFIsLeftToGDAL() throws {
        let url = SharedData.dem.appendingPathComponent("N43E006_3857.tiff")
        try #require(SharedData.exists(url), Comment(rawValue: SharedData.missing(url)))
        #expect(try GeoTIFFTile.describe(path: url.path) == nil)
        #expect { try GeoTIFFTile.readGrid(path: url.path) } throws: { error in
            "\(error)".hasPrefix(url.path + ": ") && "\(error)".contains("read it with GDAL")
        }
        let folder = try SharedData.temporaryDirectory("projected")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent(url.lastPathComponent), withDestinationURL: url)
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("N46E008.tif"),
                                                   withDestinationURL: SharedData.dem.appendingPathComponent("N46E008.tif"))
        let catalog = try ElevationCatalog(directory: folder.path, rasterReader: .gdal)
        #expect(catalog.tiles.map(\.isProjected) == [true, false])
        #expect(catalog.grid(tile: 0) != nil && catalog.grid(tile: 1) != nil)
        let bare = try ElevationCatalog(directory: folder.path)
        #expect(bare.tiles.map(\.path) == [folder.appendingPathComponent("N46E008.tif").path])
        #expect(bare.warnings.count == 1)
    }

    /// GDAL's PAM file beside a GeoTIFF: TapSeek's GDAL ignores it (`GDAL_PAM_ENABLED=NO`, so that
    /// reading a shared tile never writes beside it), and so does the pure reader.
    @Test func auxiliaryFileIsIgnoredByBothReaders() throws {
        let source = SharedData.dem.appendingPathComponent("N46E008.tif")
        try #require(SharedData.exists(source), Comment(rawValue: SharedData.missing(source)))
        let folder = try SharedData.temporaryDirectory("geotiff-aux")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("N46E008.tif").path
        try FileManager.default.copyItem(atPath: source.path, toPath: file)
        try Data("<PAMDataset><GeoTransform>8, 0.001, 0, 47, 0, -0.001</GeoTransform></PAMDataset>".utf8)
            .write(to: URL(fileURLWithPath: file + ".aux.xml"))
        try Self.expectSameAsGDAL(file, "with a geotransform in .aux.xml")
    }

    /// A GeoTIFF the pure reader finds malformed but libtiff reads (no strip byte counts: libtiff
    /// works them out) goes to GDAL when the catalog has it, and is skipped with the pure
    /// reader's one-line reason when it has not.
    @Test func geoTIFFThePureReaderRefusesFallsBackToGDAL() throws {
        let folder = try SharedData.temporaryDirectory("geotiff-fallback")
        defer { try? FileManager.default.removeItem(at: folder) }
        var file = TIFFBuilder.int16(columns: 3, rows: 2, data: [1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0])
        file.entries.removeAll { $0.tag == 279 }
        file.set(.long(273, [file.dataStart]))
        let path = folder.appendingPathComponent("no-byte-counts.tif").path
        try Data(file.bytes(keepOffsets: true)).write(to: URL(fileURLWithPath: path))
        #expect(throws: TerrainFileError.self) { try GeoTIFFTile.describe(path: path) }
        let withGDAL = try ElevationCatalog(directory: folder.path, rasterReader: .gdal)
        #expect(withGDAL.warnings.isEmpty)
        #expect(withGDAL.grid(tile: 0)?.heights == [1, 2, 3, 4, 5, 6])
        #expect(throws: CatalogError.self) { try ElevationCatalog(directory: folder.path) }
    }

    /// Files GDAL writes in every layout the reader claims, from a real tile: compressions,
    /// predictors, sample types, strips and tiles, BigTIFF, big-endian, COG, pixel-is-point.
    static let layouts: [(name: String, options: [String])] = [
        ("cog-deflate-predictor3-float32", ["-of", "COG", "-ot", "Float32", "-co", "COMPRESS=DEFLATE", "-co", "PREDICTOR=3", "-co", "BLOCKSIZE=256"]),
        ("cog-lzw-predictor2-int16", ["-of", "COG", "-co", "COMPRESS=LZW", "-co", "PREDICTOR=2"]),
        ("striped-lzw-predictor2-int16", ["-co", "COMPRESS=LZW", "-co", "PREDICTOR=2"]),
        ("tiled-lzw-int16", ["-co", "COMPRESS=LZW", "-co", "TILED=YES", "-co", "BLOCKXSIZE=128", "-co", "BLOCKYSIZE=64"]),
        ("striped-packbits-int16", ["-co", "COMPRESS=PACKBITS"]),
        ("tiled-packbits-uint16", ["-ot", "UInt16", "-co", "COMPRESS=PACKBITS", "-co", "TILED=YES"]),
        ("striped-deflate-predictor2-int32", ["-ot", "Int32", "-co", "COMPRESS=DEFLATE", "-co", "PREDICTOR=2"]),
        ("tiled-deflate-predictor2-float64", ["-ot", "Float64", "-co", "COMPRESS=DEFLATE", "-co", "PREDICTOR=2", "-co", "TILED=YES"]),
        ("tiled-deflate-predictor3-float64", ["-ot", "Float64", "-co", "COMPRESS=DEFLATE", "-co", "PREDICTOR=3", "-co", "TILED=YES"]),
        ("striped-lzw-predictor3-float32", ["-ot", "Float32", "-co", "COMPRESS=LZW", "-co", "PREDICTOR=3", "-co", "BLOCKYSIZE=7"]),
        ("uncompressed-one-strip-float32", ["-ot", "Float32", "-co", "BLOCKYSIZE=5000"]),
        ("bigtiff-tiled-deflate-int16", ["-co", "BIGTIFF=YES", "-co", "TILED=YES", "-co", "COMPRESS=DEFLATE"]),
        ("bigtiff-striped-uncompressed-int16", ["-co", "BIGTIFF=YES"]),
        ("big-endian-lzw-predictor2-int16", ["-co", "ENDIANNESS=BIG", "-co", "COMPRESS=LZW", "-co", "PREDICTOR=2"]),
        ("big-endian-deflate-predictor3-float32", ["-ot", "Float32", "-co", "ENDIANNESS=BIG", "-co", "COMPRESS=DEFLATE", "-co", "PREDICTOR=3", "-co", "TILED=YES"]),
        ("big-endian-uncompressed-float64", ["-ot", "Float64", "-co", "ENDIANNESS=BIG"]),
        ("pixel-is-area-deflate-int16", ["-mo", "AREA_OR_POINT=Area", "-co", "COMPRESS=DEFLATE"]),
        ("pixel-is-point-lzw-float32", ["-ot", "Float32", "-mo", "AREA_OR_POINT=Point", "-co", "COMPRESS=LZW"]),
        ("nodata-nan-float32", ["-ot", "Float32", "-a_nodata", "nan", "-co", "COMPRESS=DEFLATE"]),
        ("nodata-float-max-float32", ["-ot", "Float32", "-a_nodata", "-3.4028234663852886e+38", "-co", "TILED=YES"]),
        ("no-nodata-int16", ["-a_nodata", "none", "-co", "COMPRESS=PACKBITS"]),
    ]

    @Test(arguments: layouts.map(\.name))
    func gdalWrittenLayoutReadsTheSamePostsAsGDAL(name: String) throws {
        let options = try #require(Self.layouts.first { $0.name == name }?.options)
        let source = SharedData.dem.appendingPathComponent("N46E008.tif")
        try #require(SharedData.exists(source), Comment(rawValue: SharedData.missing(source)))
        let folder = try SharedData.temporaryDirectory("geotiff-layout")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("\(name).tif").path
        // A window off the tile's corner: the last strip and the edge tiles are partial.
        try SharedData.run("gdal_translate", ["-q", "-srcwin", "3", "5", "1001", "777"] + options + [source.path, file])
        try Self.expectSameAsGDAL(file, name)
    }

    /// A Copernicus GLO-30-like tile: a 1° COG of 3600 × 3600 Float32 posts, DEFLATE with
    /// predictor 3, 1024-pixel tiles, overviews (which the reader skips), pixel-is-area.
    @Test func copernicusStyleCOGReadsTheSamePostsAsGDAL() throws {
        let source = SharedData.dem.appendingPathComponent("N46E008.tif")
        try #require(SharedData.exists(source), Comment(rawValue: SharedData.missing(source)))
        let folder = try SharedData.temporaryDirectory("geotiff-cop")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("Copernicus_DSM_COG_10_N46_00_E008_00_DEM.tif").path
        try SharedData.run("gdal_translate", ["-q", "-of", "COG", "-ot", "Float32", "-r", "bilinear", "-outsize", "3600", "3600",
                                               "-a_ullr", "8", "47", "9", "46", "-mo", "AREA_OR_POINT=Area",
                                               "-co", "COMPRESS=DEFLATE", "-co", "PREDICTOR=3", "-co", "BLOCKSIZE=1024",
                                               source.path, file])
        try Self.expectSameAsGDAL(file, "Copernicus-style COG")
    }

    /// A catalog of GeoTIFFs in EPSG:4326 needs no raster reader, and answers as GDAL's does.
    @Test func catalogReadsGeographicGeoTIFFsWithoutARasterReader() throws {
        let folder = try SharedData.temporaryDirectory("geotiff-catalog")
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in Self.geographicFiles {
            let url = SharedData.dem.appendingPathComponent(name)
            try #require(SharedData.exists(url), Comment(rawValue: SharedData.missing(url)))
            try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent(name), withDestinationURL: url)
        }
        let pure = try ElevationCatalog(directory: folder.path)
        let gdal = try ElevationCatalog(directory: folder.path, rasterReader: .gdal)
        #expect(pure.warnings.isEmpty)
        #expect(pure.tiles.map(\.path) == gdal.tiles.map(\.path))
        for i in pure.tiles.indices {
            let a = try #require(pure.grid(tile: i)), b = try #require(gdal.grid(tile: i))
            #expect(a.heights.elementsEqual(b.heights) { $0.bitPattern == $1.bitPattern })
        }
    }
}
