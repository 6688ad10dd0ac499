import CGDAL
import TapSeekCore

/// One open GDAL raster: a handle that lives for one operation on one thread and never escapes.
final class RasterFile {
    let path: String
    private let dataset: GDALDatasetH

    /// Opens a raster read-only; throws with GDAL's own message and the path.
    init(path: String) throws(GDALError) {
        _ = GDALRuntime.ready
        self.path = path
        if let marker = GDALRuntime.networkReference(in: path) {
            throw GDALError(path: path, message: "refers to a network source (\(marker)…); TapSeek reads local files only")
        }
        CPLErrorReset()
        let flags = UInt32(GDAL_OF_RASTER | GDAL_OF_READONLY | GDAL_OF_VERBOSE_ERROR)
        guard let handle = GDALOpenEx(path, flags, nil, nil, nil) else {
            throw GDALError(path: path, message: GDALRuntime.lastError(or: "not a raster GDAL can read"))
        }
        if GDALGetRasterCount(handle) < 1 {
            GDALClose(handle)
            throw GDALError(path: path, message: "has no raster band")
        }
        dataset = handle
    }

    deinit { GDALClose(dataset) }

    var driverName: String {
        guard let driver = GDALGetDatasetDriver(dataset), let name = GDALGetDriverShortName(driver) else { return "?" }
        return String(cString: name)
    }

    /// Whether the raster's coordinates are longitude/latitude degrees (as opposed to a projection).
    var isGeographic: Bool {
        guard let srs = GDALGetSpatialRef(dataset) else { return true }
        return OSRIsGeographic(srs) != 0
    }

    /// Where the posts are, without reading any height: the footprint of the tile.
    func describe() throws(GDALError) -> DEMTile {
        try withGeographic { (ds) throws(GDALError) in
            let lattice = try Self.lattice(of: ds, path: path)
            return DEMTile(path: path, driver: driverName, isProjected: !isGeographic,
                           north: lattice.north, west: lattice.west,
                           latitudeSpacing: lattice.latitudeSpacing, longitudeSpacing: lattice.longitudeSpacing,
                           rows: lattice.rows, columns: lattice.columns)
        }
    }

    /// Reads band 1 as an ``ElevationGrid`` on a latitude/longitude lattice of posts.
    ///
    /// GDAL reports every raster with area-convention geotransforms, having already shifted
    /// pixel-is-point files (SRTM HGT, DTED, `AREA_OR_POINT=Point`) by half a cell; so the post
    /// of pixel (r, c) is the centre of that pixel. Projected rasters are first warped to
    /// WGS84 longitude/latitude with bilinear resampling. Nodata becomes NaN.
    func readGrid() throws(GDALError) -> ElevationGrid {
        try withGeographic { (ds) throws(GDALError) in try Self.grid(of: ds, path: path) }
    }

    /// Runs `body` on the dataset itself when it is geographic, else on a warped WGS84 view of it.
    private func withGeographic<T>(_ body: (GDALDatasetH) throws(GDALError) -> T) throws(GDALError) -> T {
        if isGeographic { return try body(dataset) }
        let wgs84 = OSRNewSpatialReference(nil)
        defer { OSRDestroySpatialReference(wgs84) }
        OSRImportFromEPSG(wgs84, 4326)
        OSRSetAxisMappingStrategy(wgs84, OAMS_TRADITIONAL_GIS_ORDER)
        var wkt: UnsafeMutablePointer<CChar>?
        OSRExportToWkt(wgs84, &wkt)
        defer { VSIFree(wkt) }
        CPLErrorReset()
        guard let warped = GDALAutoCreateWarpedVRT(dataset, nil, wkt, GRA_Bilinear, 0.125, nil) else {
            throw GDALError(path: path, message: GDALRuntime.lastError(or: "cannot be reprojected to WGS84"))
        }
        defer { GDALClose(warped) }
        return try body(warped)
    }

    private struct Lattice {
        var north, west, latitudeSpacing, longitudeSpacing: Double
        var rows, columns: Int
    }

    private static func lattice(of dataset: GDALDatasetH, path: String) throws(GDALError) -> Lattice {
        var gt = [Double](repeating: 0, count: 6)
        guard GDALGetGeoTransform(dataset, &gt) == CE_None else {
            throw GDALError(path: path, message: "has no georeferencing")
        }
        guard gt[2] == 0, gt[4] == 0, gt[1] > 0, gt[5] < 0 else {
            throw GDALError(path: path, message: "is rotated or flipped; only north-up rasters are supported")
        }
        let columns = Int(GDALGetRasterXSize(dataset)), rows = Int(GDALGetRasterYSize(dataset))
        guard rows >= 2, columns >= 2 else { throw GDALError(path: path, message: "is smaller than 2 × 2 posts") }
        return Lattice(north: gt[3] + 0.5 * gt[5], west: gt[0] + 0.5 * gt[1],
                       latitudeSpacing: -gt[5], longitudeSpacing: gt[1], rows: rows, columns: columns)
    }

    private static func grid(of dataset: GDALDatasetH, path: String) throws(GDALError) -> ElevationGrid {
        let l = try lattice(of: dataset, path: path)
        let rows = l.rows, columns = l.columns
        let band = GDALGetRasterBand(dataset, 1)
        var hasNoData: Int32 = 0
        let noData = GDALGetRasterNoDataValue(band, &hasNoData)
        var values = [Float](repeating: 0, count: rows * columns)
        CPLErrorReset()
        let status = values.withUnsafeMutableBytes { buffer in
            GDALRasterIO(band, GF_Read, 0, 0, Int32(columns), Int32(rows), buffer.baseAddress,
                         Int32(columns), Int32(rows), GDT_Float32, 0, 0)
        }
        guard status == CE_None else {
            throw GDALError(path: path, message: GDALRuntime.lastError(or: "cannot be read"))
        }
        if hasNoData != 0 {
            let missing = Float(noData)
            for i in values.indices where values[i] == missing { values[i] = .nan }
        }
        return ElevationGrid(north: l.north, west: l.west, latitudeSpacing: l.latitudeSpacing,
                             longitudeSpacing: l.longitudeSpacing, rows: rows, columns: columns, heights: values)
    }
}
