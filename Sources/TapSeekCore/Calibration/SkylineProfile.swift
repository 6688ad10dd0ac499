import Foundation

/// The DEM's skyline over a window of azimuths, one apparent elevation angle per even azimuth
/// step, read between samples by linear interpolation: what a calibration fits a traced
/// skyline against.
///
/// Azimuths are continuous over the window (it may start below 0° or end beyond 360°); a window
/// of a whole turn wraps.
public struct SkylineProfile: Sendable, Hashable {
    /// Azimuth of the first sample, degrees clockwise from true north.
    public let startAzimuth: Double
    /// Degrees between samples.
    public let step: Double
    /// Apparent elevation angle of the skyline at each sample, degrees; NaN where no terrain data
    /// lies along that azimuth, or the DEM ends before the skyline is settled.
    public let angles: [Double]
    /// Whether the samples go once around the circle (then azimuths wrap).
    public let isFullCircle: Bool

    /// A profile from its samples.
    public init(startAzimuth: Double, step: Double, angles: [Double]) {
        self.startAzimuth = startAzimuth
        self.step = step
        self.angles = angles
        isFullCircle = abs(Double(angles.count) * step - 360) < step / 2
    }

    /// A profile from consecutive skyline points of a panorama (equal azimuth steps). An
    /// incomplete point (``Panorama/Point/complete``: the search left the DEM before it settled
    /// the skyline) is NaN like one without terrain: its angle is only a lower bound, often the
    /// DEM's edge, and nothing should be matched against it.
    public init(points: [Panorama.Point], step: Double) {
        self.init(startAzimuth: points.first?.azimuth ?? 0, step: step,
                  angles: points.map { $0.complete ? $0.elevationAngle ?? .nan : .nan })
    }

    /// The skyline's apparent elevation angle at `azimuth` (degrees, continuous with the
    /// window's), interpolated linearly; NaN outside the window or next to a sample without
    /// terrain.
    @inlinable public func angle(at azimuth: Double) -> Double {
        let n = angles.count
        var x = (azimuth - startAzimuth) / step
        if isFullCircle {
            x = x.truncatingRemainder(dividingBy: Double(n))
            if x < 0 { x += Double(n) }
        }
        guard x >= 0, x <= Double(n - 1) || isFullCircle else { return .nan }
        let i = min(Int(x), n - 1)
        let j = i + 1 < n ? i + 1 : (isFullCircle ? 0 : i)
        let f = x - Double(i)
        return angles[i] + (angles[j] - angles[i]) * f
    }
}
