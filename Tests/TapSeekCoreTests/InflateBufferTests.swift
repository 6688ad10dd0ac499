import Testing
import TapSeekTestSupport

@testable import TapSeekCore

/// The one-pass DEFLATE decoder of TIFF blocks on streams written here symbol by symbol (zlib's
/// own decoder reads them the same: checked with Python's `zlib.decompressobj(-15)`) — every
/// block type, copies that overlap what they write at every short distance, the longest length
/// and distance, long random streams (which run through both its fast and its careful loop) —
/// against a plain model of what they mean; and on corrupt streams, each an error in a phrase,
/// never more output than the buffer.
@Suite struct InflateBufferTests {
    /// DEFLATE symbols in Huffman blocks, and what they decode to.
    struct Stream {
        var bits = BitWriter(msbFirst: false)
        var expected: [UInt8] = []
        var literalCodes = Self.fixedLiterals, distanceCodes = Self.fixedDistances

        /// The canonical code of each symbol of `lengths` (RFC 1951 §3.2.2).
        static func canonical(_ lengths: [Int]) -> [(code: Int, length: Int)] {
            var next = [Int](repeating: 0, count: 16), code = 0
            for l in 1...15 {
                code = (code + lengths.filter { $0 == l - 1 && l > 1 }.count) << 1
                next[l] = code
            }
            return lengths.map { l in
                defer { if l > 0 { next[l] += 1 } }
                return (l > 0 ? next[l] : 0, l)
            }
        }

        /// The fixed codes of block type 1 (RFC 1951 §3.2.6).
        static let fixedLiterals = canonical((0..<288).map { $0 < 144 ? 8 : $0 < 256 ? 9 : $0 < 280 ? 7 : 8 })
        static let fixedDistances = canonical([Int](repeating: 5, count: 30))
        /// Complete codes of other lengths for dynamic blocks (zlib refuses incomplete ones).
        static let dynamicLiteralLengths = (0..<286).map { $0 < 144 ? 8 : $0 < 256 ? 9 : $0 == 256 ? 6 : $0 < 280 ? 7 : 8 }
        static let dynamicDistanceLengths = (0..<30).map { $0 < 2 ? 4 : 5 }

        /// Starts a block: `final`, and fixed codes or a dynamic block's header and codes.
        mutating func startBlock(final: Bool, dynamic: Bool = false) {
            bits.write(final ? 1 : 0, width: 1)
            bits.write(dynamic ? 2 : 1, width: 2)
            guard dynamic else {
                (literalCodes, distanceCodes) = (Self.fixedLiterals, Self.fixedDistances)
                return
            }
            bits.write(286 - 257, width: 5)
            bits.write(30 - 1, width: 5)
            bits.write(19 - 4, width: 4)
            // The code-length code: lengths 0…15 each 4 bits long (symbol s is code s), no
            // repeat codes (16, 17, 18); sent in RFC 1951's order, repeat codes first.
            for symbol in [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15] { bits.write(symbol < 16 ? 4 : 0, width: 3) }
            for length in Self.dynamicLiteralLengths + Self.dynamicDistanceLengths { bits.writeCode(length, length: 4) }
            (literalCodes, distanceCodes) = (Self.canonical(Self.dynamicLiteralLengths), Self.canonical(Self.dynamicDistanceLengths))
        }

        mutating func symbol(_ s: Int) { bits.writeCode(literalCodes[s].code, length: literalCodes[s].length) }

        mutating func literal(_ byte: UInt8) {
            symbol(Int(byte))
            expected.append(byte)
        }

        mutating func endBlock() { symbol(256) }

        /// A match of `length` (3…258) bytes from `distance` (1…32768) back.
        mutating func match(length: Int, distance: Int) {
            let l = DeflateCodes.lengthBase.lastIndex { $0 <= length }!
            symbol(257 + l)
            bits.write(length - DeflateCodes.lengthBase[l], width: DeflateCodes.lengthExtra[l])
            let d = DeflateCodes.distanceBase.lastIndex { $0 <= distance }!
            bits.writeCode(distanceCodes[d].code, length: distanceCodes[d].length)
            bits.write(distance - DeflateCodes.distanceBase[d], width: DeflateCodes.distanceExtra[d])
            // The model: one byte at a time, so that an overlapping copy repeats its period.
            for _ in 0..<length { expected.append(expected[expected.count - distance]) }
        }

        /// A stored block (type 0) holding `bytes`.
        mutating func stored(_ bytes: [UInt8], final: Bool) {
            bits.write(final ? 1 : 0, width: 1)
            bits.write(0, width: 2)
            var whole = bits.finish()
            whole += [UInt8(bytes.count & 0xFF), UInt8(bytes.count >> 8), UInt8(~bytes.count & 0xFF), UInt8((~bytes.count >> 8) & 0xFF)]
            whole += bytes
            bits = BitWriter(msbFirst: false)
            prefix += whole
            expected += bytes
        }

        /// Bytes written before a stored block, which starts on a byte boundary.
        var prefix: [UInt8] = []

        mutating func finish() -> [UInt8] { prefix + bits.finish() }
    }

    /// Decodes `stream` into a buffer of `capacity` bytes; the bytes written.
    static func decode(_ stream: [UInt8], capacity: Int) throws -> [UInt8] {
        var out = [UInt8](repeating: 0xEE, count: capacity)
        let n = try stream.withUnsafeBytes { input in
            try out.withUnsafeMutableBytes { output in try InflateBuffer.decode(input, into: output) }
        }
        return Array(out[0..<n])
    }

    /// The same stream with zlib's header (no preset dictionary, 32 KiB window) and a checksum
    /// of zeros (not verified), as a TIFF block holds it.
    static func zlib(_ deflate: [UInt8]) -> [UInt8] { [0x78, 0x01] + deflate + [0, 0, 0, 0] }

    static func decodeZlib(_ stream: [UInt8], capacity: Int) throws {
        var out = [UInt8](repeating: 0, count: capacity)
        try stream.withUnsafeBytes { input in
            try out.withUnsafeMutableBytes { output in try InflateBuffer.decodeZlib(input, into: output) }
        }
    }

    @Test func everyBlockTypeInOneStream() throws {
        var s = Stream()
        s.startBlock(final: false)
        for byte in "fixed codes, fixed codes".utf8 { s.literal(byte) }
        s.match(length: 12, distance: 13)
        s.endBlock()
        s.stored(Array(0...255) + Array("stored".utf8), final: false)
        s.startBlock(final: true, dynamic: true)
        for byte in "dynamic".utf8 { s.literal(byte) }
        s.match(length: 200, distance: 270)
        s.endBlock()
        let stream = s.finish()
        #expect(try Self.decode(stream, capacity: s.expected.count) == s.expected)
        // A larger buffer: the stream's end ends the output.
        #expect(try Self.decode(stream, capacity: s.expected.count + 1000) == s.expected)
        // The streaming decoder reads the same.
        var source = InflateSource(compressed: MemoryByteSource(stream), name: "test")
        var streamed: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 100)
        while true {
            let n = try chunk.withUnsafeMutableBytes { raw throws(StreamReadError) in try source.read(into: raw) }
            if n == 0 { break }
            streamed += chunk[0..<n]
        }
        #expect(streamed == s.expected)
    }

    /// Copies whose source overlaps what they write (distance 1…8, below a word) and just past
    /// a word (9…17), of every length from 3 to 258, in both loops: the first run lies well
    /// inside the stream, the last ends it.
    @Test(arguments: 1...17)
    func overlappingCopiesRepeatTheirPeriod(distance: Int) throws {
        var s = Stream()
        s.startBlock(final: true)
        for i in 0..<distance { s.literal(UInt8(truncatingIfNeeded: 37 * i + 11)) }
        for length in 3...258 {
            s.match(length: length, distance: distance)
            s.literal(UInt8(truncatingIfNeeded: length))
        }
        s.endBlock()
        let stream = s.finish()
        #expect(try Self.decode(stream, capacity: s.expected.count) == s.expected)
        for cut in [1, 7, 100, 257, 258, 259, 300] where cut < s.expected.count {
            // A full buffer stops the copy in the middle, and nothing past it is written.
            #expect(try Self.decode(stream, capacity: s.expected.count - cut) == Array(s.expected.dropLast(cut)))
        }
    }

    @Test func longestLengthAndDistance() throws {
        var s = Stream()
        s.startBlock(final: true)
        var random = SplitMix64(seed: 7)
        for _ in 0..<32768 { s.literal(UInt8(truncatingIfNeeded: random.next())) }
        for _ in 0..<20 { s.match(length: 258, distance: 32768) }
        s.match(length: 258, distance: 1)
        s.endBlock()
        #expect(try Self.decode(s.finish(), capacity: s.expected.count) == s.expected)
    }

    /// Random streams of literals and matches of random lengths and distances, in several
    /// blocks of each Huffman type, decoded whole and into buffers that fill part way.
    @Test(arguments: 1...6)
    func randomStreamsDecodeAsTheModelSays(seed: UInt64) throws {
        var random = SplitMix64(seed: seed)
        func below(_ n: Int) -> Int { Int(random.next() % UInt64(n)) }
        var s = Stream()
        for block in 0..<4 {
            s.startBlock(final: block == 3, dynamic: block % 2 == 1)
            for _ in 0..<3000 {
                if s.expected.isEmpty || below(3) == 0 {
                    s.literal(UInt8(below(256)))
                } else {
                    let far = below(4) == 0 ? min(s.expected.count, 32768) : min(s.expected.count, 40)
                    s.match(length: 3 + below(below(2) == 0 ? 256 : 20), distance: 1 + below(far))
                }
            }
            s.endBlock()
        }
        let stream = s.finish()
        #expect(try Self.decode(stream, capacity: s.expected.count) == s.expected)
        for _ in 0..<5 {
            let capacity = below(s.expected.count)
            #expect(try Self.decode(stream, capacity: capacity) == Array(s.expected.prefix(capacity)))
        }
    }

    /// A stream cut anywhere before its last symbol, decoded into the buffer its whole would
    /// fill, is an error. (Cut only in its end-of-block code and padding, it still fills the
    /// buffer, which is all a TIFF block needs, as libtiff reads it.)
    @Test func truncatedStreamsAreErrors() throws {
        var s = Stream()
        s.startBlock(final: true)
        var random = SplitMix64(seed: 3)
        for i in 0..<600 {
            if i % 3 == 0, s.expected.count > 10 { s.match(length: 3 + Int(random.next() % 40), distance: 1 + Int(random.next() % 10)) } else {
                s.literal(UInt8(truncatingIfNeeded: random.next()))
            }
        }
        s.endBlock()
        let stream = Self.zlib(s.finish())
        try Self.decodeZlib(stream, capacity: s.expected.count)
        for cut in 2...(stream.count - 4 - 3) {
            #expect(throws: DeflateError.self) { try Self.decodeZlib(Array(stream.prefix(cut)), capacity: s.expected.count) }
        }
    }

    @Test func corruptStreamsFailWithAReason() {
        func reason(_ build: (inout Stream) -> Void, capacity: Int = 1000) -> String? {
            var s = Stream()
            build(&s)
            do { _ = try Self.decode(s.finish() + [UInt8](repeating: 0, count: 40), capacity: capacity) } catch let error as DeflateError {
                return error.reason
            } catch {
                return "\(error)"
            }
            return nil
        }
        // A distance reaching before the first byte, in the fast and in the careful loop.
        #expect(reason { s in s.startBlock(final: true); s.literal(1); s.bits.writeCode(0x01, length: 7); s.bits.writeCode(4, length: 5); s.bits.write(0, width: 1) }
                == "distance 5 reaches before the start")
        #expect(reason({ s in s.startBlock(final: true); s.literal(1); s.bits.writeCode(0x01, length: 7); s.bits.writeCode(4, length: 5) }, capacity: 10)
                == "distance 5 reaches before the start")
        // Distance symbol 30 and length symbol 286: in the fixed codes, but no code.
        #expect(reason { s in s.startBlock(final: true); s.literal(1); s.bits.writeCode(0x01, length: 7); s.bits.writeCode(30, length: 5) }
                == "invalid distance code")
        #expect(reason { s in s.startBlock(final: true); s.literal(1); s.symbol(286) } == "invalid Huffman code")
        #expect(reason { s in s.bits.write(1, width: 1); s.bits.write(3, width: 2) } == "reserved block type 3")
        // A dynamic block whose code-length code is over-subscribed (19 codes of 2 bits).
        #expect(reason { s in
            s.bits.write(1, width: 1); s.bits.write(2, width: 2); s.bits.write(0, width: 5); s.bits.write(0, width: 5); s.bits.write(15, width: 4)
            for _ in 0..<19 { s.bits.write(2, width: 3) }
        } == "over-subscribed Huffman code")
        #expect(reason { s in
            s.bits.write(1, width: 1); s.bits.write(0, width: 2); s.bits.write(0, width: 5)
            s.bits.write(0x0018, width: 16); s.bits.write(0, width: 16)
        } == "stored block length check fails")
    }

    @Test func codesAreReversedBitByBit() {
        for bits in 1...15 {
            for code in [0, 1, 0b1011, (1 << bits) - 1, 0x5A5A & ((1 << bits) - 1)] where code < 1 << bits {
                let expected = (0..<bits).reduce(0) { r, i in r | (code >> i & 1) << (bits - 1 - i) }
                #expect(InflateTable.reverse(code, bits: bits) == expected, "\(code) in \(bits) bits")
            }
        }
    }

    /// 400 000 matches of 258 bytes claim 100 MB; the buffer of 5 000 bytes bounds the output.
    @Test func bombFillsOnlyTheBuffer() throws {
        var s = Stream()
        s.startBlock(final: true)
        s.literal(0)
        for _ in 0..<400_000 {
            s.bits.writeCode(0xC5, length: 8)
            s.bits.writeCode(0, length: 5)
        }
        #expect(try Self.decode(s.finish(), capacity: 5000) == [UInt8](repeating: 0, count: 5000))
    }
}
