#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A GeoTIFF elevation raster — a plain GeoTIFF, a tiled one or a Cloud-Optimized GeoTIFF such
/// as a Copernicus GLO-30 tile — in geographic WGS84 (EPSG:4326), read without GDAL.
///
/// Reads classic TIFF and BigTIFF, strips and tiles, compressed with DEFLATE, LZW or PackBits or
/// not at all, predictors 1–3, Int16, UInt16, Int32, Float32 and Float64 samples, GDAL's nodata
/// tag, the georeferencing of a tie point and a pixel scale, pixel-is-area and pixel-is-point:
/// the same posts and lattice GDAL's GTiff driver gives, to the bit. Any other GeoTIFF (a
/// projected CRS, JPEG, several bands, a rotation, …) is left to the
/// catalog's ``RasterReader``: ``describe(path:)`` returns nil for it.
///
/// The file is memory-mapped and its blocks decoded into one grid, on all cores for a large
/// file. A GeoTIFF is user input: every offset, count and size is checked before use, a
/// compressed block never decodes to more than its pixels' bytes, and anything malformed fails
/// with a one-line ``TerrainFileError`` naming the file.
public enum GeoTIFFTile {
    /// The driver name ``DEMTile`` gives these tiles: that of GDAL's own driver for the format.
    public static let driver = "GTiff"
    /// The most posts one grid may hold (1 GiB of heights): a file read whole, or one window.
    public static let maximumPosts = 1 << 28
    /// The most posts a file read window by window may hold (64 GiB of heights: a continent at 1″).
    public static let maximumWindowedPosts = 1 << 34
    /// About the posts on a side of a window of a large file (16 MiB of heights).
    static let windowSide = 2048

    /// Tags of GeoTIFF (OGC GeoTIFF 1.1) and GDAL read beside the raster's.
    enum Tag {
        static let modelPixelScale: UInt16 = 33550, modelTiepoint: UInt16 = 33922
        static let modelTransformation: UInt16 = 34264, geoKeyDirectory: UInt16 = 34735
        static let gdalNoData: UInt16 = 42113
    }
    /// Longest tag value read: the offsets of a 10⁶-strip file, well within any real DEM.
    static let maximumValueBytes = 1 << 26

    /// What the header says: the raster's layout, where its posts are and what marks a void.
    struct Layout {
        let raster: TIFFRaster
        let north: Double, west: Double, latitudeSpacing: Double, longitudeSpacing: Double
        let noData: Float?
    }

    /// The tile at `path` described from its header, reading no height; nil when the file is not
    /// a GeoTIFF this reader reads (not TIFF, another CRS, a compression or layout it leaves to
    /// GDAL). Like TapSeek's GDAL (which runs with `GDAL_PAM_ENABLED=NO`), it ignores a PAM
    /// `.aux.xml` beside the file.
    /// - Throws: ``TerrainFileError`` when the file cannot be read or its header is malformed.
    public static func describe(path: String) throws(TerrainFileError) -> DEMTile? {
        try tiles(path: path, windowedAbove: .max)?.first
    }

    /// The tiles a catalog indexes for the file, from one reading of its header: the file, or
    /// when its grid would take more than `windowedAbove` bytes, its windows of
    /// ``windowShape(path:)``. nil when the file is not a GeoTIFF this reader reads.
    /// - Throws: ``TerrainFileError`` when the file cannot be read or its header is malformed.
    static func tiles(path: String, windowedAbove: Int) throws(TerrainFileError) -> [DEMTile]? {
        let file = try map(path)
        guard case .success(let l) = try layout(of: file.bytes, path: path, maximumPosts: maximumWindowedPosts) else { return nil }
        let tile = DEMTile(path: path, driver: driver, isProjected: false, north: l.north, west: l.west,
                           latitudeSpacing: l.latitudeSpacing, longitudeSpacing: l.longitudeSpacing,
                           rows: l.raster.rows, columns: l.raster.columns, nativeReader: .geoTIFF)
        guard tile.gridByteCount > windowedAbove else { return [tile] }
        let shape = windowShape(of: l.raster)
        return tile.windows(rows: shape.rows, columns: shape.columns).map(tile.cut)
    }

    /// The windows a large file is read by: about ``windowSide`` posts on a side, made of whole
    /// blocks (tiles), or of whole strips across the image's width, so that reading one decodes
    /// no block another needs.
    /// - Throws: ``TerrainFileError`` when the file cannot be read or is not a GeoTIFF this
    ///   reader reads.
    public static func windowShape(path: String) throws(TerrainFileError) -> (rows: Int, columns: Int) {
        let file = try map(path)
        guard case .success(let l) = try layout(of: file.bytes, path: path, maximumPosts: maximumWindowedPosts) else {
            throw TerrainFileError(path: path, message: "is a GeoTIFF that TapSeekCore does not read")
        }
        return windowShape(of: l.raster)
    }

    private static func windowShape(of r: TIFFRaster) -> (rows: Int, columns: Int) {
        let rowsPerWindow = r.blockColumns >= r.columns
            ? max(windowSide * windowSide / max(r.columns, 1), 1) : windowSide
        return (max(rowsPerWindow / r.blockRows, 1) * r.blockRows, max(windowSide / r.blockColumns, 1) * r.blockColumns)
    }

    /// Reads the tile at `path` as an ``ElevationGrid``, voids (GDAL's nodata) as NaN: the whole
    /// file, or only `window` of it (its blocks alone are decoded; a window of
    /// ``windowShape(path:)``, or any other that starts on a block and ends on one or at the
    /// image's edge).
    /// - Throws: ``TerrainFileError`` when the file cannot be read, is malformed or is not a
    ///   GeoTIFF this reader reads, or the window is not one of its windows.
    /// `boundsTerrain`: build the grid's pyramid (``ElevationGrid/boundingTerrain()`` builds it later).
    /// `threads`: how many threads decode a compressed file's blocks (nil: all cores, when
    /// there are several large blocks).
    public static func readGrid(path: String, window: DEMTile.Window? = nil, boundsTerrain: Bool = true,
                                threads: Int? = nil) throws(TerrainFileError) -> ElevationGrid {
        let file = try map(path)
        return try grid(bytes: file.bytes, path: path, window: window, boundsTerrain: boundsTerrain, threads: threads)
    }

    /// The grid of a GeoTIFF file's bytes, or of a window of it; `path` names it in errors.
    static func grid(bytes: UnsafeRawBufferPointer, path: String, maximumPosts: Int = maximumPosts,
                     window: DEMTile.Window? = nil, boundsTerrain: Bool = true, threads: Int? = nil) throws(TerrainFileError) -> ElevationGrid {
        let l: Layout
        switch try layout(of: bytes, path: path, maximumPosts: window == nil ? maximumPosts : maximumWindowedPosts) {
        case .success(let found): l = found
        case .failure(let unsupported):
            throw TerrainFileError(path: path, message: "is a GeoTIFF that TapSeekCore does not read (\(unsupported.reason)); read it with GDAL")
        }
        let r = l.raster
        let region = window.map { TIFFRaster.Region(row: $0.row, column: $0.column, rows: $0.rows, columns: $0.columns) }
            ?? TIFFRaster.Region(row: 0, column: 0, rows: r.rows, columns: r.columns)
        guard r.isBlockAligned(region), region.rows >= 2, region.columns >= 2, region.rows * region.columns <= maximumPosts else {
            throw TerrainFileError(path: path, message: "has no window of \(region.rows) × \(region.columns) posts at row \(region.row), column \(region.column)")
        }
        var problem: TIFFFormatError?
        let heights = [Float](unsafeUninitializedCapacity: region.rows * region.columns) { h, count in
            HugePages.advise(UnsafeMutableRawBufferPointer(h))
            do throws(TIFFFormatError) { try r.decode(from: bytes, into: h, noData: l.noData, region: region, workers: threads) } catch { problem = error }
            // Float is trivial: on failure the array is dropped unread.
            count = region.rows * region.columns
        }
        if let problem { throw TerrainFileError(path: path, message: problem.reason) }
        return ElevationGrid(north: l.north - Double(region.row) * l.latitudeSpacing, west: l.west + Double(region.column) * l.longitudeSpacing,
                             latitudeSpacing: l.latitudeSpacing, longitudeSpacing: l.longitudeSpacing,
                             rows: region.rows, columns: region.columns, heights: heights, boundsTerrain: boundsTerrain)
    }

    /// The layout of the first image of a GeoTIFF, or why this reader leaves the file to GDAL.
    static func layout(of bytes: UnsafeRawBufferPointer, path: String,
                       maximumPosts: Int) throws(TerrainFileError) -> Result<Layout, TIFFFormatError> {
        func malformed(_ reason: String) -> TerrainFileError { TerrainFileError(path: path, message: "is not a valid GeoTIFF: \(reason)") }
        let header: TIFFHeader
        do { header = try TIFFHeader(of: bytes) } catch { return .failure(TIFFFormatError("not TIFF: \(error.reason)", unsupported: true)) }
        let d: TIFFDirectory<UnsafeRawBufferPointer>
        let raster: TIFFRaster
        do {
            d = try TIFFDirectory(data: bytes, header: header, offset: header.firstDirectory, maximumValueBytes: maximumValueBytes)
            raster = try TIFFRaster(directory: d, maximumPosts: maximumPosts)
        } catch {
            if error.unsupported { return .failure(error) }
            throw malformed(error.reason)
        }
        // Georeferencing: one tie point and a pixel scale, north up, in EPSG:4326.
        guard d.entries[Tag.modelTransformation] == nil else {
            return .failure(TIFFFormatError("a transformation matrix", unsupported: true))
        }
        let shorts = (0..<d.count(Tag.geoKeyDirectory)).compactMap { d.integer(Tag.geoKeyDirectory, at: $0) }
        guard let keys = GeoKeys(shorts: shorts) else {
            return .failure(TIFFFormatError("no GeoKey directory", unsupported: true))
        }
        if let other = keys.notWGS84Geographic { return .failure(TIFFFormatError(other, unsupported: true)) }
        guard let scale = d.numbers(Tag.modelPixelScale), scale.count >= 2, scale[0] > 0, scale[1] > 0,
              let tie = d.numbers(Tag.modelTiepoint), tie.count == 6 else {
            return .failure(TIFFFormatError("georeferencing other than one tie point and a positive pixel scale", unsupported: true))
        }
        guard raster.rows >= 2, raster.columns >= 2 else { throw TerrainFileError(path: path, message: "is smaller than 2 × 2 posts") }
        // GDAL's geotransform, with its arithmetic (so that every bit agrees): the scale and
        // the tie point give the corner of pixel (0, 0); pixel-is-point moves it back by half a
        // pixel. TapSeekGDAL's RasterFile then takes the centre of pixel (0, 0) as the first post.
        let gt1 = scale[0], gt5 = -scale[1]
        var gt0 = tie[3] - tie[0] * gt1, gt3 = tie[4] - tie[1] * gt5
        if keys.isPixelIsPoint {
            gt0 -= gt1 * 0.5
            gt3 -= gt5 * 0.5
        }
        let north = gt3 + 0.5 * gt5, west = gt0 + 0.5 * gt1
        let south = north + Double(raster.rows - 1) * gt5, east = west + Double(raster.columns - 1) * gt1
        // Posts on the globe (a pixel's width beyond a pole or once round at most) and a spacing
        // no finer than a nanodegree, so that posts per degree stay finite (as GTXGrid checks).
        guard [north, west, south, east].allSatisfy(\.isFinite), gt1 >= 1e-9, -gt5 >= 1e-9,
              north <= 90 - gt5, south >= -90 + gt5, west >= -360, east <= 360 else {
            throw malformed("its posts, \(north)° to \(south)°, \(west)° to \(east)°, spacing \(-gt5)° × \(gt1)°, are not on the globe")
        }
        return .success(Layout(raster: raster, north: north, west: west,
                               latitudeSpacing: -gt5, longitudeSpacing: gt1,
                               noData: d.text(Tag.gdalNoData).map { noData($0, raster.sampleType) }))
    }

    /// GDAL's nodata value as the grid compares it: the text read as C's `strtod` reads it
    /// (GDAL's `CPLAtofM`), for Float32 samples a value within 10⁻¹⁰ of the largest float taken
    /// as that float (`GDALAdjustNoDataCloseToFloatMax`), then converted to `Float`.
    static func noData(_ text: String, _ type: TIFFRaster.SampleType) -> Float {
        var value = strtod(text, nil)
        if type == .float32 {
            let largest = Double(Float.greatestFiniteMagnitude)
            if abs(value - largest) < 1e-10 * largest { value = largest }
            if abs(value + largest) < 1e-10 * largest { value = -largest }
        }
        return Float(value)
    }

    private static func map(_ path: String) throws(TerrainFileError) -> MappedFile {
        do { return try MappedFile(path: path) } catch {
            throw TerrainFileError(path: path, message: "cannot be opened (\(error.message))")
        }
    }
}
