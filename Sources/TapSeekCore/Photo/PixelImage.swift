/// An image as plain pixels: 8-bit RGB, row by row from the top-left, no padding. What a camera
/// frame, a decoded JPEG or HEIC, or a test's rendering hands to ``SkylineDetector``.
public struct PixelImage: Sendable, Hashable {
    public let width: Int
    public let height: Int
    /// `width · height · 3` bytes: R, G, B of each pixel.
    public let rgb: [UInt8]

    /// An image from its pixels; nil unless `rgb` holds exactly `width · height · 3` bytes of a
    /// non-empty image.
    public init?(width: Int, height: Int, rgb: [UInt8]) {
        guard width > 0, height > 0, width <= Int.max / 3 / height, rgb.count == width * height * 3 else { return nil }
        self.width = width
        self.height = height
        self.rgb = rgb
    }

    /// The image as displayed when these are its stored pixels and `orientation` its EXIF one.
    public func oriented(_ orientation: ImageOrientation) -> PixelImage {
        guard orientation.exifValue != 1 else { return self }
        let (w, h) = orientation.displayedSize(width: width, height: height)
        var out = [UInt8](repeating: 0, count: w * h * 3)
        for v in 0..<h {
            for u in 0..<w {
                let s = orientation.storedPixel(u: u, v: v, width: width, height: height)
                let from = (s.y * width + s.x) * 3, to = (v * w + u) * 3
                out[to] = rgb[from]
                out[to + 1] = rgb[from + 1]
                out[to + 2] = rgb[from + 2]
            }
        }
        return PixelImage(width: w, height: h, rgb: out)!
    }

    /// The image shrunk by averaging to at most `maximumWidth` pixels across (aspect kept); the
    /// image itself when it is no wider. Each output pixel averages the input pixels whose
    /// centres fall inside it.
    public func downscaled(toWidth maximumWidth: Int) -> PixelImage {
        guard width > maximumWidth, maximumWidth > 0 else { return self }
        let w = maximumWidth
        let h = max(1, Int((Double(height) * Double(w) / Double(width)).rounded()))
        // Input column and row ranges of each output column and row.
        func spans(_ n: Int, _ m: Int) -> [Range<Int>] {
            (0..<m).map { i in
                let lo = i * n / m, hi = max((i + 1) * n / m, lo + 1)
                return lo..<hi
            }
        }
        let columns = spans(width, w), rows = spans(height, h)
        var out = [UInt8](repeating: 0, count: w * h * 3)
        var sums = [UInt32](repeating: 0, count: w * 3)
        rgb.withUnsafeBufferPointer { src in
            for (y, rowSpan) in rows.enumerated() {
                for i in sums.indices { sums[i] = 0 }
                for r in rowSpan {
                    let row = r * width * 3
                    for (x, span) in columns.enumerated() {
                        var a: UInt32 = 0, b: UInt32 = 0, c: UInt32 = 0
                        for col in span {
                            let p = row + col * 3
                            a &+= UInt32(src[p])
                            b &+= UInt32(src[p + 1])
                            c &+= UInt32(src[p + 2])
                        }
                        sums[x * 3] &+= a
                        sums[x * 3 + 1] &+= b
                        sums[x * 3 + 2] &+= c
                    }
                }
                for (x, span) in columns.enumerated() {
                    let n = UInt32(span.count * rowSpan.count)
                    let to = (y * w + x) * 3
                    out[to] = UInt8((sums[x * 3] + n / 2) / n)
                    out[to + 1] = UInt8((sums[x * 3 + 1] + n / 2) / n)
                    out[to + 2] = UInt8((sums[x * 3 + 2] + n / 2) / n)
                }
            }
        }
        return PixelImage(width: w, height: h, rgb: out)!
    }
}
