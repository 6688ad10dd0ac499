/// A vertical-datum grid in NOAA's GTX format, read without GDAL: the geoid undulations PROJ
/// ships as `egm96_15.gtx`.
///
/// The format (NOAA VDatum; as GDAL's GTX driver reads it): a 40-byte big-endian header —
/// latitude and longitude of the south-west post, latitude and longitude spacing (Float64,
/// degrees), then rows and columns (Int32) — followed by the rows from south to north, each
/// west to east, as big-endian Float32 (Float64 when the file's size says so). −88.8888 marks a
/// post without value.
public enum GTXGrid {
    /// The value GTX files use for a post without value.
    public static let missingValue: Float = -88.8888
    /// The header's length, bytes.
    static let headerLength = 40
    /// The largest grid read (a global 1′ grid is 10 801 × 21 601 × 4 bytes ≈ 933 MB).
    public static let byteLimit = 1 << 30

    /// Reads the grid at `path` as an ``ElevationGrid`` (north row first, missing posts NaN), with
    /// the same lattice GDAL's GTX driver reports for it.
    /// - Throws: ``TerrainFileError`` when the file cannot be read or its header and size disagree.
    ///
    /// The file is mapped, not read: every command loads the 4 MB EGM96 grid before its first
    /// sightline, and reading it into memory first cost a 10 m viewshed 2 ms of its 18 (370 page
    /// faults more); its posts are converted from the mapping once, into the grid.
    public static func readGrid(path: String) throws(TerrainFileError) -> ElevationGrid {
        let file: MappedFile
        do {
            file = try MappedFile(path: path)
        } catch {
            throw TerrainFileError(path: path, message: "cannot be opened (\(error.message))")
        }
        guard file.bytes.count <= byteLimit else {
            throw TerrainFileError(path: path, message: "holds \(file.bytes.count) bytes, more than the \(byteLimit) a file of its kind may have")
        }
        return try withExtendedLifetime(file) { () throws(TerrainFileError) in try grid(bytes: file.bytes, path: path) }
    }

    /// The grid from a GTX file's bytes.
    public static func grid(bytes: [UInt8], path: String) throws(TerrainFileError) -> ElevationGrid {
        let result = bytes.withUnsafeBytes { raw in Result { () throws(TerrainFileError) in try grid(bytes: raw, path: path) } }
        return try result.get()
    }

    /// What a GTX file's header says, checked against its size: the lattice as GDAL's GTX
    /// driver reports it (north row first) and the width of its posts, bytes.
    struct Layout: Sendable {
        let north: Double, west: Double
        let latitudeSpacing: Double, longitudeSpacing: Double
        let rows: Int, columns: Int
        let width: Int
    }

    /// The layout of a GTX file from its bytes.
    static func layout(bytes: UnsafeRawBufferPointer, path: String) throws(TerrainFileError) -> Layout {
        guard bytes.count >= headerLength else {
            throw TerrainFileError(path: path, message: "is shorter than a GTX header (40 bytes)")
        }
        func u64(_ at: Int) -> UInt64 { (0..<8).reduce(0) { $0 << 8 | UInt64(bytes[at + $1]) } }
        func u32(_ at: Int) -> UInt32 { (0..<4).reduce(0) { $0 << 8 | UInt32(bytes[at + $1]) } }
        let south = Double(bitPattern: u64(0)), west = Double(bitPattern: u64(8))
        let latitudeStep = Double(bitPattern: u64(16)), longitudeStep = Double(bitPattern: u64(24))
        let rows = Int(Int32(bitPattern: u32(32))), columns = Int(Int32(bitPattern: u32(36)))
        // A latitude/longitude lattice on the globe: from the south pole at most to the north
        // pole, at most once round (plus the column that repeats the first), spacing no finer
        // than a nanodegree (so that posts per degree stay finite).
        let north = south + latitudeStep * Double(rows - 1)
        guard rows >= 2, columns >= 2, latitudeStep >= 1e-9, longitudeStep >= 1e-9,
              south >= -90 - 1e-9, north <= 90 + 1e-9, abs(west) <= 360,
              longitudeStep * Double(columns - 1) <= 360 + longitudeStep else {
            throw TerrainFileError(path: path, message: "has an invalid GTX header (\(rows) × \(columns) posts from \(south)°, \(west)°, spacing \(latitudeStep)° × \(longitudeStep)°)")
        }
        // Multiplied out only when the data could hold the posts (a hostile header could
        // overflow the product).
        let payload = bytes.count - headerLength
        let (posts, overflow) = rows.multipliedReportingOverflow(by: columns)
        guard !overflow, posts <= payload / 4 else {
            throw TerrainFileError(path: path, message: "holds \(bytes.count) bytes, too few for the \(rows) × \(columns) posts of its header")
        }
        let width: Int
        switch payload {
        case posts * 4: width = 4
        case posts * 8: width = 8
        default:
            throw TerrainFileError(path: path, message: "holds \(bytes.count) bytes, not the 40 + \(posts) × 4 (or × 8) of its \(rows) × \(columns) posts")
        }
        // GDAL's GTX driver turns the header into an area geotransform, half a cell beyond the
        // outer posts, and TapSeekGDAL's RasterFile moves back by half a cell: the same
        // arithmetic here gives bit-identical post coordinates.
        let originNorth = south + latitudeStep * Double(rows - 1) + latitudeStep * 0.5
        let originWest = west - longitudeStep * 0.5
        let rowStep = -latitudeStep
        return Layout(north: originNorth + 0.5 * rowStep, west: originWest + 0.5 * longitudeStep, latitudeSpacing: -rowStep,
                      longitudeSpacing: longitudeStep, rows: rows, columns: columns, width: width)
    }

    /// Post (`row` from the north, `column`) of a GTX file's posts `data` (the bytes after its
    /// header), missing NaN: what ``grid(bytes:path:)`` puts there. `row` and `column` must lie
    /// within the layout, which keeps the index's arithmetic from overflowing: it is not checked.
    @inlinable @inline(__always)
    static func post(_ data: UnsafeRawPointer, row: Int, column: Int, rows: Int, columns: Int, width: Int) -> Float {
        // The file runs south to north.
        let i = (rows &- 1 &- row) &* columns &+ column
        let value = width == 4
            ? Float(bitPattern: UInt32(bigEndian: data.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self)))
            : Float(Double(bitPattern: UInt64(bigEndian: data.loadUnaligned(fromByteOffset: i &* 8, as: UInt64.self))))
        return value == missingValue ? .nan : value
    }

    /// The grid from a GTX file's bytes, read in place.
    static func grid(bytes: UnsafeRawBufferPointer, path: String) throws(TerrainFileError) -> ElevationGrid {
        let layout = try layout(bytes: bytes, path: path)
        let rows = layout.rows, columns = layout.columns, width = layout.width, posts = rows * columns
        // Every post is written once (no zeroing first): big-endian words loaded whole.
        let heights = [Float](unsafeUninitializedCapacity: posts) { h, count in
            HugePages.advise(UnsafeMutableRawBufferPointer(h))
            for fileRow in 0..<rows {
                // The file runs south to north, the grid north to south.
                let target = h.baseAddress! + (rows - 1 - fileRow) * columns
                let source = headerLength + fileRow * columns * width
                var c = 0
                if width == 4 {
                    // Eight posts at a time: bytes swapped by shifts, the missing value's
                    // bits replaced by NaN's (the same bits as the scalar loop below).
                    let missing = SIMD8<UInt32>(repeating: missingValue.bitPattern)
                    let nan = SIMD8<UInt32>(repeating: Float.nan.bitPattern)
                    while c + 8 <= columns {
                        let w = bytes.loadUnaligned(fromByteOffset: source + 4 * c, as: SIMD8<UInt32>.self)
                        var v = (w &<< 24) | ((w &<< 8) & 0x00FF_0000) | ((w &>> 8) & 0x0000_FF00) | (w &>> 24)
                        v.replace(with: nan, where: v .== missing)
                        UnsafeMutableRawPointer(target + c).storeBytes(of: v, as: SIMD8<UInt32>.self)
                        c += 8
                    }
                }
                for c in c..<columns {
                    let value = width == 4
                        ? Float(bitPattern: UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: source + 4 * c, as: UInt32.self)))
                        : Float(Double(bitPattern: UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: source + 8 * c, as: UInt64.self))))
                    (target + c).initialize(to: value == missingValue ? .nan : value)
                }
            }
            count = posts
        }
        return ElevationGrid(north: layout.north, west: layout.west, latitudeSpacing: layout.latitudeSpacing,
                             longitudeSpacing: layout.longitudeSpacing, rows: rows, columns: columns, heights: heights, boundsTerrain: false)
    }
}
