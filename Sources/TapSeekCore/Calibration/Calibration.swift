import Foundation

/// The orientation that best explains what a camera saw (a traced skyline, known landmarks),
/// as `tapseek calibrate` answers it and a located reading's `calibration` reports it.
///
/// Angles in degrees; the heading from true north.
public struct Calibration: Sendable, Hashable {
    /// A change of orientation: calibrated − given, degrees.
    public struct Correction: Sendable, Hashable {
        public var heading: Double
        public var pitch: Double
        public var roll: Double

        public init(heading: Double, pitch: Double, roll: Double) {
            self.heading = heading
            self.pitch = pitch
            self.roll = roll
        }
    }

    /// The calibrated orientation of the optical axis; heading from true north in [0, 360).
    public var heading: Double
    public var pitch: Double
    public var roll: Double
    /// Calibrated − given; for a magnetic heading, against the given heading turned to true
    /// north (the compass's own error, the declination aside). Heading in (−180, 180].
    public var correction: Correction
    /// RMS angular misfit of the matched points after calibration, degrees.
    public var residual: Double
    /// How many of ``points`` fit the calibrated orientation (skyline pixels within the
    /// inlier threshold of the DEM's skyline, landmarks within it of their direction).
    public var matched: Int
    /// How many points were given: skyline pixels plus landmarks.
    public var points: Int
    public var warnings: [Warning]
    /// For a calibration carried over from an earlier reading of a batch: that reading's line.
    public var carriedFrom: Int?
    /// The fitted angles' covariance, degrees², rows and columns heading, pitch, roll, when the
    /// fit computed it (a photo's, ``PhotoOrientationFit``).
    public var covariance: [[Double]]?

    public init(heading: Double, pitch: Double, roll: Double, correction: Correction, residual: Double, matched: Int,
                points: Int, warnings: [Warning] = [], carriedFrom: Int? = nil) {
        self.heading = heading
        self.pitch = pitch
        self.roll = roll
        self.correction = correction
        self.residual = residual
        self.matched = matched
        self.points = points
        self.warnings = warnings
        self.carriedFrom = carriedFrom
    }

    /// Smallest 1-sigma, degrees, that a calibrated angle is trusted to: the skyline is sampled
    /// every 0.05°, and a 3″ post 20 km away spans about 0.25°.
    public static let sigmaFloor = 0.05

    /// The 1-sigma of a calibrated angle: the residual, at least ``sigmaFloor``.
    public var sigma: Double { max(residual, Self.sigmaFloor) }
}

/// Why a reading cannot be calibrated: a stable `code` and a one-line message.
public struct CalibrationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `bad-input` (the points themselves are unusable) or `no-fit` (they fit no orientation
    /// within the search, or too loosely to trust).
    public var code: FailureCode
    public var message: String

    public init(code: FailureCode, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }

    public static func badInput(_ message: String) -> CalibrationError { CalibrationError(code: .badInput, message: message) }
    public static func noFit(_ message: String) -> CalibrationError { CalibrationError(code: .noFit, message: message) }
}

extension Calibration: Codable {
    private enum CodingKeys: String, CodingKey { case orientation, correction, residual, matched, points, carriedFrom, covariance, warnings, warningCodes }
    private enum AngleKeys: String, CodingKey { case heading, pitch, roll }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        func angles(_ heading: Double, _ pitch: Double, _ roll: Double, _ key: CodingKeys) throws {
            var a = c.nestedContainer(keyedBy: AngleKeys.self, forKey: key)
            try a.encode(FixedDecimal.fourPlaces(heading), forKey: .heading)
            try a.encode(FixedDecimal.fourPlaces(pitch), forKey: .pitch)
            try a.encode(FixedDecimal.fourPlaces(roll), forKey: .roll)
        }
        try angles(heading, pitch, roll, .orientation)
        try angles(correction.heading, correction.pitch, correction.roll, .correction)
        try c.encode(FixedDecimal.fourPlaces(residual), forKey: .residual)
        try c.encode(matched, forKey: .matched)
        try c.encode(points, forKey: .points)
        try c.encodeIfPresent(carriedFrom, forKey: .carriedFrom)
        try c.encodeIfPresent(covariance?.map { $0.map { FixedDecimal($0, places: 8) } }, forKey: .covariance)
        try c.encode(warnings, messages: .warnings, codes: .warningCodes)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let orientation = try c.nestedContainer(keyedBy: AngleKeys.self, forKey: .orientation)
        let correction = try c.nestedContainer(keyedBy: AngleKeys.self, forKey: .correction)
        self.init(heading: try orientation.decode(Double.self, forKey: .heading),
                  pitch: try orientation.decode(Double.self, forKey: .pitch),
                  roll: try orientation.decode(Double.self, forKey: .roll),
                  correction: Correction(heading: try correction.decode(Double.self, forKey: .heading),
                                         pitch: try correction.decode(Double.self, forKey: .pitch),
                                         roll: try correction.decode(Double.self, forKey: .roll)),
                  residual: try c.decode(Double.self, forKey: .residual), matched: try c.decode(Int.self, forKey: .matched),
                  points: try c.decode(Int.self, forKey: .points), warnings: try c.decodeWarnings(messages: .warnings, codes: .warningCodes),
                  carriedFrom: try c.decodeIfPresent(Int.self, forKey: .carriedFrom))
        covariance = try c.decodeIfPresent([[Double]].self, forKey: .covariance)
    }
}
