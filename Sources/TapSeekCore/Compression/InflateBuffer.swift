/// DEFLATE data (RFC 1951) decoded in one pass into a buffer whose size is known beforehand — a
/// TIFF tile or strip — as fast as plain Swift allows: the whole input and output in memory, a
/// 64-bit bit buffer refilled a word at a time, tables that give a symbol's meaning in one
/// look-up (``InflateTable``), copies a word at a time.
///
/// Decoding stops when the buffer is full, so a "bomb" (a few bytes that claim gigabytes) costs
/// no more than the buffer; input that ends, or is corrupt, before it is full throws.
enum InflateBuffer {
    /// Decodes the zlib stream (RFC 1950: a 2-byte header, DEFLATE data, a checksum) that TIFF's
    /// compression 8 and 32946 hold, into all of `output`.
    /// - Throws: ``DeflateError`` when the header is not zlib's, or the data is corrupt or ends
    ///   before `output` is full. The checksum is not verified: libtiff stops once it has its
    ///   bytes, before the checksum, and so does this.
    static func decodeZlib(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws(DeflateError) {
        guard input.count >= 2 else { throw DeflateError("\(input.count) bytes are too few for a zlib stream") }
        let cmf = input[0], flags = input[1]
        // Method 8 (DEFLATE), a window of at most 32 KiB, no preset dictionary, and the check bits.
        guard cmf & 0x0F == 8, cmf >> 4 <= 7, flags & 0x20 == 0, (UInt16(cmf) << 8 | UInt16(flags)) % 31 == 0 else {
            throw DeflateError("no zlib header")
        }
        let written = try decode(UnsafeRawBufferPointer(rebasing: input[2...]), into: output)
        guard written == output.count else {
            throw DeflateError("the data ends after \(written) of the \(output.count) bytes expected")
        }
    }

    /// Decodes raw DEFLATE data into `output` until the stream ends or `output` is full.
    /// - Returns: the bytes written.
    static func decode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws(DeflateError) -> Int {
        guard let out = output.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return 0 }
        var bits = Bits(input)
        let capacity = output.count
        var written = 0
        var last = false
        do {
            while !last && written < capacity {
                last = try bits.take(1) == 1
                switch try bits.take(2) {
                case 0:
                    written = try bits.copyStored(into: out, written, capacity)
                case 1:
                    written = try inflate(&bits, InflateTable.fixedLiterals, InflateTable.fixedDistances, out, written, capacity)
                case 2:
                    let lengths = try DeflateCodes.readDynamicLengths(&bits)
                    written = try inflate(&bits, InflateTable(literalLengths: lengths.literals),
                                          InflateTable(distanceLengths: lengths.distances), out, written, capacity)
                default:
                    throw DeflateError("reserved block type 3")
                }
            }
        } catch let error as DeflateError {
            throw error
        } catch {
            throw DeflateError("\(error)")
        }
        return written
    }

    /// Room the fast loop keeps at the output's end: three literals, the longest match and the
    /// 16 bytes a match copy may write past its end (see ``copyMatch(_:at:distance:length:)``).
    static let fastOutputMargin = 3 + 258 + 16
    /// Input the fast loop keeps at the input's end: two whole-word refills of at most 7 bytes
    /// each, each loading 8 bytes.
    static let fastInputMargin = 16

    /// Decodes one Huffman block's symbols into `out` from `start` on; returns the new count
    /// when the block ends or the output is full.
    ///
    /// Two loops. The fast one runs while the input holds whole words to refill from and the
    /// output has room for any symbol: no end-of-input or end-of-output check per symbol, one
    /// refill for up to three literals or a whole match (56 bits hold a length code with its
    /// extra bits and a distance code with its: 15 + 5 + 15 + 13), copies a word at a time. The
    /// careful one finishes the block near either end, a symbol at a time, every bit checked.
    private static func inflate(_ bits: inout Bits, _ literals: InflateTable, _ distances: InflateTable,
                                _ out: UnsafeMutablePointer<UInt8>, _ start: Int, _ capacity: Int) throws(DeflateError) -> Int {
        try literals.entries.withUnsafeBufferPointer { (lit) throws(DeflateError) -> Int in
            try distances.entries.withUnsafeBufferPointer { (dist) throws(DeflateError) -> Int in
                let lit = lit.baseAddress!, dist = dist.baseAddress!
                let litBits = literals.primaryBits, distBits = distances.primaryBits
                let litMask = (UInt64(1) << UInt64(litBits)) - 1, distMask = (UInt64(1) << UInt64(distBits)) - 1
                @inline(__always) func literal(_ buffer: UInt64) -> UInt32 {
                    InflateTable.lookup(lit, primaryMask: litMask, primaryBits: litBits, buffer)
                }
                @inline(__always) func distance(_ buffer: UInt64) -> UInt32 {
                    InflateTable.lookup(dist, primaryMask: distMask, primaryBits: distBits, buffer)
                }
                var written = start
                let inputEnd = bits.input.count - fastInputMargin, outputEnd = capacity - fastOutputMargin
                while bits.position <= inputEnd && written <= outputEnd {
                    bits.refillWord()
                    var e = literal(bits.buffer)
                    if e & InflateTable.literal != 0 {
                        bits.skip(e)
                        out[written] = UInt8(truncatingIfNeeded: e >> 16)
                        written += 1
                        e = literal(bits.buffer)
                        if e & InflateTable.literal != 0 {
                            bits.skip(e)
                            out[written] = UInt8(truncatingIfNeeded: e >> 16)
                            written += 1
                            e = literal(bits.buffer)
                            if e & InflateTable.literal != 0 {
                                bits.skip(e)
                                out[written] = UInt8(truncatingIfNeeded: e >> 16)
                                written += 1
                                continue
                            }
                        }
                        // `e` still starts the buffer; a match needs up to 48 bits.
                        bits.refillWord()
                    }
                    if e & InflateTable.base != 0 {
                        let length = InflateTable.value(e, bits.buffer)
                        bits.skip(e)
                        let d = distance(bits.buffer)
                        guard d & InflateTable.base != 0 else { throw DeflateError("invalid distance code") }
                        let reach = InflateTable.value(d, bits.buffer)
                        bits.skip(d)
                        guard reach <= written else { throw DeflateError("distance \(reach) reaches before the start") }
                        copyMatch(out, at: written, distance: reach, length: length)
                        written += length
                        continue
                    }
                    guard e & InflateTable.endOfBlock != 0 else { throw DeflateError("invalid Huffman code") }
                    bits.skip(e)
                    return written
                }
                // Near the end of the input or the output. Past the input's end the buffer reads
                // zeros: each symbol checks that it consumed real bits.
                while written < capacity {
                    bits.refill()
                    let e = literal(bits.buffer)
                    if e & InflateTable.literal != 0 {
                        bits.skip(e)
                        try bits.checkEnd()
                        out[written] = UInt8(truncatingIfNeeded: e >> 16)
                        written += 1
                        continue
                    }
                    if e & InflateTable.base != 0 {
                        let length = InflateTable.value(e, bits.buffer)
                        bits.skip(e)
                        bits.refill()
                        let d = distance(bits.buffer)
                        guard d & InflateTable.base != 0 else { throw DeflateError("invalid distance code") }
                        let reach = InflateTable.value(d, bits.buffer)
                        bits.skip(d)
                        try bits.checkEnd()
                        guard reach <= written else { throw DeflateError("distance \(reach) reaches before the start") }
                        // Byte by byte: the copy may overlap what it writes, and must stop at the end.
                        let n = min(length, capacity - written)
                        for i in written..<(written + n) { out[i] = out[i - reach] }
                        written += n
                        continue
                    }
                    guard e & InflateTable.endOfBlock != 0 else { throw DeflateError("invalid Huffman code") }
                    bits.skip(e)
                    try bits.checkEnd()
                    return written
                }
                return written
            }
        }
    }

    /// Copies a match of `length` bytes from `distance` (≥ 1) bytes back to `out + at`, eight
    /// bytes at a time, writing up to 15 bytes past the match (the fast loop's margin), which
    /// later output overwrites.
    ///
    /// A word may be copied whole once its source lies entirely behind what it writes, that is
    /// `step` ≥ 8 bytes back. For a distance of 8 or more that is the distance itself; a
    /// shorter one repeats a period of `distance` bytes, so the first `step` bytes (a multiple
    /// of the period, at least 8) are laid byte by byte and then copied forward from `step`
    /// bytes back.
    @inline(__always) static func copyMatch(_ out: UnsafeMutablePointer<UInt8>, at: Int, distance: Int, length: Int) {
        let target = UnsafeMutableRawPointer(out + at)
        var step = distance, i = 0
        if distance == 1 {
            // Runs of one byte (a constant plane of predictor 3, zeros): a word of that byte.
            let word = UInt64(out[at - 1]) &* 0x0101_0101_0101_0101
            repeat {
                target.storeBytes(of: word, toByteOffset: i, as: UInt64.self)
                target.storeBytes(of: word, toByteOffset: i + 8, as: UInt64.self)
                i += 16
            } while i < length
            return
        }
        if distance < 8 {
            step = (8 + distance - 1) / distance * distance
            while i < step {
                out[at + i] = out[at + i - distance]
                i += 1
            }
            if i >= length { return }
        }
        let source = UnsafeRawPointer(target - step)
        repeat {
            target.storeBytes(of: source.loadUnaligned(fromByteOffset: i, as: UInt64.self), toByteOffset: i, as: UInt64.self)
            target.storeBytes(of: source.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self), toByteOffset: i + 8, as: UInt64.self)
            i += 16
        } while i < length
    }

    /// The input read least significant bit first through a 64-bit buffer. Past the end it
    /// reads zeros; ``checkEnd()`` throws once more bits were consumed than the input holds.
    private struct Bits: DeflateBitSource {
        let input: UnsafeRawBufferPointer
        var position = 0
        var buffer: UInt64 = 0
        var count = 0

        init(_ input: UnsafeRawBufferPointer) { self.input = input }

        /// Loads whole bytes from a word of the input until at least 56 bits wait; the input must
        /// hold 8 bytes from `position` on. The word's bits beyond the last whole byte taken are
        /// the next byte's, which the next refill puts in the same place. Shifts in the decoding
        /// loop mask their amount (always below 64 there): a plain shift's checks of it were a
        /// ninth of a Copernicus tile's inflation.
        @inline(__always) mutating func refillWord() {
            let word = UInt64(littleEndian: input.loadUnaligned(fromByteOffset: position, as: UInt64.self))
            buffer |= word &<< UInt64(count)
            let taken = (63 - count) >> 3
            position += taken
            count += taken << 3
        }

        /// Loads bytes until at least 56 bits wait, zeros past the input's end.
        @inline(__always) mutating func refill() {
            if position + 8 <= input.count {
                refillWord()
                return
            }
            while count <= 56 {
                if position < input.count { buffer |= UInt64(input[position]) << UInt64(count) }
                position += 1
                count += 8
            }
        }

        @inline(__always) func peek(_ n: Int) -> Int { Int(truncatingIfNeeded: buffer & ((1 << UInt64(n)) - 1)) }

        @inline(__always) mutating func skip(_ n: Int) {
            buffer >>= UInt64(n)
            count -= n
        }

        /// Consumes what an ``InflateTable`` entry's symbol takes: its code and extra bits.
        @inline(__always) mutating func skip(_ entry: UInt32) {
            let n = entry & 0xFF
            buffer &>>= UInt64(n)
            count -= Int(n)
        }

        /// `n` bits already in the buffer.
        @inline(__always) mutating func takeLoaded(_ n: Int) -> UInt64 {
            let v = buffer & ((1 << UInt64(n)) - 1)
            skip(n)
            return v
        }

        /// Throws when the bits consumed run past the input's end.
        @inline(__always) func checkEnd() throws(DeflateError) {
            if position * 8 - count > input.count * 8 {
                throw DeflateError("truncated stream")
            }
        }

        mutating func take(_ n: Int) throws -> UInt64 {
            guard n > 0 else { return 0 }
            refill()
            let v = takeLoaded(n)
            try checkEnd()
            return v
        }

        mutating func decode(_ code: DeflateHuffmanTable) throws -> Int {
            refill()
            let (symbol, length) = code.decode(peek(code.maximumLength))
            guard length > 0 else { throw DeflateError("invalid Huffman code") }
            skip(length)
            try checkEnd()
            return symbol
        }

        mutating func alignToByte() {
            let drop = count % 8
            skip(drop)
        }

        /// Copies a stored block (type 0, whose header bits were read) into `out` from `written`
        /// on, up to `capacity`; returns the new count.
        mutating func copyStored(into out: UnsafeMutablePointer<UInt8>, _ written: Int, _ capacity: Int) throws -> Int {
            alignToByte()
            let length = Int(try take(16)), complement = Int(try take(16))
            guard length == ~complement & 0xFFFF else { throw DeflateError("stored block length check fails") }
            // The whole bytes still in the buffer are the next of the input: read on from the first.
            let next = position - count / 8
            guard length <= input.count - next else { throw DeflateError("truncated stream") }
            let n = min(length, capacity - written)
            (out + written).update(from: input.baseAddress!.assumingMemoryBound(to: UInt8.self) + next, count: n)
            position = next + length
            buffer = 0
            count = 0
            return written + n
        }
    }
}
