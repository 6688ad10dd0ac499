import TapSeekCore
#if canImport(ImageIO)
import CoreGraphics
import Foundation
import ImageIO
#endif

/// A photo's pixels, as displayed (after its EXIF orientation or HEIF transforms), decoded at
/// about the size skyline detection works at: JPEG through libjpeg-turbo, which decodes at 1/2,
/// 1/4 or 1/8 of the size inside its DCT (a 48 MP photo never exists at full size in memory),
/// HEIF through libheif where it is installed, and ImageIO on Apple platforms.
public enum PhotoPixels {
    /// The displayed pixels of a photo whose metadata is `metadata`, at least `minimumWidth`
    /// pixels wide where the file is (libheif decodes HEIF at full size).
    public static func decode(_ bytes: [UInt8], metadata: PhotoMetadata,
                              minimumWidth: Int = SkylineDetector.workingWidth) throws(PhotoPixelError) -> PixelImage {
        #if canImport(ImageIO)
        return try imageIODecode(bytes, minimumWidth: minimumWidth)
        #else
        switch metadata.format {
        case .jpeg:
            let library = try library(TurboJPEGLibrary.shared)
            // The stored image's width along the displayed one: the stored height when transposed.
            let storedMinimum = metadata.orientation.transposed ? minimumWidth * metadata.height / max(metadata.width, 1) : minimumWidth
            return try library.decode(bytes, minimumWidth: storedMinimum).oriented(metadata.orientation)
        case .heif:
            return try library(HEIFLibrary.shared).decode(bytes)
        }
        #endif
    }

    /// A JPEG of `image` (quality 1…100): what an annotation embeds, and what tests write photos with.
    public static func jpeg(_ image: PixelImage, quality: Int = 85) throws(PhotoPixelError) -> [UInt8] {
        #if canImport(ImageIO)
        return try imageIOEncode(image, quality: quality)
        #else
        return try library(TurboJPEGLibrary.shared).encode(image, quality: quality)
        #endif
    }

    private static func library<L>(_ loaded: Result<L, DynamicLibrary.Failure>) throws(PhotoPixelError) -> L {
        switch loaded {
        case .success(let library): return library
        case .failure(let failure): throw PhotoPixelError(failure.message)
        }
    }

    #if canImport(ImageIO)
    private static func imageIODecode(_ bytes: [UInt8], minimumWidth: Int) throws(PhotoPixelError) -> PixelImage {
        let options = [kCGImageSourceCreateThumbnailFromImageAlways as String: true, kCGImageSourceCreateThumbnailWithTransform as String: true,
                       kCGImageSourceThumbnailMaxPixelSize as String: minimumWidth * 2] as [String: Any] as CFDictionary
        guard let source = CGImageSourceCreateWithData(Data(bytes) as CFData, nil),
              let image = CGImageSourceCreateThumbnailAtIndex(source, 0, options) else { throw PhotoPixelError("ImageIO cannot decode the photo") }
        let w = image.width, h = image.height
        var rgba = [UInt8](repeating: 0, count: w * h * 4)
        let drawn: Bool = rgba.withUnsafeMutableBytes { buffer in
            guard let context = CGContext(data: buffer.baseAddress, width: w, height: h, bitsPerComponent: 8, bytesPerRow: w * 4,
                                          space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.noneSkipLast.rawValue) else { return false }
            context.draw(image, in: CGRect(x: 0, y: 0, width: w, height: h))
            return true
        }
        guard drawn else { throw PhotoPixelError("ImageIO cannot decode the photo") }
        var rgb = [UInt8](repeating: 0, count: w * h * 3)
        for i in 0..<(w * h) { for c in 0..<3 { rgb[3 * i + c] = rgba[4 * i + c] } }
        return PixelImage(width: w, height: h, rgb: rgb)!
    }

    private static func imageIOEncode(_ image: PixelImage, quality: Int) throws(PhotoPixelError) -> [UInt8] {
        let data = NSMutableData()
        guard let provider = CGDataProvider(data: Data(image.rgb) as CFData),
              let cg = CGImage(width: image.width, height: image.height, bitsPerComponent: 8, bitsPerPixel: 24, bytesPerRow: image.width * 3,
                               space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGBitmapInfo(rawValue: CGImageAlphaInfo.none.rawValue),
                               provider: provider, decode: nil, shouldInterpolate: false, intent: .defaultIntent),
              let destination = CGImageDestinationCreateWithData(data as CFMutableData, "public.jpeg" as CFString, 1, nil) else {
            throw PhotoPixelError("ImageIO cannot encode a JPEG")
        }
        CGImageDestinationAddImage(destination, cg, [kCGImageDestinationLossyCompressionQuality as String: Double(quality) / 100] as [String: Any] as CFDictionary)
        guard CGImageDestinationFinalize(destination) else { throw PhotoPixelError("ImageIO cannot encode a JPEG") }
        return [UInt8](data as Data)
    }
    #endif
}

/// Why a photo's pixels cannot be read or written, in one line.
public struct PhotoPixelError: Error, Sendable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
