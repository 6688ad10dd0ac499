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
    guard grid.rows >= 2, grid.columns >= 2, grid.heights.count == grid.rows * grid.columns else {
        violated("a \(grid.rows) × \(grid.columns) grid holds \(grid.heights.count) heights", input)
    }
    guard grid.latitudeSpacing > 0, grid.longitudeSpacing > 0 else {
        violated("a grid with spacing \(grid.latitudeSpacing) × \(grid.longitudeSpacing)", input)
    }
    _ = grid.interpolate(latitude: grid.north, longitude: grid.west)
    return 0
}
