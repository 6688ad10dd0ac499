import TapSeekCore

extension Geoid {
    /// Where Debian's `proj-data` installs the EGM96 15′ undulation grid.
    public static let defaultPath = "/usr/share/proj/egm96_15.gtx"

    /// Loads a geoid undulation grid (EGM96 `.gtx` or any single-band geographic raster of
    /// undulations in metres) through GDAL.
    public init(contentsOf path: String = Geoid.defaultPath) throws(GDALError) {
        self.init(grid: try RasterFile(path: path).readGrid())
    }
}
