import Foundation

/// The answer to one reading, as the public interface's result JSON gives it.
public struct LocateResult: Sendable {
    /// `hit`: the sightline meets the terrain; `horizon`: nothing was hit and the target is the
    /// skyline point of highest elevation angle; `location`: the reading has no orientation, so
    /// only ``observer`` (and ``placemark``, naming the observer's place) is known; `error`: see
    /// ``error``.
    public enum Status: String, Sendable { case hit, horizon, location, error }

    public struct Target: Sendable, Hashable {
        /// WGS84 degrees.
        public var latitude: Double
        public var longitude: Double
        /// Metres above mean sea level (EGM96).
        public var elevation: Double
        /// Geodesic metres on the WGS84 ellipsoid between the observer's and the target's ground points.
        public var distance: Double
        /// Straight-line metres from the observer's eye to the target.
        public var slantRange: Double
    }

    public struct Sightline: Sendable, Hashable {
        /// Direction of the tapped ray (not of the optical axis): degrees clockwise from true
        /// north, and degrees above the horizontal.
        public var azimuth: Double
        public var elevationAngle: Double
        /// The refraction coefficient used.
        public var refraction: Double
    }

    public struct Observer: Sendable, Hashable {
        public var latitude: Double
        public var longitude: Double
        /// Eye height, metres above mean sea level (after any raise to the ground).
        public var altitude: Double
        /// Terrain under the observer, metres above mean sea level; nil over a void.
        public var groundElevation: Double?
    }

    /// A failure, with a stable `code` for scripts and a one-line `message` for people.
    public struct Failure: Error, Sendable, Hashable {
        public var code: String
        public var message: String
        public init(code: String, message: String) {
            self.code = code
            self.message = message
        }
    }

    public var id: String?
    /// 1-based input line in batch mode.
    public var line: Int?
    public var time: Date?
    public var status: Status
    public var target: Target?
    public var sightline: Sightline?
    public var observer: Observer?
    public var placemark: Placemark?
    /// Ground track from the observer to the target (or to the end of the march).
    public var track: [(latitude: Double, longitude: Double)] = []
    /// Terrain under the ray, when profiles were asked for.
    public var profile: [SightlineMarch.ProfileSample] = []
    public var warnings: [String] = []
    public var error: Failure?
    /// The spread the reading's sensor errors allow, when asked for.
    public var uncertainty: TargetUncertainty?
    /// The calibration the reading was located with: its own (from its skyline or landmark
    /// pixels) or one carried over from an earlier reading of a batch.
    public var calibration: Calibration?

    public init(id: String? = nil, line: Int? = nil, time: Date? = nil, status: Status) {
        self.id = id
        self.line = line
        self.time = time
        self.status = status
    }

    /// An error result.
    public static func failure(_ failure: Failure, id: String? = nil, line: Int? = nil, time: Date? = nil) -> LocateResult {
        var result = LocateResult(id: id, line: line, time: time, status: .error)
        result.error = failure
        return result
    }
}
