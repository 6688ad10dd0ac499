import Foundation

/// The pinhole model of a phone camera: how pixels of an image map to rays in the camera frame.
///
/// Camera frame: x right, y up, z forward along the optical axis. Pixels (x, y) count from the
/// image's top-left corner with y down, in the same units as ``imageWidth`` and
/// ``imageHeight``; the principal point is the image centre and pixels are square. Zoom narrows
/// the field of view: hfov_eff = 2·atan(tan(hfov/2) / zoom), focal length
/// f = (W/2) / tan(hfov_eff/2) pixels, and pixel (u, v) looks along ((u − W/2)/f, −(v − H/2)/f, 1).
/// Lens distortion is not modelled. Angles in degrees.
public struct PinholeCamera: Sendable, Hashable {
    /// Degrees across the image width at zoom 1, in (0, 180).
    public let horizontalFOV: Double
    /// Optical zoom factor, ≥ 1.
    public let zoom: Double
    /// Image size, pixels.
    public let imageWidth: Double
    public let imageHeight: Double
    /// Focal length in pixels, (W/2) / tan(hfov_eff/2).
    public let focalLength: Double

    /// A camera; the values should satisfy the ranges above (``ReadingDecoder`` enforces them).
    public init(horizontalFOV: Double, zoom: Double = 1, imageWidth: Double, imageHeight: Double) {
        self.horizontalFOV = horizontalFOV
        self.zoom = zoom
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        // tan(hfov_eff/2) = tan(hfov/2) / zoom, so no inverse tangent is needed.
        focalLength = imageWidth / 2 * zoom / tan(radians(horizontalFOV) / 2)
    }

    /// The camera of a reading.
    public init(_ settings: Reading.CameraSettings) {
        self.init(horizontalFOV: settings.horizontalFOV, zoom: settings.zoom,
                  imageWidth: settings.imageWidth, imageHeight: settings.imageHeight)
    }

    /// Degrees across the image width at this zoom: 2·atan(tan(hfov/2) / zoom).
    public var effectiveHorizontalFOV: Double { degrees(2 * atan(imageWidth / 2 / focalLength)) }
    /// Degrees across the image height at this zoom: 2·atan(tan(hfov_eff/2)·H/W).
    public var verticalFOV: Double { degrees(2 * atan(imageHeight / 2 / focalLength)) }

    /// The unit ray through pixel (x, y) in the camera frame (x right, y up, z forward).
    public func ray(throughPixelX x: Double, y: Double) -> Vector3 {
        Vector3((x - imageWidth / 2) / focalLength, -(y - imageHeight / 2) / focalLength, 1).normalized
    }

    /// Where a camera-frame direction (any length) appears in the image, as a pixel from the
    /// top-left corner with y down; nil if it points sideways or behind the camera (z ≤ 0). The
    /// pixel may lie outside the image: see ``contains(pixelX:y:)``.
    public func pixel(of direction: Vector3) -> (x: Double, y: Double)? {
        guard direction.z > 0 else { return nil }
        return (imageWidth / 2 + focalLength * direction.x / direction.z,
                imageHeight / 2 - focalLength * direction.y / direction.z)
    }

    /// Whether pixel (x, y) lies in the image, edges included.
    public func contains(pixelX x: Double, y: Double) -> Bool {
        x >= 0 && x <= imageWidth && y >= 0 && y <= imageHeight
    }
}
