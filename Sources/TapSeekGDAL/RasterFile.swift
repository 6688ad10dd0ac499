import TapSeekCore

/// One open GDAL raster: a handle that lives for one operation on one thread and never escapes.
final class RasterFile {
    let path: String
    private let gdal: GDALLibrary
    private let dataset: GDALLibrary.Handle

    /// Opens a raster read-only; throws with GDAL's own message and the path.
    init(path: String) throws(GDALError) {
        self.path = path
        if let marker = GDALRuntime.networkReference(in: path) {
            throw GDALError(path: path, message: "refers to a network source (\(marker)…); TapSeek reads local files only")
        }
        let gdal = try GDALRuntime.library(for: path)
        gdal.errorReset()
        guard let handle = gdal.openEx(path, GDALLibrary.openRasterReadOnlyVerbose, nil, nil, nil) else {
            throw GDALError(path: path, message: GDALRuntime.lastError(gdal, or: "not a raster GDAL can read"))
        }
        if gdal.rasterCount(handle) < 1 {
            gdal.close(handle)
            throw GDALError(path: path, message: "has no raster band")
        }
        self.gdal = gdal
        dataset = handle
    }

    deinit { gdal.close(dataset) }

    var driverName: String {
        guard let driver = gdal.datasetDriver(dataset), let name = gdal.driverShortName(driver) else { return "?" }
        return String(cString: name)
    }

    /// Whether the raster's coordinates are longitude/latitude degrees (as opposed to a projection).
    var isGeographic: Bool {
        guard let srs = gdal.spatialReference(dataset) else { return true }
        return gdal.isGeographic(srs) != 0
    }

    /// Where the posts are, without reading any height: the footprint of the tile.
    func describe() throws(GDALError) -> DEMTile {
        try withGeographic { (ds) throws(GDALError) in
            let lattice = try lattice(of: ds)
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
        try withGeographic { (ds) throws(GDALError) in try grid(of: ds) }
    }

    /// Runs `body` on the dataset itself when it is geographic, else on a warped WGS84 view of it.
    private func withGeographic<T>(_ body: (GDALLibrary.Handle) throws(GDALError) -> T) throws(GDALError) -> T {
        if isGeographic { return try body(dataset) }
        let wgs84 = gdal.newSpatialReference(nil)
        defer { gdal.destroySpatialReference(wgs84) }
        _ = gdal.importFromEPSG(wgs84, 4326)
        gdal.setAxisMappingStrategy(wgs84, GDALLibrary.traditionalGISOrder)
        var wkt: UnsafeMutablePointer<CChar>?
        _ = gdal.exportToWkt(wgs84, &wkt)
        defer { gdal.free(wkt) }
        gdal.errorReset()
        guard let warped = gdal.autoCreateWarpedVRT(dataset, nil, wkt, GDALLibrary.bilinear, 0.125, nil) else {
            throw GDALError(path: path, message: GDALRuntime.lastError(gdal, or: "cannot be reprojected to WGS84"))
        }
        defer { gdal.close(warped) }
        return try body(warped)
    }

    private struct Lattice {
        var north, west, latitudeSpacing, longitudeSpacing: Double
        var rows, columns: Int
    }

    private func lattice(of dataset: GDALLibrary.Handle) throws(GDALError) -> Lattice {
        var gt = [Double](repeating: 0, count: 6)
        guard gdal.geoTransform(dataset, &gt) == GDALLibrary.noError else {
            throw GDALError(path: path, message: "has no georeferencing")
        }
        guard gt[2] == 0, gt[4] == 0, gt[1] > 0, gt[5] < 0 else {
            throw GDALError(path: path, message: "is rotated or flipped; only north-up rasters are supported")
        }
        let columns = Int(gdal.rasterXSize(dataset)), rows = Int(gdal.rasterYSize(dataset))
        guard rows >= 2, columns >= 2 else { throw GDALError(path: path, message: "is smaller than 2 × 2 posts") }
        return Lattice(north: gt[3] + 0.5 * gt[5], west: gt[0] + 0.5 * gt[1],
                       latitudeSpacing: -gt[5], longitudeSpacing: gt[1], rows: rows, columns: columns)
    }

    private func grid(of dataset: GDALLibrary.Handle) throws(GDALError) -> ElevationGrid {
        let l = try lattice(of: dataset)
        let rows = l.rows, columns = l.columns
        let band = gdal.rasterBand(dataset, 1)
        var hasNoData: Int32 = 0
        let noData = gdal.noDataValue(band, &hasNoData)
        var values = [Float](repeating: 0, count: rows * columns)
        gdal.errorReset()
        let status = values.withUnsafeMutableBytes { buffer in
            gdal.rasterIO(band, GDALLibrary.readAccess, 0, 0, Int32(columns), Int32(rows), buffer.baseAddress,
                          Int32(columns), Int32(rows), GDALLibrary.float32, 0, 0)
        }
        guard status == GDALLibrary.noError else {
            throw GDALError(path: path, message: GDALRuntime.lastError(gdal, or: "cannot be read"))
        }
        if hasNoData != 0 {
            let missing = Float(noData)
            for i in values.indices where values[i] == missing { values[i] = .nan }
        }
        return ElevationGrid(north: l.north, west: l.west, latitudeSpacing: l.latitudeSpacing,
                             longitudeSpacing: l.longitudeSpacing, rows: rows, columns: columns, heights: values)
    }
}
