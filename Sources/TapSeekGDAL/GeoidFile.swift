import TapSeekCore

extension Geoid {
    /// Where Debian's `proj-data` installs the EGM96 15′ undulation grid.
    public static let defaultPath = "/usr/share/proj/egm96_15.gtx"

    /// Loads a geoid undulation grid: a `.gtx` file (PROJ's EGM96 grid) with TapSeekCore's
    /// pure-Swift reader, any other single-band geographic raster of undulations in metres
    /// through GDAL.
    public init(contentsOf path: String = Geoid.defaultPath) throws(GDALError) {
        if path.lowercased().hasSuffix(".gtx") {
            do {
                self.init(grid: try GTXGrid.readGrid(path: path))
            } catch {
                throw GDALError(path: error.path, message: error.message)
            }
        } else {
            self.init(grid: try RasterFile(path: path).readGrid())
        }
    }
}
