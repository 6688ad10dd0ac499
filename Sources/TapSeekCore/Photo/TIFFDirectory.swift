/// The image file directories (IFDs) of a TIFF structure, as EXIF stores them: a byte-order mark,
/// a chain of directories of 12-byte entries, and sub-directories (EXIF, GPS) named by offset.
///
/// Every offset and count is checked against the bytes before it is followed: an entry whose
/// value lies outside the data is skipped, a directory visited twice (a loop) or nested deeper
/// than ``maximumDepth`` is not read again, and no value longer than ``maximumValueBytes`` is
/// copied. Reading never allocates more than the data's own size.
struct TIFFDirectory {
    /// One entry: tag, field type, count and where its value lies in the data.
    struct Entry {
        let tag: UInt16
        let type: UInt16
        let count: Int
        /// Offset of the value's first byte in the TIFF data.
        let valueOffset: Int
    }

    /// Bytes of one value of each field type (TIFF 6.0, §2; EXIF 2.32, §4.6.2); 0 for unknown types.
    static func size(ofType type: UInt16) -> Int {
        switch type {
        case 1, 2, 6, 7: return 1        // BYTE, ASCII, SBYTE, UNDEFINED
        case 3, 8: return 2              // SHORT, SSHORT
        case 4, 9, 11, 13: return 4      // LONG, SLONG, FLOAT, IFD
        case 5, 10, 12: return 8         // RATIONAL, SRATIONAL, DOUBLE
        default: return 0
        }
    }

    /// Deepest chain of sub-directories followed (IFD0 → EXIF → interoperability is 3).
    static let maximumDepth = 4
    /// Longest value read, bytes: far more than any text tag EXIF defines.
    static let maximumValueBytes = 65_536

    let data: ArraySlice<UInt8>
    let bigEndian: Bool
    /// The entries by tag, first occurrence kept.
    let entries: [UInt16: Entry]

    /// Reads the directory at `offset` of the TIFF data `data` (offsets count from its start).
    /// - Throws: ``PhotoMetadataError`` when the directory's own header or entries lie outside the data.
    init(data: ArraySlice<UInt8>, bigEndian: Bool, offset: Int) throws(PhotoMetadataError) {
        self.data = data
        self.bigEndian = bigEndian
        let reader = ByteReader(data, bigEndian: bigEndian)
        guard let count = reader.uint16(at: offset) else {
            throw .malformed("an EXIF directory's offset \(offset) lies outside its \(data.count) bytes")
        }
        let available = (data.count - offset - 2) / 12
        guard Int(count) <= available else {
            throw .malformed("an EXIF directory claims \(count) entries where \(max(available, 0)) fit")
        }
        var entries: [UInt16: Entry] = [:]
        for i in 0..<Int(count) {
            let at = offset + 2 + 12 * i
            guard let tag = reader.uint16(at: at), let type = reader.uint16(at: at + 2), let count = reader.uint32(at: at + 4) else { break }
            let unit = Self.size(ofType: type)
            guard unit > 0, count > 0, Int(count) <= Self.maximumValueBytes / unit else { continue }
            let bytes = unit * Int(count)
            let valueOffset: Int
            if bytes <= 4 {
                valueOffset = at + 8
            } else {
                guard let pointer = reader.uint32(at: at + 8) else { continue }
                valueOffset = Int(pointer)
            }
            guard valueOffset >= 0, valueOffset <= data.count - bytes else { continue }
            if entries[tag] == nil { entries[tag] = Entry(tag: tag, type: type, count: Int(count), valueOffset: valueOffset) }
        }
        self.entries = entries
    }

    /// The TIFF header of `data` ("II*\0" or "MM\0*"): its byte order and the first directory's offset.
    static func header(of data: ArraySlice<UInt8>) throws(PhotoMetadataError) -> (bigEndian: Bool, firstDirectory: Int) {
        guard data.count >= 8 else { throw .malformed("the EXIF block holds \(data.count) bytes, too few for a TIFF header") }
        let b = data.startIndex
        let bigEndian: Bool
        switch (data[b], data[b + 1]) {
        case (0x49, 0x49): bigEndian = false
        case (0x4D, 0x4D): bigEndian = true
        default: throw .malformed("the EXIF block has no TIFF byte-order mark (II or MM)")
        }
        let reader = ByteReader(data, bigEndian: bigEndian)
        guard reader.uint16(at: 2) == 42, let first = reader.uint32(at: 4) else {
            throw .malformed("the EXIF block's TIFF header lacks the number 42")
        }
        return (bigEndian, Int(first))
    }

    private var reader: ByteReader { ByteReader(data, bigEndian: bigEndian) }

    /// The offset of the next directory in the chain (IFD1 after IFD0), if any.
    func next(after offset: Int, count: Int) -> Int? {
        guard let n = reader.uint32(at: offset + 2 + 12 * count), n > 0 else { return nil }
        return Int(n)
    }

    /// An integer tag's value (BYTE, SHORT or LONG, first of its values).
    func integer(_ tag: UInt16) -> Int? {
        guard let e = entries[tag] else { return nil }
        switch e.type {
        case 1, 7: return reader.uint8(at: e.valueOffset).map(Int.init)
        case 3: return reader.uint16(at: e.valueOffset).map(Int.init)
        case 4, 13: return reader.uint32(at: e.valueOffset).map(Int.init)
        case 8: return reader.uint16(at: e.valueOffset).map { Int(Int16(bitPattern: $0)) }
        case 9: return reader.uint32(at: e.valueOffset).map { Int(Int32(bitPattern: $0)) }
        default: return nil
        }
    }

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

/// Reads integers of either byte order at offsets of a slice, nil past its end.
struct ByteReader {
    let bytes: ArraySlice<UInt8>
    let bigEndian: Bool

    init(_ bytes: ArraySlice<UInt8>, bigEndian: Bool) {
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
