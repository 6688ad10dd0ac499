import Foundation

/// The geomagnetic main field at one place and time, as a World Magnetic Model gives it.
///
/// Components in nanotesla in the local geodetic frame: ``north`` (X), ``east`` (Y) and ``down``
/// (Z), with "down" along the inward WGS84 ellipsoid normal. Angles in degrees.
public struct MagneticField: Sendable, Hashable {
    /// X, nT, toward geodetic (true) north.
    public var north: Double
    /// Y, nT, toward east.
    public var east: Double
    /// Z, nT, downward along the ellipsoid normal.
    public var down: Double

    /// WMM2025 report, "blackout zone": where H < 2 000 nT a compass is unreliable and the model
    /// declination should not be used for navigation.
    public static let blackoutHorizontalIntensity = 2_000.0
    /// WMM2025 report, "caution zone": where 2 000 nT ≤ H < 6 000 nT compasses may be degraded.
    public static let cautionHorizontalIntensity = 6_000.0

    /// A field from its components in nT.
    public init(north: Double, east: Double, down: Double) {
        self.north = north
        self.east = east
        self.down = down
    }

    /// H = √(X² + Y²), nT.
    public var horizontalIntensity: Double { (north * north + east * east).squareRoot() }
    /// F = √(X² + Y² + Z²), nT.
    public var totalIntensity: Double { (north * north + east * east + down * down).squareRoot() }
    /// D, degrees east of true north in (−180, 180]: the angle from true to magnetic north.
    /// True heading = magnetic heading + D.
    public var declination: Double { degrees(atan2(east, north)) }
    /// I (dip), degrees below the horizontal in [−90, 90]; positive where the field points down.
    public var inclination: Double { degrees(atan2(down, horizontalIntensity)) }
    /// True where H < 2 000 nT (near the magnetic poles): compass headings are meaningless there.
    public var isInBlackoutZone: Bool { horizontalIntensity < Self.blackoutHorizontalIntensity }
    /// True where H < 6 000 nT: compass headings are degraded there.
    public var isInCautionZone: Bool { horizontalIntensity < Self.cautionHorizontalIntensity }
}
