/// JSON text as bytes: string literals and numbers, written without Foundation's encoder (batch
/// output runs to millions of lines). ``CompactJSONEncoder`` and the command-line writers share it.
public enum JSONText {
    /// Hands `emit` the bytes of `s` as a JSON string literal, quotes included, in pieces.
    @inline(__always) public static func string(_ s: String, _ emit: (UnsafeRawBufferPointer) -> Void) {
        func emitStatic(_ t: StaticString) { emit(UnsafeRawBufferPointer(start: t.utf8Start, count: t.utf8CodeUnitCount)) }
        emitStatic("\"")
        var s = s
        s.withUTF8 { utf8 in
            // Runs of bytes that need no escape go out whole: one `emit` a byte cost a sixth of
            // `tapseek batch`'s time in the writer's bookkeeping.
            var runStart = 0
            func emitRun(to end: Int) {
                if end > runStart { emit(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(utf8)[runStart..<end])) }
            }
            for (i, u) in utf8.enumerated() where needsEscape(u) {
                emitRun(to: i)
                runStart = i + 1
                switch u {
                case UInt8(ascii: "\""): emitStatic("\\\"")
                case UInt8(ascii: "\\"): emitStatic("\\\\")
                case 0x0A: emitStatic("\\n")
                case 0x0D: emitStatic("\\r")
                case 0x09: emitStatic("\\t")
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    let escaped = [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(u >> 4)], hex[Int(u & 15)]]
                    escaped.withUnsafeBytes(emit)
                }
            }
            emitRun(to: utf8.count)
        }
        emitStatic("\"")
    }

    /// Whether a byte of a string must be escaped in JSON: a control byte, a quote, a backslash.
    @inline(__always) public static func needsEscape(_ u: UInt8) -> Bool {
        u < 0x20 || u == UInt8(ascii: "\"") || u == UInt8(ascii: "\\")
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

    /// Whether `text` is exactly what ``fixed(_:decimals:_:)`` writes for `value` to `decimals`
    /// places, `value` being what `text` reads as: a batch writer echoing the coordinates it
    /// read may then copy them instead of formatting them again.
    ///
    /// True only for a plain decimal: a `-` only before a value below zero, an integer part of
    /// one digit or more without leading zeros, and either no point or a point and 1…`decimals`
    /// digits ending in a non-zero one, with at most 15 digits counting `decimals` after the
    /// point. Then `value` times 10^`decimals` lies within 2⁻⁵²·10¹⁵ < 0.5 of the text's
    /// digits as an integer N (`value` is within half an ulp of the text, the product rounds
    /// once more), so it rounds to N, which ``fixed(_:decimals:_:)`` writes as the text.
    public static func isFixedDecimal(_ text: UnsafeBufferPointer<UInt8>, of value: Double, decimals: Int) -> Bool {
        let n = text.count
        var i = 0
        if i < n, text[i] == UInt8(ascii: "-") { i += 1 }
        guard (i == 1) == (value < 0), i < n else { return false }
        func digit(_ k: Int) -> Bool { text[k] &- UInt8(ascii: "0") < 10 }
        let integerStart = i
        while i < n, digit(i) { i += 1 }
        let integerDigits = i - integerStart
        guard integerDigits > 0, integerDigits == 1 || text[integerStart] != UInt8(ascii: "0"),
              integerDigits + decimals <= 15 else { return false }
        if i == n { return true }
        guard text[i] == UInt8(ascii: "."), n - i - 1 >= 1, n - i - 1 <= decimals else { return false }
        i += 1
        while i < n, digit(i) { i += 1 }
        return i == n && text[n - 1] != UInt8(ascii: "0")
    }

    /// Hands `emit` the bytes of `value` rounded to `decimals` places (at most 9), trailing zeros
    /// dropped (`8840`, `-28.73`); non-finite values become `null`, as JSON has no NaN.
    @inline(__always) public static func fixed(_ value: Double, decimals: Int, _ emit: (UnsafeRawBufferPointer) -> Void) {
        guard value.isFinite else { emit(UnsafeRawBufferPointer(start: ("null" as StaticString).utf8Start, count: 4)); return }
        var text: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &text) { d in
            if let length = writeFixed(value, decimals: decimals, to: d.baseAddress!) {
                emit(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(d)[0..<length]))
            } else {
                // Beyond 9·10¹⁵ units of the last place the digits are the number's own.
                var text = String(value)
                text.withUTF8 { emit(UnsafeRawBufferPointer($0)) }
            }
        }
    }

    /// Most bytes ``writeFixed(_:decimals:to:)`` writes: a sign, 16 digits, a point and the zeros
    /// before the first decimal.
    public static let fixedCapacity = 32

    /// Writes ``fixed(_:decimals:_:)``'s bytes for a finite `value` to `out` (room for
    /// ``fixedCapacity`` bytes, all of which it may overwrite) and returns how many are the
    /// number's; nil, writing nothing, when `value` scaled to its last place reaches 9·10¹⁵
    /// (then the text is `String(value)`).
    ///
    /// The scaled value is rounded half away from zero (as `rounded()`) by truncating it to an
    /// integer and comparing the remainder, exact below 2⁵³; the digits are written from the
    /// last, two at a time, into scratch words, which are then stored to `out` whole (one
    /// 16-byte word, two beyond 16 bytes) rather than by a `memcpy` call: a batch writer of
    /// millions of numbers spent a fifth of a number's instructions on that call.
    @inline(__always)
    public static func writeFixed(_ value: Double, decimals: Int, to out: UnsafeMutableRawPointer) -> Int? {
        let scaled = value * Self.powersOfTen[decimals]
        guard abs(scaled) < 9e15 else { return nil }
        var whole = Int64(scaled)
        let rest = scaled - Double(whole)
        if rest >= 0.5 { whole += 1 } else if rest <= -0.5 { whole -= 1 }
        let negative = whole < 0
        var n = whole.magnitude
        // Trailing zeros of the decimals go, two at a time; one more can follow (then the digit
        // before it is not a zero).
        var places = decimals
        while places >= 2, n % 100 == 0, n != 0 { n /= 100; places -= 2 }
        if places > 0, n % 10 == 0, n != 0 { n /= 10; places -= 1 }
        if n == 0 { places = 0 }
        // Right to left, ending at byte 32 of 48 (the last 16 only let the copy below read a
        // whole word past a short number's end): the decimals, the point, the integer part (at
        // least one digit), the sign.
        var scratch: (SIMD16<UInt8>, SIMD16<UInt8>, SIMD16<UInt8>) = (.zero, .zero, .zero)
        return withUnsafeMutableBytes(of: &scratch) { d -> Int in
            // A literal, not an array: reading it needs no check that a global is initialised.
            let pairs = digitPairs.utf8Start
            var i = fixedCapacity
            @inline(__always) func put(_ count: Int) {
                var k = count
                while k >= 2 {
                    let pair = Int(n % 100) * 2
                    n /= 100
                    i -= 2
                    d[i] = pairs[pair]
                    d[i + 1] = pairs[pair + 1]
                    k -= 2
                }
                if k == 1 {
                    i -= 1
                    d[i] = UInt8(truncatingIfNeeded: n % 10) &+ UInt8(ascii: "0")
                    n /= 10
                }
            }
            put(places)
            if places > 0 {
                i -= 1
                d[i] = UInt8(ascii: ".")
            }
            while n >= 100 { put(2) }
            put(n >= 10 ? 2 : 1)
            if negative {
                i -= 1
                d[i] = UInt8(ascii: "-")
            }
            let length = fixedCapacity - i
            let source = d.baseAddress! + i
            out.storeBytes(of: source.loadUnaligned(as: SIMD16<UInt8>.self), as: SIMD16<UInt8>.self)
            if length > 16 {
                out.storeBytes(of: source.loadUnaligned(fromByteOffset: 16, as: SIMD16<UInt8>.self), toByteOffset: 16, as: SIMD16<UInt8>.self)
            }
            return length
        }
    }

    /// Writes the decimal digits of `value` (no sign, no leading zeros); returns their count.
    /// The count by comparisons against growing powers of ten, the digits two at a time from
    /// ``digitPairs``: a division per digit, twice over, was half the cost of a batch record's
    /// numbers.
    @inlinable @inline(__always) public static func writeDigits(_ value: UInt64, to out: UnsafeMutableRawPointer) -> Int {
        var digits = 1, bound: UInt64 = 10
        while digits < 20, value >= bound {
            digits += 1
            bound = bound &* 10
        }
        let pairs = UnsafeRawPointer(digitPairs.utf8Start)
        var left = value, i = digits
        while left >= 100 {
            let pair = Int(truncatingIfNeeded: left % 100) &* 2
            left /= 100
            i -= 2
            out.storeBytes(of: pairs.loadUnaligned(fromByteOffset: pair, as: UInt16.self), toByteOffset: i, as: UInt16.self)
        }
        if left >= 10 {
            out.storeBytes(of: pairs.loadUnaligned(fromByteOffset: Int(truncatingIfNeeded: left) &* 2, as: UInt16.self), as: UInt16.self)
        } else {
            out.storeBytes(of: UInt8(truncatingIfNeeded: left) &+ UInt8(ascii: "0"), as: UInt8.self)
        }
        return digits
    }

    /// Writes ``writeFixed(_:decimals:to:)``'s bytes for 2 places (a height to the centimetre)
    /// by steps of its own: the metres' digits, then the centimetres' one or two where not
    /// zero. Half the instructions of the general writer, which strips trailing zeros by
    /// divisions. Rounds the same product the same way (half away from zero); nil, writing
    /// nothing, for a value not finite or whose centimetres reach 9·10¹⁵. `out` has room for
    /// ``fixedCapacity`` bytes, of which the byte after the text may be overwritten. Inlinable
    /// into the command-line writers (measured: no change in instructions either way).
    @inlinable public static func writeCentimetres(_ value: Double, to out: UnsafeMutableRawPointer) -> Int? {
        let scaled = value * 100
        guard abs(scaled) < 9e15 else { return nil }
        var whole = Int64(scaled)
        let rest = scaled - Double(whole)
        if rest >= 0.5 { whole += 1 } else if rest <= -0.5 { whole -= 1 }
        var count = 0
        if whole < 0 {
            out.storeBytes(of: UInt8(ascii: "-"), as: UInt8.self)
            count = 1
        }
        let n = whole.magnitude
        let metres = n / 100, centimetres = n % 100
        count += writeDigits(metres, to: out + count)
        if centimetres != 0 {
            // The point and both digits stored at once; the second digit kept unless a zero.
            let pair = UnsafeRawPointer(digitPairs.utf8Start).loadUnaligned(fromByteOffset: Int(truncatingIfNeeded: centimetres) &* 2, as: UInt16.self)
            out.storeBytes(of: UInt8(ascii: "."), toByteOffset: count, as: UInt8.self)
            out.storeBytes(of: pair, toByteOffset: count + 1, as: UInt16.self)
            count += centimetres % 10 != 0 ? 3 : 2
        }
        return count
    }

    /// "00", "01", … "99": the digits of a number two at a time.
    @usableFromInline static var digitPairs: StaticString {
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
    }

    /// A literal array, which the compiler lays out as constant data (no initialisation check).
    private static let powersOfTen: [Double] = [1, 10, 100, 1000, 10000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000]


    /// Hands `emit` the shortest decimal that reads back as the same `Double`; `null` when not finite.
    public static func shortest(_ value: Double, _ emit: (UnsafeRawBufferPointer) -> Void) {
        guard value.isFinite else { emit(UnsafeRawBufferPointer(start: ("null" as StaticString).utf8Start, count: 4)); return }
        var text = value.description
        text.withUTF8 { emit(UnsafeRawBufferPointer($0)) }
    }
}
