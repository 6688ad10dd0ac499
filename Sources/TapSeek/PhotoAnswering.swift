import TapSeekCore

extension Locator {
    /// Answers a photo given as its file's bytes (JPEG or HEIF): its metadata read in pure Swift,
    /// its pixels decoded at about ``SkylineDetector/workingWidth`` (``PhotoPixels``), then
    /// ``photo(_:pixels:overrides:taps:jobs:)``. Never throws: an unreadable file gives status
    /// `error`; pixels that cannot be decoded leave the photo `uncalibrated` with a warning.
    public func photo(bytes: [UInt8], overrides: PhotoOverrides = PhotoOverrides(), taps: [Reading.Pixel] = [],
                      uncertainty: TargetUncertainty.Settings? = nil, jobs: Int = 1) -> PhotoResult {
        photoAndPixels(bytes: bytes, overrides: overrides, taps: taps, uncertainty: uncertainty, jobs: jobs).result
    }

    /// ``photo(bytes:overrides:taps:jobs:)`` and the decoded (displayed, downscaled) pixels it
    /// worked on, for drawing.
    public func photoAndPixels(bytes: [UInt8], overrides: PhotoOverrides = PhotoOverrides(), taps: [Reading.Pixel] = [],
                               uncertainty: TargetUncertainty.Settings? = nil, jobs: Int = 1) -> (result: PhotoResult, pixels: PixelImage?) {
        let metadata: PhotoMetadata
        do {
            metadata = try PhotoMetadata(bytes: bytes[...])
        } catch {
            return (.failure(.badInput, error.description), nil)
        }
        var pixels: PixelImage?
        var pixelWarning: Warning?
        do {
            pixels = try PhotoPixels.decode(bytes, metadata: metadata)
        } catch {
            pixelWarning = Warning(.noSkyline, "the photo's pixels cannot be read: \(error.message)")
        }
        var result = photo(metadata, pixels: pixels, overrides: overrides, taps: taps, uncertainty: uncertainty, jobs: jobs)
        if let pixelWarning {
            result.warnings.removeAll { $0.code == .noSkyline }
            result.warnings.insert(pixelWarning, at: 0)
        }
        return (result, pixels)
    }
}
