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
        case huffman(literals: DeflateHuffmanTable, distances: DeflateHuffmanTable)
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
            do { try decodeBatch() } catch let error as DeflateError {
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
                    guard length == ~complement & 0xFFFF else { throw DeflateError("stored block length check fails") }
                    state = .stored(remaining: Int(length))
                case 1:
                    state = .huffman(literals: DeflateCodes.fixedLiterals, distances: DeflateCodes.fixedDistances)
                case 2:
                    let tables = try DeflateCodes.readDynamicTables(&bits)
                    state = .huffman(literals: tables.literals, distances: tables.distances)
                default:
                    throw DeflateError("reserved block type 3")
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
    private mutating func decodeSymbols(_ literals: DeflateHuffmanTable, _ distances: DeflateHuffmanTable, until target: Int) throws -> Bool {
        while output.count < target {
            let symbol = try bits.decode(literals)
            if symbol < 256 {
                output.append(UInt8(symbol))
                continue
            }
            if symbol == 256 { return true }
            let index = symbol - 257
            guard index < DeflateCodes.lengthBase.count else { throw DeflateError("bad length symbol \(symbol)") }
            let length = DeflateCodes.lengthBase[index] + Int(try bits.take(DeflateCodes.lengthExtra[index]))
            let d = try bits.decode(distances)
            guard d < DeflateCodes.distanceBase.count else { throw DeflateError("bad distance symbol \(d)") }
            let distance = DeflateCodes.distanceBase[d] + Int(try bits.take(DeflateCodes.distanceExtra[d]))
            guard distance <= output.count else { throw DeflateError("distance \(distance) reaches before the start") }
            // Byte by byte: a copy may overlap the bytes it is producing (distance < length).
            var from = output.count - distance
            for _ in 0..<length {
                output.append(output[from])
                from += 1
            }
        }
        return false
    }

    /// Reads the compressed stream bit by bit, least significant bit of each byte first.
    private struct BitReader: DeflateBitSource {
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
            guard count - padding >= n else { throw DeflateError("truncated stream") }
            buffer >>= UInt64(n)
            count -= n
        }

        mutating func take(_ n: Int) throws -> UInt64 {
            guard n > 0 else { return 0 }
            let value = try peek(n)
            try skip(n)
            return value
        }

        mutating func decode(_ code: DeflateHuffmanTable) throws -> Int {
            let (symbol, length) = code.decode(Int(try peek(code.maximumLength)))
            guard length > 0 else { throw DeflateError("invalid Huffman code") }
            try skip(length)
            return symbol
        }

        mutating func alignToByte() {
            let drop = count % 8
            buffer >>= UInt64(drop)
            count -= drop
        }
    }
}
