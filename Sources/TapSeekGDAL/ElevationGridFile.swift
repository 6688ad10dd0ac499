import TapSeekCore

extension ElevationGrid {
    /// Reads band 1 of any raster GDAL reads as a grid on a latitude/longitude lattice of posts
    /// (projected rasters warped to WGS84 bilinearly; nodata as NaN).
    public init(contentsOf path: String) throws(GDALError) {
        self = try RasterFile(path: path).readGrid()
    }
}
