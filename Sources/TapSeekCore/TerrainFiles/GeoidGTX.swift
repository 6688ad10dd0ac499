extension Geoid {
    /// Where Debian's `proj-data` installs the EGM96 15′ undulation grid.
    public static let defaultPath = "/usr/share/proj/egm96_15.gtx"

    /// Loads an EGM96 undulation grid in GTX format (PROJ's `egm96_15.gtx`) without GDAL.
    public init(gtxContentsOf path: String = Geoid.defaultPath) throws(TerrainFileError) {
        self.init(grid: try GTXGrid.readGrid(path: path))
    }
}
