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
        bytes.append(UInt8(ascii: "\""))
        for u in s.utf8 {
            switch u {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case 0x0A: append("\\n")
            case 0x0D: append("\\r")
            case 0x09: append("\\t")
            case 0..<0x20:
                append("\\u00")
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(hex[Int(u >> 4)])
                bytes.append(hex[Int(u & 15)])
            default: bytes.append(u)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A number rounded to `decimals` places, trailing zeros dropped (`8840`, `-28.73`);
    /// non-finite values become `null`, as JSON has no NaN.
    mutating func appendFixed(_ value: Double, decimals: Int) {
        guard value.isFinite else { append("null"); return }
        let scale = Self.powersOfTen[decimals]
        let scaled = (value * scale).rounded()
        guard abs(scaled) < 9e15 else { append(String(value)); return }
        var n = Int64(scaled)
        if n < 0 { bytes.append(UInt8(ascii: "-")); n = -n }
        var places = decimals
        while places > 0, n % 10 == 0, n != 0 { n /= 10; places -= 1 }
        if n == 0 { places = 0 }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { d in
            repeat {
                d[count] = UInt8(ascii: "0") + UInt8(n % 10)
                n /= 10
                count += 1
            } while n > 0 || count <= places
            for i in stride(from: count - 1, through: 0, by: -1) {
                if i == places - 1 { bytes.append(UInt8(ascii: ".")) }
                bytes.append(d[i])
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
