import Foundation

/// A column of a delimited log, found by its header name.
struct CSVColumn: Sendable, Hashable {
    /// 0-based field index.
    var index: Int
    /// The name as the header spells it, for error messages.
    var name: String
}

/// The header line of a delimited log: its column names and field separator.
///
/// Apps add, drop and reorder columns between versions (Sensor Logger's iOS and Android exports
/// order the same columns differently), so importers look columns up by name, never by position.
struct CSVHeader: Sendable {
    /// Lines before the header that importers tolerate and skip (a row count, a title): the
    /// published GPSLogger sample starts with one.
    static let maximumLeadingLines = 16

    let names: [String]
    /// `,`, `;` or tab, whichever occurs most in the header outside quotes (phyphox offers all three).
    let separator: UInt8
    private let lookup: [String: Int]

    init(line: String) {
        separator = Self.detectSeparator(line)
        names = (CSVHeader.split(line, separator: separator) ?? [Substring(line)])
            .map { String($0.trimmingASCIISpaces) }
        var lookup: [String: Int] = [:]
        for (i, name) in names.enumerated() {
            let key = Self.key(name)
            if lookup[key] == nil { lookup[key] = i }
        }
        self.lookup = lookup
    }

    /// The column whose name equals `name`, ignoring case and surrounding blanks.
    func column(_ name: String) -> CSVColumn? {
        lookup[Self.key(name)].map { CSVColumn(index: $0, name: names[$0]) }
    }

    /// The first of `names` present.
    func column(anyOf names: [String]) -> CSVColumn? {
        names.lazy.compactMap { column($0) }.first
    }

    /// The first column whose name starts with `prefix` (ignoring case): for headers that carry
    /// units or symbols that vary (`Height (m)`, `Vertical Accuracy (°)`).
    func column(prefix: String) -> CSVColumn? {
        let p = Self.key(prefix)
        return names.firstIndex { Self.key($0).hasPrefix(p) }.map { CSVColumn(index: $0, name: names[$0]) }
    }

    /// The first column whose name without its unit suffix equals `base` (ignoring case):
    /// SensorLog writes `locationTrueHeading(°)`, and units have changed between versions.
    func column(base: String) -> CSVColumn? {
        let b = Self.key(base)
        return names.firstIndex { name in
            let k = Self.key(name)
            let stem = k.firstIndex(of: "(").map { k[..<$0].trimmingASCIISpaces } ?? k[...]
            return stem == b
        }.map { CSVColumn(index: $0, name: names[$0]) }
    }

    /// The fields of a data line, checked against the header's field count.
    func row(_ text: String, line: Int) -> Result<CSVRow, ImportError> {
        guard let fields = CSVHeader.split(text, separator: separator) else {
            return .failure(ImportError(.malformedLine, line: line, "a quoted field is not closed"))
        }
        guard fields.count == names.count else {
            return .failure(ImportError(
                .malformedLine, line: line,
                "\(fields.count) fields where the header has \(names.count) (truncated or damaged line?)"))
        }
        return .success(CSVRow(line: line, fields: fields))
    }

    /// Reads lines until one satisfies `isHeader`, skipping at most ``maximumLeadingLines`` lines
    /// before it; blank lines are skipped too.
    /// - Throws: `.unsupportedLog` naming `expected` when no such header shows up.
    static func find(in lines: inout LineReader, expected: String,
                     where isHeader: (CSVHeader) -> Bool) throws(ImportError) -> CSVHeader {
        var skipped = 0
        while skipped <= maximumLeadingLines {
            let line: Line?
            do { line = try lines.next() } catch { throw ImportError(error) }
            guard let line else { break }
            if let text = line.text {
                if text.trimmingASCIISpaces.isEmpty { continue }
                let header = CSVHeader(line: text)
                if isHeader(header) { return header }
            }
            skipped += 1
        }
        throw ImportError(.unsupportedLog, "no header line with \(expected) in the first \(maximumLeadingLines + 1) lines")
    }

    /// Splits one line into fields (RFC 4180 quoting within the line: `"a,b"` and `""` for a
    /// quote). Quoted line breaks are not supported: no sensor app writes them.
    /// - Returns: nil when a quoted field is not closed.
    static func split(_ line: String, separator: UInt8) -> [Substring]? {
        let quote = UInt8(ascii: "\"")
        var fields: [Substring] = []
        let utf8 = line.utf8
        var i = utf8.startIndex
        while true {
            if i < utf8.endIndex, utf8[i] == quote {
                var value = ""
                var j = utf8.index(after: i)
                var segmentStart = j
                var closed = false
                while j < utf8.endIndex {
                    if utf8[j] == quote {
                        value += line[segmentStart..<j]
                        let next = utf8.index(after: j)
                        if next < utf8.endIndex, utf8[next] == quote {
                            value += "\""
                            j = utf8.index(after: next)
                            segmentStart = j
                            continue
                        }
                        j = next
                        closed = true
                        break
                    }
                    j = utf8.index(after: j)
                }
                guard closed else { return nil }
                fields.append(Substring(value))
                // Anything between the closing quote and the separator is kept out, as spreadsheets do.
                while j < utf8.endIndex, utf8[j] != separator { j = utf8.index(after: j) }
                i = j
            } else {
                var j = i
                while j < utf8.endIndex, utf8[j] != separator { j = utf8.index(after: j) }
                fields.append(line[i..<j])
                i = j
            }
            if i == utf8.endIndex { return fields }
            i = utf8.index(after: i)
        }
    }

    private static func detectSeparator(_ line: String) -> UInt8 {
        var counts: [UInt8: Int] = [UInt8(ascii: ","): 0, UInt8(ascii: ";"): 0, UInt8(ascii: "\t"): 0]
        var quoted = false
        for b in line.utf8 {
            if b == UInt8(ascii: "\"") { quoted.toggle() } else if !quoted, counts[b] != nil { counts[b]! += 1 }
        }
        let best = counts.max { a, b in a.value < b.value || (a.value == b.value && a.key != UInt8(ascii: ",")) }!
        return best.value > 0 ? best.key : UInt8(ascii: ",")
    }

    private static func key(_ name: String) -> String { name.trimmingASCIISpaces.lowercased() }
}

/// The data lines of a delimited log after its header, one result per line: blank lines are
/// skipped (they hold no record), every other line becomes a row or the error that names it.
struct CSVRows {
    private var lines: LineReader
    let header: CSVHeader

    /// Finds the header (see ``CSVHeader/find(in:expected:where:)``) and stands after it.
    init(lines: LineReader, expected: String, where isHeader: (CSVHeader) -> Bool) throws(ImportError) {
        var lines = lines
        header = try CSVHeader.find(in: &lines, expected: expected, where: isHeader)
        self.lines = lines
    }

    /// The next non-blank line as a row, or the error record for it; nil at the end.
    mutating func next() throws(ImportError) -> Result<CSVRow, ImportError>? {
        while true {
            let line: Line?
            do { line = try lines.next() } catch { throw ImportError(error) }
            guard let line else { return nil }
            if let error = ImportError.unusable(line) { return .failure(error) }
            let text = line.text!
            if text.trimmingASCIISpaces.isEmpty { continue }
            return header.row(text, line: line.number)
        }
    }
}

/// One data line split into fields, with typed access that names line and column on failure.
struct CSVRow: Sendable {
    let line: Int
    let fields: [Substring]

    /// The raw field, blanks trimmed.
    func text(_ column: CSVColumn) -> Substring {
        fields[column.index].trimmingASCIISpaces
    }

    /// The number in `column`; nil when the field is empty, NaN, infinite or `isInvalid` says it
    /// is the app's "no value" sentinel. A decimal comma is accepted (phyphox's semicolon export).
    /// - Throws: `.invalidValue` when the field is not a number.
    func number(_ column: CSVColumn, isInvalid: (Double) -> Bool = { _ in false }) throws(ImportError) -> Double? {
        let field = text(column)
        if field.isEmpty { return nil }
        guard let value = Double(field) ?? Double(field.replacingDecimalComma) else {
            throw ImportError(.invalidValue, line: line, column: column.name, "\(ImportError.quoted(field)) is not a number")
        }
        return value.isFinite && !isInvalid(value) ? value : nil
    }

    /// Like ``number(_:isInvalid:)``, and a value outside `range` is an error: importers pass the
    /// limits ``ReadingDecoder`` puts on the same field, so that every reading imported is one
    /// the decoder would accept (and a garbage altitude or accuracy is reported, not used).
    /// - Throws: `.invalidValue` naming the column when the value is outside `range`.
    func number(_ column: CSVColumn?, within range: ClosedRange<Double>, _ unit: String,
                isInvalid: (Double) -> Bool = { _ in false }) throws(ImportError) -> Double? {
        guard let column, let value = try number(column, isInvalid: isInvalid) else { return nil }
        guard range.contains(value) else {
            let limits = range.lowerBound == -.infinity ? "above \(Self.text(range.upperBound))"
                : "outside \(Self.text(range.lowerBound))…\(Self.text(range.upperBound))"
            throw ImportError(.invalidValue, line: line, column: column.name, "\(value) is \(limits) \(unit)")
        }
        return value
    }

    /// A bound as messages write it: `−1000`, `50000`.
    private static func text(_ bound: Double) -> String {
        (bound < 0 ? "−" : "") + ReadingEncoder.number(bound.magnitude)
    }

    /// Seconds since 1970 as a date, when they fall in the years 0000–9999 that a reading's
    /// `time` can be written in (``ISO8601DateTime``); nil stays nil.
    /// - Throws: `.invalidValue` naming `column` otherwise.
    func date(unixSeconds seconds: Double?, column: CSVColumn) throws(ImportError) -> Date? {
        guard let seconds else { return nil }
        guard ISO8601DateTime.writableSeconds.contains(seconds) else {
            throw ImportError(.invalidValue, line: line, column: column.name,
                              "time \(seconds) s after 1970 is outside the years 0000–9999")
        }
        return Date(timeIntervalSince1970: seconds)
    }

    /// Like ``number(_:isInvalid:)`` for a column that may be absent from the header.
    func number(_ column: CSVColumn?, isInvalid: (Double) -> Bool = { _ in false }) throws(ImportError) -> Double? {
        guard let column else { return nil }
        return try number(column, isInvalid: isInvalid)
    }

    /// A number that must be present.
    /// - Throws: `.missingValue` when it is empty or a sentinel, `.invalidValue` when not a number.
    func required(_ column: CSVColumn, isInvalid: (Double) -> Bool = { _ in false }) throws(ImportError) -> Double {
        guard let value = try number(column, isInvalid: isInvalid) else {
            let field = text(column)
            let what = field.isEmpty ? "is empty" : "holds \(ImportError.quoted(field)), which means no value"
            throw ImportError(.missingValue, line: line, column: column.name, what)
        }
        return value
    }
}

extension CSVRow {
    /// Latitude and longitude in WGS84 degrees, checked for range.
    /// - Throws: `.missingValue`/`.invalidValue` naming the column.
    func coordinate(latitude: CSVColumn, longitude: CSVColumn,
                    isInvalid: (Double) -> Bool = { _ in false }) throws(ImportError) -> (latitude: Double, longitude: Double) {
        let lat = try required(latitude, isInvalid: isInvalid)
        let lon = try required(longitude, isInvalid: isInvalid)
        guard (-90...90).contains(lat) else {
            throw ImportError(.invalidValue, line: line, column: latitude.name, "\(lat) is outside −90…90")
        }
        guard (-180...180).contains(lon) else {
            throw ImportError(.invalidValue, line: line, column: longitude.name, "\(lon) is outside −180…180")
        }
        return (lat, lon)
    }
}

extension StringProtocol where SubSequence == Substring {
    /// Without leading and trailing spaces and tabs (Foundation-free, for hot paths).
    var trimmingASCIISpaces: Substring {
        let s = self[...]
        guard let first = s.firstIndex(where: { $0 != " " && $0 != "\t" }) else { return s[s.endIndex...] }
        let last = s.lastIndex(where: { $0 != " " && $0 != "\t" })!
        return Substring(s[first...last])
    }

    var replacingDecimalComma: String {
        String(map { $0 == "," ? "." : $0 })
    }
}
