import TapSeek

/// `tapseek batch --numbered`: JSON Lines whose every line is `N<TAB>reading`, N being the
/// reading's line number in the log it came from. A tool that splits a log over many processes
/// (`scripts/spark_batch.py`) sends each part numbered so; the results and messages then name the
/// log's own lines, as plain batch over the whole log would.
enum NumberedLine {
    /// The longest numbered line read whole: the reader's usual limit (64 MiB) plus room for the
    /// number. A reading longer than ``BatchRecord/maximumLineLength`` is still answered as too
    /// long, with its own length; only past this limit is its number lost.
    static let maximumLength = LineReader.defaultMaximumLineLength + 32

    /// UTF-8 byte-order mark, dropped from line 1 as a plain file's reader drops it.
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]
    private static let carriageReturn = UInt8(ascii: "\r")

    /// The line `N<TAB>rest` as line N of the original log holding `rest`. The reader keeps the
    /// line's final CR (``LineReader/dropsCarriageReturn``): as for a plain file, the length limit
    /// counts it (and a byte-order mark), and only a line within the limit has them dropped.
    /// - Throws: ``ImportError`` when the number is missing or the line was too long to keep it.
    static func split(_ line: Line) throws(ImportError) -> Line {
        switch line.content {
        case .text(let text):
            let utf8 = text.utf8
            let tab = try numberEnd(utf8, line: line.number)
            let number = try parsedNumber(utf8[..<tab], line: line.number)
            var rest = utf8[utf8.index(after: tab)...]
            if rest.count > BatchRecord.maximumLineLength { return Line(number: number, content: .tooLong(byteCount: rest.count)) }
            if rest.last == carriageReturn { rest = rest.dropLast() }
            if number == 1, rest.starts(with: byteOrderMark) { rest = rest.dropFirst(3) }
            return Line(number: number, content: .text(String(Substring(rest))))
        case .invalidUTF8(let bytes):
            let tab = try numberEnd(bytes, line: line.number)
            let number = try parsedNumber(bytes[..<tab], line: line.number)
            var rest = bytes[(tab + 1)...]
            if rest.count > BatchRecord.maximumLineLength { return Line(number: number, content: .tooLong(byteCount: rest.count)) }
            if rest.last == carriageReturn { rest = rest.dropLast() }
            if number == 1, rest.starts(with: byteOrderMark) { rest = rest.dropFirst(3) }
            if let text = String(validating: rest, as: UTF8.self) { return Line(number: number, content: .text(text)) }
            return Line(number: number, content: .invalidUTF8(Array(rest)))
        case .tooLong(let count):
            throw ImportError(.lineTooLong, line: line.number, "\(count) bytes, too long to read its number (--numbered)")
        }
    }

    /// Where the number ends: the first tab, after one to 18 digits.
    private static func numberEnd<C: Collection<UInt8>>(_ bytes: C, line: Int) throws(ImportError) -> C.Index {
        guard let tab = bytes.firstIndex(of: UInt8(ascii: "\t")), (1...18).contains(bytes.distance(from: bytes.startIndex, to: tab)) else {
            throw noNumber(line)
        }
        return tab
    }

    private static func parsedNumber(_ digits: some Collection<UInt8>, line: Int) throws(ImportError) -> Int {
        var number = 0
        for d in digits {
            guard d >= UInt8(ascii: "0"), d <= UInt8(ascii: "9") else { throw noNumber(line) }
            number = number * 10 + Int(d - UInt8(ascii: "0"))
        }
        return number
    }

    private static func noNumber(_ line: Int) -> ImportError {
        ImportError(.malformedLine, line: line, "no line number: with --numbered every line starts with its number and a tab")
    }
}
