import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tile's filled voids kept on disk, so that ``VoidFill`` solves them once per tile file
/// rather than on every load (about 195 M instructions, a third of a batch's work, for the
/// 3″ tile N46E008 with its 3 286 voids).
///
/// One file a tile, a *patch*: the row-major indices and heights (`Float`, to the bit) of the
/// posts the fill gave a height, the number of voids the grid had as read and a digest of its
/// every post as read (the fill depends on the known posts around each void too, and a reader
/// that changes them — another GDAL reprojecting a raster — leaves the file's identity as it was). Applied to the
/// grid as read it restores exactly the grid and filled mask ``ElevationGrid/fillingVoids(within:)``
/// makes; a fill of part of the tile (``VoidFillArea``) fills each of its voids to the bit as the
/// whole fill does, so the patch serves any area.
///
/// The file is named by a hash of its *key*, which it also holds in full: the source file's
/// identity (canonical path, size, modification time in nanoseconds, inode and device), the
/// window of the file the grid is, the grid's shape and spacing, the heights' datum conversion
/// (with the identity of its geoid grids), the fill's parameters (reach, tolerance) and
/// ``fillVersion``. A patch is used only when its key, its length, its checksum and the grid agree:
/// every patched post must be a void of the grid as read, and the grid must have as many voids
/// and the same digest as the patch says. Anything else (another file, a damaged or truncated patch, a changed fill)
/// and the tile is filled as it would be without a cache. Patches are written to a temporary
/// file and renamed into place, so that two processes filling the same tile at once leave one
/// whole patch; a directory that cannot be made or written means no cache, silently.
public struct VoidFillCache: Sendable {
    /// The environment variable naming the cache directory; `off` disables the cache.
    public static let environmentVariable = "TAPSEEK_CACHE_DIR"

    /// The version of the fill's numbers. **Bump it whenever a change to ``VoidFill`` or
    /// ``DenseLaplace`` may change any filled post's bits** (solver, stop, tolerance, the rim's
    /// start, the order voids are taken in): patches written by an earlier version are then
    /// ignored (and rewritten), never applied.
    public static let fillVersion = 1

    /// The directory holding the patches (made when the first patch is written).
    public let directory: URL

    public init(directory: URL) {
        self.directory = directory
    }

    /// The cache of this environment: `$TAPSEEK_CACHE_DIR` if set (`off` disables it), else
    /// `$XDG_CACHE_HOME/tapseek`, else `$HOME/.cache/tapseek`; nil when disabled or when no
    /// variable names a place.
    public init?(environment: [String: String] = ProcessInfo.processInfo.environment) {
        func set(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        if let path = set(Self.environmentVariable) {
            guard path != "off" else { return nil }
            self.init(directory: URL(fileURLWithPath: path))
        } else if let path = set("XDG_CACHE_HOME") {
            self.init(directory: URL(fileURLWithPath: path).appendingPathComponent("tapseek"))
        } else if let home = set("HOME") {
            self.init(directory: URL(fileURLWithPath: home).appendingPathComponent(".cache/tapseek"))
        } else {
            return nil
        }
    }

    /// What a patch belongs to: the text of its key (held in the file) and the file's name.
    struct Key: Sendable, Hashable {
        let text: String
        let fileName: String
    }

    /// The key of the fill of `grid`, read from `path` (its `window`, if any), with heights
    /// converted through the geoid grids `datumFiles` (none for heights as stored), filled
    /// within `reach` metres to `tolerance`; nil when a file cannot be examined.
    static func key(path: String, window: DEMTile.Window?, datumFiles: [String], grid: ElevationGrid,
                    reach: Double = VoidFill.maximumReach, tolerance: Double = VoidFill.tolerance) -> Key? {
        guard let source = identity(of: path) else { return nil }
        var text = "tapseek void fill\nfill-version \(fillVersion)\n"
        text += "reach \(hex(reach)) tolerance \(hex(tolerance))\n"
        text += "source \(source)\n"
        if let w = window { text += "window \(w.row) \(w.column) \(w.rows) \(w.columns)\n" }
        text += "grid \(grid.rows) \(grid.columns) \(hex(grid.north)) \(hex(grid.west)) \(hex(grid.latitudeSpacing)) \(hex(grid.longitudeSpacing))\n"
        for file in datumFiles {
            guard let geoid = identity(of: file) else { return nil }
            text += "datum \(geoid)\n"
        }
        let name = ((path as NSString).lastPathComponent as String).filter { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_" }
        let digest = String(Checksum.of(Array(text.utf8)), radix: 16)
        return Key(text: text, fileName: "\(name.prefix(64))-\(digest).voidfill")
    }

    /// A double's bits, so that the key holds it exactly.
    private static func hex(_ x: Double) -> String { String(x.bitPattern, radix: 16) }

    /// A file's canonical path, size, modification time (ns), inode and device; nil when it
    /// cannot be examined.
    static func identity(of path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        var status = stat()
        guard stat(resolved, &status) == 0 else { return nil }
        #if canImport(Darwin)
        let time = status.st_mtimespec
        #else
        let time = status.st_mtim
        #endif
        let nanoseconds = Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
        return "\(String(cString: resolved)) size \(status.st_size) mtime-ns \(nanoseconds) inode \(status.st_ino) device \(status.st_dev)"
    }

    /// Where the patch of `key` lives.
    func url(of key: Key) -> URL { directory.appendingPathComponent(key.fileName) }

    /// `grid` (as read, voids NaN) with the patch of `key` applied: exactly what its
    /// ``ElevationGrid/fillingVoids(within:)`` gives; nil when there is no patch or it does not
    /// fit (damaged, truncated, another key, a patched post that is not a void, another void
    /// count, other posts as read).
    func filled(_ grid: ElevationGrid, key: Key) -> ElevationGrid? {
        patch(fitting: grid, key: key)?.applied(to: grid)
    }

    /// The patch of `key` when there is one and it fits `grid` as read (``Patch/fits(_:)``).
    func patch(fitting grid: ElevationGrid, key: Key) -> Patch? {
        guard let data = FileManager.default.contents(atPath: url(of: key).path),
              let patch = Patch(data, key: key), patch.fits(grid) else { return nil }
        return patch
    }

    /// Writes the patch that turns `grid` (as read) into `filled` (its ``ElevationGrid/fillingVoids(within:)``).
    /// Any failure leaves no file and says nothing: the cache is only an optimisation.
    func store(_ filled: ElevationGrid, readAs grid: ElevationGrid, key: Key) {
        guard let data = Patch(filled: filled, readAs: grid)?.encoded(key: key) else { return }
        CacheFile.write(data, named: key.fileName, in: directory)
    }

    /// The posts a fill gave heights, and the voids of the grid it filled.
    struct Patch: Equatable {
        /// Posts of the grid (rows × columns).
        var posts: Int
        /// Voids of the grid as read.
        var voids: Int
        /// ``Checksum/ofPosts(_:)`` of the grid as read.
        var digest: UInt64
        /// Row-major indices of the filled posts, ascending.
        var indices: [UInt32]
        /// Their heights' bits.
        var heights: [UInt32]

        /// The file's first bytes (its format's version is the last).
        static let magic = Array("TSVOIDS1".utf8)

        /// The patch of a fill: nil when the grid is too large for 32-bit indices.
        init?(filled: ElevationGrid, readAs grid: ElevationGrid) {
            let n = grid.heights.count
            guard n <= Int(UInt32.max), filled.heights.count == n else { return nil }
            posts = n
            voids = grid.voidCount
            digest = Checksum.ofPosts(grid.heights)
            indices = []
            heights = []
            guard let mask = filled.filled else { return }
            indices.reserveCapacity(mask.count)
            heights.reserveCapacity(mask.count)
            var fits = true
            grid.heights.withUnsafeBufferPointer { before in
                filled.heights.withUnsafeBufferPointer { after in
                    mask.forEach { i in
                        fits = fits && before[i].isNaN
                        indices.append(UInt32(i))
                        heights.append(after[i].bitPattern)
                    }
                }
            }
            // Filled posts are voids of the grid as read; anything else is no fill of it.
            guard fits else { return nil }
        }

        /// magic, key length (UInt32) and key, posts, voids, digest and filled posts (UInt64 each), the
        /// indices and the heights (UInt32 each), a checksum of all before it (UInt64);
        /// little-endian.
        func encoded(key: Key) -> Data {
            var bytes = Self.magic
            let keyBytes = Array(key.text.utf8)
            func put<T: FixedWidthInteger>(_ v: T) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
            put(UInt32(keyBytes.count))
            bytes += keyBytes
            put(UInt64(posts))
            put(UInt64(voids))
            put(digest)
            put(UInt64(indices.count))
            bytes.reserveCapacity(bytes.count + 8 * indices.count + 8)
            #if _endian(little)
            // The words as they lie in memory (a value at a time cost 14 M instructions for N46E008).
            indices.withUnsafeBytes { bytes += $0 }
            heights.withUnsafeBytes { bytes += $0 }
            #else
            for i in indices { put(i) }
            for h in heights { put(h) }
            #endif
            put(Checksum.of(bytes))
            return Data(bytes)
        }

        /// The patch a file holds, when it is whole and has this key.
        init?(_ data: Data, key: Key) {
            let keyBytes = Array(key.text.utf8)
            let head = Self.magic.count + 4 + keyBytes.count + 32
            guard data.count >= head + 8 else { return nil }
            let parsed: Patch? = data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Patch? in
                func read<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T { T(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: T.self)) }
                guard raw.prefix(Self.magic.count).elementsEqual(Self.magic),
                      read(Self.magic.count, UInt32.self) == UInt32(keyBytes.count),
                      raw[(Self.magic.count + 4)..<(Self.magic.count + 4 + keyBytes.count)].elementsEqual(keyBytes) else { return nil }
                let posts = read(head - 32, UInt64.self), voids = read(head - 24, UInt64.self)
                let digest = read(head - 16, UInt64.self), count = read(head - 8, UInt64.self)
                guard posts <= UInt64(UInt32.max), voids <= posts, count <= voids,
                      raw.count == head + 8 * Int(count) + 8,
                      read(raw.count - 8, UInt64.self) == Checksum.of(UnsafeRawBufferPointer(rebasing: raw[..<(raw.count - 8)])) else { return nil }
                let n = Int(count)
                let indices = [UInt32](unsafeUninitializedCapacity: n) { b, done in
                    for k in 0..<n { b[k] = read(head + 4 * k, UInt32.self) }
                    done = n
                }
                let heights = [UInt32](unsafeUninitializedCapacity: n) { b, done in
                    for k in 0..<n { b[k] = read(head + 4 * (n + k), UInt32.self) }
                    done = n
                }
                return Patch(posts: Int(posts), voids: Int(voids), digest: digest, indices: indices, heights: heights)
            }
            guard let parsed else { return nil }
            self = parsed
        }

        init(posts: Int, voids: Int, digest: UInt64, indices: [UInt32], heights: [UInt32]) {
            self.posts = posts
            self.voids = voids
            self.digest = digest
            self.indices = indices
            self.heights = heights
        }

        /// Whether the patch fits `grid` as read: the same number of posts and voids, the same
        /// posts (digest), indices ascending and each on a void, heights that are numbers.
        func fits(_ grid: ElevationGrid) -> Bool {
            guard grid.heights.count == posts, grid.voidCount == voids, Checksum.ofPosts(grid.heights) == digest else { return false }
            return grid.heights.withUnsafeBufferPointer { h -> Bool in
                var previous = -1
                for (i, bits) in zip(indices, heights) {
                    let i = Int(i)
                    guard i > previous, i < h.count, h[i].isNaN, !Float(bitPattern: bits).isNaN else { return false }
                    previous = i
                }
                return true
            }
        }

        /// `grid` as read, which the patch ``fits(_:)``, with the patch's heights and mask. The
        /// heights are written in place when `grid` alone holds them, as a tile just read does:
        /// a copy of a 62 km window's posts cost a millisecond of a viewshed's set-up, most of it
        /// in clearing the new pages.
        func applied(to grid: consuming ElevationGrid) -> ElevationGrid {
            guard !indices.isEmpty else { return grid }
            var mask = PostMask(count: posts)
            for i in indices { mask.insert(Int(i)) }
            let extent = extent(after: grid)
            let (north, west, rows, columns) = (grid.north, grid.west, grid.rows, grid.columns)
            let (latitudeSpacing, longitudeSpacing) = (grid.latitudeSpacing, grid.longitudeSpacing)
            var patched = (consume grid).heights
            patched.withUnsafeMutableBufferPointer { b in
                for (i, bits) in zip(indices, heights) { b[Int(i)] = Float(bitPattern: bits) }
            }
            return ElevationGrid(north: north, west: west, latitudeSpacing: latitudeSpacing, longitudeSpacing: longitudeSpacing,
                                 rows: rows, columns: columns, heights: patched, filled: mask, extent: extent)
        }

        /// The extent of `grid`'s posts with the patch's heights put in, from the grid's own and
        /// the patch's few heights instead of a pass over the tile (2.3 M instructions on a
        /// 62 km window). Nil, to measure it, when an extreme is a zero: which of +0 and −0 a
        /// pass keeps depends on where they lie.
        private func extent(after grid: ElevationGrid) -> (lowest: Float, highest: Float, voids: Int)? {
            var lowest = Float.infinity, highest = -Float.infinity
            for bits in heights {
                let v = Float(bitPattern: bits)
                if v < lowest { lowest = v }
                if v > highest { highest = v }
            }
            let voids = grid.voidCount
            if voids < grid.heights.count {
                lowest = min(lowest, grid.minimumHeight)
                highest = max(highest, grid.maximumHeight)
            }
            guard lowest != 0, highest != 0 else { return nil }
            return (lowest, highest, voids - indices.count)
        }
    }

    /// A 64-bit checksum of bytes, eight at a time (multiply and fold): catches a damaged or
    /// partly written patch at a fraction of a millisecond for a tile's.
    enum Checksum {
        static func of(_ bytes: [UInt8]) -> UInt64 { bytes.withUnsafeBytes { of($0) } }

        /// A digest of a grid's posts (their bits, voids included), eight lanes at a time: a 3″
        /// tile's 1.4 M posts in about 2 M instructions, where the fill it stands for takes 200 M.
        static func ofPosts(_ heights: [Float]) -> UInt64 {
            heights.withUnsafeBytes { raw in
                var lanes = SIMD8<UInt32>(0x9E37_79B9, 0x7F4A_7C15, 0x85EB_CA6B, 0xC2B2_AE35, 0x27D4_EB2F, 0x1656_67B1, 0xD3A2_646C, 0xFD70_46C5)
                let multiplier = SIMD8<UInt32>(repeating: 0x2C1B_3C6D)
                var i = 0
                while i + 32 <= raw.count {
                    lanes = (lanes ^ raw.loadUnaligned(fromByteOffset: i, as: SIMD8<UInt32>.self)) &* multiplier
                    lanes ^= lanes &>> 15
                    i += 32
                }
                var tail = [UInt8](repeating: 0, count: 32)
                for k in i..<raw.count { tail[k - i] = raw[k] }
                var h = UInt64(raw.count)
                for k in 0..<8 { h = (h ^ UInt64(lanes[k])) &* 0xFF51_AFD7_ED55_8CCD; h ^= h >> 29 }
                return h ^ of(tail)
            }
        }

        static func of(_ raw: UnsafeRawBufferPointer) -> UInt64 {
            var h: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(raw.count)
            var i = 0
            while i + 8 <= raw.count {
                h = (h ^ raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)) &* 0xFF51_AFD7_ED55_8CCD
                h ^= h >> 29
                i += 8
            }
            var last: UInt64 = 0
            while i < raw.count {
                last = last << 8 | UInt64(raw[i])
                i += 1
            }
            h = (h ^ last) &* 0xC4CE_B9FE_1A85_EC53
            return h ^ h >> 32
        }
    }
}
