import Foundation

/// The checks a downloaded tile must pass before it takes its place in the DEM directory.
public enum SRTMTileFile {
    /// Bytes of an SRTM HGT file: big-endian int16 posts, 3″ (1201²) or 1″ (3601²) per tile
    /// (NASA SRTM V3 user guide; the skadi tiles are the 1″ kind).
    public static let validByteCounts: [Int64] = [1201 * 1201 * 2, 3601 * 3601 * 2]

    /// The most bytes a tile download (raw, zip or gzip) or an unpacked gzip may have: the
    /// largest tile, 3601²×2 = 25 934 402 bytes, plus 64 KiB for a container's headers (a
    /// stored zip adds about 100 bytes; compression only shrinks a tile). Anything longer is
    /// not a tile, whatever the server says: an endless response or a gzip bomb stops here
    /// instead of filling the disk.
    public static let maximumFileBytes: Int64 = 3601 * 3601 * 2 + 65_536

    /// What a file holds, told by its first bytes (gzip: 1F 8B, RFC 1952; zip: "PK\u{3}\u{4}").
    public enum Content: Sendable, Hashable {
        /// Raw HGT (anything that is neither gzip nor zip is taken for it and size-checked).
        case hgt
        /// A gzip stream, e.g. a skadi `.hgt.gz`.
        case gzip
        /// A zip archive, e.g. `.hgt.zip`.
        case zip
    }

    /// Sniffs the content of the file at `path` from its first bytes.
    public static func content(ofFileAt path: String) -> Content {
        guard let handle = FileHandle(forReadingAtPath: path) else { return .hgt }
        defer { try? handle.close() }
        let head = [UInt8]((try? handle.read(upToCount: 4)) ?? Data())
        if head.count >= 2, head[0] == 0x1F, head[1] == 0x8B { return .gzip }
        if head.count >= 4, head[0] == 0x50, head[1] == 0x4B, head[2] == 0x03, head[3] == 0x04 { return .zip }
        return .hgt
    }

    /// Why a byte count is not a tile's, or nil when it is one.
    public static func sizeProblem(_ bytes: Int64) -> String? {
        validByteCounts.contains(bytes) ? nil
            : "\(bytes) bytes is neither 1201²×2 (\(validByteCounts[0])) nor 3601²×2 (\(validByteCounts[1])) bytes"
    }

    /// Why the zip archive at `path` is not a tile GDAL's HGT driver reads as `NAME.hgt.zip`,
    /// or nil when it is one: it must hold `NAME.hgt` at its top level, stored or deflated,
    /// of a valid size. Reads only the archive's central directory.
    public static func zipProblem(atPath path: String, tile: SRTMTileName) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return "cannot be read" }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), size >= 22 else { return "is too short for a zip archive" }
        // The end-of-central-directory record sits in the last 22 bytes plus a comment ≤ 65 535.
        let tailLength = min(size, 22 + 65_535)
        guard (try? handle.seek(toOffset: size - tailLength)) != nil,
              let tail = try? handle.read(upToCount: Int(tailLength)) else { return "cannot be read" }
        let bytes = [UInt8](tail)
        var end = -1
        var i = bytes.count - 22
        while i >= 0 {
            if bytes.littleEndian32(at: i) == 0x0605_4B50 { end = i; break }
            i -= 1
        }
        guard end >= 0 else { return "has no zip central directory" }
        let count = Int(bytes.littleEndian16(at: end + 10))
        let directorySize = UInt64(bytes.littleEndian32(at: end + 12))
        let directoryOffset = UInt64(bytes.littleEndian32(at: end + 16))
        guard directoryOffset + directorySize <= size,
              (try? handle.seek(toOffset: directoryOffset)) != nil,
              let directoryData = try? handle.read(upToCount: Int(directorySize)) else {
            return "has a damaged zip central directory"
        }
        let directory = [UInt8](directoryData)
        let wanted = "\(tile).hgt"
        var names: [String] = []
        var at = 0
        for _ in 0..<count {
            guard at + 46 <= directory.count, directory.littleEndian32(at: at) == 0x0201_4B50 else {
                return "has a damaged zip central directory"
            }
            let method = directory.littleEndian16(at: at + 10)
            let uncompressed = Int64(directory.littleEndian32(at: at + 24))
            let nameLength = Int(directory.littleEndian16(at: at + 28))
            let extraLength = Int(directory.littleEndian16(at: at + 30))
            let commentLength = Int(directory.littleEndian16(at: at + 32))
            guard at + 46 + nameLength <= directory.count else { return "has a damaged zip central directory" }
            let name = String(decoding: directory[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self)
            if name == wanted {
                // 0 stored, 8 deflated: the methods GDAL's /vsizip/ reads.
                guard method == 0 || method == 8 else { return "stores \(wanted) with zip method \(method)" }
                if let problem = sizeProblem(uncompressed) { return "holds \(wanted) of \(problem)" }
                return nil
            }
            names.append(name)
            at += 46 + nameLength + extraLength + commentLength
        }
        let listed = names.prefix(3).joined(separator: ", ")
        return "holds no \(wanted) (has \(names.isEmpty ? "nothing" : listed))"
    }
}

private extension [UInt8] {
    func littleEndian16(at i: Int) -> UInt16 { UInt16(self[i]) | UInt16(self[i + 1]) << 8 }
    func littleEndian32(at i: Int) -> UInt32 {
        UInt32(self[i]) | UInt32(self[i + 1]) << 8 | UInt32(self[i + 2]) << 16 | UInt32(self[i + 3]) << 24
    }
}
