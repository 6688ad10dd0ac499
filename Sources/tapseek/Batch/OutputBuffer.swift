import Foundation
import TapSeek

/// Bytes bound for a file descriptor, written in large blocks: batch commands emit millions of
/// short JSON lines and must not pay a system call for each.
struct OutputBuffer {
    private var bytes: [UInt8] = []
    private let descriptor: Int32
    private static let flushThreshold = 1 << 20

    init(descriptor: Int32 = STDOUT_FILENO) {
        self.descriptor = descriptor
        bytes.reserveCapacity(Self.flushThreshold + 4096)
    }

    mutating func append(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ s: String) {
        var s = s
        s.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func append<C: Collection>(bytes b: C) where C.Element == UInt8 { bytes.append(contentsOf: b) }

    /// Raw bytes, appended as typed ones: `Array.append(contentsOf:)` copies a typed buffer in
    /// one move, where it walked a raw buffer's iterator (80 instructions a batch record).
    mutating func append(bytes b: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: b.assumingMemoryBound(to: UInt8.self))
    }

    /// The JSON of a value as the library's ``CompactJSONEncoder`` writes it. TapSeek's own
    /// values always encode; were one to fail, the line says so rather than end short.
    mutating func appendJSON<T: Encodable>(_ value: T) {
        do {
            try CompactJSONEncoder().encode(value, appendingTo: &bytes)
        } catch {
            appendJSONString("cannot encode \(T.self): \(error)")
        }
    }

    /// The members of an object's JSON without its braces, to be spliced into another object.
    mutating func appendJSONMembers<T: Encodable>(of value: T) {
        let start = bytes.count
        appendJSON(value)
        guard bytes.count - start >= 2, bytes[start] == UInt8(ascii: "{") else { return }
        bytes.removeLast()
        bytes.remove(at: start)
    }

    /// A JSON string literal with the characters JSON requires escaped.
    mutating func appendJSONString(_ s: String) {
        Self.jsonString(s) { bytes.append(contentsOf: $0) }
    }

    /// Hands `emit` the bytes of `s` as a JSON string literal, quotes included, in pieces.
    @inline(__always) static func jsonString(_ s: String, _ emit: (UnsafeRawBufferPointer) -> Void) { JSONText.string(s, emit) }

    /// A number rounded to `decimals` places, trailing zeros dropped (`8840`, `-28.73`);
    /// non-finite values become `null`, as JSON has no NaN.
    mutating func appendFixed(_ value: Double, decimals: Int) {
        Self.fixed(value, decimals: decimals) { bytes.append(contentsOf: $0) }
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
    mutating func newline(flushing: Bool = true) {
        bytes.append(0x0A)
        if flushing, bytes.count >= Self.flushThreshold { flush() }
    }

    /// Appends another buffer's bytes.
    mutating func append(buffer other: OutputBuffer) { bytes.append(contentsOf: other.bytes) }

    /// Writes everything buffered; retries short writes. A failed write (disk full, closed
    /// pipe) ends the process with status 1 and one line on stderr: output is never silently cut.
    mutating func flush() {
        bytes.withUnsafeBytes { raw in
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
        bytes.removeAll(keepingCapacity: true)
    }

}
