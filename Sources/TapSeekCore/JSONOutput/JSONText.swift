/// JSON text as bytes: string literals and numbers, written without Foundation's encoder (batch
/// output runs to millions of lines). ``CompactJSONEncoder`` and the command-line writers share it.
public enum JSONText {
    /// Hands `emit` the bytes of `s` as a JSON string literal, quotes included, in pieces.
    @inline(__always) public static func string(_ s: String, _ emit: (UnsafeRawBufferPointer) -> Void) {
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

    /// Hands `emit` the bytes of `value` rounded to `decimals` places (at most 9), trailing zeros
    /// dropped (`8840`, `-28.73`); non-finite values become `null`, as JSON has no NaN.
    @inline(__always) public static func fixed(_ value: Double, decimals: Int, _ emit: (UnsafeRawBufferPointer) -> Void) {
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


    /// Hands `emit` the shortest decimal that reads back as the same `Double`; `null` when not finite.
    public static func shortest(_ value: Double, _ emit: (UnsafeRawBufferPointer) -> Void) {
        guard value.isFinite else { emit(UnsafeRawBufferPointer(start: ("null" as StaticString).utf8Start, count: 4)); return }
        var text = value.description
        text.withUTF8 { emit(UnsafeRawBufferPointer($0)) }
    }
}
