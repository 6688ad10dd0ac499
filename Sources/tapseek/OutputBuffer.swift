import Foundation

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

    /// A JSON string literal with the characters JSON requires escaped.
    mutating func appendJSONString(_ s: String) {
        Self.jsonString(s) { bytes.append(contentsOf: $0) }
    }

    /// Hands `emit` the bytes of `s` as a JSON string literal, quotes included, in pieces.
    @inline(__always) static func jsonString(_ s: String, _ emit: (UnsafeRawBufferPointer) -> Void) {
        func emitStatic(_ t: StaticString) { emit(UnsafeRawBufferPointer(start: t.utf8Start, count: t.utf8CodeUnitCount)) }
        emitStatic("\"")
        for u in s.utf8 {
            switch u {
            case UInt8(ascii: "\""): emitStatic("\\\"")
            case UInt8(ascii: "\\"): emitStatic("\\\\")
            case 0x0A: emitStatic("\\n")
            case 0x0D: emitStatic("\\r")
            case 0x09: emitStatic("\\t")
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                let escaped = [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(u >> 4)], hex[Int(u & 15)]]
                escaped.withUnsafeBytes(emit)
            default: withUnsafeBytes(of: u, emit)
            }
        }
        emitStatic("\"")
    }

    /// A number rounded to `decimals` places, trailing zeros dropped (`8840`, `-28.73`);
    /// non-finite values become `null`, as JSON has no NaN.
    mutating func appendFixed(_ value: Double, decimals: Int) {
        Self.fixed(value, decimals: decimals) { bytes.append(contentsOf: $0) }
    }

    /// Hands `emit` the bytes of ``appendFixed(_:decimals:)``'s number.
    @inline(__always) static func fixed(_ value: Double, decimals: Int, _ emit: (UnsafeRawBufferPointer) -> Void) {
        guard value.isFinite else { emit(UnsafeRawBufferPointer(start: ("null" as StaticString).utf8Start, count: 4)); return }
        let scale = Self.powersOfTen[decimals]
        let scaled = (value * scale).rounded()
        guard abs(scaled) < 9e15 else {
            var text = String(value)
            text.withUTF8 { emit(UnsafeRawBufferPointer($0)) }
            return
        }
        var n = Int64(scaled)
        let negative = n < 0
        if negative { n = -n }
        var places = decimals
        while places > 0, n % 10 == 0, n != 0 { n /= 10; places -= 1 }
        if n == 0 { places = 0 }
        // Sign, up to 16 digits, a point and the zeros before the first decimal: 32 bytes.
        var text: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &text) { d in
            var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)
            var count = 0
            withUnsafeMutableBytes(of: &digits) { reversed in
                repeat {
                    reversed[count] = UInt8(ascii: "0") + UInt8(n % 10)
                    n /= 10
                    count += 1
                } while n > 0 || count <= places
                var length = 0
                if negative { d[0] = UInt8(ascii: "-"); length = 1 }
                for i in stride(from: count - 1, through: 0, by: -1) {
                    if i == places - 1 { d[length] = UInt8(ascii: "."); length += 1 }
                    d[length] = reversed[i]
                    length += 1
                }
                emit(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(d)[0..<length]))
            }
        }
    }

    private static let powersOfTen: [Double] = [1, 10, 100, 1000, 10000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000]

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
