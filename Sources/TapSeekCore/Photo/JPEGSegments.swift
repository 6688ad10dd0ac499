/// The marker segments of a JPEG file (ITU T.81, Annex B) up to its first scan: the APP1 EXIF
/// block (JEITA CP-3451, "Exif\0\0" then a TIFF structure), the APP1 XMP packet (Adobe XMP
/// part 3, "http://ns.adobe.com/xap/1.0/\0" then the packet) and the frame header's size.
struct JPEGSegments {
    /// The TIFF structure of the EXIF block, if any (the first one).
    var exif: ArraySlice<UInt8>?
    /// The XMP packet, if any (the first standard one; extended XMP is not read).
    var xmp: ArraySlice<UInt8>?
    /// Samples per line and lines of the frame (stored, before any EXIF orientation).
    var width: Int
    var height: Int

    static let exifSignature = Array("Exif\0\0".utf8)
    static let xmpSignature = Array("http://ns.adobe.com/xap/1.0/\0".utf8)

    /// Whether `bytes` starts like a JPEG file (SOI then a marker).
    static func isJPEG(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.count >= 3 && bytes[bytes.startIndex] == 0xFF && bytes[bytes.startIndex + 1] == 0xD8 && bytes[bytes.startIndex + 2] == 0xFF
    }

    /// Reads the segments; every length is checked against the file before it is used.
    /// - Throws: ``PhotoMetadataError`` for a file that ends before its frame header or has a
    ///   segment that runs past its end.
    init(_ bytes: ArraySlice<UInt8>) throws(PhotoMetadataError) {
        guard Self.isJPEG(bytes) else { throw .malformed("not a JPEG file (no start-of-image marker)") }
        let reader = ByteReader(bytes, bigEndian: true)
        var at = 2
        var size: (Int, Int)?
        while size == nil {
            // Fill bytes (0xFF runs) may precede a marker.
            guard at < bytes.count, bytes[bytes.startIndex + at] == 0xFF else {
                throw .malformed("truncated or damaged JPEG: no marker at byte \(at)")
            }
            while at < bytes.count, bytes[bytes.startIndex + at] == 0xFF { at += 1 }
            guard at < bytes.count else { throw .malformed("truncated JPEG: it ends inside a marker at byte \(at)") }
            let marker = bytes[bytes.startIndex + at]
            at += 1
            if marker == 0xD9 || marker == 0xDA {
                throw .malformed("damaged JPEG: its scan starts before any frame header gives the image size")
            }
            if (0xD0...0xD7).contains(marker) || marker == 0x01 { continue }   // no length
            guard let length = reader.uint16(at: at).map(Int.init), length >= 2, at + length <= bytes.count else {
                throw .malformed("truncated JPEG: the segment of marker 0x\(String(marker, radix: 16, uppercase: true)) at byte \(at - 2) runs past the end of the file")
            }
            let body = bytes[(bytes.startIndex + at + 2)..<(bytes.startIndex + at + length)]
            switch marker {
            case 0xE1 where exif == nil && body.starts(with: Self.exifSignature):
                exif = body.dropFirst(Self.exifSignature.count)
            case 0xE1 where xmp == nil && body.starts(with: Self.xmpSignature):
                xmp = body.dropFirst(Self.xmpSignature.count)
            case 0xC0...0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF:
                // Frame header: precision, lines, samples per line.
                let b = ByteReader(body, bigEndian: true)
                guard let h = b.uint16(at: 1), let w = b.uint16(at: 3) else { throw .malformed("damaged JPEG: its frame header is cut short") }
                size = (Int(w), Int(h))
            default:
                break
            }
            at += length
        }
        (width, height) = size!
        guard width > 0, height > 0 else {
            throw .malformed("the JPEG's frame header gives a \(width)×\(height) image (a zero height needs a DNL marker, which is not supported)")
        }
    }
}
