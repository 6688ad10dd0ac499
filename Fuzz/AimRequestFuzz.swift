// libFuzzer target for `tapseek aim` requests (AimRequest.decode): the observer part goes through
// the reading decoder, the target through its own reader. The whole input is one request.
//
// Checks: decoding never traps; a decoded observer survives ReadingEncoder and decodes back to
// itself; a target position is a valid coordinate and a target name is not empty.

import Foundation
@testable import TapSeekCore

@_cdecl("LLVMFuzzerTestOneInput")
public func aimRequestFuzzInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    let request: AimRequest
    do {
        request = try AimRequest.decode(String(decoding: input, as: UTF8.self))
    } catch {
        return 0
    }
    checkReadingRoundTrip(request.observer, input)
    switch request.target {
    case .position(let latitude, let longitude, let elevation, let name):
        guard (-90...90).contains(latitude), longitude.isFinite, elevation?.isFinite ?? true, name?.isEmpty != true else {
            violated("target \(request.target) accepted", input)
        }
    case .named(let name):
        guard !name.isEmpty else { violated("an empty target name accepted", input) }
    }
    return 0
}
