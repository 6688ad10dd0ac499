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
