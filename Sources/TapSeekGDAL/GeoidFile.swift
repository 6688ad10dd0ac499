import TapSeekCore

extension Geoid {
    /// Loads a geoid undulation grid: a `.gtx` file (PROJ's EGM96 grid) with TapSeekCore's
    /// pure-Swift reader, any other single-band geographic raster of undulations in metres
    /// through GDAL.
    public init(contentsOf path: String) throws(GDALError) {
        if path.lowercased().hasSuffix(".gtx") {
            do {
                self = try Geoid(gtxContentsOf: path)
            } catch {
                throw GDALError(path: error.path, message: error.message)
            }
        } else {
            self.init(grid: try RasterFile(path: path).readGrid())
        }
    }
}
