/// What DEFLATE's two decoders share (RFC 1951, §3.2): the length and distance tables, the fixed
/// codes of block type 1, canonical Huffman tables, and the reading of a dynamic block's codes.
/// ``InflateSource`` streams (zip and gzip members); ``InflateBuffer`` fills a buffer of known
/// size in one pass (TIFF tiles), with tables of its own (``InflateTable``).
enum DeflateCodes {
    /// Longest Huffman code DEFLATE allows.
    static let maximumCodeLength = 15

    static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
                             131, 163, 195, 227, 258]
    static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025,
                               1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12,
                                12, 13, 13]

    /// The fixed codes of block type 1 (RFC 1951 §3.2.6).
    static let fixedLiterals = try! DeflateHuffmanTable(
        lengths: [Int](repeating: 8, count: 144) + [Int](repeating: 9, count: 112) + [Int](repeating: 7, count: 24)
            + [Int](repeating: 8, count: 8))
    static let fixedDistances = try! DeflateHuffmanTable(lengths: [Int](repeating: 5, count: 30))

    /// Order in which code-length code lengths are stored (RFC 1951 §3.2.7).
    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// Reads the code lengths of a dynamic block (type 2) and builds its two tables.
    static func readDynamicTables<Bits: DeflateBitSource>(_ bits: inout Bits) throws
        -> (literals: DeflateHuffmanTable, distances: DeflateHuffmanTable) {
        let lengths = try readDynamicLengths(&bits)
        return (try DeflateHuffmanTable(lengths: lengths.literals), try DeflateHuffmanTable(lengths: lengths.distances))
    }

    /// Reads the code lengths of a dynamic block (type 2): those of its literal/length code and
    /// those of its distance code.
    static func readDynamicLengths<Bits: DeflateBitSource>(_ bits: inout Bits) throws -> (literals: [Int], distances: [Int]) {
        let literalCount = Int(try bits.take(5)) + 257
        let distanceCount = Int(try bits.take(5)) + 1
        let codeLengthCount = Int(try bits.take(4)) + 4
        guard literalCount <= 286, distanceCount <= 30 else { throw DeflateError("too many codes") }
        var codeLengthLengths = [Int](repeating: 0, count: 19)
        for i in 0..<codeLengthCount { codeLengthLengths[codeLengthOrder[i]] = Int(try bits.take(3)) }
        let codeLengths = try DeflateHuffmanTable(lengths: codeLengthLengths)
        var lengths: [Int] = []
        lengths.reserveCapacity(literalCount + distanceCount)
        while lengths.count < literalCount + distanceCount {
            let symbol = try bits.decode(codeLengths)
            switch symbol {
            case 0...15:
                lengths.append(symbol)
            case 16:
                guard let previous = lengths.last else { throw DeflateError("repeat with no previous length") }
                lengths.append(contentsOf: repeatElement(previous, count: 3 + Int(try bits.take(2))))
            case 17:
                lengths.append(contentsOf: repeatElement(0, count: 3 + Int(try bits.take(3))))
            default:
                lengths.append(contentsOf: repeatElement(0, count: 11 + Int(try bits.take(7))))
            }
        }
        guard lengths.count == literalCount + distanceCount else { throw DeflateError("code lengths overrun") }
        guard lengths[256] > 0 else { throw DeflateError("no end-of-block code") }
        return (Array(lengths[0..<literalCount]), Array(lengths[literalCount...]))
    }
}

/// A bit stream a DEFLATE decoder reads: least significant bit of each byte first.
protocol DeflateBitSource {
    /// The next `n` bits (0…32) as a number, first bit least significant.
    mutating func take(_ n: Int) throws -> UInt64
    /// The next symbol of a Huffman code.
    mutating func decode(_ code: DeflateHuffmanTable) throws -> Int
}

/// Why DEFLATE data cannot be decoded, in a phrase.
struct DeflateError: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

/// A canonical Huffman code as lookup tables indexed by the next input bits (DEFLATE packs codes
/// from their first bit, least significant bit of the stream first, so the tables are indexed by
/// the bit-reversed code): a primary table of `primaryBits` (at most 10) bits that stays in the
/// first-level cache, and for longer codes second-level tables behind it, as zlib does.
struct DeflateHuffmanTable {
    /// A symbol and its code length, `symbol << 16 | length` (length 0: no code matches), or a
    /// link to a second-level table, `start << 16 | 0x8000 | bits`.
    let table: [UInt32]
    let maximumLength: Int
    let primaryBits: Int

    /// Longest code the primary table resolves alone.
    static let primaryLimit = 10

    init(lengths: [Int]) throws(DeflateError) {
        let maxLength = lengths.max() ?? 0
        maximumLength = max(1, maxLength)
        primaryBits = min(maximumLength, Self.primaryLimit)
        var countPerLength = [Int](repeating: 0, count: DeflateCodes.maximumCodeLength + 1)
        for l in lengths where l > 0 { countPerLength[l] += 1 }
        // Kraft: more codes of a length than the tree has room for is not a prefix code.
        var room = 1
        for l in 1...DeflateCodes.maximumCodeLength {
            room = room * 2 - countPerLength[l]
            guard room >= 0 else { throw DeflateError("over-subscribed Huffman code") }
        }
        var nextCode = [Int](repeating: 0, count: DeflateCodes.maximumCodeLength + 1)
        var code = 0
        for l in 1...DeflateCodes.maximumCodeLength {
            code = (code + countPerLength[l - 1]) << 1
            nextCode[l] = code
        }
        var codes: [(symbol: Int, length: Int, reversed: Int)] = []
        for (symbol, l) in lengths.enumerated() where l > 0 {
            let c = nextCode[l]
            nextCode[l] += 1
            var reversed = 0
            for i in 0..<l where c & (1 << i) != 0 { reversed |= 1 << (l - 1 - i) }
            codes.append((symbol, l, reversed))
        }
        let primary = 1 << primaryBits, mask = primary - 1
        // Each prefix of long codes gets a second-level table as wide as its longest code needs.
        var subBits = [Int](repeating: 0, count: primary)
        for c in codes where c.length > primaryBits {
            subBits[c.reversed & mask] = max(subBits[c.reversed & mask], c.length - primaryBits)
        }
        var table = [UInt32](repeating: 0, count: primary)
        for p in 0..<primary where subBits[p] > 0 {
            table[p] = UInt32(table.count) << 16 | 0x8000 | UInt32(subBits[p])
            table.append(contentsOf: repeatElement(0, count: 1 << subBits[p]))
        }
        for c in codes {
            let entry = UInt32(c.symbol) << 16 | UInt32(c.length)
            if c.length <= primaryBits {
                var index = c.reversed
                while index < primary {
                    table[index] = entry
                    index += 1 << c.length
                }
            } else {
                let start = Int(table[c.reversed & mask] >> 16), width = 1 << subBits[c.reversed & mask]
                var index = c.reversed >> primaryBits
                while index < width {
                    table[start + index] = entry
                    index += 1 << (c.length - primaryBits)
                }
            }
        }
        self.table = table
    }

    /// The symbol and code length at the start of `bits` (at least `maximumLength` of the
    /// stream's next bits, first bit lowest); length 0 where no code matches.
    @inline(__always) static func lookup(_ table: UnsafeBufferPointer<UInt32>, primaryBits: Int, _ bits: Int) -> (symbol: Int, length: Int) {
        var e = table[bits & ((1 << primaryBits) - 1)]
        if e & 0x8000 != 0 {
            e = table[Int(e >> 16) + ((bits >> primaryBits) & ((1 << Int(e & 0xF)) - 1))]
        }
        return (Int(e >> 16), Int(e & 0xF))
    }

    /// ``lookup(_:primaryBits:_:)`` on this table.
    func decode(_ bits: Int) -> (symbol: Int, length: Int) {
        table.withUnsafeBufferPointer { Self.lookup($0, primaryBits: primaryBits, bits) }
    }
}
