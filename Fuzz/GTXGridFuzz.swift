// libFuzzer target for the GTX vertical-datum grid reader (GTXGrid.grid(bytes:path:)), which
// reads the geoid without GDAL from a file a user may name.
//
// Checks: any bytes either give a grid whose shape matches its heights and whose spacing is
// positive, or a TerrainFileError; never a trap.

@testable import TapSeekCore

@_cdecl("LLVMFuzzerTestOneInput")
public func gtxGridFuzzInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    guard let grid = try? GTXGrid.grid(bytes: input, path: "fuzz.gtx") else { return 0 }
    checkGrid(grid, input)
    return 0
}
