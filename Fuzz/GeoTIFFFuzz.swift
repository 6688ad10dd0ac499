// libFuzzer target for the GeoTIFF reader (GeoTIFFTile.grid(bytes:path:)): the TIFF and BigTIFF
// directories, GeoKeys, strips and tiles, DEFLATE, LZW, PackBits and the predictors, all of
// which read DEM files a user hands over.
//
// Checks: any bytes either give a grid whose shape matches its heights and whose spacing is
// positive, or a TerrainFileError; never a trap. Images are capped at 2²⁰ posts here (the
// reader's own cap is 2²⁸) so that the 400 MB limit measures the reader, not the grid.

@testable import TapSeekCore

@_cdecl("LLVMFuzzerTestOneInput")
public func geoTIFFFuzzInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    let grid = input.withUnsafeBytes { bytes in
        try? GeoTIFFTile.grid(bytes: bytes, path: "fuzz.tif", maximumPosts: 1 << 20)
    }
    guard let grid else { return 0 }
    checkGrid(grid, input)
    return 0
}
