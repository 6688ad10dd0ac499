/// A streaming DEFLATE decoder (RFC 1951), so that zipped exports read without unpacking them
/// and without a C library: decompressed bytes come out as a ``ByteSource``.
///
/// Memory: the 32 KiB window the format needs, one output batch (≈64 KiB) and one input chunk;
/// never the whole member. Corrupt input gives a ``StreamReadError``, never a crash.
public struct InflateSource: ByteSource {
    /// DEFLATE distances reach back at most 32 KiB.
    static let windowSize = 1 << 15
    /// Decoding pauses once this much new output is waiting to be read.
    static let batchSize = 1 << 16
    /// Longest Huffman code DEFLATE allows.
    static let maximumCodeLength = 15

    private var bits: BitReader
    /// History (the last ``windowSize`` bytes already handed out) followed by output not yet read.
    private var output: [UInt8] = []
    private var delivered = 0
    private var state = State.blockHeader
    private var lastBlock = false
    private let name: String

    private enum State {
        case blockHeader
        case stored(remaining: Int)
        case huffman(literals: HuffmanTable, distances: HuffmanTable)
        case done
    }

    /// Inflates the raw DEFLATE stream read from `compressed`; `name` appears in error messages.
    public init(compressed: any ByteSource, name: String) {
        bits = BitReader(source: compressed)
        self.name = name
    }

    /// Copies up to `buffer.count` decompressed bytes; 0 at the end of the stream.
    public mutating func read(into buffer: UnsafeMutableRawBufferPointer) throws(StreamReadError) -> Int {
        while output.count - delivered == 0 {
            if case .done = state { return 0 }
            do { try decodeBatch() } catch let error as InflateError {
                throw StreamReadError(message: "\(name): corrupt compressed data (\(error.reason))")
            } catch let error as StreamReadError {
                throw error
            } catch {
                throw StreamReadError(message: "\(name): \(error)")
            }
        }
        let n = min(buffer.count, output.count - delivered)
        output.withUnsafeBytes { all in
            buffer.baseAddress!.copyMemory(from: all.baseAddress! + delivered, byteCount: n)
        }
        delivered += n
        return n
    }

    private struct InflateError: Error {
        var reason: String
    }

    /// Decodes until a batch of output is waiting or the stream ends, first dropping history
    /// older than the window.
    private mutating func decodeBatch() throws {
        if delivered > Self.windowSize {
            let drop = delivered - Self.windowSize
            output.removeFirst(drop)
            delivered -= drop
        }
        let target = output.count + Self.batchSize
        while output.count < target {
            switch state {
            case .done:
                return
            case .blockHeader:
                if lastBlock {
                    state = .done
                    return
                }
                lastBlock = try bits.take(1) == 1
                switch try bits.take(2) {
                case 0:
                    bits.alignToByte()
                    let length = try bits.take(16), complement = try bits.take(16)
                    guard length == ~complement & 0xFFFF else { throw InflateError(reason: "stored block length check fails") }
                    state = .stored(remaining: Int(length))
                case 1:
                    state = .huffman(literals: Self.fixedLiterals, distances: Self.fixedDistances)
                case 2:
                    state = try readDynamicTables()
                default:
                    throw InflateError(reason: "reserved block type 3")
                }
            case .stored(let remaining):
                if remaining == 0 {
                    state = .blockHeader
                    continue
                }
                let n = min(remaining, target - output.count)
                for _ in 0..<n { output.append(UInt8(try bits.take(8))) }
                state = .stored(remaining: remaining - n)
            case .huffman(let literals, let distances):
                if try decodeSymbols(literals, distances, until: target) { state = .blockHeader }
            }
        }
    }

    /// Decodes literal/length symbols until the block ends (true) or `target` bytes exist (false).
    private mutating func decodeSymbols(_ literals: HuffmanTable, _ distances: HuffmanTable, until target: Int) throws -> Bool {
        while output.count < target {
            let symbol = try literals.decode(&bits)
            if symbol < 256 {
                output.append(UInt8(symbol))
                continue
            }
            if symbol == 256 { return true }
            let index = symbol - 257
            guard index < Self.lengthBase.count else { throw InflateError(reason: "bad length symbol \(symbol)") }
            let length = Self.lengthBase[index] + Int(try bits.take(Self.lengthExtra[index]))
            let d = try distances.decode(&bits)
            guard d < Self.distanceBase.count else { throw InflateError(reason: "bad distance symbol \(d)") }
            let distance = Self.distanceBase[d] + Int(try bits.take(Self.distanceExtra[d]))
            guard distance <= output.count else { throw InflateError(reason: "distance \(distance) reaches before the start") }
            // Byte by byte: a copy may overlap the bytes it is producing (distance < length).
            var from = output.count - distance
            for _ in 0..<length {
                output.append(output[from])
                from += 1
            }
        }
        return false
    }

    /// Order in which code-length code lengths are stored (RFC 1951 §3.2.7).
    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    private mutating func readDynamicTables() throws -> State {
        let literalCount = Int(try bits.take(5)) + 257
        let distanceCount = Int(try bits.take(5)) + 1
        let codeLengthCount = Int(try bits.take(4)) + 4
        guard literalCount <= 286, distanceCount <= 30 else { throw InflateError(reason: "too many codes") }
        var codeLengthLengths = [Int](repeating: 0, count: 19)
        for i in 0..<codeLengthCount { codeLengthLengths[Self.codeLengthOrder[i]] = Int(try bits.take(3)) }
        let codeLengths = try HuffmanTable(lengths: codeLengthLengths)
        var lengths: [Int] = []
        lengths.reserveCapacity(literalCount + distanceCount)
        while lengths.count < literalCount + distanceCount {
            let symbol = try codeLengths.decode(&bits)
            switch symbol {
            case 0...15:
                lengths.append(symbol)
            case 16:
                guard let previous = lengths.last else { throw InflateError(reason: "repeat with no previous length") }
                lengths.append(contentsOf: repeatElement(previous, count: 3 + Int(try bits.take(2))))
            case 17:
                lengths.append(contentsOf: repeatElement(0, count: 3 + Int(try bits.take(3))))
            default:
                lengths.append(contentsOf: repeatElement(0, count: 11 + Int(try bits.take(7))))
            }
        }
        guard lengths.count == literalCount + distanceCount else { throw InflateError(reason: "code lengths overrun") }
        guard lengths[256] > 0 else { throw InflateError(reason: "no end-of-block code") }
        return .huffman(literals: try HuffmanTable(lengths: Array(lengths[0..<literalCount])),
                        distances: try HuffmanTable(lengths: Array(lengths[literalCount...])))
    }

    private static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115,
                                     131, 163, 195, 227, 258]
    private static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025,
                                       1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    private static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12,
                                        12, 13, 13]

    /// The fixed codes of block type 1 (RFC 1951 §3.2.6).
    private static let fixedLiterals = try! HuffmanTable(
        lengths: [Int](repeating: 8, count: 144) + [Int](repeating: 9, count: 112) + [Int](repeating: 7, count: 24)
            + [Int](repeating: 8, count: 8))
    private static let fixedDistances = try! HuffmanTable(lengths: [Int](repeating: 5, count: 30))

    /// A canonical Huffman code as a lookup table indexed by the next `maximumLength` input bits
    /// (DEFLATE packs codes from their first bit, least significant bit of the stream first, so
    /// the table is indexed by the bit-reversed code).
    private struct HuffmanTable {
        /// symbol << 4 | code length; 0 where no code matches.
        let table: [UInt16]
        let maximumLength: Int

        init(lengths: [Int]) throws {
            let maxLength = lengths.max() ?? 0
            maximumLength = max(1, maxLength)
            var countPerLength = [Int](repeating: 0, count: InflateSource.maximumCodeLength + 1)
            for l in lengths where l > 0 { countPerLength[l] += 1 }
            // Kraft: more codes of a length than the tree has room for is not a prefix code.
            var room = 1
            for l in 1...InflateSource.maximumCodeLength {
                room = room * 2 - countPerLength[l]
                guard room >= 0 else { throw InflateError(reason: "over-subscribed Huffman code") }
            }
            var nextCode = [Int](repeating: 0, count: InflateSource.maximumCodeLength + 1)
            var code = 0
            for l in 1...InflateSource.maximumCodeLength {
                code = (code + countPerLength[l - 1]) << 1
                nextCode[l] = code
            }
            var table = [UInt16](repeating: 0, count: 1 << maximumLength)
            for (symbol, l) in lengths.enumerated() where l > 0 {
                let c = nextCode[l]
                nextCode[l] += 1
                var reversed = 0
                for i in 0..<l where c & (1 << i) != 0 { reversed |= 1 << (l - 1 - i) }
                var index = reversed
                while index < table.count {
                    table[index] = UInt16(symbol << 4 | l)
                    index += 1 << l
                }
            }
            self.table = table
        }

        func decode(_ bits: inout BitReader) throws -> Int {
            let entry = table[Int(try bits.peek(maximumLength))]
            let length = Int(entry & 0xF)
            guard length > 0 else { throw InflateError(reason: "invalid Huffman code") }
            try bits.skip(length)
            return Int(entry >> 4)
        }
    }

    /// Reads the compressed stream bit by bit, least significant bit of each byte first.
    private struct BitReader {
        var source: any ByteSource
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var chunkCount = 0
        var chunkIndex = 0
        var buffer: UInt64 = 0
        var count = 0
        /// Zero bits appended past the end so that a final short code can be peeked; consuming
        /// them is an error.
        var padding = 0

        init(source: any ByteSource) {
            self.source = source
        }

        mutating func fill(_ n: Int) throws {
            while count < n {
                if chunkIndex == chunkCount {
                    var source = self.source
                    let got = try chunk.withUnsafeMutableBytes { raw in try source.read(into: raw) }
                    self.source = source
                    chunkCount = got
                    chunkIndex = 0
                    if got == 0 {
                        padding += 8
                        count += 8
                        continue
                    }
                }
                buffer |= UInt64(chunk[chunkIndex]) << UInt64(count)
                chunkIndex += 1
                count += 8
            }
        }

        mutating func peek(_ n: Int) throws -> UInt64 {
            try fill(n)
            return buffer & ((1 << UInt64(n)) - 1)
        }

        mutating func skip(_ n: Int) throws {
            guard count - padding >= n else { throw InflateError(reason: "truncated stream") }
            buffer >>= UInt64(n)
            count -= n
        }

        mutating func take(_ n: Int) throws -> UInt64 {
            guard n > 0 else { return 0 }
            let value = try peek(n)
            try skip(n)
            return value
        }

        mutating func alignToByte() {
            let drop = count % 8
            buffer >>= UInt64(drop)
            count -= drop
        }
    }
}
