#if !canImport(Darwin)
import TapSeekCore

/// The libheif functions that decode a HEIC/HEIF photo's primary image, looked up when the first
/// HEIF photo is read (`dlopen`); a machine without Debian's `libheif1` reads HEIF metadata
/// still, and says the pixels need it.
///
/// Signatures and constants are libheif 1.15's (`libheif/heif.h`, Debian 12):
/// `heif_colorspace_RGB` = 1, `heif_chroma_interleaved_RGB` = 10, `heif_channel_interleaved` = 10.
/// Most libheif calls return `struct heif_error { int code; int subcode; const char *message; }`
/// by value: 16 bytes of integer class, returned in two registers on x86-64 (RAX, RDX) and
/// AArch64 (X0, X1). Declared here as returning `UInt64`, the first register: code in its low
/// 32 bits (0 is success) and subcode in its high ones; the message register is not read.
struct HEIFLibrary: Sendable {
    typealias Pointer = OpaquePointer
    static let colourspaceRGB: Int32 = 1
    static let chromaInterleavedRGB: Int32 = 10
    static let channelInterleaved: Int32 = 10

    let contextAlloc: @convention(c) () -> Pointer?
    let contextFree: @convention(c) (Pointer?) -> Void
    let readFromMemory: @convention(c) (Pointer?, UnsafeRawPointer?, Int, UnsafeRawPointer?) -> UInt64
    let primaryHandle: @convention(c) (Pointer?, UnsafeMutablePointer<Pointer?>?) -> UInt64
    let handleRelease: @convention(c) (Pointer?) -> Void
    let decodeImage: @convention(c) (Pointer?, UnsafeMutablePointer<Pointer?>?, Int32, Int32, UnsafeRawPointer?) -> UInt64
    let imageRelease: @convention(c) (Pointer?) -> Void
    let imageWidth: @convention(c) (Pointer?, Int32) -> Int32
    let imageHeight: @convention(c) (Pointer?, Int32) -> Int32
    let planeReadonly: @convention(c) (Pointer?, Int32, UnsafeMutablePointer<Int32>?) -> UnsafePointer<UInt8>?

    /// The library, loaded once, or why it cannot be.
    static let shared: Result<HEIFLibrary, DynamicLibrary.Failure> = DynamicLibrary.open(["libheif.so.1", "libheif.so"])
        .mapError { DynamicLibrary.Failure(message: "libheif is not installed (\($0.message)); install Debian's libheif1") }
        .flatMap { library in Result { () throws(DynamicLibrary.Failure) in try HEIFLibrary(library) } }

    private init(_ library: DynamicLibrary) throws(DynamicLibrary.Failure) {
        contextAlloc = try library.function("heif_context_alloc")
        contextFree = try library.function("heif_context_free")
        readFromMemory = try library.function("heif_context_read_from_memory_without_copy")
        primaryHandle = try library.function("heif_context_get_primary_image_handle")
        handleRelease = try library.function("heif_image_handle_release")
        decodeImage = try library.function("heif_decode_image")
        imageRelease = try library.function("heif_image_release")
        imageWidth = try library.function("heif_image_get_width")
        imageHeight = try library.function("heif_image_get_height")
        planeReadonly = try library.function("heif_image_get_plane_readonly")
    }

    /// The primary image's pixels as displayed (libheif applies `irot` and `imir`).
    func decode(_ bytes: [UInt8]) throws(PhotoPixelError) -> PixelImage {
        guard let context = contextAlloc() else { throw PhotoPixelError("libheif could not start a decoder") }
        defer { contextFree(context) }
        func check(_ error: UInt64, _ what: String) throws(PhotoPixelError) {
            let code = UInt32(truncatingIfNeeded: error), subcode = UInt32(truncatingIfNeeded: error >> 32)
            guard code == 0 else { throw PhotoPixelError("the HEIF image cannot be decoded: libheif error \(code).\(subcode) \(what)") }
        }
        var result: Result<PixelImage, PhotoPixelError> = .failure(PhotoPixelError("the HEIF image cannot be decoded"))
        bytes.withUnsafeBytes { raw in
            result = Result { () throws(PhotoPixelError) in
                try check(readFromMemory(context, raw.baseAddress, raw.count, nil), "reading the file")
                var handle: Pointer?
                try check(primaryHandle(context, &handle), "finding the primary image")
                defer { handleRelease(handle) }
                var image: Pointer?
                try check(decodeImage(handle, &image, Self.colourspaceRGB, Self.chromaInterleavedRGB, nil), "decoding the primary image")
                defer { imageRelease(image) }
                let w = Int(imageWidth(image, Self.channelInterleaved)), h = Int(imageHeight(image, Self.channelInterleaved))
                var stride: Int32 = 0
                guard w > 0, h > 0, w * h <= PhotoMetadata.maximumPixels, let plane = planeReadonly(image, Self.channelInterleaved, &stride),
                      Int(stride) >= w * 3 else { throw PhotoPixelError("the HEIF image decoded to no RGB pixels") }
                var pixels = [UInt8](repeating: 0, count: w * h * 3)
                for y in 0..<h {
                    for i in 0..<(w * 3) { pixels[y * w * 3 + i] = plane[y * Int(stride) + i] }
                }
                return PixelImage(width: w, height: h, rgb: pixels)!
            }
        }
        return try result.get()
    }
}
#endif
