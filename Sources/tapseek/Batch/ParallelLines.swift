import Foundation
import TapSeek

/// Lines of stdin transformed on all cores and written to stdout **in input order**: the
/// `--batch` services (elevation, geocoding) on the project's one batch engine,
/// ``BatchPipeline``. Input is cut into blocks of whole lines, kept as raw bytes (no `String`
/// per line: these services run at millions of lines a second); each block is turned into
/// output bytes by one job with its own state (a tile sampler, say). Memory stays bounded by
/// `jobs` blocks in flight, whatever the input size.
///
/// Every non-blank line gives one output line; blank lines (spaces, tabs, a CR at most) give
/// none, and neither does a first line that `header` calls a header.
struct ParallelLines<State: Sendable>: Sendable {
    /// Blocks worked on at once.
    let jobs: Int
    /// Where the lines come from: stdin unless given.
    var descriptor: Int32 = STDIN_FILENO
    /// Reads line 1, once, before any state is made or any line transformed: whether it is a
    /// header to skip (a CSV's `lat,lon`). It may note what the header says for `makeState`
    /// to read, and throws (ending the run before any output) for a header it cannot use.
    /// nil: no input has a header.
    var header: (@Sendable (UnsafeBufferPointer<UInt8>) throws -> Bool)? = nil
    /// Called on each line that `transform` will get, ``lookahead`` such lines before it (nil:
    /// never): a transform that starts its line's memory reads here finds them in cache, their
    /// misses overlapping the work on the lines before instead of stalling each line in turn.
    var prepare: (@Sendable (inout State, UnsafeBufferPointer<UInt8>, Int) -> Void)? = nil
    /// Makes the state of one block's job.
    let makeState: @Sendable () -> State
    /// Appends the output for one line (without its newline) to `out`; `number` is 1-based.
    let transform: @Sendable (inout State, UnsafeBufferPointer<UInt8>, Int, inout OutputBuffer) -> Void

    /// How many lines ahead of `transform` `prepare` runs: enough misses in flight to fill the
    /// core's outstanding-miss slots, few enough that the first are still cached when used.
    static var lookahead: Int { 16 }

    /// Bytes per block: large enough that a block's set-up is noise, small enough that a block's
    /// output (5 times its input for `elevation --batch`) fits the reused buffers' first capacity:
    /// 1 MiB blocks grew each buffer to 8 MiB of fresh pages, a fifth of that command's time in
    /// page faults and copies.
    private static var blockSize: Int { 1 << 17 }

    func run() async throws {
        let buffers = BufferPool()
        var pipeline = BatchPipeline<LineBlock, Locked<OutputBuffer>>(jobs: jobs) { block in
            let output = buffers.take()
            output.withLock { process(block, into: &$0) }
            return output
        }
        var reader = BlockReader(blockSize: Self.blockSize, descriptor: descriptor)
        // Line 1 is judged before the first block is submitted: the header's verdict is known
        // to every job (and a header that cannot be used ends the run with nothing written).
        var first = try reader.next()
        if let header, var block = first, !isTooLong(1, block), !block.bytes.isEmpty {
            block.skipsFirstLine = try block.bytes.withUnsafeBufferPointer { b in
                try header(UnsafeBufferPointer(rebasing: b[0..<(newline(in: b, from: 0) ?? b.count)]))
            }
            first = block
        }
        var ended = false
        while true {
            while !ended, !pipeline.isFull {
                if let block = try first ?? reader.next() {
                    first = nil
                    pipeline.submit(block)
                } else {
                    ended = true
                }
            }
            guard let output = await pipeline.next() else { break }
            output.withLock { $0.flush() }
            buffers.give(output)
        }
    }

    /// Block output buffers, reused: a fresh 1 MiB buffer per block would be a fresh mapping
    /// whose pages fault in one by one (measured: 7× the page faults, +20 % CPU). Each in a box
    /// of its own, which the jobs and the writer pass by reference: a buffer passed by value was
    /// still shared with the finished job's task when the writer emptied it, so emptying it
    /// copied it, and every block wrote into fresh pages (measured: 22 000 page faults a million
    /// `elevation --batch` lines, a fifth of its time).
    private final class BufferPool: Sendable {
        private let free = Locked<[Locked<OutputBuffer>]>([])
        func take() -> Locked<OutputBuffer> { free.withLock { $0.popLast() } ?? Locked(OutputBuffer()) }
        func give(_ buffer: Locked<OutputBuffer>) { free.withLock { $0.append(buffer) } }
    }

    /// Appends the output of a block's lines to `out`.
    private func process(_ block: LineBlock, into out: inout OutputBuffer) {
        var state = makeState()
        // Only the writer writes, in order: a job's buffer must never flush itself.
        block.bytes.withUnsafeBufferPointer { b in
            var start = 0, number = block.firstLine
            // The next line `prepare` looks at, and how many lines it has prepared that
            // `transform` has not had yet.
            var ahead = (start: 0, number: block.firstLine), prepared = 0
            // The ends of the lines `prepare` has looked at (slot: line number's low bits),
            // so that each line's end is searched for once.
            var ends = LineEnds()
            while start < b.count {
                let end = ends.end(of: number) ?? newline(in: b, from: start) ?? b.count
                let line = UnsafeBufferPointer(rebasing: b[start..<end])
                if isTooLong(number, block) {
                    LineErrorRecord.write(line: number, message: "line \(number): longer than the \(BlockReader.maximumLineLength)-byte limit of a line",
                                          to: &out)
                    out.newline(flushing: false)
                } else if transforms(line, number, block) {
                    if let prepare {
                        while prepared < Self.lookahead, ahead.start < b.count {
                            let aheadEnd = newline(in: b, from: ahead.start) ?? b.count
                            ends.note(aheadEnd, of: ahead.number)
                            let next = UnsafeBufferPointer(rebasing: b[ahead.start..<aheadEnd])
                            if !isTooLong(ahead.number, block), transforms(next, ahead.number, block) {
                                prepare(&state, next, ahead.number)
                                prepared += 1
                            }
                            ahead = (aheadEnd + 1, ahead.number + 1)
                        }
                        prepared -= 1
                    }
                    transform(&state, line, number, &out)
                    out.newline(flushing: false)
                }
                start = end + 1
                number += 1
            }
        }
    }

    /// Whether line `number` of `block` was too long to keep.
    @inline(__always) private func isTooLong(_ number: Int, _ block: LineBlock) -> Bool {
        !block.tooLong.isEmpty && block.tooLong.contains(number)
    }

    /// Whether a kept line is handed to `transform`: not blank, and not a header.
    @inline(__always) private func transforms(_ line: UnsafeBufferPointer<UInt8>, _ number: Int, _ block: LineBlock) -> Bool {
        !Self.isBlank(line) && !(number == 1 && block.skipsFirstLine)
    }

    /// Whether a line holds nothing but spaces, tabs and carriage returns.
    static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }
}

/// The ends of the last lines looked at ahead, by line number (the low bits pick the slot; a
/// slot holds the number it was noted for, so a line looked at longer ago is searched again).
private struct LineEnds {
    private var slots = [(number: Int, end: Int)](repeating: (-1, 0), count: 32)

    @inline(__always) func end(of number: Int) -> Int? {
        let slot = slots[number & 31]
        return slot.number == number ? slot.end : nil
    }

    @inline(__always) mutating func note(_ end: Int, of number: Int) {
        slots[number & 31] = (number, end)
    }
}

/// A file (stdin by default) in blocks of whole lines, each scanned once as it arrives (a long
/// line costs linear time), memory bounded by the block size and the line limit: a line longer
/// than ``maximumLineLength`` is dropped as it streams by and reported by number.
/// Whole lines of input, each ended by a newline, the number of the first, and the numbers of
/// lines too long to keep (their bytes dropped, an empty line in their place).
private struct LineBlock: Sendable {
    var bytes: [UInt8]
    var firstLine: Int
    var tooLong: Set<Int>
    /// Whether line 1, which this block holds, is a header to skip.
    var skipsFirstLine = false
}

private struct BlockReader {
    /// 1 MiB: far beyond any coordinate line; longer is garbage.
    static let maximumLineLength = 1 << 20

    let blockSize: Int
    let descriptor: Int32
    /// Complete lines (each ended by a newline), then the start of the current line.
    private var pending: [UInt8] = []
    /// Where the current, unfinished line starts in `pending`.
    private var lineStart = 0
    private var completeLines = 0
    /// Number of the first line in `pending`.
    private var firstLine = 1
    /// Whether the current line is over the limit (its bytes are being dropped).
    private var skipping = false
    private var tooLong = Set<Int>()
    private var buffer: [UInt8]
    private var ended = false

    init(blockSize: Int, descriptor: Int32) {
        self.blockSize = blockSize
        self.descriptor = descriptor
        buffer = [UInt8](repeating: 0, count: blockSize)
    }

    /// The next block of whole lines; nil at the end of input. The last line may lack its
    /// newline in the input; it gets one here.
    mutating func next() throws -> LineBlock? {
        while !ended, lineStart < blockSize {
            let n = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw InputError("cannot read the input: \(String(cString: strerror(errno)))")
            }
            if n == 0 {
                ended = true
                break
            }
            var i = 0
            buffer.withUnsafeBufferPointer { b in
                // The end of a line too long to keep, whose bytes are dropped.
                if skipping {
                    guard let end = newline(in: b, from: 0, to: n) else {
                        i = n
                        return
                    }
                    pending.append(0x0A)
                    skipping = false
                    completeLines += 1
                    lineStart = pending.count
                    i = end + 1
                }
                // The whole lines and the start of the next, appended in one copy: a line
                // wholly inside a read is never longer than the limit (one block); only the
                // unfinished one is checked, as it grows read by read.
                let run = i
                if let last = lastNewline(in: b, from: i, to: n) {
                    completeLines += newlines(in: b, from: i, to: last + 1)
                    i = last + 1
                }
                pending.append(contentsOf: UnsafeBufferPointer(rebasing: b[run..<n]))
                if i > run { lineStart = pending.count - (n - i) }
                if i < n, pending.count - lineStart > Self.maximumLineLength {
                    tooLong.insert(firstLine + completeLines)
                    pending.removeSubrange(lineStart...)
                    skipping = true
                }
            }
        }
        if ended, skipping || pending.count > lineStart {
            pending.append(0x0A)
            skipping = false
            completeLines += 1
            lineStart = pending.count
        }
        guard lineStart > 0 else { return nil }
        let block = LineBlock(bytes: Array(pending[..<lineStart]), firstLine: firstLine, tooLong: tooLong)
        pending.removeSubrange(..<lineStart)
        firstLine += completeLines
        completeLines = 0
        lineStart = 0
        tooLong = []
        return block
    }
}

/// The index of the last newline in `bytes[from..<to]`, searched from the end (a read ends in
/// the middle of a line, seldom far from a newline).
@inline(__always) func lastNewline(in bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int? {
    var k = to
    while k > from {
        k -= 1
        if bytes[k] == 0x0A { return k }
    }
    return nil
}

/// How many newlines `bytes[from..<to]` holds, eight bytes at a time, where a `memchr` call per
/// line of a batch's input (about 20 bytes) was a third of the time spent finding line ends.
func newlines(in bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Int {
    guard from < to, let base = bytes.baseAddress else { return 0 }
    var count = 0, k = from
    let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
    while k + 8 <= to {
        // Bytes equal to a newline become zero; a byte's top bit is then set exactly where it is
        // zero (no borrow between bytes, unlike the shorter test); those bits, moved to the
        // bottom of their bytes, are summed into the top byte by one multiplication (the
        // baseline x86-64 has no population count instruction: its stand-in took 15).
        let t = UnsafeRawPointer(base + k).loadUnaligned(as: UInt64.self) ^ 0x0A0A_0A0A_0A0A_0A0A
        let zeros = ~(((t & low) &+ low) | t | low) >> 7
        count &+= Int(truncatingIfNeeded: (zeros &* 0x0101_0101_0101_0101) >> 56)
        k += 8
    }
    while k < to {
        if base[k] == 0x0A { count &+= 1 }
        k += 1
    }
    return count
}

/// The index of the first newline in `bytes[from..<to]` (`to` defaults to the end), by `memchr`:
/// the batch readers find a million line ends a second, where a byte-by-byte search cost as
/// much as parsing the line.
@inline(__always) func newline(in bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int? = nil) -> Int? {
    let to = to ?? bytes.count
    guard from < to, let base = bytes.baseAddress, let found = memchr(base + from, 0x0A, to - from) else { return nil }
    return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
}
