import Foundation

/// A photo's horizontal field of view from its EXIF focal lengths.
///
/// **35 mm equivalent, by the diagonal.** EXIF's FocalLengthIn35mmFilm is the focal length that
/// would give a 36 × 24 mm frame the photo's angle of view; phone makers match the frames'
/// diagonals (43.27 mm), whatever the sensor's aspect ratio (CIPA DC-008 leaves the choice open;
/// the diagonal is what phone makers' published angles follow, see the tests). So the diagonal
/// angle is 2·atan(43.27 / (2·f35)), and the horizontal one of a W × H image is
/// 2·atan(tan(diagonal/2)·W/√(W² + H²)).
///
/// **Focal length and focal-plane resolution**, when no 35 mm value is given: the sensor's width
/// in millimetres is PixelXDimension / FocalPlaneXResolution (in its unit), and the horizontal
/// angle 2·atan(width / (2·f)).
public enum FieldOfView {
    /// The diagonal of a 36 × 24 mm frame, millimetres.
    public static let fullFrameDiagonal = (36.0 * 36 + 24 * 24).squareRoot()

    /// The horizontal field of view, degrees, of a W × H image whose 35 mm-equivalent focal length
    /// is `f35` millimetres (diagonal convention).
    public static func horizontal(focalLengthIn35mmFilm f35: Double, width: Int, height: Int) -> Double {
        let halfDiagonal = fullFrameDiagonal / (2 * f35)
        let w = Double(width), h = Double(height)
        return degrees(2 * atan(halfDiagonal * w / (w * w + h * h).squareRoot()))
    }

    /// The diagonal field of view, degrees, of a 35 mm-equivalent focal length.
    public static func diagonal(focalLengthIn35mmFilm f35: Double) -> Double {
        degrees(2 * atan(fullFrameDiagonal / (2 * f35)))
    }

    /// The horizontal field of view of the displayed image, degrees, from EXIF; nil when the
    /// file gives neither a 35 mm equivalent nor a focal length with its focal-plane resolution.
    static func horizontal(of exif: ExifFields, displayedWidth: Int, displayedHeight: Int, transposed: Bool) -> Double? {
        if let f35 = exif.focalLengthIn35mmFilm {
            let fov = horizontal(focalLengthIn35mmFilm: f35, width: displayedWidth, height: displayedHeight)
            return fov > 0 && fov < 180 ? fov : nil
        }
        // The displayed width runs along the sensor's y axis when the image is transposed.
        guard let f = exif.focalLength, let unit = exif.focalPlaneResolutionUnit,
              let resolution = transposed ? exif.focalPlaneYResolution : exif.focalPlaneXResolution else { return nil }
        let pixels = Double(transposed ? exif.pixelHeight ?? displayedWidth : exif.pixelWidth ?? displayedWidth)
        let sensor = pixels / resolution * unit
        let fov = degrees(2 * atan(sensor / (2 * f)))
        return fov > 0 && fov < 180 ? fov : nil
    }
}
