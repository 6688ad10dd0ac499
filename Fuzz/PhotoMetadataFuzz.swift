// libFuzzer target for a photo's metadata (PhotoMetadata(bytes:)): the JPEG segment walk, the
// TIFF/EXIF directories in both byte orders, the XMP scan and the HEIF box tree, all of which
// read files a user hands over.
//
// Checks: any bytes either give metadata whose displayed size is positive and within the limits,
// whose position (when present) is a valid coordinate and whose field of view lies in (0, 180),
// or a PhotoMetadataError; never a trap.

@testable import TapSeekCore

@_cdecl("LLVMFuzzerTestOneInput")
public func photoMetadataFuzzInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    guard let m = try? PhotoMetadata(bytes: input[...]) else { return 0 }
    guard m.width > 0, m.height > 0, m.width <= PhotoMetadata.maximumSide, m.height <= PhotoMetadata.maximumSide else {
        violated("a photo of \(m.width) × \(m.height) pixels", input)
    }
    if let lat = m.latitude, let lon = m.longitude, !(abs(lat) <= 90 && abs(lon) <= 180) {
        violated("a position (\(lat), \(lon))", input)
    }
    if let fov = m.horizontalFOV, !(fov > 0 && fov < 180) { violated("a field of view of \(fov)°", input) }
    if let h = m.heading, !(h >= 0 && h < 360) { violated("a heading of \(h)°", input) }
    return 0
}
