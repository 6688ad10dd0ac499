/// The image file directories (IFDs) of a TIFF structure — as EXIF stores them, or a GeoTIFF
/// file, classic or BigTIFF: a header (``TIFFHeader``), then directories of entries (12 bytes
/// each, 20 in BigTIFF) whose values lie inline or at an offset.
///
/// Every offset and count is checked against the bytes before it is followed: an entry whose
/// value lies outside the data is skipped, and no value longer than `maximumValueBytes` is
/// taken. Reading never allocates more than the data's own size; a caller that follows offsets
/// to further directories keeps the set it visited, so that a loop ends.
struct TIFFDirectory<Bytes: RandomAccessCollection> where Bytes.Element == UInt8, Bytes.Index == Int {
    /// One entry: tag, field type, count and where its value lies in the data.
    struct Entry {
        let tag: UInt16
        let type: UInt16
        let count: Int
        /// Offset of the value's first byte in the TIFF data.
        let valueOffset: Int
    }

    /// Bytes of one value of each field type (TIFF 6.0, §2; EXIF 2.32, §4.6.2; BigTIFF's 8-byte
    /// types 16–18); 0 for unknown types.
    static func size(ofType type: UInt16) -> Int {
        switch type {
        case 1, 2, 6, 7: return 1        // BYTE, ASCII, SBYTE, UNDEFINED
        case 3, 8: return 2              // SHORT, SSHORT
        case 4, 9, 11, 13: return 4      // LONG, SLONG, FLOAT, IFD
        case 5, 10, 12, 16, 17, 18: return 8  // RATIONAL, SRATIONAL, DOUBLE, LONG8, SLONG8, IFD8
        default: return 0
        }
    }

    /// Longest value read by default, bytes: far more than any text tag EXIF defines.
    static var defaultMaximumValueBytes: Int { 65_536 }

    let data: Bytes
    let bigEndian: Bool
    /// Whether offsets and counts are 8 bytes wide (BigTIFF) rather than 4.
    let isBigTIFF: Bool
    /// The entries by tag, first occurrence kept.
    let entries: [UInt16: Entry]
    /// Offset of the next directory in the chain (IFD1 after IFD0); nil at the end.
    let next: Int?

    /// Reads the directory at `offset` of the TIFF data `data` (offsets count from its start).
    /// - Throws: ``TIFFFormatError`` when the directory's own header or entries lie outside the data.
    init(data: Bytes, header: TIFFHeader, offset: Int,
         maximumValueBytes: Int = defaultMaximumValueBytes) throws(TIFFFormatError) {
        self.data = data
        bigEndian = header.bigEndian
        isBigTIFF = header.isBigTIFF
        let reader = ByteReader(data, bigEndian: bigEndian)
        let wide = header.isBigTIFF
        let countWidth = wide ? 8 : 2, entryWidth = wide ? 20 : 12, inline = wide ? 8 : 4
        guard let declared = reader.unsigned(at: offset, width: countWidth) else {
            throw TIFFFormatError("a directory's offset \(offset) lies outside the \(data.count) bytes")
        }
        let available = max(data.count - offset - countWidth, 0) / entryWidth
        guard declared <= UInt64(available) else {
            throw TIFFFormatError("a directory claims \(declared) entries where \(available) fit")
        }
        let count = Int(declared)
        var entries: [UInt16: Entry] = [:]
        for i in 0..<count {
            let at = offset + countWidth + entryWidth * i
            guard let tag = reader.uint16(at: at), let type = reader.uint16(at: at + 2),
                  let n = reader.unsigned(at: at + 4, width: inline) else { break }
            let unit = Self.size(ofType: type)
            guard unit > 0, n > 0, n <= UInt64(maximumValueBytes / unit) else { continue }
            let bytes = unit * Int(n)
            let valueOffset: Int
            if bytes <= inline {
                valueOffset = at + 4 + inline
            } else {
                guard let pointer = reader.unsigned(at: at + 4 + inline, width: inline), pointer <= UInt64(Int.max) else { continue }
                valueOffset = Int(pointer)
            }
            guard valueOffset >= 0, valueOffset <= data.count - bytes else { continue }
            if entries[tag] == nil { entries[tag] = Entry(tag: tag, type: type, count: Int(n), valueOffset: valueOffset) }
        }
        self.entries = entries
        let nextOffset = reader.unsigned(at: offset + countWidth + entryWidth * count, width: inline) ?? 0
        next = nextOffset > 0 && nextOffset <= UInt64(data.count) ? Int(nextOffset) : nil
    }

    private var reader: ByteReader<Bytes> { ByteReader(data, bigEndian: bigEndian) }

    /// An integer tag's value (BYTE, SHORT, LONG or LONG8, first of its values).
    func integer(_ tag: UInt16) -> Int? { integer(tag, at: 0) }

    /// The `index`th value of an integer tag; nil past its count or for a value beyond `Int`.
    func integer(_ tag: UInt16, at index: Int) -> Int? {
        guard let e = entries[tag], index >= 0, index < e.count else { return nil }
        let at = e.valueOffset + index * Self.size(ofType: e.type)
        switch e.type {
        case 1, 7: return reader.uint8(at: at).map(Int.init)
        case 3: return reader.uint16(at: at).map(Int.init)
        case 4, 13: return reader.uint32(at: at).map(Int.init)
        case 8: return reader.uint16(at: at).map { Int(Int16(bitPattern: $0)) }
        case 9: return reader.uint32(at: at).map { Int(Int32(bitPattern: $0)) }
        case 16, 18: return reader.uint64(at: at).flatMap { $0 <= UInt64(Int.max) ? Int($0) : nil }
        case 17: return reader.uint64(at: at).map { Int(Int64(bitPattern: $0)) }
        default: return nil
        }
    }

    /// How many values a tag holds; 0 when absent.
    func count(_ tag: UInt16) -> Int { entries[tag]?.count ?? 0 }

    /// A numeric tag's values as doubles (rationals divided out; a zero denominator gives nil).
    func numbers(_ tag: UInt16) -> [Double]? {
        guard let e = entries[tag] else { return nil }
        var out: [Double] = []
        out.reserveCapacity(e.count)
        for i in 0..<e.count {
            let at = e.valueOffset + i * Self.size(ofType: e.type)
            let value: Double?
            switch e.type {
            case 1, 7: value = reader.uint8(at: at).map(Double.init)
            case 3: value = reader.uint16(at: at).map(Double.init)
            case 4: value = reader.uint32(at: at).map(Double.init)
            case 8: value = reader.uint16(at: at).map { Double(Int16(bitPattern: $0)) }
            case 9: value = reader.uint32(at: at).map { Double(Int32(bitPattern: $0)) }
            case 5:
                guard let n = reader.uint32(at: at), let d = reader.uint32(at: at + 4), d != 0 else { return nil }
                value = Double(n) / Double(d)
            case 10:
                guard let n = reader.uint32(at: at), let d = reader.uint32(at: at + 4), d != 0 else { return nil }
                value = Double(Int32(bitPattern: n)) / Double(Int32(bitPattern: d))
            case 11: value = reader.uint32(at: at).map { Double(Float(bitPattern: $0)) }
            case 12: value = reader.uint64(at: at).map { Double(bitPattern: $0) }
            default: value = nil
            }
            guard let value, value.isFinite else { return nil }
            out.append(value)
        }
        return out
    }

    /// A numeric tag's first value.
    func number(_ tag: UInt16) -> Double? { numbers(tag)?.first }

    /// An ASCII tag's text, up to its first NUL, trimmed of spaces; nil when empty or not text.
    func text(_ tag: UInt16) -> String? {
        guard let e = entries[tag], e.type == 2 || e.type == 7 else { return nil }
        let start = data.startIndex + e.valueOffset
        var bytes = data[start..<(start + e.count)]
        if let nul = bytes.firstIndex(of: 0) { bytes = bytes[..<nul] }
        let s = String(decoding: bytes, as: UTF8.self).trimmingBlanks
        return s.isEmpty ? nil : s
    }
}

/// The 8-byte header of a classic TIFF ("II*\0" or "MM\0*", then the first directory's offset)
/// or the 16-byte header of a BigTIFF ("II+\0", 8, 0, then an 8-byte offset).
struct TIFFHeader {
    let bigEndian: Bool
    let isBigTIFF: Bool
    let firstDirectory: Int

    /// - Throws: ``TIFFFormatError`` when `data` does not start with a TIFF header.
    init<Bytes: RandomAccessCollection>(of data: Bytes) throws(TIFFFormatError) where Bytes.Element == UInt8, Bytes.Index == Int {
        guard data.count >= 8 else { throw TIFFFormatError("\(data.count) bytes are too few for a TIFF header") }
        let b = data.startIndex
        switch (data[b], data[b + 1]) {
        case (0x49, 0x49): bigEndian = false
        case (0x4D, 0x4D): bigEndian = true
        default: throw TIFFFormatError("there is no TIFF byte-order mark (II or MM)")
        }
        let reader = ByteReader(data, bigEndian: bigEndian)
        switch reader.uint16(at: 2) {
        case 42:
            isBigTIFF = false
            firstDirectory = Int(reader.uint32(at: 4)!)
        case 43:
            // BigTIFF (Adobe's and libtiff's extension): offset size 8, a reserved 0.
            guard reader.uint16(at: 4) == 8, reader.uint16(at: 6) == 0, let first = reader.uint64(at: 8),
                  first <= UInt64(Int.max) else {
                throw TIFFFormatError("the BigTIFF header is not 43, 8, 0 and an offset")
            }
            isBigTIFF = true
            firstDirectory = Int(first)
        default:
            throw TIFFFormatError("the TIFF header lacks the number 42 (43 for BigTIFF)")
        }
    }
}

/// Why bytes are not a TIFF structure that can be read, in a phrase without the file's name:
/// malformed, or valid but using what this reader leaves to others (`unsupported`).
struct TIFFFormatError: Error {
    let reason: String
    let unsupported: Bool
    init(_ reason: String, unsupported: Bool = false) {
        self.reason = reason
        self.unsupported = unsupported
    }
}

/// Reads integers of either byte order at offsets of a byte collection, nil past its end.
struct ByteReader<Bytes: RandomAccessCollection> where Bytes.Element == UInt8, Bytes.Index == Int {
    let bytes: Bytes
    let bigEndian: Bool

    init(_ bytes: Bytes, bigEndian: Bool) {
        self.bytes = bytes
        self.bigEndian = bigEndian
    }

    @inline(__always) private func value(at offset: Int, width: Int) -> UInt64? {
        guard offset >= 0, offset <= bytes.count - width else { return nil }
        let b = bytes.startIndex + offset
        var v: UInt64 = 0
        for i in 0..<width {
            let byte = UInt64(bytes[b + (bigEndian ? i : width - 1 - i)])
            v = v << 8 | byte
        }
        return v
    }

    func uint8(at offset: Int) -> UInt8? { value(at: offset, width: 1).map { UInt8($0) } }
    func uint16(at offset: Int) -> UInt16? { value(at: offset, width: 2).map { UInt16($0) } }
    func uint32(at offset: Int) -> UInt32? { value(at: offset, width: 4).map { UInt32($0) } }
    func uint64(at offset: Int) -> UInt64? { value(at: offset, width: 8) }
    /// An unsigned integer of 0, 1, 2, 4 or 8 bytes (0 bytes reads as 0).
    func unsigned(at offset: Int, width: Int) -> UInt64? { width == 0 ? 0 : value(at: offset, width: width) }
}

extension String {
    /// The text without leading and trailing spaces and NULs.
    var trimmingBlanks: String {
        var s = Substring(self)
        while let c = s.first, c == " " || c == "\0" || c == "\n" || c == "\t" || c == "\r" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\0" || c == "\n" || c == "\t" || c == "\r" { s.removeLast() }
        return String(s)
    }
}
