/// The binary layout of a gazetteer index (``Gazetteer``, ``GazetteerBuilder``), version 1,
/// little-endian, every section 8-byte aligned:
///
/// | bytes | what |
/// |---|---|
/// | 0–7 | magic `TSPLACES` |
/// | 8–11 | format version (u32) |
/// | 12–31 | counts (u32): features, keys, grid cells, feature codes, countries |
/// | 32–95 | section offsets (u64): features, names, keys, key bytes, cells, codes, countries, end of file |
/// | 96–127 | zero |
/// | features | 24 bytes each, in grid-cell order: latitude, longitude (i32, 1e-6°), geonameid (u32), name offset (u32) and length (u16), elevation (i16 metres, −32768 unknown), feature code index (u16), country (2 ASCII bytes, 0 0 for none) |
/// | names | the features' names, UTF-8 |
/// | keys | 12 bytes each, sorted by key bytes: key offset (u32) and length (u16), flags (u8: 1 = the feature's own name), 0, feature index (u32) |
/// | key bytes | folded keys (``NameFolding``), UTF-8 |
/// | cells | 8 bytes each, sorted: cell id (u32: row · 7200 + column of the 0.05° grid from −90°, −180°), first feature (u32) |
/// | codes | 8 bytes each: feature class (ASCII), code length, code (6 bytes, ASCII) |
/// | countries | 8 bytes each: ISO code (2 bytes), 0 0, feature count (u32) |
enum GazetteerLayout {
    static let magic = Array("TSPLACES".utf8)
    static let version: UInt32 = 1
    static let headerSize = 128
    static let featureSize = 24
    static let keySize = 12
    static let cellSize = 8
    static let codeSize = 8
    static let countrySize = 8
    /// Grid cell size, degrees: about 5.5 km north–south, so that a look-up within a couple of
    /// kilometres touches at most four cells.
    static let cellDegrees = 0.05
    static let rows = 3600, columns = 7200
    static let unknownElevation = Int16.min
    static let ownName: UInt8 = 1

    /// The grid cell of a point.
    static func cell(latitude: Double, longitude: Double) -> (row: Int, column: Int) {
        let row = min(rows - 1, max(0, Int(((latitude + 90) / cellDegrees).rounded(.down))))
        let column = min(columns - 1, max(0, Int(((longitude + 180) / cellDegrees).rounded(.down))))
        return (row, column)
    }

    static func cellID(row: Int, column: Int) -> UInt32 { UInt32(row * columns + column) }
}
