// libFuzzer target for the `lat,lon` lines of `tapseek elevation --batch` and `geocode --batch`
// (CoordinateLine over LineReader). The input is the batch stream.
//
// Checks: parsing never traps; a number the fast path reads equals what Swift's own Double
// parser makes of the same field; a number's text that `geocode --batch` would echo
// (`JSONText.isShortestDecimal`) is exactly what `Double.description` writes.

@testable import TapSeekCore

@_cdecl("LLVMFuzzerTestOneInput")
public func coordinateLineFuzzInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    // The whole input as one line, as the parser sees it after the line reader.
    input.withUnsafeBufferPointer { check($0, input) }
    var reader = LineReader(source: MemoryByteSource(input, maximumReadSize: 5), chunkSize: 16)
    while let line = try? reader.next() {
        guard case .text(let text) = line.content else { continue }
        var copy = text
        copy.withUTF8 { check($0, input) }
    }
    return 0
}

private func check(_ line: UnsafeBufferPointer<UInt8>, _ input: [UInt8]) {
    guard case .success(let point) = CoordinateLine.parseKeepingText(line) else { return }
    let text = String(decoding: line, as: UTF8.self)
    guard let comma = text.firstIndex(of: ",") else { violated("parsed a line without a comma", input) }
    let fields = [text[..<comma], text[text.index(after: comma)...]].map { field in
        String(field.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" || $0 == "\r" }.reversed())
    }
    for (value, field) in zip([point.latitude, point.longitude], fields) {
        if let reference = Double(field), !(reference == value || (reference.isNaN && value.isNaN)) {
            violated("\"\(field)\" read as \(value), Swift reads \(reference)", input)
        }
    }
    for (value, range) in [(point.latitude, point.latitudeText), (point.longitude, point.longitudeText)] {
        let echo = UnsafeBufferPointer(rebasing: line[range])
        if JSONText.isShortestDecimal(echo, of: value), value.description != String(decoding: echo, as: UTF8.self) {
            violated("\"\(String(decoding: echo, as: UTF8.self))\" would be echoed for \(value.description)", input)
        }
    }
}
