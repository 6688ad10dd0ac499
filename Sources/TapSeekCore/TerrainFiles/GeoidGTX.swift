extension Geoid {
    /// Loads an EGM96 undulation grid in GTX format (PROJ's `egm96_15.gtx`) without GDAL.
    public init(gtxContentsOf path: String) throws(TerrainFileError) {
        self.init(grid: try GTXGrid.readGrid(path: path))
    }
}
