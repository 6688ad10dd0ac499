/// A minimal PNG encoder for 8-bit RGBA images: the relief under `tapseek report`'s map.
///
/// The image data is wrapped in zlib *stored* (uncompressed) blocks rather than compressed: a
/// relief of 1 200 × 1 200 pixels is 5.8 MB raw, 7.7 MB as base64 in the page, well inside the
/// report's 50 MB budget; an own DEFLATE would add a few hundred lines for a factor of about two,
/// and no compression library may be linked (TapSeekCore depends on nothing but Swift and
/// Foundation). Stored blocks, CRC-32 (ISO 3309, as PNG requires) and Adler-32 (RFC 1950) are
/// all that a valid file needs, and every browser decodes it.
public enum PNGEncoder {
    /// The PNG file of an image `width` × `height` pixels whose `rgba` holds 4 bytes a pixel, rows
    /// top to bottom.
    /// - Precondition: `rgba.count == width * height * 4`, both sides at least 1.
    public static func encode(rgba: [UInt8], width: Int, height: Int) -> [UInt8] {
        precondition(width >= 1 && height >= 1 && rgba.count == width * height * 4, "PNG: pixel count does not match the size")
        var raw: [UInt8] = []
        let rowBytes = width * 4
        raw.reserveCapacity((rowBytes + 1) * height)
        for y in 0..<height {
            raw.append(0)  // filter type None
            raw.append(contentsOf: rgba[(y * rowBytes)..<((y + 1) * rowBytes)])
        }
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header += [8, 6, 0, 0, 0]  // 8 bits per channel, RGBA, deflate, adaptive filters, no interlace
        appendChunk("IHDR", header, to: &file)
        appendChunk("IDAT", zlibStored(raw), to: &file)
        appendChunk("IEND", [], to: &file)
        return file
    }

    /// A zlib stream (RFC 1950) of `data` in stored DEFLATE blocks (RFC 1951, BTYPE 00) of at
    /// most 65 535 bytes each.
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]  // deflate, 32 KiB window, no dictionary; 0x7801 % 31 == 0
        out.reserveCapacity(data.count + data.count / 65_535 * 5 + 16)
        var start = 0
        repeat {
            let count = min(65_535, data.count - start)
            let last: UInt8 = start + count == data.count ? 1 : 0
            out.append(last)
            out.append(UInt8(count & 0xFF))
            out.append(UInt8(count >> 8))
            out.append(UInt8(~count & 0xFF))
            out.append(UInt8((~count >> 8) & 0xFF))
            out.append(contentsOf: data[start..<(start + count)])
            start += count
        } while start < data.count
        out.appendBigEndian(adler32(data))
        return out
    }

    /// Adler-32 of RFC 1950, section 8.2.
    static func adler32(_ data: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        // 5 552 bytes is the most that cannot overflow 32 bits before the modulo (zlib's NMAX).
        var i = 0
        while i < data.count {
            let end = min(i + 5552, data.count)
            while i < end {
                a += UInt32(data[i])
                b += a
                i += 1
            }
            a %= 65_521
            b %= 65_521
        }
        return b << 16 | a
    }

    /// CRC-32 of ISO 3309 (polynomial 0xEDB88320, reflected), as PNG chunks carry it.
    static func crc32<S: Sequence>(_ bytes: S) -> UInt32 where S.Element == UInt8 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    private static let crcTable: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    private static func appendChunk(_ type: String, _ data: [UInt8], to file: inout [UInt8]) {
        file.appendBigEndian(UInt32(data.count))
        let typed = Array(type.utf8) + data
        file.append(contentsOf: typed)
        file.appendBigEndian(crc32(typed))
    }
}

private extension Array where Element == UInt8 {
    mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)])
    }
}
