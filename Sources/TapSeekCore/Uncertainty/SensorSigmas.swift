/// The 1-sigma errors of a reading's sensors, from its accuracy fields or, where a field is
/// missing, from documented defaults. Degrees and metres; 0 means exact.
public struct SensorSigmas: Sendable, Hashable {
    public var heading: Double
    public var pitch: Double
    public var roll: Double
    /// Horizontal position, metres: the radius of 68 % confidence, as iOS (`horizontalAccuracy`)
    /// and Android (`getAccuracy`) report it; each of east and north then has a standard
    /// deviation of ``horizontal`` / 1.515 (the 68 % radius of a circular normal, Rayleigh).
    public var horizontal: Double
    public var vertical: Double
    /// The correlations of the heading, pitch and roll errors (a 3 × 3 matrix in that order), when
    /// they are known not to be independent: a photo's calibration fits the three together
    /// (``Calibration/covariance``). Nil: independent.
    public var orientationCorrelation: [[Double]]?

    /// Phone compass error: typically 5°, often more (Bowers 2022, 17 devices; the project's
    /// conventions).
    public static let defaultHeading = 5.0
    /// Pitch and roll of a hand-held phone: its gravity sensor is good to about 0.1°, the hand
    /// that holds it moves it by about a degree while tapping (an engineering default).
    public static let defaultPitch = 1.0
    public static let defaultRoll = 1.0
    /// Smartphone GPS in the open: about 5 m (van Diggelen & Enge 2015, ION GNSS+).
    public static let defaultHorizontal = 5.0
    /// GPS heights: often 10–20 m off (the project's conventions); 15 m.
    public static let defaultVertical = 15.0
    /// The 68 % radius of a circular normal over its per-axis standard deviation: √(−2 ln 0.32).
    public static let radius68 = 1.5096

    public init(heading: Double, pitch: Double, roll: Double, horizontal: Double, vertical: Double) {
        self.heading = heading
        self.pitch = pitch
        self.roll = roll
        self.horizontal = horizontal
        self.vertical = vertical
    }

    /// A reading's sigmas, defaults where it gives none. A magnetic heading adds the declination's
    /// own uncertainty (`declination`, degrees; see ``MagneticModel/declinationUncertainty(horizontalIntensity:)``)
    /// to the compass's, in quadrature.
    public init(reading: Reading, declination: Double = 0) {
        let o = reading.orientation
        let compass = o?.headingAccuracy ?? Self.defaultHeading
        heading = (compass * compass + declination * declination).squareRoot()
        pitch = o?.pitchAccuracy ?? Self.defaultPitch
        roll = o?.rollAccuracy ?? Self.defaultRoll
        horizontal = reading.location.horizontalAccuracy ?? Self.defaultHorizontal
        vertical = reading.location.verticalAccuracy ?? Self.defaultVertical
    }
}

extension MagneticModel {
    /// 1-sigma uncertainty of the declination, degrees, from the WMM2025 error model:
    /// √(0.26² + (5417 / H)²) with H the horizontal intensity in nT (WMM2025 Technical Report,
    /// section 3).
    public static func declinationUncertainty(horizontalIntensity h: Double) -> Double {
        let b = 5417 / max(h, 1)
        return (0.26 * 0.26 + b * b).squareRoot()
    }
}

extension SensorSigmas {
    /// The sigmas with heading, pitch and roll (and their correlations) from a fit's covariance
    /// (degrees², heading, pitch, roll); unchanged when the covariance is not a valid one.
    public func with(orientationCovariance c: [[Double]]) -> SensorSigmas {
        guard c.count == 3, c.allSatisfy({ $0.count == 3 }), (0..<3).allSatisfy({ c[$0][$0] > 0 && c[$0][$0].isFinite }) else { return self }
        var s = self
        let sd = (0..<3).map { c[$0][$0].squareRoot() }
        (s.heading, s.pitch, s.roll) = (sd[0], sd[1], sd[2])
        s.orientationCorrelation = (0..<3).map { i in (0..<3).map { j in c[i][j] / (sd[i] * sd[j]) } }
        return s
    }

    /// The lower-triangular Cholesky factor of ``orientationCorrelation`` (L·Lᵀ = C), which turns
    /// independent standard normals into correlated ones; nil when independent or not positive
    /// definite.
    var orientationFactor: [[Double]]? {
        guard let c = orientationCorrelation else { return nil }
        var l = [[Double]](repeating: [0, 0, 0], count: 3)
        for i in 0..<3 {
            for j in 0...i {
                var sum = c[i][j]
                for k in 0..<j { sum -= l[i][k] * l[j][k] }
                if i == j {
                    guard sum > 0 else { return nil }
                    l[i][i] = sum.squareRoot()
                } else {
                    l[i][j] = sum / l[j][j]
                }
            }
        }
        return l
    }
}

extension SensorSigmas: Codable {}
