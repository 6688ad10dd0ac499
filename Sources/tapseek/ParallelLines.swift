import Dispatch
import Foundation
import Synchronization

/// Lines of stdin transformed on all cores and written to stdout **in input order**: the engine
/// of the `--batch` services. Input is cut into blocks of whole lines; each block is turned
/// into output bytes by one worker with its own state (a tile sampler, say); blocks are
/// written as soon as all before them are. Memory stays bounded: at most `2 × jobs` blocks are
/// in flight, whatever the input size.
struct ParallelLines<State: Sendable>: Sendable {
    /// Workers; 1 processes inline.
    let jobs: Int
    /// Makes one worker's private state.
    let makeState: @Sendable () -> State
    /// Appends the output for one line (without its newline) to `out`; `number` is 1-based.
    let transform: @Sendable (inout State, UnsafeBufferPointer<UInt8>, Int, inout OutputBuffer) -> Void

    private static var blockSize: Int { 1 << 20 }

    func run() throws {
        let slots = DispatchSemaphore(value: 2 * max(jobs, 1))
        let queue = DispatchQueue(label: "tapseek.lines", attributes: .concurrent)
        let group = DispatchGroup()
        let states = Mutex<[State]>([])
        let writer = Mutex(OrderedWriter())
        var pending: [UInt8] = []
        var block = [UInt8](repeating: 0, count: Self.blockSize)
        var index = 0, firstLine = 1

        func submit(_ bytes: [UInt8], final: Bool) {
            let lines = bytes.reduce(into: 0) { if $1 == 0x0A { $0 += 1 } } + (final && bytes.last != 0x0A && !bytes.isEmpty ? 1 : 0)
            let (myIndex, myFirst) = (index, firstLine)
            index += 1
            firstLine += lines
            slots.wait()
            let work: @Sendable () -> Void = { [makeState, transform] in
                var state = states.withLock { $0.popLast() } ?? makeState()
                var out = OutputBuffer(descriptor: -1)
                bytes.withUnsafeBufferPointer { b in
                    var start = 0, number = myFirst
                    for i in 0..<b.count where b[i] == 0x0A {
                        transform(&state, UnsafeBufferPointer(rebasing: b[start..<i]), number, &out)
                        out.newline(flushing: false)
                        start = i + 1
                        number += 1
                    }
                    if start < b.count {
                        transform(&state, UnsafeBufferPointer(rebasing: b[start..<b.count]), number, &out)
                        out.newline(flushing: false)
                    }
                }
                states.withLock { $0.append(state) }
                writer.withLock { $0.deliver(myIndex, out) }
                slots.signal()
            }
            if jobs <= 1 { work() } else { queue.async(group: group, execute: work) }
        }

        while true {
            let n = block.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw InputError("cannot read stdin: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            pending.append(contentsOf: block[0..<n])
            if pending.count >= Self.blockSize, let cut = pending.lastIndex(of: 0x0A) {
                let whole = Array(pending[...cut])
                pending.removeSubrange(...cut)
                submit(whole, final: false)
            }
        }
        if !pending.isEmpty { submit(pending, final: true) }
        group.wait()
        writer.withLock { $0.finish() }
    }
}

/// Writes blocks in index order, whichever order they finish in.
private struct OrderedWriter {
    private var next = 0
    private var waiting: [Int: OutputBuffer] = [:]
    private var out = OutputBuffer()

    mutating func deliver(_ index: Int, _ block: OutputBuffer) {
        waiting[index] = block
        while let b = waiting.removeValue(forKey: next) {
            out.append(buffer: b)
            out.flush()
            next += 1
        }
    }

    mutating func finish() { out.flush() }
}
