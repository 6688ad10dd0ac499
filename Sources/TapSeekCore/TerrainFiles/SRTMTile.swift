#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An SRTM height tile (`N27E086.hgt`, or zipped as `N27E086.hgt.zip`) read without GDAL.
///
/// The format (NASA's SRTM documentation, "SRTM Topography", 2003): a square of big-endian
/// signed 16-bit heights in metres above the EGM96 geoid, rows from north to south, 1201 × 1201
/// posts for 3″ tiles and 3601 × 3601 for 1″ tiles, posts on whole degrees at the edges
/// (pixel-is-point), −32768 for a void. Nothing in the file says where it is: its name gives the
/// latitude and longitude of its south-west post.
public struct SRTMTile: Sendable, Hashable {
    /// Latitude of the southern row of posts, whole degrees (negative south of the equator).
    public let south: Int
    /// Longitude of the western column of posts, whole degrees (negative west of Greenwich).
    public let west: Int
    /// Whether the tile is a zip archive holding the `.hgt` file.
    public let isZipped: Bool

    /// The value of a void post.
    public static let voidValue = Int16.min
    /// Posts per side of the two resolutions: 3″ and 1″.
    public static let postsPerSide = [1201, 3601]

    /// The tile a file name denotes: `N27E086.hgt`, `s38e178.hgt.zip` (any case, no folder);
    /// nil for any other name. These are the names GDAL's SRTMHGT driver accepts.
    public init?(fileName: String) {
        let upper = fileName.uppercased()
        let zipped = upper.hasSuffix(".HGT.ZIP")
        guard zipped || upper.hasSuffix(".HGT") else { return nil }
        let stem = Array(upper.utf8.prefix(7))
        guard upper.utf8.count == (zipped ? 15 : 11), stem.count == 7,
              stem[0] == UInt8(ascii: "N") || stem[0] == UInt8(ascii: "S"),
              stem[3] == UInt8(ascii: "E") || stem[3] == UInt8(ascii: "W"),
              let lat = Self.digits(stem[1..<3]), let lon = Self.digits(stem[4..<7]),
              lat <= 90, lon <= 180 else { return nil }
        south = stem[0] == UInt8(ascii: "N") ? lat : -lat
        west = stem[3] == UInt8(ascii: "E") ? lon : -lon
        isZipped = zipped
    }

    private static func digits(_ bytes: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for b in bytes {
            guard b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(b - UInt8(ascii: "0"))
        }
        return value
    }

    /// Posts per side for a `.hgt` file of `byteCount` bytes; nil when no SRTM resolution has that size.
    public static func postsPerSide(byteCount: Int) -> Int? {
        postsPerSide.first { $0 * $0 * 2 == byteCount }
    }

    /// Posts per side of the tile file at `path`, from its size (for a `.hgt.zip`, the size its
    /// directory gives the `.hgt` member) without reading any height; nil when the file cannot
    /// be examined or its size fits no SRTM resolution.
    public static func postsPerSide(ofFile path: String) -> Int? {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let tile = SRTMTile(fileName: name) else { return nil }
        if tile.isZipped {
            guard let archive = try? ZipMembers(path: path), let member = heightMember(of: archive, archiveName: name),
                  let size = archive.uncompressedSize(of: member) else { return nil }
            return postsPerSide(byteCount: size)
        }
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return postsPerSide(byteCount: Int(status.st_size))
    }

    /// The `.hgt` member of a zipped tile: the one named like the archive without `.zip`, else
    /// the only `.hgt` member (case ignored).
    static func heightMember(of archive: ZipMembers, archiveName: String) -> String? {
        let wanted = String(archiveName.dropLast(4)).uppercased()
        let candidates = archive.memberNames.filter { $0.uppercased().hasSuffix(".HGT") }
        return candidates.first { ($0.split(separator: "/").last.map(String.init) ?? $0).uppercased() == wanted }
            ?? (candidates.count == 1 ? candidates[0] : nil)
    }

    /// Reads the tile at `path` (a `.hgt` file or a `.hgt.zip` archive) as an ``ElevationGrid``,
    /// voids as NaN, with the same lattice GDAL's SRTMHGT driver reports for it.
    /// - Throws: ``TerrainFileError`` when the name is not a tile's, the file cannot be read, or
    ///   its size is not that of a tile.
    /// `boundsTerrain`: build the grid's pyramid (``ElevationGrid/boundingTerrain()`` builds it later).
    public static func readGrid(path: String, boundsTerrain: Bool = true) throws(TerrainFileError) -> ElevationGrid {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let tile = SRTMTile(fileName: name) else {
            throw TerrainFileError(path: path, message: "is not named like an SRTM tile (N27E086.hgt, N27E086.hgt.zip)")
        }
        let largest = postsPerSide.last! * postsPerSide.last! * 2
        let bytes: [UInt8]
        if tile.isZipped {
            do {
                let archive = try ZipMembers(path: path)
                guard let member = heightMember(of: archive, archiveName: name) else {
                    throw TerrainFileError(path: path, message: "holds no .hgt member")
                }
                bytes = try archive.contents(of: member, limit: largest)
            } catch let error as TerrainFileError {
                throw error
            } catch let error as ImportError {
                throw TerrainFileError(path: path, message: error.message)
            } catch {
                throw TerrainFileError(path: path, message: "\(error)")
            }
        } else {
            bytes = try FileBytes.read(path: path, limit: largest)
        }
        return try tile.grid(heights: bytes, path: path, boundsTerrain: boundsTerrain)
    }

    /// The grid of this tile from the raw bytes of its `.hgt` file.
    public func grid(heights bytes: [UInt8], path: String, boundsTerrain: Bool = true) throws(TerrainFileError) -> ElevationGrid {
        guard let n = Self.postsPerSide(byteCount: bytes.count) else {
            throw TerrainFileError(path: path, message: "\(bytes.count) bytes is not the size of a 1″ (3601² posts) or 3″ (1201² posts) SRTM tile")
        }
        let heights = [Float](unsafeUninitializedCapacity: n * n) { h, count in
            HugePages.advise(UnsafeMutableRawBufferPointer(h))
            bytes.withUnsafeBytes { b in
                // Sixteen posts at a time (bytes swapped by shifts, voids to NaN), then the rest.
                // Every Int16 is exact as a Float, so the void is found after the conversion.
                let void = SIMD16<Float>(repeating: Float(Self.voidValue)), nan = SIMD16<Float>(repeating: .nan)
                var i = 0
                while i + 16 <= n * n {
                    let w = b.loadUnaligned(fromByteOffset: 2 * i, as: SIMD16<UInt16>.self)
                    let posts = SIMD16<Int16>(truncatingIfNeeded: (w &<< 8) | (w &>> 8))
                    var values = SIMD16<Float>(posts)
                    values.replace(with: nan, where: values .== void)
                    UnsafeMutableRawPointer(h.baseAddress! + i).storeBytes(of: values, as: SIMD16<Float>.self)
                    i += 16
                }
                for i in i..<(n * n) {
                    let value = Int16(bitPattern: UInt16(bigEndian: b.loadUnaligned(fromByteOffset: 2 * i, as: UInt16.self)))
                    (h.baseAddress! + i).initialize(to: value == Self.voidValue ? .nan : Float(value))
                }
            }
            count = n * n
        }
        // GDAL's SRTMHGT driver writes the lattice as an area geotransform half a cell outside
        // the whole degrees, and its reader (TapSeekGDAL's RasterFile) moves back by half a cell.
        // The same arithmetic here gives bit-identical post coordinates, so that a grid read
        // either way gives byte-identical answers.
        let cell = 1.0 / Double(n - 1)
        let originWest = Double(west) - 0.5 / Double(n - 1)
        let originNorth = Double(south) + 1 + 0.5 / Double(n - 1)
        let rowStep = -1.0 / Double(n - 1)
        return ElevationGrid(north: originNorth + 0.5 * rowStep, west: originWest + 0.5 * cell,
                             latitudeSpacing: -rowStep, longitudeSpacing: cell, rows: n, columns: n, heights: heights,
                             boundsTerrain: boundsTerrain)
    }
}
