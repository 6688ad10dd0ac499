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

    /// Whether `text` is exactly what `value.description` writes, Swift's shortest decimal that
    /// reads back as `value`: a batch writer echoing the coordinates it read may then copy them
    /// instead of formatting them again (a tenth of `geocode --batch`'s time).
    ///
    /// True only for a plain decimal: an optional `-`, an integer part without leading zeros, a
    /// point, and a fraction that ends in a non-zero digit or is the single `0` (`47.0`), with at
    /// most 15 significant digits and 10⁻⁴ ≤ |value| < 10¹⁵ (Swift writes an exponent outside
    /// that, zero aside), and `value` must be what `text` reads as. Then the text is the shortest
    /// decimal: every decimal of at most 15 significant digits reads as a different `Double`
    /// (15 is `DBL_DIG`), so no shorter one, and no other of its length, reads as `value`.
    public static func isShortestDecimal(_ text: UnsafeBufferPointer<UInt8>, of value: Double) -> Bool {
        guard value == 0 || (abs(value) >= 1e-4 && abs(value) < 1e15) else { return false }
        let n = text.count
        var i = 0
        if i < n, text[i] == UInt8(ascii: "-") { i += 1 }
        guard (i == 1) == (value.sign == .minus), i < n else { return false }
        func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
        guard isDigit(text[i]), text[i] != UInt8(ascii: "0") || (i + 1 < n && text[i + 1] == UInt8(ascii: ".")) else { return false }
        var significant = 0, point = -1
        while i < n {
            let c = text[i]
            if c == UInt8(ascii: ".") {
                guard point < 0 else { return false }
                point = i
            } else {
                guard isDigit(c) else { return false }
                if significant > 0 || c != UInt8(ascii: "0") { significant += 1 }
            }
            i += 1
        }
        guard point >= 0, point < n - 1, significant <= 15 else { return false }
        return text[n - 1] != UInt8(ascii: "0") || n - 1 == point + 1
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
