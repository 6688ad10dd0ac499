import Foundation

/// A forward-only reader of JSON text (RFC 8259) over UTF-8 bytes, for decoders that know the
/// schema they expect: it yields keys as raw byte ranges to compare in place and numbers as
/// doubles, and allocates only for the strings a caller asks for. Errors name the line and
/// column of the offending byte.
///
/// The buffer must stay valid for the scanner's lifetime (it lives inside a `withUnsafeBytes`).
struct JSONScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    /// Containers nested deeper than this are refused rather than risking the stack on hostile
    /// input; readings nest two levels.
    static let maximumDepth = 256
    /// How much of an offending value an error message quotes.
    static let maximumQuotedLength = 40

    /// What a value is, from its first byte.
    enum Kind { case object, array, string, number, bool, null }

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        // A UTF-8 byte-order mark (some Windows tools write one) is not part of the JSON text.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { position = 3 }
    }

    var isAtEnd: Bool { position >= bytes.count }

    mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    /// The next non-whitespace byte, not consumed.
    mutating func peek() -> UInt8? {
        skipWhitespace()
        return position < bytes.count ? bytes[position] : nil
    }

    /// An error about the JSON text at `offset`: "invalid JSON at line L, column C: …", or
    /// "at column C" when the text is one line (a JSON Lines record: its caller names the
    /// input's line, and "line 2: … at line 1" read as a contradiction).
    func syntaxError(_ what: String, at offset: Int? = nil) -> ReadingError {
        let end = min(offset ?? position, bytes.count)
        var line = 1, lineStart = 0
        for i in 0..<end where bytes[i] == 0x0A {
            line += 1
            lineStart = i + 1
        }
        // Columns count characters, not bytes: skip UTF-8 continuation bytes.
        var column = 1
        for i in lineStart..<end where bytes[i] & 0xC0 != 0x80 { column += 1 }
        // Trailing blanks (a final newline) do not make a second line.
        var last = bytes.count
        while last > 0, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[last - 1]) { last -= 1 }
        let oneLine = !bytes[..<last].contains(0x0A)
        let place = oneLine ? "column \(column)" : "line \(line), column \(column)"
        if end >= bytes.count {
            return ReadingError(field: "", message: "invalid JSON: unexpected end of input at \(place); \(what)")
        }
        return ReadingError(field: "", message: "invalid JSON at \(place): \(what), found \(Self.describe(byte: bytes[end]))")
    }

    private static func describe(byte: UInt8) -> String {
        switch byte {
        case 0x20...0x7E: return "'\(Character(Unicode.Scalar(byte)))'"
        default: return String(format: "byte 0x%02X", byte)
        }
    }

    /// Consumes `byte` after optional whitespace.
    mutating func expect(_ byte: UInt8, _ what: @autoclosure () -> String) throws(ReadingError) {
        skipWhitespace()
        guard position < bytes.count, bytes[position] == byte else { throw syntaxError(what()) }
        position += 1
    }

    /// The kind of the value that starts at the next non-whitespace byte.
    mutating func peekKind() throws(ReadingError) -> Kind {
        guard let b = peek() else { throw syntaxError("expected a value") }
        switch b {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        default: throw syntaxError("expected a value")
        }
    }

    // MARK: Objects

    /// Iterates over the members of an object whose "{" is next: `body` receives the raw bytes
    /// of each key (escapes already resolved) and must consume the member's value.
    mutating func forEachMember(
        _ body: (inout JSONScanner, UnsafeBufferPointer<UInt8>) throws(ReadingError) -> Void
    ) throws(ReadingError) {
        try expect(UInt8(ascii: "{"), "expected '{'")
        if peek() == UInt8(ascii: "}") {
            position += 1
            return
        }
        while true {
            guard peek() == UInt8(ascii: "\"") else { throw syntaxError("expected a string key") }
            let key = try scanString()
            try expect(UInt8(ascii: ":"), "expected ':' after an object key")
            if key.hasEscapes {
                // Rare: resolve the escapes into a scratch buffer and hand that over.
                let unescaped = try unescape(key.range)
                var failure: ReadingError?
                unescaped.withUnsafeBufferPointer { keyBytes in
                    do throws(ReadingError) { try body(&self, keyBytes) } catch { failure = error }
                }
                if let failure { throw failure }
            } else {
                try body(&self, UnsafeBufferPointer(rebasing: bytes[key.range]))
            }
            skipWhitespace()
            guard position < bytes.count else { throw syntaxError("expected ',' or '}' in an object") }
            switch bytes[position] {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"): position += 1; return
            default: throw syntaxError("expected ',' or '}' in an object")
            }
        }
    }

    // MARK: Arrays

    /// Iterates over the elements of an array whose "[" is next: `body` receives each element's
    /// index and must consume its value.
    mutating func forEachElement(_ body: (inout JSONScanner, Int) throws(ReadingError) -> Void) throws(ReadingError) {
        try expect(UInt8(ascii: "["), "expected '['")
        if peek() == UInt8(ascii: "]") {
            position += 1
            return
        }
        var index = 0
        while true {
            try body(&self, index)
            index += 1
            skipWhitespace()
            guard position < bytes.count else { throw syntaxError("expected ',' or ']' in an array") }
            switch bytes[position] {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"): position += 1; return
            default: throw syntaxError("expected ',' or ']' in an array")
            }
        }
    }

    // MARK: Strings

    /// Scans a string whose opening quote is next; returns the range of its contents (between
    /// the quotes) and whether it holds escapes. Control characters must be escaped (RFC 8259).
    mutating func scanString() throws(ReadingError) -> (range: Range<Int>, hasEscapes: Bool) {
        try expect(UInt8(ascii: "\""), "expected '\"'")
        let start = position
        var hasEscapes = false
        while position < bytes.count {
            let b = bytes[position]
            if b == UInt8(ascii: "\"") {
                position += 1
                return (start..<(position - 1), hasEscapes)
            }
            if b == UInt8(ascii: "\\") {
                hasEscapes = true
                position += 2
                continue
            }
            if b < 0x20 { throw syntaxError("control characters must be escaped in a string") }
            position += 1
        }
        throw syntaxError("unterminated string", at: bytes.count)
    }

    /// Reads a string value whose opening quote is next, as a Swift string.
    mutating func readString() throws(ReadingError) -> String {
        let start = position
        let s = try scanString()
        let string = s.hasEscapes ? String(validating: try unescape(s.range), as: UTF8.self)
            : String(validating: UnsafeBufferPointer(rebasing: bytes[s.range]), as: UTF8.self)
        guard let string else {
            throw syntaxError("a string is not valid UTF-8", at: start)
        }
        return string
    }

    /// The UTF-8 bytes of string contents with escapes resolved.
    func unescape(_ range: Range<Int>) throws(ReadingError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(range.count)
        var i = range.lowerBound
        while i < range.upperBound {
            let b = bytes[i]
            guard b == UInt8(ascii: "\\") else {
                out.append(b)
                i += 1
                continue
            }
            guard i + 1 < range.upperBound else { throw syntaxError("incomplete escape", at: i) }
            let e = bytes[i + 1]
            i += 2
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = try hex4(at: i, end: range.upperBound)
                i += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    // A high surrogate must be followed by an escaped low surrogate.
                    guard i + 6 <= range.upperBound, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u")
                    else { throw syntaxError("unpaired UTF-16 surrogate in \\u escape", at: i - 6) }
                    let low = try hex4(at: i + 2, end: range.upperBound)
                    guard (0xDC00...0xDFFF).contains(low) else {
                        throw syntaxError("unpaired UTF-16 surrogate in \\u escape", at: i)
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    i += 6
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw syntaxError("unpaired UTF-16 surrogate in \\u escape", at: i - 6)
                }
                // Always a valid scalar here: surrogates were paired or rejected above.
                out.append(contentsOf: UTF8.encode(Unicode.Scalar(scalar)!)!)
            default:
                throw syntaxError("invalid escape in a string", at: i - 1)
            }
        }
        return out
    }

    private func hex4(at i: Int, end: Int) throws(ReadingError) -> UInt32 {
        guard i + 4 <= end else { throw syntaxError("\\u needs four hex digits", at: i) }
        var v: UInt32 = 0
        for j in i..<(i + 4) {
            let b = bytes[j]
            let d: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = b - UInt8(ascii: "A") + 10
            default: throw syntaxError("\\u needs four hex digits", at: j)
            }
            v = v << 4 | UInt32(d)
        }
        return v
    }

    // MARK: Numbers

    /// Powers of ten that a double holds exactly (10^0 … 10^22).
    private static let exactPowersOfTen: [Double] = (0...22).map { (e: Int) -> Double in
        var p = 1.0
        for _ in 0..<e { p *= 10 }
        return p
    }
    /// Integers up to 2^53 are exact in a double.
    private static let maximumExactMantissa: UInt64 = 1 << 53

    /// Reads a number whose first byte is next, with the strict JSON grammar
    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`. Correctly rounded: exact
    /// mantissas times exact powers of ten take the fast path (one IEEE operation), the rest go
    /// through the standard library's correctly rounded conversion. Overflow gives ±infinity.
    mutating func readNumber() throws(ReadingError) -> Double {
        skipWhitespace()
        let start = position
        var negative = false
        if position < bytes.count, bytes[position] == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        var mantissa: UInt64 = 0
        var significantDigits = 0
        var decimalExponent = 0
        var exact = true

        func digit(_ b: UInt8) -> UInt64? {
            b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") ? UInt64(b - UInt8(ascii: "0")) : nil
        }
        func accumulate(_ d: UInt64) {
            if mantissa == 0 && d == 0 { return }         // leading zeros carry no precision
            if significantDigits < 19 {
                mantissa = mantissa * 10 + d
                significantDigits += 1
            } else {
                exact = false
            }
        }

        guard position < bytes.count, let first = digit(bytes[position]) else {
            throw syntaxError("expected a digit in a number")
        }
        position += 1
        if first != 0 {
            accumulate(first)
            while position < bytes.count, let d = digit(bytes[position]) {
                if significantDigits >= 19 { decimalExponent += 1 }
                accumulate(d)
                position += 1
            }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard position < bytes.count, digit(bytes[position]) != nil else {
                throw syntaxError("expected a digit after the decimal point")
            }
            while position < bytes.count, let d = digit(bytes[position]) {
                if significantDigits < 19 {
                    if mantissa != 0 || d != 0 { accumulate(d) }
                    decimalExponent -= 1
                } else {
                    exact = false
                }
                position += 1
            }
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            var exponentNegative = false
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                exponentNegative = bytes[position] == UInt8(ascii: "-")
                position += 1
            }
            guard position < bytes.count, digit(bytes[position]) != nil else {
                throw syntaxError("expected a digit in an exponent")
            }
            var e = 0
            while position < bytes.count, let d = digit(bytes[position]) {
                if e < 100_000 { e = e * 10 + Int(d) }
                position += 1
            }
            decimalExponent += exponentNegative ? -e : e
        }

        if exact, mantissa <= Self.maximumExactMantissa, abs(decimalExponent) <= 22 {
            let m = Double(mantissa)
            let v = decimalExponent >= 0 ? m * Self.exactPowersOfTen[decimalExponent]
                                         : m / Self.exactPowersOfTen[-decimalExponent]
            return negative ? -v : v
        }
        if mantissa == 0 { return negative ? -0.0 : 0 }
        // The grammar above already validated the text, so the standard conversion succeeds.
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        return Double(text) ?? .nan
    }

    // MARK: Literals and skipping

    mutating func readBool() throws(ReadingError) -> Bool {
        if try matchLiteral("true") { return true }
        if try matchLiteral("false") { return false }
        throw syntaxError("expected a value")
    }

    mutating func readNull() throws(ReadingError) {
        guard try matchLiteral("null") else { throw syntaxError("expected a value") }
    }

    private mutating func matchLiteral(_ literal: StaticString) throws(ReadingError) -> Bool {
        skipWhitespace()
        let n = literal.utf8CodeUnitCount
        guard position + n <= bytes.count else { return false }
        for k in 0..<n where bytes[position + k] != literal.utf8Start[k] { return false }
        position += n
        return true
    }

    /// Consumes one value of any kind, validating its syntax.
    mutating func skipValue(depth: Int = 0) throws(ReadingError) {
        guard depth < Self.maximumDepth else { throw syntaxError("nested more than \(Self.maximumDepth) levels deep") }
        switch try peekKind() {
        case .object:
            try forEachMember { (scanner, _) throws(ReadingError) in try scanner.skipValue(depth: depth + 1) }
        case .array:
            position += 1
            if peek() == UInt8(ascii: "]") {
                position += 1
                return
            }
            while true {
                try skipValue(depth: depth + 1)
                skipWhitespace()
                guard position < bytes.count else { throw syntaxError("expected ',' or ']' in an array") }
                if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                if bytes[position] == UInt8(ascii: "]") { position += 1; return }
                throw syntaxError("expected ',' or ']' in an array")
            }
        case .string: _ = try scanString()
        case .number: _ = try readNumber()
        case .bool: _ = try readBool()
        case .null: try readNull()
        }
    }

    /// Skips the value that starts next and returns its source text for an error message,
    /// shortened to ``maximumQuotedLength`` characters.
    mutating func skipValueQuoting() throws(ReadingError) -> String {
        skipWhitespace()
        let start = position
        try skipValue()
        return quote(start..<position)
    }

    /// Source text of `range` for a one-line message: each run of JSON whitespace (newlines
    /// included) becomes one space, and the result is shortened to ``maximumQuotedLength``
    /// characters.
    func quote(_ range: Range<Int>) -> String {
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        var oneLine = ""
        var pendingSpace = false
        for c in text.unicodeScalars {
            if c == " " || c == "\n" || c == "\r" || c == "\t" {
                pendingSpace = true
                continue
            }
            if pendingSpace && !oneLine.isEmpty { oneLine += " " }
            pendingSpace = false
            oneLine.unicodeScalars.append(c)
        }
        guard oneLine.count > Self.maximumQuotedLength else { return oneLine }
        return String(oneLine.prefix(Self.maximumQuotedLength - 1)) + "…"
    }

    /// True if `key` is exactly the bytes of `literal`.
    @inline(__always)
    static func key(_ key: UnsafeBufferPointer<UInt8>, is literal: StaticString) -> Bool {
        let n = literal.utf8CodeUnitCount
        guard key.count == n else { return false }
        return memcmp(key.baseAddress!, literal.utf8Start, n) == 0
    }
}
