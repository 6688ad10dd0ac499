#if !canImport(Darwin)
import TapSeekCore

/// The TurboJPEG functions of libjpeg-turbo (Debian's `libturbojpeg0`) that decode a photo's
/// pixels and encode the downscaled copy an annotation embeds, looked up when the first photo is
/// read (`dlopen`) rather than linked, as GDAL and libcurl are.
///
/// Signatures and constants are TurboJPEG API 2 (`turbojpeg.h` of libjpeg-turbo 2.1.5, Debian 12):
/// `TJPF_RGB` = 0, `TJSAMP_420` = 2, `TJFLAG_FASTDCT` = 2048. Handles are opaque pointers.
struct TurboJPEGLibrary: Sendable {
    typealias Handle = OpaquePointer
    static let pixelFormatRGB: Int32 = 0
    static let subsampling420: Int32 = 2
    static let fastDCT: Int32 = 2048

    /// One of the scaling factors TurboJPEG decodes at directly (in the DCT, without full-size pixels).
    struct ScalingFactor { var num: Int32; var denom: Int32 }

    let initDecompress: @convention(c) () -> Handle?
    let initCompress: @convention(c) () -> Handle?
    let destroy: @convention(c) (Handle?) -> Int32
    let decompressHeader: @convention(c) (Handle?, UnsafePointer<UInt8>?, UInt, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?,
                                          UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?) -> Int32
    let decompress: @convention(c) (Handle?, UnsafePointer<UInt8>?, UInt, UnsafeMutablePointer<UInt8>?, Int32, Int32, Int32, Int32, Int32) -> Int32
    let compress: @convention(c) (Handle?, UnsafePointer<UInt8>?, Int32, Int32, Int32, Int32, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?,
                                  UnsafeMutablePointer<UInt>?, Int32, Int32, Int32) -> Int32
    let free: @convention(c) (UnsafeMutablePointer<UInt8>?) -> Void
    let errorText: @convention(c) (Handle?) -> UnsafeMutablePointer<CChar>?
    let scalingFactors: @convention(c) (UnsafeMutablePointer<Int32>?) -> UnsafeMutableRawPointer?

    /// The library, loaded once, or why it cannot be.
    static let shared: Result<TurboJPEGLibrary, DynamicLibrary.Failure> = DynamicLibrary.open(["libturbojpeg.so.0", "libturbojpeg.so"])
        .mapError { DynamicLibrary.Failure(message: "libjpeg-turbo is not installed (\($0.message)); install Debian's libturbojpeg0") }
        .flatMap { library in Result { () throws(DynamicLibrary.Failure) in try TurboJPEGLibrary(library) } }

    private init(_ library: DynamicLibrary) throws(DynamicLibrary.Failure) {
        initDecompress = try library.function("tjInitDecompress")
        initCompress = try library.function("tjInitCompress")
        destroy = try library.function("tjDestroy")
        decompressHeader = try library.function("tjDecompressHeader3")
        decompress = try library.function("tjDecompress2")
        compress = try library.function("tjCompress2")
        free = try library.function("tjFree")
        errorText = try library.function("tjGetErrorStr2")
        scalingFactors = try library.function("tjGetScalingFactors")
    }

    private func message(_ handle: Handle?) -> String {
        errorText(handle).map { String(cString: $0) } ?? "unknown error"
    }

    /// The stored pixels of a JPEG, decoded at the smallest of TurboJPEG's scales that keeps the
    /// width at least `minimumWidth` (full size when none does).
    func decode(_ bytes: [UInt8], minimumWidth: Int) throws(PhotoPixelError) -> PixelImage {
        guard let handle = initDecompress() else { throw PhotoPixelError("libjpeg-turbo could not start a decoder") }
        defer { _ = destroy(handle) }
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colourspace: Int32 = 0
        let header = bytes.withUnsafeBufferPointer { decompressHeader(handle, $0.baseAddress, UInt($0.count), &width, &height, &subsampling, &colourspace) }
        guard header == 0, width > 0, height > 0 else { throw PhotoPixelError("the JPEG cannot be decoded: \(message(handle))") }
        // Scaling factors, best (smallest output still wide enough) first.
        var count: Int32 = 0
        var factors: [ScalingFactor] = []
        if let raw = scalingFactors(&count) {
            let typed = raw.bindMemory(to: ScalingFactor.self, capacity: Int(count))
            factors = (0..<Int(count)).map { typed[$0] }.filter { $0.num > 0 && $0.denom > 0 && $0.num <= $0.denom }
        }
        func scaled(_ n: Int32, _ f: ScalingFactor) -> Int32 { (n * f.num + f.denom - 1) / f.denom }
        let chosen = factors.filter { Int(scaled(width, $0)) >= minimumWidth }
            .min { Double($0.num) / Double($0.denom) < Double($1.num) / Double($1.denom) } ?? ScalingFactor(num: 1, denom: 1)
        let w = scaled(width, chosen), h = scaled(height, chosen)
        guard Int(w) * Int(h) <= PhotoMetadata.maximumPixels else { throw PhotoPixelError("the JPEG is \(width)×\(height) pixels, too large to decode") }
        var pixels = [UInt8](repeating: 0, count: Int(w) * Int(h) * 3)
        let status = bytes.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                decompress(handle, source.baseAddress, UInt(source.count), target.baseAddress, w, 0, h, Self.pixelFormatRGB, Self.fastDCT)
            }
        }
        // A warning (a truncated scan, decoded as far as it goes) still gives pixels; TurboJPEG 2.1
        // returns −1 for both, so only an image with no decoded rows at all is refused.
        if status != 0, pixels.allSatisfy({ $0 == 0 }) { throw PhotoPixelError("the JPEG cannot be decoded: \(message(handle))") }
        return PixelImage(width: Int(w), height: Int(h), rgb: pixels)!
    }

    /// A JPEG of `image` at `quality` (1…100), 4:2:0.
    func encode(_ image: PixelImage, quality: Int) throws(PhotoPixelError) -> [UInt8] {
        guard let handle = initCompress() else { throw PhotoPixelError("libjpeg-turbo could not start an encoder") }
        defer { _ = destroy(handle) }
        var output: UnsafeMutablePointer<UInt8>?
        var size: UInt = 0
        let status = image.rgb.withUnsafeBufferPointer {
            compress(handle, $0.baseAddress, Int32(image.width), 0, Int32(image.height), Self.pixelFormatRGB, &output, &size,
                     Self.subsampling420, Int32(quality), Self.fastDCT)
        }
        defer { free(output) }
        guard status == 0, let output else { throw PhotoPixelError("libjpeg-turbo could not encode the image: \(message(handle))") }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }
}
#endif
