/// DEFLATE data (RFC 1951) decoded in one pass into a buffer whose size is known beforehand — a
/// TIFF tile or strip — as fast as plain Swift allows: the whole input and output in memory, a
/// 64-bit bit buffer, copies without per-byte bounds checks.
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
                    bits.alignToByte()
                    let length = Int(try bits.take(16)), complement = Int(try bits.take(16))
                    guard length == ~complement & 0xFFFF else { throw DeflateError("stored block length check fails") }
                    let n = min(length, capacity - written)
                    for i in 0..<n { out[written + i] = UInt8(try bits.take(8)) }
                    written += n
                case 1:
                    written = try inflate(&bits, DeflateCodes.fixedLiterals, DeflateCodes.fixedDistances, out, written, capacity)
                case 2:
                    let tables = try DeflateCodes.readDynamicTables(&bits)
                    written = try inflate(&bits, tables.literals, tables.distances, out, written, capacity)
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

    /// Decodes one Huffman block's symbols into `out` from `written` on; returns the new count
    /// when the block ends or the output is full.
    private static func inflate(_ bits: inout Bits, _ literals: DeflateHuffmanTable, _ distances: DeflateHuffmanTable,
                                _ out: UnsafeMutablePointer<UInt8>, _ start: Int, _ capacity: Int) throws(DeflateError) -> Int {
        var written = start
        let literalBits = literals.maximumLength, distanceBits = distances.maximumLength
        let literalPrimary = literals.primaryBits, distancePrimary = distances.primaryBits
        return try literals.table.withUnsafeBufferPointer { (lit) throws(DeflateError) -> Int in
            try distances.table.withUnsafeBufferPointer { (dist) throws(DeflateError) -> Int in
                try DeflateCodes.lengthBase.withUnsafeBufferPointer { (lengthBase) throws(DeflateError) -> Int in
                    try DeflateCodes.distanceBase.withUnsafeBufferPointer { (distanceBase) throws(DeflateError) -> Int in
                        while written < capacity {
                            bits.refill()
                            var (symbol, length) = DeflateHuffmanTable.lookup(lit, primaryBits: literalPrimary, bits.peek(literalBits))
                            guard length > 0 else { throw DeflateError("invalid Huffman code") }
                            bits.skip(length)
                            // A run of literals, refilling only when the longest code might not fit.
                            while symbol < 256 {
                                out[written] = UInt8(truncatingIfNeeded: symbol)
                                written += 1
                                if written == capacity { break }
                                if bits.count < literalBits { bits.refill() }
                                (symbol, length) = DeflateHuffmanTable.lookup(lit, primaryBits: literalPrimary, bits.peek(literalBits))
                                guard length > 0 else { throw DeflateError("invalid Huffman code") }
                                bits.skip(length)
                            }
                            if symbol < 256 { break }
                            try bits.checkEnd()
                            if symbol == 256 { return written }
                            let index = symbol - 257
                            guard index < 29 else { throw DeflateError("bad length symbol \(symbol)") }
                            // After a refill at least 56 bits wait: a length (≤ 5 extra bits)
                            // and a distance code (≤ 15 bits) fit; the distance's extra bits
                            // (≤ 13) may need another.
                            bits.refill()
                            let runLength = lengthBase[index] + Int(bits.takeLoaded(DeflateCodes.lengthExtra[index]))
                            let (dSymbol, dLength) = DeflateHuffmanTable.lookup(dist, primaryBits: distancePrimary, bits.peek(distanceBits))
                            guard dLength > 0 else { throw DeflateError("invalid Huffman code") }
                            bits.skip(dLength)
                            guard dSymbol < 30 else { throw DeflateError("bad distance symbol \(dSymbol)") }
                            bits.refill()
                            let distance = distanceBase[dSymbol] + Int(bits.takeLoaded(DeflateCodes.distanceExtra[dSymbol]))
                            try bits.checkEnd()
                            guard distance <= written else { throw DeflateError("distance \(distance) reaches before the start") }
                            let n = min(runLength, capacity - written)
                            let from = written - distance
                            if distance >= n {
                                (out + written).update(from: out + from, count: n)
                            } else if distance == 1 {
                                (out + written).update(repeating: out[from], count: n)
                            } else {
                                // Overlapping: the copy repeats a period of `distance` bytes.
                                // What is written is periodic, so whole periods may be copied
                                // from the start, twice as many each time, never overlapping.
                                var done = 0
                                while done < n {
                                    let c = min(distance + done, n - done)
                                    (out + written + done).update(from: out + from, count: c)
                                    done += c
                                }
                            }
                            written += n
                        }
                        // Literals read no end check on the way; zeros past the end must not fill the buffer.
                        try bits.checkEnd()
                        return written
                    }
                }
            }
        }
    }

    /// The input read least significant bit first through a 64-bit buffer. Past the end it
    /// reads zeros; ``checkEnd()`` throws once more bits were consumed than the input holds.
    private struct Bits: DeflateBitSource {
        let input: UnsafeRawBufferPointer
        var position = 0
        var buffer: UInt64 = 0
        var count = 0

        init(_ input: UnsafeRawBufferPointer) { self.input = input }

        /// Loads bytes until at least 56 bits wait.
        @inline(__always) mutating func refill() {
            if position + 8 <= input.count {
                let word = UInt64(littleEndian: input.loadUnaligned(fromByteOffset: position, as: UInt64.self))
                buffer |= word << UInt64(count)
                let taken = (63 - count) >> 3
                position += taken
                count += taken << 3
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
    }
}
