/// Builds small GeoTIFFs byte by byte — classic, little-endian, one band — with any tag values,
/// however wrong, so that tests and fuzz seeds can hand the GeoTIFF reader hostile files.
public struct TIFFBuilder {
    /// One directory entry: tag, TIFF field type (3 SHORT, 4 LONG, 12 DOUBLE, 2 ASCII) and values.
    public struct Entry {
        public var tag: UInt16
        public var type: UInt16
        public var values: [UInt64]
        public var text: String?

        public static func short(_ tag: UInt16, _ values: [Int]) -> Entry { Entry(tag: tag, type: 3, values: values.map { UInt64($0) }) }
        public static func long(_ tag: UInt16, _ values: [Int]) -> Entry { Entry(tag: tag, type: 4, values: values.map { UInt64($0) }) }
        public static func double(_ tag: UInt16, _ values: [Double]) -> Entry { Entry(tag: tag, type: 12, values: values.map(\.bitPattern)) }
        public static func ascii(_ tag: UInt16, _ text: String) -> Entry { Entry(tag: tag, type: 2, values: [], text: text) }

        var payload: [UInt8] {
            if let text { return Array(text.utf8) + [0] }
            let width = type == 3 ? 2 : type == 4 ? 4 : 8
            return values.flatMap { v in (0..<width).map { UInt8(truncatingIfNeeded: v >> (8 * UInt64($0))) } }
        }
    }

    public var entries: [Entry]
    /// Bytes placed after the directory and its values: the image data. `dataStart` says where.
    public var data: [UInt8]

    /// A valid `columns × rows` Int16 GeoTIFF in EPSG:4326 (pixel-is-area, 1″ pixels from 46° N
    /// 8° E), uncompressed, in one strip holding `data`, with nodata −32768.
    public static func int16(columns: Int, rows: Int, data: [UInt8]) -> TIFFBuilder {
        TIFFBuilder(entries: [
            .long(256, [columns]), .long(257, [rows]), .short(258, [16]), .short(259, [1]), .short(262, [1]),
            .long(273, [0]), .short(277, [1]), .long(278, [rows]), .long(279, [data.count]), .short(339, [2]),
            .double(33550, [1 / 3600.0, 1 / 3600.0, 0]), .double(33922, [0, 0, 0, 8, 46, 0]),
            .short(34735, [1, 1, 0, 3, 1024, 0, 1, 2, 1025, 0, 1, 1, 2048, 0, 1, 4326]),
            .ascii(42113, "-32768"),
        ], data: data)
    }

    public init(entries: [Entry], data: [UInt8]) {
        self.entries = entries
        self.data = data
    }

    /// Replaces the values of `tag` (or adds the entry).
    public mutating func set(_ entry: Entry) {
        if let i = entries.firstIndex(where: { $0.tag == entry.tag }) { entries[i] = entry } else { entries.append(entry) }
    }

    /// Offset of the image data in ``bytes``; a strip or tile offset of 0 in ``entries`` is
    /// replaced by it (plus the block's place) unless `keepOffsets`.
    public var dataStart: Int {
        8 + 2 + 12 * entries.count + 4 + entries.reduce(0) { $0 + ($1.payload.count > 4 ? ($1.payload.count + 1) & ~1 : 0) }
    }

    /// The file: header, one directory (entries sorted by tag), long values, then the data. Strip
    /// or tile offsets given as 0 point at the data (block k at the start plus k times the first
    /// byte count).
    public func bytes(keepOffsets: Bool = false) -> [UInt8] {
        let start = dataStart
        var sorted = entries.sorted { $0.tag < $1.tag }
        if !keepOffsets {
            for i in sorted.indices where sorted[i].tag == 273 || sorted[i].tag == 324 {
                let step = Int(entries.first { $0.tag == (sorted[i].tag == 273 ? 279 : 325) }?.values.first ?? 0)
                sorted[i].values = sorted[i].values.enumerated().map { $1 == 0 ? UInt64(start + $0 * step) : $1 }
            }
        }
        var out: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0]
        func append(_ v: Int, _ width: Int) { out += (0..<width).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        append(sorted.count, 2)
        var extra = 8 + 2 + 12 * sorted.count + 4
        var longValues: [UInt8] = []
        for e in sorted {
            append(Int(e.tag), 2)
            append(Int(e.type), 2)
            append(e.text.map { $0.utf8.count + 1 } ?? e.values.count, 4)
            let payload = e.payload
            if payload.count <= 4 {
                out += payload + [UInt8](repeating: 0, count: 4 - payload.count)
            } else {
                append(extra, 4)
                longValues += payload
                if payload.count % 2 == 1 { longValues.append(0) }
                extra += (payload.count + 1) & ~1
            }
        }
        append(0, 4)
        return out + longValues + data
    }
}

/// Writes DEFLATE and LZW streams bit by bit, for hand-made compressed data (bombs among them).
public struct BitWriter {
    public private(set) var bytes: [UInt8] = []
    private var current: UInt32 = 0
    private var count = 0
    /// Most significant bit first (LZW) rather than least (DEFLATE).
    let msbFirst: Bool

    public init(msbFirst: Bool) { self.msbFirst = msbFirst }

    /// Appends the `width` low bits of `value`: in DEFLATE order, the value's lowest bit first.
    public mutating func write(_ value: Int, width: Int) {
        for i in 0..<width {
            let bit = msbFirst ? (value >> (width - 1 - i)) & 1 : (value >> i) & 1
            if msbFirst { current |= UInt32(bit) << UInt32(7 - count) } else { current |= UInt32(bit) << UInt32(count) }
            count += 1
            if count == 8 { flush() }
        }
    }

    /// Appends a Huffman code, whose bits DEFLATE stores from the most significant.
    public mutating func writeCode(_ code: Int, length: Int) {
        for i in stride(from: length - 1, through: 0, by: -1) { write((code >> i) & 1, width: 1) }
    }

    /// The bytes, the last one padded with zeros.
    public mutating func finish() -> [UInt8] {
        if count > 0 { flush() }
        return bytes
    }

    private mutating func flush() {
        bytes.append(UInt8(current))
        current = 0
        count = 0
    }
}
