import Foundation
import Synchronization
import TapSeek

/// Lines of stdin transformed on all cores and written to stdout **in input order**: the
/// `--batch` services (elevation, geocoding) on the project's one batch engine,
/// ``BatchPipeline``. Input is cut into blocks of whole lines, kept as raw bytes (no `String`
/// per line: these services run at millions of lines a second); each block is turned into
/// output bytes by one job with its own state (a tile sampler, say). Memory stays bounded by
/// `jobs` blocks in flight, whatever the input size.
struct ParallelLines<State: Sendable>: Sendable {
    /// Blocks worked on at once.
    let jobs: Int
    /// Where the lines come from: stdin unless given.
    var descriptor: Int32 = STDIN_FILENO
    /// Makes the state of one block's job.
    let makeState: @Sendable () -> State
    /// Appends the output for one line (without its newline) to `out`; `number` is 1-based.
    let transform: @Sendable (inout State, UnsafeBufferPointer<UInt8>, Int, inout OutputBuffer) -> Void

    /// Bytes per block: large enough that a block's set-up is noise, small enough for memory.
    private static var blockSize: Int { 1 << 20 }

    /// Whole lines of input and the number of the first.
    private struct Block: Sendable {
        var bytes: [UInt8]
        var firstLine: Int
    }

    func run() async throws {
        let buffers = BufferPool()
        var pipeline = BatchPipeline<Block, OutputBuffer>(jobs: jobs) { block in process(block, into: buffers.take()) }
        var reader = BlockReader(blockSize: Self.blockSize, descriptor: descriptor)
        var ended = false
        while true {
            while !ended, !pipeline.isFull {
                if let (bytes, first) = try reader.next() {
                    pipeline.submit(Block(bytes: bytes, firstLine: first))
                } else {
                    ended = true
                }
            }
            guard var out = await pipeline.next() else { break }
            out.flush()
            buffers.give(out)
        }
    }

    /// Block output buffers, reused: a fresh 1 MiB buffer per block would be a fresh mapping
    /// whose pages fault in one by one (measured: 7× the page faults, +20 % CPU).
    private final class BufferPool: Sendable {
        private let free = Mutex<[OutputBuffer]>([])
        func take() -> OutputBuffer { free.withLock { $0.popLast() } ?? OutputBuffer() }
        func give(_ buffer: OutputBuffer) { free.withLock { $0.append(buffer) } }
    }

    private func process(_ block: Block, into buffer: OutputBuffer) -> OutputBuffer {
        var state = makeState()
        // Only the writer writes, in order: a job's buffer must never flush itself.
        var out = buffer
        block.bytes.withUnsafeBufferPointer { b in
            var start = 0, number = block.firstLine
            while start < b.count {
                let end = b[start...].firstIndex(of: 0x0A) ?? b.count
                transform(&state, UnsafeBufferPointer(rebasing: b[start..<end]), number, &out)
                out.newline(flushing: false)
                start = end + 1
                number += 1
            }
        }
        return out
    }
}

/// A file (stdin by default) in blocks of whole lines (the last line may lack its newline).
private struct BlockReader {
    let blockSize: Int
    let descriptor: Int32
    private var pending: [UInt8] = []
    private var buffer: [UInt8]
    private var nextLine = 1
    private var ended = false

    init(blockSize: Int, descriptor: Int32) {
        self.blockSize = blockSize
        self.descriptor = descriptor
        buffer = [UInt8](repeating: 0, count: blockSize)
    }

    /// The next block and the number of its first line; nil at the end of input.
    mutating func next() throws -> ([UInt8], Int)? {
        while !ended, pending.count < blockSize || pending.lastIndex(of: 0x0A) == nil {
            let n = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw InputError("cannot read the input: \(String(cString: strerror(errno)))")
            }
            if n == 0 { ended = true } else { pending.append(contentsOf: buffer[0..<n]) }
        }
        guard !pending.isEmpty else { return nil }
        var block: [UInt8]
        if ended {
            block = pending
            pending = []
        } else {
            let cut = pending.lastIndex(of: 0x0A)!
            block = Array(pending[...cut])
            pending.removeSubrange(...cut)
        }
        if block.last == 0x0A { block.removeLast() }
        let first = nextLine
        nextLine += block.reduce(into: 1) { if $1 == 0x0A { $0 += 1 } }
        return (block, first)
    }
}
