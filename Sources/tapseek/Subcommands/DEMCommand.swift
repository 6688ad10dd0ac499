import ArgumentParser
import TapSeek

/// `tapseek dem …`: the elevation tiles themselves.
struct DEMCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dem",
        abstract: "List and fetch elevation tiles.",
        subcommands: [DEMInfoCommand.self, DEMFetchCommand.self]
    )
}

/// `tapseek dem info [DIR]`: one line per tile with footprint, resolution, void share and the
/// share of posts filled across voids.
struct DEMInfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "List the tiles of a DEM directory: footprint, resolution, size, void share and the share filled across voids (reads every tile)."
    )

    @Argument(help: "DEM directory (default: $TAPSEEK_DEM, else dem/ in the first TapSeek data directory: $TAPSEEK_DATA, the installation, XDG data dirs).")
    var directory: String?

    @Option(help: "Output format: text or json.")
    var format: Format = .text

    enum Format: String, ExpressibleByArgument { case text, json }

    @Flag(name: .customLong("fill-voids"), inversion: .prefixedNo,
          help: "Fill voids as every other command does (the default): the filled share is then listed.")
    var fillVoids = true

    func run() throws {
        let catalog = try ElevationCatalog(directory: directory ?? DefaultDEM.directory, memoryBudget: 64 << 20, rasterReader: .gdal,
                                           egm2008GeoidPath: Geoid.egm2008Path(), fillsVoids: fillVoids, voidFillCache: VoidFillCache())
        for warning in catalog.warnings { StandardError.write("tapseek: warning: \(warning)") }
        var out = OutputBuffer()
        if format == .text {
            out.append("file\tdriver\tsouth\tnorth\twest\teast\tspacing(arcsec)\tposts\tmin(m)\tmax(m)\tvoid(%)\tfilled(%)\tdatum\n")
        }
        for (i, tile) in catalog.tiles.enumerated() {
            let grid = catalog.grid(tile: i)
            // The file's voids, filled or not, and the part of them filled.
            let voids = grid.map { $0.voidFraction + $0.filledFraction } ?? .nan
            let filled = grid?.filledFraction ?? .nan
            var name = String(tile.path.dropFirst(catalog.directory.count).drop(while: { $0 == "/" }))
            if let w = tile.window {
                // A large file is listed window by window: rows and columns of its posts.
                name += "[\(w.row)..<\(w.row + w.rows),\(w.column)..<\(w.column + w.columns)]"
            }
            let spacing = tile.latitudeSpacing * 3600
            if format == .json {
                out.append("{\"file\":")
                out.appendJSONString(name)
                out.append(",\"driver\":")
                out.appendJSONString(tile.driver + (tile.isProjected ? " (reprojected)" : ""))
                for (key, value) in [("south", tile.south), ("north", tile.north), ("west", tile.west), ("east", tile.east)] {
                    out.append(",\"\(key)\":")
                    out.appendFixed(value, decimals: 6)
                }
                out.append(",\"spacingArcSeconds\":")
                out.appendFixed(spacing, decimals: 3)
                out.append(",\"rows\":\(tile.rows),\"columns\":\(tile.columns),\"minimum\":")
                out.appendFixed(grid.map { Double($0.minimumHeight) } ?? .nan, decimals: 1)
                out.append(",\"maximum\":")
                out.appendFixed(grid.map { Double($0.maximumHeight) } ?? .nan, decimals: 1)
                out.append(",\"voidFraction\":")
                out.appendFixed(voids, decimals: 5)
                out.append(",\"filledFraction\":")
                out.appendFixed(filled, decimals: 5)
                out.append(",\"verticalDatum\":")
                out.appendJSONString(tile.verticalDatum.rawValue)
                if tile.verticalDatum != .egm96 { out.append(",\"convertedToEGM96\":\(catalog.egm2008GeoidPath != nil)") }
                out.append("}")
            } else {
                out.append(name + "\t" + tile.driver + (tile.isProjected ? "(reprojected)" : "") + "\t")
                for value in [tile.south, tile.north, tile.west, tile.east] {
                    out.appendFixed(value, decimals: 4)
                    out.append("\t")
                }
                out.appendFixed(spacing, decimals: 3)
                out.append("\t\(tile.columns)x\(tile.rows)\t")
                out.appendFixed(grid.map { Double($0.minimumHeight) } ?? .nan, decimals: 0)
                out.append("\t")
                out.appendFixed(grid.map { Double($0.maximumHeight) } ?? .nan, decimals: 0)
                out.append("\t")
                out.appendFixed(voids * 100, decimals: 2)
                out.append("\t")
                out.appendFixed(filled * 100, decimals: 2)
                out.append("\t" + tile.verticalDatum.rawValue)
                if tile.verticalDatum != .egm96 { out.append(catalog.egm2008GeoidPath != nil ? " (converted to EGM96)" : " (read as EGM96)") }
            }
            out.newline()
        }
        out.flush()
        for failure in catalog.loadFailures { StandardError.write("tapseek: warning: \(failure)") }
    }
}
