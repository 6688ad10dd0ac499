// libFuzzer target for the line reader and the CSV layer every log importer stands on
// (LineReader, CSVHeader, CSVRows, format detection). The first input byte picks how the bytes
// are chunked into lines (see lineReader); the rest is the stream.
//
// Checks: every line of the input yields exactly one Line, numbered in order, without a line
// break in its text; a line without quotes splits into fields that join back to it; a row the
// header accepts has the header's field count.

@testable import TapSeekCore

@_cdecl("LLVMFuzzerTestOneInput")
public func csvFuzzInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    guard let control = input.first else { return 0 }
    let stream = Array(input.dropFirst())

    var reader = lineReader(stream, control: control)
    var lines: [Line] = []
    do {
        while let line = try reader.next() { lines.append(line) }
    } catch {
        violated("reading memory failed: \(error)", input)
    }
    let newlines = stream.count { $0 == UInt8(ascii: "\n") }
    let expected = newlines + (stream.last.map { $0 == UInt8(ascii: "\n") ? 0 : 1 } ?? 0)
    guard lines.count == expected else { violated("\(lines.count) lines where the input has \(expected)", input) }
    for (index, line) in lines.enumerated() {
        guard line.number == index + 1 else { violated("line \(line.number) in position \(index + 1)", input) }
        if let text = line.text, text.utf8.contains(UInt8(ascii: "\n")) { violated("a line break inside line \(line.number)", input) }
    }

    let texts = lines.compactMap(\.text)
    if let first = texts.first {
        let header = CSVHeader(line: first)
        guard !header.names.isEmpty else { violated("a header without columns", input) }
        for (index, text) in texts.enumerated() {
            if !text.utf8.contains(UInt8(ascii: "\"")) {
                guard let fields = CSVHeader.split(text, separator: header.separator) else {
                    violated("a line without quotes did not split", input)
                }
                guard fields.joined(separator: String(UnicodeScalar(header.separator))) == text else {
                    violated("fields \(fields) do not join back to line \(index + 1)", input)
                }
            }
            if case .success(let row) = header.row(text, line: index + 1) {
                guard row.fields.count == header.names.count else { violated("a row of \(row.fields.count) fields accepted", input) }
                for column in 0..<row.fields.count {
                    _ = try? row.number(CSVColumn(index: column, name: header.names[column]))
                }
            }
        }
    }

    if var rows = try? CSVRows(lines: lineReader(stream, control: control), expected: "anything", where: { _ in true }) {
        while let row = try? rows.next() {
            if case .success(let fields) = row, fields.fields.count != rows.header.names.count {
                violated("CSVRows returned a row of \(fields.fields.count) fields", input)
            }
        }
    }
    var detecting = lineReader(stream, control: control)
    _ = try? LogFormat.detect(&detecting)
    return 0
}
