// libFuzzer target for the reading JSON (ReadingDecoder over JSONScanner). The whole input is one
// candidate reading, as one line of `tapseek batch` JSON Lines would be.
//
// Checks: decoding never traps; a reading decoded without requiring an orientation decodes the
// same with it required exactly when it has one; a decoded reading survives ReadingEncoder and
// decodes back to itself (see checkReadingRoundTrip).

@testable import TapSeekCore

@_cdecl("LLVMFuzzerTestOneInput")
public func readingFuzzInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    let lenient: Reading
    do {
        lenient = try ReadingDecoder(requiresOrientation: false).decode(input)
    } catch {
        guard !error.description.isEmpty else { violated("an empty error message", input) }
        return 0
    }
    let strict = Result { () throws(ReadingError) in try ReadingDecoder(requiresOrientation: true).decode(input) }
    switch (lenient.orientation, strict) {
    case (nil, .success(let reading)):
        violated("a reading without orientation passed the strict decoder: \(reading)", input)
    case (.some, .failure(let error)):
        violated("a reading with orientation failed the strict decoder: \(error)", input)
    case (.some, .success(let reading)) where reading != lenient:
        violated("strict and lenient decoders disagree: \(reading) vs \(lenient)", input)
    default:
        break
    }
    checkReadingRoundTrip(lenient, input)
    return 0
}
