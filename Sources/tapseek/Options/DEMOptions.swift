import ArgumentParser
import TapSeek

/// The options every command that reads terrain shares.
struct DEMOptions: ParsableArguments {
    @Option(name: .long, help: "Directory of elevation tiles (default: $TAPSEEK_DEM, else dem/ in the first TapSeek data directory: $TAPSEEK_DATA, the installation, XDG data dirs).")
    var dem: String?

    @Option(name: .long, parsing: .unconditional, help: "Memory budget for loaded tiles, MiB.")
    var cacheMB: Int = ElevationCatalog.defaultMemoryBudget >> 20

    @Flag(name: .customLong("fill-voids"), inversion: .prefixedNo,
          help: "Fill the DEM's voids (up to 2 km from known terrain) from the terrain around them when a tile loads; answers resting on filled terrain warn 'filled-void'. --no-fill-voids keeps voids unknown.")
    var fillVoids = true

    func validate() throws {
        guard cacheMB > 0 else { throw ValidationError("--cache-mb must be positive, got \(cacheMB)") }
    }

    var directory: String { dem ?? DefaultDEM.directory }

    /// Opens the catalog, printing one warning line per skipped file. `area`: where the command
    /// will read terrain, if it knows (only the voids reaching into it are filled).
    func openCatalog(area: VoidFillArea? = nil, jobs: Int? = nil) throws -> ElevationCatalog {
        let catalog = try ElevationCatalog(directory: directory, memoryBudget: cacheMB << 20, rasterReader: .gdal,
                                           egm2008GeoidPath: Geoid.egm2008Path(), fillsVoids: fillVoids, voidFillArea: area,
                                           voidFillCache: VoidFillCache(), decodeThreads: jobs)
        for warning in catalog.warnings { StandardError.write("tapseek: warning: \(warning)") }
        return catalog
    }
}
