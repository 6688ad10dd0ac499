import Foundation
import TapSeek

/// Bytes bound for a file descriptor, written in large blocks: batch commands emit millions of
/// short JSON lines and must not pay a system call for each.
///
/// The bytes live in storage of its own (copied on write, as an array's would be), so that a
/// record can be formatted straight into it (``appendInPlace(upTo:_:)``): through an array, each batch
/// record was formatted into scratch memory and then appended, a `memcpy` and the array's
/// checks per record.
struct OutputBuffer {
    /// The bytes so far: `count` of `capacity` at `base`.
    private final class Storage: @unchecked Sendable {
        // Unchecked: only reached through an ``OutputBuffer`` that owns it alone whenever it
        // changes (copied first otherwise), like an array's buffer.
        var base: UnsafeMutableRawPointer
        var capacity: Int
        var count = 0

        init(capacity: Int) {
            self.capacity = max(capacity, 16)
            base = .allocate(byteCount: self.capacity, alignment: 16)
        }

        deinit { base.deallocate() }

        /// A copy with room for `capacity` bytes (at least the bytes there are).
        func copy(capacity: Int) -> Storage {
            let copy = Storage(capacity: max(capacity, count))
            copy.base.copyMemory(from: base, byteCount: count)
            copy.count = count
            return copy
        }
    }

    private var storage: Storage
    /// Where JSON values are encoded before they are copied in (the encoder appends to arrays).
    private var scratch: [UInt8] = []
    private let descriptor: Int32
    private static let flushThreshold = 1 << 20

    init(descriptor: Int32 = STDOUT_FILENO) {
        self.descriptor = descriptor
        // Allocated, not touched: pages are faulted in only as they are written.
        storage = Storage(capacity: Self.flushThreshold + 4096)
    }

    /// The storage, owned alone, with room for `n` more bytes; where they go.
    @inline(__always) private mutating func room(_ n: Int) -> UnsafeMutableRawPointer {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy(capacity: storage.capacity) }
        if storage.capacity - storage.count < n { storage = storage.copy(capacity: max(2 * storage.capacity, storage.count + n)) }
        return storage.base + storage.count
    }

    /// Lets `body` write at most `capacity` bytes in place, at the end; `body` returns how many
    /// it wrote. Writing more than `capacity` traps.
    @inline(__always) mutating func appendInPlace(upTo capacity: Int, _ body: (UnsafeMutableRawPointer) -> Int) {
        let target = room(capacity)
        let written = body(target)
        precondition(written >= 0 && written <= capacity, "record longer than its bound")
        storage.count += written
    }

    mutating func append(_ s: StaticString) {
        append(bytes: UnsafeRawBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    mutating func append(_ s: String) {
        var s = s
        s.withUTF8 { append(bytes: UnsafeRawBufferPointer($0)) }
    }

    mutating func append<C: Collection>(bytes b: C) where C.Element == UInt8 {
        if b.withContiguousStorageIfAvailable({ append(bytes: UnsafeRawBufferPointer($0)) }) == nil {
            Array(b).withUnsafeBytes { append(bytes: $0) }
        }
    }

    /// Raw bytes, copied in.
    mutating func append(bytes b: UnsafeRawBufferPointer) {
        guard let source = b.baseAddress, b.count > 0 else { return }
        room(b.count).copyMemory(from: source, byteCount: b.count)
        storage.count += b.count
    }

    /// The JSON of a value as the library's ``CompactJSONEncoder`` writes it. TapSeek's own
    /// values always encode; were one to fail, the line says so rather than end short.
    mutating func appendJSON<T: Encodable>(_ value: T) {
        appendJSON(value, members: false)
    }

    /// The members of an object's JSON without its braces, to be spliced into another object.
    mutating func appendJSONMembers<T: Encodable>(of value: T) {
        appendJSON(value, members: true)
    }

    /// The JSON of a value, encoded into the scratch array (kept, with its capacity) and copied
    /// in; `members`: without the braces of an object.
    private mutating func appendJSON<T: Encodable>(_ value: T, members: Bool) {
        scratch.removeAll(keepingCapacity: true)
        do {
            try CompactJSONEncoder().encode(value, appendingTo: &scratch)
        } catch {
            appendJSONString("cannot encode \(T.self): \(error)")
            return
        }
        var text = scratch[...]
        if members, text.count >= 2, text.first == UInt8(ascii: "{") { text = text.dropFirst().dropLast() }
        text.withUnsafeBytes { append(bytes: $0) }
    }

    /// A JSON string literal with the characters JSON requires escaped.
    mutating func appendJSONString(_ s: String) {
        Self.jsonString(s) { append(bytes: $0) }
    }

    /// Hands `emit` the bytes of `s` as a JSON string literal, quotes included, in pieces.
    @inline(__always) static func jsonString(_ s: String, _ emit: (UnsafeRawBufferPointer) -> Void) { JSONText.string(s, emit) }

    /// A number rounded to `decimals` places, trailing zeros dropped (`8840`, `-28.73`);
    /// non-finite values become `null`, as JSON has no NaN.
    mutating func appendFixed(_ value: Double, decimals: Int) {
        Self.fixed(value, decimals: decimals) { append(bytes: $0) }
    }

    /// Hands `emit` the bytes of ``appendFixed(_:decimals:)``'s number.
    @inline(__always) static func fixed(_ value: Double, decimals: Int, _ emit: (UnsafeRawBufferPointer) -> Void) {
        JSONText.fixed(value, decimals: decimals, emit)
    }

    /// The shortest decimal that reads back as the same `Double`.
    mutating func appendShortest(_ value: Double) {
        guard value.isFinite else { append("null"); return }
        append(value.description)
    }

    /// Ends a line; flushes when the buffer is full unless the buffer only collects (a worker's
    /// block, written later in order).
    @inline(__always) mutating func newline(flushing: Bool = true) {
        room(1).storeBytes(of: 0x0A, as: UInt8.self)
        storage.count += 1
        if flushing, storage.count >= Self.flushThreshold { flush() }
    }

    /// Appends another buffer's bytes.
    mutating func append(buffer other: OutputBuffer) {
        append(bytes: UnsafeRawBufferPointer(start: other.storage.base, count: other.storage.count))
    }

    /// Writes everything buffered; retries short writes. A failed write (disk full, closed
    /// pipe) ends the process with status 1 and one line on stderr: output is never silently cut.
    mutating func flush() {
        _ = room(0)
        do {
            let raw = UnsafeRawBufferPointer(start: storage.base, count: storage.count)
            var offset = 0
            while offset < raw.count {
                let n = write(descriptor, raw.baseAddress! + offset, raw.count - offset)
                if n < 0, errno == EINTR { continue }
                if n <= 0 {
                    StandardError.write("tapseek: cannot write output: \(String(cString: strerror(errno)))")
                    exit(1)
                }
                offset += n
            }
        }
        storage.count = 0
    }

}
