import Foundation

/// Where `tapseek dem fetch` gets tiles, and what a valid tile of each source is.
public enum TileSource: String, Sendable, Hashable, CaseIterable {
    /// SRTM-format `.hgt` tiles (by default AWS Terrain Tiles' 1″ `skadi` layout), heights above
    /// EGM96.
    case srtm
    /// Copernicus GLO-30 COG GeoTIFFs (by default the public AWS bucket), heights above EGM2008.
    case copernicus

    /// The server tiles come from when no template is given.
    public var defaultTemplate: String {
        switch self {
        case .srtm: TileURLTemplate.skadi
        case .copernicus: TileURLTemplate.copernicusGLO30
        }
    }

    /// What a stored tile is called in messages.
    public var tileKind: String {
        switch self {
        case .srtm: "SRTM tile"
        case .copernicus: "Copernicus GLO-30 tile"
        }
    }

    /// Bytes of the largest tile, uncompressed: what a request for many tiles may come to.
    public var largestTileBytes: Int64 {
        switch self {
        case .srtm: SRTMTileFile.validByteCounts[1]
        case .copernicus: 3600 * 3600 * 4
        }
    }

    /// The most bytes a download of one tile may have.
    public var maximumFileBytes: Int64 {
        switch self {
        case .srtm: SRTMTileFile.maximumFileBytes
        case .copernicus: CopernicusTileFile.maximumFileBytes
        }
    }

    /// The base name of a tile's files (`NAME.part` while it downloads).
    public func baseName(of tile: SRTMTileName) -> String {
        switch self {
        case .srtm: tile.description
        case .copernicus: CopernicusTileName.glo30(latitude: tile.latitude, longitude: tile.longitude)
        }
    }
}

/// The checks a downloaded Copernicus tile must pass before it takes its place.
public enum CopernicusTileFile {
    /// A GLO-30 tile is 3 600 × 3 600 Float32 posts at most (51.8 MB uncompressed), plus its
    /// overviews (a third more) and headers: anything past 100 MB is not one.
    public static let maximumFileBytes: Int64 = 100_000_000

    /// Why the file at `path` is not the tile `tile` — not a GeoTIFF in EPSG:4326 that TapSeekCore
    /// reads, or posts that do not span that 1° cell as Copernicus tiles do (north and west edges
    /// on whole degrees, 1° of rows and columns) — or nil when it is. `decoding` also decodes
    /// every post, which finds a truncated or damaged download.
    public static func problem(atPath path: String, tile: SRTMTileName, decoding: Bool) -> String? {
        let described: DEMTile?
        do { described = try GeoTIFFTile.describe(path: path) } catch { return error.message }
        guard let t = described else { return "not a GeoTIFF in EPSG:4326 that TapSeek reads" }
        let dy = t.latitudeSpacing, dx = t.longitudeSpacing
        guard abs(t.north - Double(tile.latitude + 1)) < dy / 2, abs(t.west - Double(tile.longitude)) < dx / 2,
              abs(Double(t.rows) * dy - 1) < dy / 2, abs(Double(t.columns) * dx - 1) < dx / 2 else {
            func f(_ v: Double) -> String { String(format: "%.5f", v) }
            return "its posts span \(f(t.south))…\(f(t.north))° latitude, \(f(t.west))…\(f(t.east))° longitude, not the 1° of \(tile)"
        }
        if decoding {
            do { _ = try GeoTIFFTile.readGrid(path: path) } catch { return error.message }
        }
        return nil
    }
}
