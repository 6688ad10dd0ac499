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
        public var code: FailureCode
        public var message: String
        public init(code: FailureCode, message: String) {
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
    public var track: [Polyline.Coordinate] = []
    /// Terrain under the ray, when profiles were asked for.
    public var profile: [SightlineMarch.ProfileSample] = []
    public var warnings: [Warning] = []
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

// The result JSON of the public interface (docs/interface.md) as `Codable`: encoded, the members
// and their order are the interface's; numbers go to the places it gives (positions 1e-7°,
// heights and distances 1 cm, angles 1e-6°, calibration angles 1e-4°). ``CompactJSONEncoder``
// writes it (the command line's writer); Foundation's `JSONEncoder` gives the same members and
// values. Decoding reads the same JSON back; the march's `profile` samples are not part of it.

extension LocateResult: Codable, Hashable {
    private enum CodingKeys: String, CodingKey {
        case id, line, time, status, target, sightline, observer, placemark, profile, uncertainty, calibration, warnings, warningCodes, error
    }

    /// The ground track as the interface gives it: an encoded polyline at 6 decimals (OSRM's).
    private struct Profile: Codable {
        var polyline: String
        var precision: Int
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(id, forKey: .id)
        try c.encodeIfPresent(line, forKey: .line)
        try c.encodeIfPresent(time.map(ISO8601DateTime.format), forKey: .time)
        try c.encode(status, forKey: .status)
        try c.encodeIfPresent(target, forKey: .target)
        try c.encodeIfPresent(sightline, forKey: .sightline)
        try c.encodeIfPresent(observer, forKey: .observer)
        try c.encodeIfPresent(placemark, forKey: .placemark)
        if status != .error, !track.isEmpty, let polyline = try? Polyline.encode(track, precision: .osrm) {
            try c.encode(Profile(polyline: polyline, precision: 6), forKey: .profile)
        }
        try c.encodeIfPresent(uncertainty, forKey: .uncertainty)
        try c.encodeIfPresent(calibration, forKey: .calibration)
        try c.encode(warnings, messages: .warnings, codes: .warningCodes)
        try c.encodeIfPresent(error, forKey: .error)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(id: try c.decodeIfPresent(String.self, forKey: .id), line: try c.decodeIfPresent(Int.self, forKey: .line),
                  status: try c.decode(Status.self, forKey: .status))
        if let text = try c.decodeIfPresent(String.self, forKey: .time) {
            guard let time = ISO8601DateTime.parse(text) else {
                throw DecodingError.dataCorruptedError(forKey: .time, in: c, debugDescription: "not an ISO 8601 time: \(text)")
            }
            self.time = time
        }
        target = try c.decodeIfPresent(Target.self, forKey: .target)
        sightline = try c.decodeIfPresent(Sightline.self, forKey: .sightline)
        observer = try c.decodeIfPresent(Observer.self, forKey: .observer)
        placemark = try c.decodeIfPresent(Placemark.self, forKey: .placemark)
        if let profile = try c.decodeIfPresent(Profile.self, forKey: .profile) {
            guard let precision = PolylinePrecision(digits: profile.precision) else {
                throw DecodingError.dataCorruptedError(forKey: .profile, in: c, debugDescription: "precision must be within 0…15, got \(profile.precision)")
            }
            do {
                track = try Polyline.decode(profile.polyline, precision: precision)
            } catch {
                throw DecodingError.dataCorruptedError(forKey: .profile, in: c, debugDescription: "polyline: \(error)")
            }
        }
        uncertainty = try c.decodeIfPresent(TargetUncertainty.self, forKey: .uncertainty)
        calibration = try c.decodeIfPresent(Calibration.self, forKey: .calibration)
        warnings = try c.decodeWarnings(messages: .warnings, codes: .warningCodes)
        error = try c.decodeIfPresent(Failure.self, forKey: .error)
    }
}

extension LocateResult.Status: Codable {}
extension LocateResult.Failure: Codable {}

extension LocateResult.Target: Codable {
    private enum CodingKeys: String, CodingKey { case latitude, longitude, elevation, distance, slantRange }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(FixedDecimal.position(latitude), forKey: .latitude)
        try c.encode(FixedDecimal.position(longitude), forKey: .longitude)
        try c.encode(FixedDecimal.metres(elevation), forKey: .elevation)
        try c.encode(FixedDecimal.metres(distance), forKey: .distance)
        try c.encode(FixedDecimal.metres(slantRange), forKey: .slantRange)
    }
}

extension LocateResult.Sightline: Codable {
    private enum CodingKeys: String, CodingKey { case azimuth, elevationAngle, refraction }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(FixedDecimal.angle(azimuth), forKey: .azimuth)
        try c.encode(FixedDecimal.angle(elevationAngle), forKey: .elevationAngle)
        try c.encode(refraction, forKey: .refraction)
    }
}

extension LocateResult.Observer: Codable {
    private enum CodingKeys: String, CodingKey { case latitude, longitude, altitude, groundElevation }

    /// `groundElevation` is always present: `null` over a void or outside the DEM.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(FixedDecimal.position(latitude), forKey: .latitude)
        try c.encode(FixedDecimal.position(longitude), forKey: .longitude)
        try c.encode(FixedDecimal.metres(altitude), forKey: .altitude)
        try c.encode(groundElevation.map(FixedDecimal.metres), forKey: .groundElevation)
    }
}
