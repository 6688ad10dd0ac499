// libFuzzer target for the phyphox importer. The first input byte picks how the bytes are chunked
// into lines (see lineReader); the rest is the location CSV, then optionally a NUL byte and the
// export's meta/time.csv.
//
// Checks: importing never traps or throws for content; records come in line order; every
// reading imported is valid reading JSON once encoded (see drain).

@testable import TapSeekCore

@_cdecl("LLVMFuzzerTestOneInput")
public func phyphoxFuzzInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    guard let control = input.first else { return 0 }
    let files = parts(input.dropFirst(), count: 2)
    var timeline: PhyphoxTimeline?
    if files.count == 2 {
        guard let parsed = try? PhyphoxTimeline(lines: lineReader(files[1], control: control)) else { return 0 }
        timeline = parsed
    }
    guard var importer = try? LogImport.open(lines: lineReader(files[0], control: control), format: .phyphox,
                                             phyphoxTimeline: timeline) else { return 0 }
    drain(&importer, input)
    return 0
}
