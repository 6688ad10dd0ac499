/// One `lat,lon` CSV line, as the batch elevation and geocoding services read them.
///
/// Parses bytes directly (no `String` per line): millions of lines a second. Spaces and tabs
/// around the numbers are allowed; a trailing `\r` is ignored; any extra column is an error.
public enum CoordinateLine {
    /// - Returns: the two numbers, or a one-line reason naming the field.
    public static func parse(_ line: UnsafeBufferPointer<UInt8>) -> Result<(latitude: Double, longitude: Double), CoordinateError> {
        parseKeepingText(line).map { ($0.latitude, $0.longitude) }
    }

    /// ``parse(_:)``, with where each number's text lies in the line (blanks trimmed): for
    /// writers that echo it (``JSONText/isShortestDecimal(_:of:)``).
    public static func parseKeepingText(_ line: UnsafeBufferPointer<UInt8>)
        -> Result<(latitude: Double, longitude: Double, latitudeText: Range<Int>, longitudeText: Range<Int>), CoordinateError> {
        if let plain = parsePlain(line) { return .success(plain) }
        var end = line.count
        while end > 0, line[end - 1] == 0x0D || line[end - 1] == 0x20 || line[end - 1] == 0x09 { end -= 1 }
        guard end > 0 else { return .failure(CoordinateError(message: "empty line; expected lat,lon")) }
        guard let comma = line[0..<end].firstIndex(of: UInt8(ascii: ",")) else {
            return .failure(CoordinateError(message: "expected lat,lon, got \"\(text(line, 0, end))\""))
        }
        let latitudeText = trimmed(line, 0, comma)
        guard let latitude = number(line, latitudeText) else {
            return .failure(CoordinateError(message: "latitude must be a number, got \"\(text(line, 0, comma))\""))
        }
        if line[(comma + 1)..<end].contains(UInt8(ascii: ",")) {
            return .failure(CoordinateError(message: "expected two columns lat,lon, got \"\(text(line, 0, end))\""))
        }
        let longitudeText = trimmed(line, comma + 1, end)
        guard let longitude = number(line, longitudeText) else {
            return .failure(CoordinateError(message: "longitude must be a number, got \"\(text(line, comma + 1, end))\""))
        }
        return .success((latitude, longitude, latitudeText, longitudeText))
    }

    /// A line of a CSV whose header named its columns (``CoordinateColumns/header(_:)``): the
    /// latitude and longitude from their columns, other columns ignored; numbers may be quoted.
    /// The layout ``CoordinateColumns/latitudeLongitude`` takes the fast ``parseKeepingText(_:)``.
    public static func parseKeepingText(_ line: UnsafeBufferPointer<UInt8>, columns: CoordinateColumns)
        -> Result<(latitude: Double, longitude: Double, latitudeText: Range<Int>, longitudeText: Range<Int>), CoordinateError> {
        if columns == .latitudeLongitude { return parseKeepingText(line) }
        let end = CSVFields.end(line)
        guard end > 0 else { return .failure(CoordinateError(message: "empty line; expected \(columns.count) columns as the header")) }
        let fields = CSVFields.split(line)
        guard fields.count > max(columns.latitude, columns.longitude) else {
            return .failure(CoordinateError(message: "expected \(columns.count) columns as the header, got \(fields.count): \"\(text(line, 0, end))\""))
        }
        let latitudeText = CSVFields.unquoted(line, fields[columns.latitude])
        guard let latitude = number(line, latitudeText) else {
            return .failure(CoordinateError(message: "latitude (column \(columns.latitude + 1)) must be a number, got \"\(text(line, fields[columns.latitude].lowerBound, fields[columns.latitude].upperBound))\""))
        }
        let longitudeText = CSVFields.unquoted(line, fields[columns.longitude])
        guard let longitude = number(line, longitudeText) else {
            return .failure(CoordinateError(message: "longitude (column \(columns.longitude + 1)) must be a number, got \"\(text(line, fields[columns.longitude].lowerBound, fields[columns.longitude].upperBound))\""))
        }
        return .success((latitude, longitude, latitudeText, longitudeText))
    }

    /// Whether a line is a CSV header rather than a point: its first column is a word, not a
    /// number (`lat,lon`, `latitude,longitude`, `"lat","lon"`). `nan` and `inf` are numbers.
    public static func isHeader(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        let end = line.firstIndex(of: UInt8(ascii: ",")) ?? line.count
        let first = trimmed(line, 0, end)
        guard let lead = first.first.map({ line[$0] }) else { return false }
        let word = (lead | 0x20) >= UInt8(ascii: "a") && (lead | 0x20) <= UInt8(ascii: "z") || lead == UInt8(ascii: "\"")
        return word && number(line, first) == nil
    }

    static func text(_ line: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> String {
        let clipped = min(to, from + 60)
        return String(decoding: UnsafeBufferPointer(rebasing: line[from..<clipped]), as: UTF8.self)
            .trimmingSpaces + (clipped < to ? "…" : "")
    }

    /// Powers of ten that `Double` holds exactly (10^0 … 10^22): a literal, laid out as constant
    /// data, where a computed table cost every read a check that it was initialised.
    private static let exactPowers: [Double] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
                                                1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22]

    /// The common line, `-46.123456,8.5` (each number an optional minus, digits, and an optional
    /// point with digits; at most 15 digits; nothing else, not even a blank or a `\r`), read in
    /// one pass: the general reader scans the line for its comma, again for a second one, trims
    /// both numbers and reads each (540 instructions a line, a sixth of `elevation --batch`'s
    /// work; this pass takes 350 with its caller's share). nil for
    /// any other line, which the general reader then reads: for a line this takes, that reader
    /// gives the same numbers (the same quotient of the same exact operands) and the same texts.
    @inline(__always) static func parsePlain(_ line: UnsafeBufferPointer<UInt8>)
        -> (latitude: Double, longitude: Double, latitudeText: Range<Int>, longitudeText: Range<Int>)? {
        parsePlainLine(line).map { ($0.latitude, $0.longitude, $0.latitudeText, $0.longitudeText) }
    }

    /// ``parsePlain(_:)``, with, for each number, the places `d` for which its text is exactly
    /// what ``JSONText/fixed(_:decimals:_:)`` writes for it to `d` places (empty when for
    /// none): what ``JSONText/isFixedDecimal(_:of:decimals:)`` would say of it, learnt while
    /// the digits are read, so that a writer echoing the text need not scan it again (that
    /// check was 220 instructions of an `elevation --batch` line).
    ///
    /// Those places are `fraction..<(16 − integer digits)` for a text without leading zeros
    /// (a single `0` before the point aside), whose fraction, if any, ends in a non-zero digit,
    /// and which is not a negative zero; the numbers are read as ``parsePlain(_:)`` reads them.
    @inline(__always) public static func parsePlainLine(_ line: UnsafeBufferPointer<UInt8>)
        -> (latitude: Double, longitude: Double, latitudeText: Range<Int>, longitudeText: Range<Int>,
            latitudeDecimals: Range<Int>, longitudeDecimals: Range<Int>)? {
        guard let base = line.baseAddress else { return nil }
        let n = line.count
        var k = 0
        /// The number from `k`, which is left after it, and the places its text is fixed to;
        /// nil unless it has the plain form.
        @inline(__always) func plainNumber() -> (value: Double, decimals: Range<Int>)? {
            let negative = k < n && base[k] == UInt8(ascii: "-")
            if negative { k += 1 }
            let first = k
            var mantissa: UInt64 = 0, digits = 0, fraction = 0
            while k < n {
                let d = base[k] &- UInt8(ascii: "0")
                guard d < 10 else { break }
                mantissa = mantissa &* 10 &+ UInt64(d)
                digits += 1
                k += 1
            }
            guard digits > 0 else { return nil }
            var trailingZero = false
            if k < n, base[k] == UInt8(ascii: ".") {
                k += 1
                while k < n {
                    let d = base[k] &- UInt8(ascii: "0")
                    guard d < 10 else { break }
                    mantissa = mantissa &* 10 &+ UInt64(d)
                    fraction += 1
                    k += 1
                }
                guard fraction > 0 else { return nil }
                trailingZero = base[k - 1] == UInt8(ascii: "0")
            }
            guard digits + fraction <= 15 else { return nil }
            let v = Double(mantissa) / exactPowers[fraction]
            let fixed = !trailingZero && (digits == 1 || base[first] != UInt8(ascii: "0")) && !(negative && mantissa == 0)
            return (negative ? -v : v, fixed ? fraction..<max(fraction, 16 - digits) : 0..<0)
        }
        guard let latitude = plainNumber(), k < n, base[k] == UInt8(ascii: ",") else { return nil }
        let comma = k
        k += 1
        guard let longitude = plainNumber(), k == n else { return nil }
        return (latitude.value, longitude.value, 0..<comma, (comma + 1)..<n, latitude.decimals, longitude.decimals)
    }

    /// `from..<to` without the blanks around it.
    static func trimmed(_ line: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> Range<Int> {
        var i = from, j = to
        while i < j, line[i] == 0x20 || line[i] == 0x09 { i += 1 }
        while j > i, line[j - 1] == 0x20 || line[j - 1] == 0x09 { j -= 1 }
        return i..<j
    }

    /// The decimal number that is the whole of `text` (trimmed).
    ///
    /// Fast path: up to 15 digits and no exponent give mantissa / 10^k with both operands
    /// exact, which IEEE division rounds correctly. Anything else goes to `Double(_:)`, which
    /// rounds correctly too: both paths give the same `Double` for any text the fast one takes.
    static func number(_ line: UnsafeBufferPointer<UInt8>, _ text: Range<Int>) -> Double? {
        guard let base = line.baseAddress, !text.isEmpty else { return nil }
        var k = text.lowerBound
        let j = text.upperBound
        let negative = base[k] == UInt8(ascii: "-")
        if negative || base[k] == UInt8(ascii: "+") { k += 1 }
        // The digits before and after the point as one integer (wrapping past 19 digits, when
        // the fast path is not taken anyway).
        var mantissa: UInt64 = 0
        func digits() -> Int {
            let first = k
            while k < j {
                let d = base[k] &- UInt8(ascii: "0")
                guard d < 10 else { break }
                mantissa = mantissa &* 10 &+ UInt64(d)
                k += 1
            }
            return k - first
        }
        let integerDigits = digits()
        var fraction = 0
        if k < j, base[k] == UInt8(ascii: ".") {
            k += 1
            fraction = digits()
        }
        if k == j, integerDigits + fraction > 0, integerDigits + fraction <= 15 {
            let v = Double(mantissa) / exactPowers[fraction]
            return negative ? -v : v
        }
        // Exponents, long digit strings and words like "nan"/"inf" take the full parser.
        let s = String(decoding: UnsafeBufferPointer(rebasing: line[text]), as: UTF8.self)
        return Double(s)
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        var s = Substring(self)
        while s.first == " " { s.removeFirst() }
        while s.last == " " { s.removeLast() }
        return String(s)
    }
}
