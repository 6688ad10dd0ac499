import Foundation
import TapSeekCore

/// Where a skyline appears in a camera's image, by bisection: for each chosen column, the row
/// at which the pixel's ray has exactly the skyline's elevation angle at that ray's own azimuth.
/// Tests build traced skylines from it for cameras whose orientation they know.
public enum SkylineTrace {
    /// The skyline's pixels in `columns` evenly spaced columns (edges excluded), to 0.001 px;
    /// columns where the skyline leaves the image or `skyline` has no angle are left out.
    ///
    /// - Parameter skyline: apparent elevation angle of the skyline (degrees) at an azimuth
    ///   (degrees, any turn).
    /// - Parameter span: the range of columns (pixels) to share among `columns`; the whole width
    ///   by default.
    public static func pixels(camera: PinholeCamera, orientation: CameraOrientation, columns: Int,
                              in span: ClosedRange<Double>? = nil, skyline: (Double) -> Double?) -> [Reading.Pixel] {
        var pixels: [Reading.Pixel] = []
        let span = span ?? 0...camera.imageWidth
        for c in 0..<columns {
            let x = span.lowerBound + (span.upperBound - span.lowerBound) * (Double(c) + 0.5) / Double(columns)
            // Above the skyline (positive) at the top, below it at the bottom.
            func margin(_ y: Double) -> Double? {
                let view = ViewDirection(enu: orientation.direction(ofPixelX: x, y: y, camera: camera))
                return skyline(view.azimuth).map { view.elevation - $0 }
            }
            guard let top = margin(0), let bottom = margin(camera.imageHeight), top > 0, bottom < 0 else { continue }
            var lo = 0.0, hi = camera.imageHeight
            var ok = true
            while hi - lo > 1e-3 {
                let mid = (lo + hi) / 2
                guard let m = margin(mid) else { ok = false; break }
                if m > 0 { lo = mid } else { hi = mid }
            }
            if ok { pixels.append(Reading.Pixel(x: x, y: (lo + hi) / 2)) }
        }
        return pixels
    }
}
