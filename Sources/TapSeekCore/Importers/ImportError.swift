/// Why one record of a log could not become a ``Reading``, or why a whole log cannot be read.
///
/// Its ``description`` is one line naming the line and the column, e.g.
/// `line 12, column "locationLatitude(WGS84)": "30.3x" is not a number`.
public struct ImportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable, machine-readable kind (snake_case, like the result's `error.code`).
    public enum Code: String, Sendable, Hashable, CaseIterable {
        /// The line cannot be split into the header's fields (wrong field count, open quote).
        case malformedLine = "malformed_line"
        /// The line is not valid UTF-8.
        case invalidUTF8 = "invalid_utf8"
        /// The line exceeds the reader's length limit.
        case lineTooLong = "line_too_long"
        /// A required value is empty, NaN or an app's "invalid" sentinel.
        case missingValue = "missing_value"
        /// A value is present but not usable (not a number, out of range).
        case invalidValue = "invalid_value"
        /// No position is known at the record's time (a per-sensor join found no fix near it).
        case noLocation = "no_location"
        /// The log as a whole cannot be read: unknown format, a required column or file missing.
        case unsupportedLog = "unsupported_log"
        /// The stream failed while reading (an I/O error, a corrupt archive).
        case unreadable
    }

    /// The kind of problem.
    public var code: Code
    /// 1-based line of the input (for joins: of the driving file), when the error belongs to one.
    public var line: Int?
    /// The column, as its header names it, when one is at fault.
    public var column: String?
    /// What is wrong, without the line/column prefix.
    public var message: String

    /// An error of kind `code` at `line` and `column` (when known), `message` without that prefix.
    public init(_ code: Code, line: Int? = nil, column: String? = nil, _ message: String) {
        self.code = code
        self.line = line
        self.column = column
        self.message = message
    }

    /// `line N, column "C": message`, leaving out the parts not known.
    public var description: String {
        var place: [String] = []
        if let line { place.append("line \(line)") }
        if let column { place.append("column \"\(column)\"") }
        return place.isEmpty ? message : place.joined(separator: ", ") + ": " + message
    }

    /// A value as quoted in messages: at most 40 characters, so that an error stays one short line.
    static func quoted(_ value: Substring) -> String {
        let shown = value.count > 40 ? value.prefix(40) + "…" : value
        return "\"\(shown)\""
    }
}

extension ImportError {
    /// The error record for a line whose bytes are not text.
    static func unusable(_ line: Line) -> ImportError? {
        switch line.content {
        case .text: return nil
        case .invalidUTF8(let bytes):
            let at = firstInvalidOffset(bytes).map { " at byte \($0 + 1)" } ?? ""
            return ImportError(.invalidUTF8, line: line.number, "not valid UTF-8\(at)")
        case .tooLong(let count):
            return ImportError(.lineTooLong, line: line.number, "\(count) bytes, longer than the line length limit")
        }
    }

    /// Offset of the first byte where UTF-8 decoding fails.
    private static func firstInvalidOffset(_ bytes: [UInt8]) -> Int? {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let s): offset += UTF8.width(s)
            case .emptyInput: return nil
            case .error: return offset
            }
        }
    }
}
