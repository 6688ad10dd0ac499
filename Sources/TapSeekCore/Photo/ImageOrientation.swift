/// How a stored image is turned to be displayed: the EXIF Orientation values 1…8 (EXIF 2.32,
/// §4.6.4 A, tag 0x0112) as a transpose and two flips.
///
/// For a displayed pixel (u, v), with the stored image W × H: (a, b) = transposed ? (v, u) : (u, v),
/// then the stored pixel is (flipX ? W − 1 − a : a, flipY ? H − 1 − b : b). Value 6 ("the 0th row
/// is the visual right-hand side", what a phone held upright writes) is a transpose then a
/// vertical flip: the stored image turned 90° clockwise.
public struct ImageOrientation: Sendable, Hashable {
    /// The EXIF Orientation value, 1…8.
    public let exifValue: Int

    /// An orientation from its EXIF value; values outside 1…8 mean 1 (as the standard's readers do).
    public init(exifValue: Int) {
        self.exifValue = (1...8).contains(exifValue) ? exifValue : 1
    }

    /// The orientation meaning the same as a HEIF `irot` (quarter turns anticlockwise) followed
    /// by an `imir` (0: about the vertical axis, left ↔ right; 1: about the horizontal axis).
    init(heifRotation: Int, mirror: Int?) {
        let turned = [1, 8, 3, 6][heifRotation & 3]
        switch mirror {
        case 0?: self.init(exifValue: [1: 2, 8: 7, 3: 4, 6: 5][turned]!)
        case 1?: self.init(exifValue: [1: 4, 8: 5, 3: 2, 6: 7][turned]!)
        default: self.init(exifValue: turned)
        }
    }

    /// Whether displayed rows are stored columns (values 5–8): width and height swap.
    public var transposed: Bool { exifValue >= 5 }
    var flipX: Bool { [2, 3, 7, 8].contains(exifValue) }
    var flipY: Bool { [3, 4, 6, 7].contains(exifValue) }

    /// The displayed size of a stored `width` × `height` image.
    public func displayedSize(width: Int, height: Int) -> (width: Int, height: Int) {
        transposed ? (height, width) : (width, height)
    }

    /// The stored pixel shown at displayed pixel (u, v) of a stored `width` × `height` image.
    @inline(__always)
    public func storedPixel(u: Int, v: Int, width: Int, height: Int) -> (x: Int, y: Int) {
        let (a, b) = transposed ? (v, u) : (u, v)
        return (flipX ? width - 1 - a : a, flipY ? height - 1 - b : b)
    }
}
