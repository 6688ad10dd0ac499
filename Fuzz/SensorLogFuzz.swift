// libFuzzer target for the SensorLog (iOS) importer. The first input byte picks how the bytes are
// chunked into lines (see lineReader); the rest is the CSV log.
//
// Checks: importing never traps or throws for content; records come in line order; every
// reading imported is valid reading JSON once encoded (see drain); format detection agrees.

@testable import TapSeekCore

@_cdecl("LLVMFuzzerTestOneInput")
public func sensorLogFuzzInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    guard let control = input.first else { return 0 }
    let log = Array(input.dropFirst())
    var detecting = lineReader(log, control: control)
    _ = try? LogFormat.detect(&detecting)
    guard var importer = try? LogImport.open(lines: lineReader(log, control: control), format: .sensorlog) else { return 0 }
    drain(&importer, input)
    return 0
}
