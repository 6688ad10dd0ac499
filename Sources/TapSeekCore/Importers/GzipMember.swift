/// The data of a gzip file (RFC 1952: one member, as tile servers send `.hgt.gz`), unpacked
/// with TapSeekCore's own DEFLATE decoder: no `gzip` program and no C library, so it works on
/// every platform.
public enum GzipMember {
    /// The unpacked bytes of `bytes` (a whole `.gz` file), their CRC-32 and length checked.
    /// - Parameters:
    ///   - name: the file, for messages.
    ///   - limit: the most bytes the data may unpack to; beyond it the file is refused (a gzip
    ///     bomb: 1 MB of zeros unpacks to 1 GB).
    /// - Throws: ``StreamReadError`` with one line naming the file: not gzip, an unknown
    ///   method, a damaged stream, a CRC or length mismatch, more than `limit` bytes.
    public static func unpack(_ bytes: [UInt8], name: String, limit: Int) throws(StreamReadError) -> [UInt8] {
        func damaged(_ why: String) -> StreamReadError { StreamReadError(message: "\(name): \(why)") }
        // Header: magic 1F 8B, method 8 (DEFLATE), flags, mtime, extra flags, OS (10 bytes);
        // then, as the flags say, an extra field, a name, a comment and a header CRC-16.
        guard bytes.count >= 18, bytes[0] == 0x1F, bytes[1] == 0x8B else { throw damaged("not gzip data") }
        guard bytes[2] == 8 else { throw damaged("gzip method \(bytes[2]) is not DEFLATE") }
        let flags = bytes[3]
        guard flags & 0xE0 == 0 else { throw damaged("gzip header has reserved flags set") }
        var at = 10
        if flags & 0x04 != 0 {
            guard at + 2 <= bytes.count else { throw damaged("gzip header is cut off") }
            at += 2 + Int(bytes[at]) | Int(bytes[at + 1]) << 8
        }
        for flag: UInt8 in [0x08, 0x10] where flags & flag != 0 {
            // A zero-terminated name or comment.
            while at < bytes.count, bytes[at] != 0 { at += 1 }
            at += 1
        }
        if flags & 0x02 != 0 { at += 2 }
        let trailer = bytes.count - 8
        guard at <= trailer else { throw damaged("gzip header is cut off") }

        var inflate = InflateSource(compressed: MemoryByteSource(Array(bytes[at..<trailer])), name: name)
        var output: [UInt8] = []
        var crc = CRC32()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            // The buffer's closure rethrows untyped errors: the typed one travels in a `Result`.
            let n = try chunk.withUnsafeMutableBytes { buffer in
                Result { () throws(StreamReadError) in try inflate.read(into: buffer) }
            }.get()
            if n == 0 { break }
            guard output.count + n <= limit else { throw damaged("gzip data unpacks to more than \(limit) bytes") }
            chunk.withUnsafeBytes { crc.update(UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
            output.append(contentsOf: chunk[0..<n])
        }
        func u32(_ i: Int) -> UInt32 { (0..<4).reduce(0) { $0 | UInt32(bytes[i + $1]) << (8 * $1) } }
        guard crc.value == u32(trailer), UInt32(truncatingIfNeeded: output.count) == u32(trailer + 4) else {
            throw damaged("damaged gzip data (CRC or length does not match its trailer)")
        }
        return output
    }
}
