import Foundation

/// A reference ellipsoid of revolution.
///
/// Lengths in metres. The only instance the engine uses is ``wgs84``.
public struct Ellipsoid: Sendable, Hashable {
    /// Equatorial radius, metres.
    public let semiMajorAxis: Double
    /// Flattening f = (a − b) / a.
    public let flattening: Double

    public init(semiMajorAxis: Double, flattening: Double) {
        self.semiMajorAxis = semiMajorAxis
        self.flattening = flattening
    }

    /// WGS84: a = 6 378 137 m, f = 1/298.257223563 (NIMA TR8350.2).
    public static let wgs84 = Ellipsoid(semiMajorAxis: 6_378_137.0, flattening: 1 / 298.257_223_563)

    /// Polar radius b = a(1 − f), metres.
    public var semiMinorAxis: Double { semiMajorAxis * (1 - flattening) }
    /// First eccentricity squared e² = f(2 − f).
    public var eccentricitySquared: Double { flattening * (2 - flattening) }
    /// Second eccentricity squared e′² = e² / (1 − e²).
    public var secondEccentricitySquared: Double { eccentricitySquared / (1 - eccentricitySquared) }

    /// Radius of curvature in the prime vertical, N(φ) = a / √(1 − e² sin²φ), metres.
    /// - Parameter latitude: geodetic latitude, radians.
    public func primeVerticalRadius(latitude: Double) -> Double { primeVerticalRadius(sinLatitude: sin(latitude)) }

    /// N from the sine of the latitude, for callers that have it already.
    @inline(__always) func primeVerticalRadius(sinLatitude s: Double) -> Double {
        semiMajorAxis / (1 - eccentricitySquared * s * s).squareRoot()
    }

    /// Gaussian mean radius of curvature √(M·N) at a latitude, metres: the radius of the sphere
    /// that best fits the ellipsoid around that point, used for curvature-and-refraction drops.
    /// - Parameter latitude: geodetic latitude, radians.
    public func meanRadius(latitude: Double) -> Double {
        let s = sin(latitude)
        let w2 = 1 - eccentricitySquared * s * s
        return semiMajorAxis * (1 - eccentricitySquared).squareRoot() / w2
    }
}
