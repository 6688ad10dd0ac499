/// A Huffman code of a DEFLATE block as ``InflateBuffer`` decodes it: one look-up gives not only
/// the symbol but what it means — a literal byte, the end of the block, or a match length or
/// distance as its base value with the number of extra bits that follow the code — so that the
/// decoding loop never consults a second table (RFC 1951 §3.2.5's length and distance tables are
/// folded in when the table is built, once per block).
///
/// Indexed like ``DeflateHuffmanTable`` by the stream's next bits (first bit lowest): a primary
/// table of up to ``primaryLimit`` bits, and behind it second-level tables for longer codes.
struct InflateTable {
    /// An entry: `value << 16 | kind | codeLength << 8 | bits`, where `bits` is the code's length
    /// plus its extra bits (what one symbol consumes). A link to a second-level table is
    /// `start << 16 | link | subtableBits`. An entry with no kind is no code: corrupt data.
    let entries: [UInt32]
    let primaryBits: Int

    static let literal: UInt32 = 1 << 15
    static let base: UInt32 = 1 << 14
    static let endOfBlock: UInt32 = 1 << 13
    static let link: UInt32 = 1 << 12

    /// Longest code the primary table resolves alone: 2¹¹ entries (8 KiB) stay in the
    /// first-level cache, and nearly every literal/length code of real data is that short.
    static let primaryLimit = 11

    /// The literal/length table of a block from its code lengths (symbols 0…287): literals,
    /// the end of the block (256) and lengths 3…258 (257…285); 286 and 287 are no code.
    init(literalLengths lengths: [Int]) throws(DeflateError) {
        try self.init(lengths: lengths) { symbol in
            switch symbol {
            case 0..<256: return (Self.literal, symbol, 0)
            case 256: return (Self.endOfBlock, 0, 0)
            case 257..<286: return (Self.base, DeflateCodes.lengthBase[symbol - 257], DeflateCodes.lengthExtra[symbol - 257])
            default: return nil
            }
        }
    }

    /// The distance table of a block from its code lengths (symbols 0…31): distances 1…32768
    /// (0…29); 30 and 31 are no code.
    init(distanceLengths lengths: [Int]) throws(DeflateError) {
        try self.init(lengths: lengths) { symbol in
            symbol < 30 ? (Self.base, DeflateCodes.distanceBase[symbol], DeflateCodes.distanceExtra[symbol]) : nil
        }
    }

    /// The fixed codes of block type 1 (RFC 1951 §3.2.6).
    static let fixedLiterals = try! InflateTable(literalLengths: [Int](repeating: 8, count: 144) + [Int](repeating: 9, count: 112)
                                                 + [Int](repeating: 7, count: 24) + [Int](repeating: 8, count: 8))
    static let fixedDistances = try! InflateTable(distanceLengths: [Int](repeating: 5, count: 30))

    /// Builds the canonical code of `lengths` (RFC 1951 §3.2.2); `meaning` gives each symbol's
    /// kind, value and extra bits, or nil for a symbol that must not occur.
    private init(lengths: [Int], meaning: (Int) -> (kind: UInt32, value: Int, extra: Int)?) throws(DeflateError) {
        let limit = DeflateCodes.maximumCodeLength
        var countPerLength = [Int](repeating: 0, count: limit + 1)
        var longest = 1
        for l in lengths where l > 0 {
            countPerLength[l] += 1
            longest = max(longest, l)
        }
        // Kraft: more codes of a length than the tree has room for is not a prefix code.
        // An incomplete code is allowed (a block may use a single distance code).
        var room = 1
        for l in 1...limit {
            room = room * 2 - countPerLength[l]
            guard room >= 0 else { throw DeflateError("over-subscribed Huffman code") }
        }
        var nextCode = [Int](repeating: 0, count: limit + 1)
        var code = 0
        for l in 1...limit {
            code = (code + countPerLength[l - 1]) << 1
            nextCode[l] = code
        }
        let primaryBits = min(longest, Self.primaryLimit)
        let primary = 1 << primaryBits, mask = primary - 1
        // Each symbol's code, bit-reversed: the stream sends a code's first bit first, and the
        // tables are indexed by the stream's bits lowest first.
        var reversed = [Int](repeating: 0, count: lengths.count)
        for (symbol, l) in lengths.enumerated() where l > 0 {
            let c = nextCode[l]
            nextCode[l] += 1
            reversed[symbol] = Self.reverse(c, bits: l)
        }
        // Each primary prefix of long codes gets a second-level table as wide as its longest
        // code needs.
        var subBits = [Int](repeating: 0, count: primary)
        for (symbol, l) in lengths.enumerated() where l > primaryBits {
            subBits[reversed[symbol] & mask] = max(subBits[reversed[symbol] & mask], l - primaryBits)
        }
        var entries = [UInt32](repeating: 0, count: primary)
        for p in 0..<primary where subBits[p] > 0 {
            entries[p] = UInt32(entries.count) << 16 | Self.link | UInt32(subBits[p])
            entries.append(contentsOf: repeatElement(0, count: 1 << subBits[p]))
        }
        for (symbol, l) in lengths.enumerated() where l > 0 {
            // A symbol that must not occur keeps an empty entry: decoding it is an error.
            guard let m = meaning(symbol) else { continue }
            let entry = UInt32(m.value) << 16 | m.kind | UInt32(l) << 8 | UInt32(l + m.extra)
            let r = reversed[symbol]
            if l <= primaryBits {
                var index = r
                while index < primary {
                    entries[index] = entry
                    index += 1 << l
                }
            } else {
                let start = Int(entries[r & mask] >> 16), width = 1 << subBits[r & mask]
                var index = r >> primaryBits
                while index < width {
                    entries[start + index] = entry
                    index += 1 << (l - primaryBits)
                }
            }
        }
        self.entries = entries
        self.primaryBits = primaryBits
    }

    /// The `bits` (1…15) low bits of `code` in reverse order: the 16-bit word's halves, bytes,
    /// nibbles, pairs and bits swapped, then shifted down.
    static func reverse(_ code: Int, bits: Int) -> Int {
        var x = UInt16(truncatingIfNeeded: code).byteSwapped
        x = (x & 0xF0F0) >> 4 | (x & 0x0F0F) << 4
        x = (x & 0xCCCC) >> 2 | (x & 0x3333) << 2
        x = (x & 0xAAAA) >> 1 | (x & 0x5555) << 1
        return Int(x >> UInt16(16 - bits))
    }

    /// The entry for the code at the start of `bits` (at least 15 of the stream's next bits,
    /// first bit lowest), following a link to a second-level table.
    @inline(__always) static func lookup(_ entries: UnsafePointer<UInt32>, primaryMask: UInt64, primaryBits: Int, _ bits: UInt64) -> UInt32 {
        let e = entries[Int(truncatingIfNeeded: bits & primaryMask)]
        if e & link == 0 { return e }
        let sub = (bits &>> UInt64(primaryBits)) & ((1 &<< UInt64(e & 0xFF)) - 1)
        return entries[Int(e >> 16) + Int(truncatingIfNeeded: sub)]
    }

    /// The value an entry gives once its code and extra bits were the start of `bits`: the base
    /// plus the extra bits (for a literal, the byte).
    @inline(__always) static func value(_ e: UInt32, _ bits: UInt64) -> Int {
        let extra = (bits & ((1 &<< UInt64(e & 0xFF)) - 1)) &>> UInt64((e >> 8) & 0xF)
        return Int(e >> 16) + Int(truncatingIfNeeded: extra)
    }
}
