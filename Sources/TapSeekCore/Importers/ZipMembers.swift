#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The members of a zip archive (Sensor Logger's and phyphox's "export as zip"), each streamed
/// and decompressed on the fly (stored or DEFLATE members; ZIP64 archives too), its CRC-32
/// checked at the end. Read from the central directory (APPNOTE.TXT 6.3: end record, optional
/// ZIP64 end record, central directory entries), so data descriptors need no special case.
public struct ZipMembers: LogMembers {
    /// The archive's files (folders left out), in directory order.
    public let memberNames: [String]
    private let archive: Archive
    private let entries: [String: Entry]

    /// Whether the file at `path` starts like a zip archive (local header signature `PK\3\4`, or
    /// the end record of an empty archive).
    public static func isZip(path: String) -> Bool {
        guard let archive = try? Archive(path: path), let head = try? archive.bytes(at: 0, count: 4) else { return false }
        let signature = UInt32(head[0]) | UInt32(head[1]) << 8 | UInt32(head[2]) << 16 | UInt32(head[3]) << 24
        return signature == Signature.localHeader || signature == Signature.endOfCentralDirectory
    }

    /// Reads the archive's directory.
    /// - Throws: `.unreadable` naming the archive when it cannot be opened or is not a valid zip.
    public init(path: String) throws(ImportError) {
        do {
            archive = try Archive(path: path)
            let list = try archive.centralDirectory()
            var entries: [String: Entry] = [:]
            for entry in list where !entry.name.hasSuffix("/") && entries[entry.name] == nil {
                entries[entry.name] = entry
            }
            self.entries = entries
            memberNames = list.map(\.name).filter { entries[$0] != nil }
        } catch {
            throw ImportError(.unreadable, error.message)
        }
    }

    /// Streams the decompressed lines of member `name`; a damaged member fails when its end is read.
    public func lines(of name: String) throws(ImportError) -> LineReader {
        guard let entry = entries[name] else { throw ImportError(.unreadable, "\(archive.path): no member \(name)") }
        do {
            return LineReader(source: try archive.stream(entry))
        } catch {
            throw ImportError(.unreadable, error.message)
        }
    }

    /// Streams the decompressed bytes of member `name`, its CRC-32 checked at the end.
    public func bytes(of name: String) throws(ImportError) -> any ByteSource {
        guard let entry = entries[name] else { throw ImportError(.unreadable, "\(archive.path): no member \(name)") }
        do {
            return try archive.stream(entry)
        } catch {
            throw ImportError(.unreadable, error.message)
        }
    }

    /// The decompressed size the archive's directory gives for member `name`; nil when absent.
    public func uncompressedSize(of name: String) -> Int? { entries[name]?.uncompressedSize }

    /// The whole decompressed member `name`, its CRC-32 and length checked.
    /// - Throws: `.unreadable` when the member is absent, damaged, or larger than `limit` bytes.
    public func contents(of name: String, limit: Int) throws(ImportError) -> [UInt8] {
        guard let entry = entries[name] else { throw ImportError(.unreadable, "\(archive.path): no member \(name)") }
        guard entry.uncompressedSize <= limit else {
            throw ImportError(.unreadable, "\(archive.path): \(name) holds \(entry.uncompressedSize) bytes, more than \(limit)")
        }
        do throws(StreamReadError) {
            var source = try archive.stream(entry)
            // One byte more than the directory promises, so that a longer stream is caught by the
            // length check at its end rather than cut short.
            var out = [UInt8](repeating: 0, count: entry.uncompressedSize + 1)
            var filled = 0
            while true {
                let result = out.withUnsafeMutableBytes { raw in
                    Result { () throws(StreamReadError) in
                        try source.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[filled...]))
                    }
                }
                let n = try result.get()
                if n == 0 { break }
                filled += n
                guard filled < out.count else { throw StreamReadError(message: "\(archive.path): \(name): damaged (longer than the archive directory says)") }
            }
            out.removeLast(out.count - filled)
            return out
        } catch {
            throw ImportError(.unreadable, error.message)
        }
    }

    private enum Signature {
        static let localHeader: UInt32 = 0x0403_4B50
        static let centralHeader: UInt32 = 0x0201_4B50
        static let endOfCentralDirectory: UInt32 = 0x0605_4B50
        static let zip64End: UInt32 = 0x0606_4B50
        static let zip64Locator: UInt32 = 0x0706_4B50
    }

    /// One member as the central directory describes it.
    struct Entry {
        var name: String
        var method: Int
        var flags: Int
        var crc: UInt32
        var compressedSize: Int
        var uncompressedSize: Int
        var localHeaderOffset: Int
    }

    /// The open archive file; a class so that it closes once, when the last member stream is done.
    final class Archive {
        let path: String
        private let descriptor: Int32
        let size: Int

        init(path: String) throws(StreamReadError) {
            self.path = path
            descriptor = open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw StreamReadError(message: "cannot open \(path): \(String(cString: strerror(errno)))") }
            let end = lseek(descriptor, 0, SEEK_END)
            guard end >= 0 else {
                close(descriptor)
                throw StreamReadError(message: "cannot seek in \(path): \(String(cString: strerror(errno)))")
            }
            size = Int(end)
        }

        deinit { close(descriptor) }

        /// Up to `count` bytes at `offset` (fewer at the end of the file).
        func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws(StreamReadError) -> Int {
            while true {
                let n = pread(descriptor, buffer.baseAddress, buffer.count, off_t(offset))
                if n >= 0 { return n }
                if errno == EINTR { continue }
                throw StreamReadError(message: "cannot read \(path): \(String(cString: strerror(errno)))")
            }
        }

        /// Exactly `count` bytes at `offset`.
        func bytes(at offset: Int, count: Int) throws(StreamReadError) -> [UInt8] {
            guard offset >= 0, count >= 0, offset <= size, count <= size - offset else {
                throw corrupt("a record runs past the end of the file")
            }
            var out = [UInt8](repeating: 0, count: count)
            var done = 0
            while done < count {
                let result = out.withUnsafeMutableBytes { raw in
                    Result { () throws(StreamReadError) in
                        try self.read(at: offset + done, into: UnsafeMutableRawBufferPointer(rebasing: raw[done...]))
                    }
                }
                let n = try result.get()
                guard n > 0 else { throw corrupt("unexpected end of file") }
                done += n
            }
            return out
        }

        func corrupt(_ why: String) -> StreamReadError {
            StreamReadError(message: "\(path): not a readable zip archive (\(why))")
        }

        /// The end-of-central-directory record is at most 22 + 65 535 (comment) bytes from the end.
        func centralDirectory() throws(StreamReadError) -> [Entry] {
            let tailLength = min(size, 22 + 0xFFFF)
            let tail = try bytes(at: size - tailLength, count: tailLength)
            guard tailLength >= 22,
                  let end = stride(from: tailLength - 22, through: 0, by: -1).first(where: { u32(tail, $0) == Signature.endOfCentralDirectory })
            else { throw corrupt("no end of central directory record") }
            var count = Int(u16(tail, end + 10))
            var directorySize = Int(u32(tail, end + 12))
            var directoryOffset = Int(u32(tail, end + 16))
            let endOffset = size - tailLength + end
            if count == 0xFFFF || directorySize == 0xFFFF_FFFF || directoryOffset == 0xFFFF_FFFF, endOffset >= 20 {
                let locator = try bytes(at: endOffset - 20, count: 20)
                if u32(locator, 0) == Signature.zip64Locator {
                    let record = try bytes(at: int(u64(locator, 8)), count: 56)
                    guard u32(record, 0) == Signature.zip64End else { throw corrupt("bad ZIP64 end record") }
                    count = int(u64(record, 32))
                    directorySize = int(u64(record, 40))
                    directoryOffset = int(u64(record, 48))
                }
            }
            let directory = try bytes(at: directoryOffset, count: directorySize)
            var entries: [Entry] = []
            var p = 0
            for _ in 0..<count {
                guard p + 46 <= directory.count, u32(directory, p) == Signature.centralHeader else {
                    throw corrupt("bad central directory entry \(entries.count + 1)")
                }
                let nameLength = Int(u16(directory, p + 28)), extraLength = Int(u16(directory, p + 30))
                let commentLength = Int(u16(directory, p + 32))
                guard p + 46 + nameLength + extraLength + commentLength <= directory.count else {
                    throw corrupt("central directory entry \(entries.count + 1) runs past the directory")
                }
                var entry = Entry(
                    name: String(decoding: directory[(p + 46)..<(p + 46 + nameLength)], as: UTF8.self),
                    method: Int(u16(directory, p + 10)), flags: Int(u16(directory, p + 8)), crc: u32(directory, p + 16),
                    compressedSize: Int(u32(directory, p + 20)), uncompressedSize: Int(u32(directory, p + 24)),
                    localHeaderOffset: Int(u32(directory, p + 42)))
                readZip64Extra(directory, from: p + 46 + nameLength, length: extraLength, into: &entry)
                entries.append(entry)
                p += 46 + nameLength + extraLength + commentLength
            }
            return entries
        }

        /// ZIP64 extended information (header 0x0001) holds, in this order, whichever of the
        /// uncompressed size, compressed size and offset are 0xFFFFFFFF in the fixed fields.
        private func readZip64Extra(_ d: [UInt8], from start: Int, length: Int, into entry: inout Entry) {
            var p = start
            while p + 4 <= start + length {
                let id = u16(d, p), size = Int(u16(d, p + 2))
                // The field's own size may lie; never read past the extra block.
                let end = min(p + 4 + size, start + length)
                if id == 0x0001 {
                    var q = p + 4
                    if entry.uncompressedSize == 0xFFFF_FFFF, q + 8 <= end { entry.uncompressedSize = int(u64(d, q)); q += 8 }
                    if entry.compressedSize == 0xFFFF_FFFF, q + 8 <= end { entry.compressedSize = int(u64(d, q)); q += 8 }
                    if entry.localHeaderOffset == 0xFFFF_FFFF, q + 8 <= end { entry.localHeaderOffset = int(u64(d, q)) }
                }
                p += 4 + size
            }
        }

        /// The member's decompressed bytes, checked against its CRC-32 at the end.
        func stream(_ entry: Entry) throws(StreamReadError) -> MemberSource {
            let label = "\(path): \(entry.name)"
            guard entry.flags & 1 == 0 else { throw StreamReadError(message: "\(label) is encrypted") }
            let local = try bytes(at: entry.localHeaderOffset, count: 30)
            guard u32(local, 0) == Signature.localHeader else { throw corrupt("bad local header of \(entry.name)") }
            let dataStart = entry.localHeaderOffset + 30 + Int(u16(local, 26)) + Int(u16(local, 28))
            guard dataStart <= size, entry.compressedSize <= size - dataStart else {
                throw corrupt("\(entry.name) runs past the end of the file")
            }
            let raw = RawRange(archive: self, offset: dataStart, remaining: entry.compressedSize)
            let content: any ByteSource
            switch entry.method {
            case 0: content = raw
            case 8: content = InflateSource(compressed: raw, name: label)
            default: throw StreamReadError(message: "\(label) uses compression method \(entry.method); only stored and deflate are supported")
            }
            return MemberSource(content: content, expectedCRC: entry.crc, expectedSize: entry.uncompressedSize, label: label)
        }
    }

    /// A byte range of the archive file.
    struct RawRange: ByteSource {
        let archive: Archive
        var offset: Int
        var remaining: Int

        mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(StreamReadError) -> Int {
            guard remaining > 0 else { return 0 }
            let n = try archive.read(at: offset, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<min(buffer.count, remaining)]))
            guard n > 0 else { throw archive.corrupt("unexpected end of file") }
            offset += n
            remaining -= n
            return n
        }
    }

    /// A member's bytes with their CRC-32 and length checked when the stream ends, so that a
    /// damaged archive is reported rather than read as a shorter or altered log.
    struct MemberSource: ByteSource {
        var content: any ByteSource
        let expectedCRC: UInt32
        let expectedSize: Int
        let label: String
        var crc = CRC32()
        var size = 0

        mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(StreamReadError) -> Int {
            let n = try content.read(into: buffer)
            if n == 0 {
                guard size == expectedSize, crc.value == expectedCRC else {
                    throw StreamReadError(message: "\(label): damaged (CRC or length does not match the archive directory)")
                }
                return 0
            }
            crc.update(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            size += n
            return n
        }
    }
}

/// CRC-32 of ISO 3309 / ITU-T V.42 (polynomial 0xEDB88320 reflected), as zip stores it.
struct CRC32 {
    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    private var state: UInt32 = 0xFFFF_FFFF

    var value: UInt32 { state ^ 0xFFFF_FFFF }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var c = state
        for b in bytes { c = Self.table[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        state = c
    }
}

private func u16(_ b: [UInt8], _ i: Int) -> UInt16 { UInt16(b[i]) | UInt16(b[i + 1]) << 8 }
private func u32(_ b: [UInt8], _ i: Int) -> UInt32 {
    UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
}
private func u64(_ b: [UInt8], _ i: Int) -> UInt64 { UInt64(u32(b, i)) | UInt64(u32(b, i + 4)) << 32 }
/// A 64-bit size or offset from the file; values past `Int.max` (only in damaged archives)
/// become `Int.max`, which every bounds check then rejects.
private func int(_ v: UInt64) -> Int { Int(exactly: v) ?? .max }
