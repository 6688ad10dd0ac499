import Foundation

/// Earth-centred, Earth-fixed Cartesian coordinates on an ellipsoid: origin at the centre of mass,
/// z toward the north pole, x toward (0° N, 0° E), metres.
extension Ellipsoid {
    /// Geodetic → ECEF, closed form. Exact to rounding.
    /// - Returns: ECEF metres.
    public func ecef(_ p: GeodeticPosition) -> Vector3 {
        vertical(latitude: p.latitude, longitude: p.longitude).point(height: p.height)
    }

    /// The points above one ground position (degrees), for ``ecef(_:)`` at any height with the
    /// trigonometry done once.
    func vertical(latitude: Double, longitude: Double) -> Vertical {
        let phi = radians(latitude), lambda = radians(longitude)
        let sinPhi = sin(phi)
        return Vertical(n: primeVerticalRadius(sinLatitude: sinPhi), cosLatitude: cos(phi), sinLatitude: sinPhi,
                        cosLongitude: cos(lambda), sinLongitude: sin(lambda), eccentricitySquared: eccentricitySquared)
    }

    /// The ECEF points straight above one ground position: a sightline aims at its target at
    /// three heights, and a viewshed aims thousands of them.
    struct Vertical: Sendable {
        /// The prime vertical radius there, metres; the sines and cosines of the position.
        let n: Double, cosLatitude: Double, sinLatitude: Double, cosLongitude: Double, sinLongitude: Double
        let eccentricitySquared: Double

        /// The point `h` metres above the ellipsoid, ECEF metres: the one formula of ``Ellipsoid/ecef(_:)``.
        func point(height h: Double) -> Vector3 {
            Vector3((n + h) * cosLatitude * cosLongitude, (n + h) * cosLatitude * sinLongitude,
                    (n * (1 - eccentricitySquared) + h) * sinLatitude)
        }
    }

    /// ECEF → geodetic.
    ///
    /// Bowring's parametric-latitude start followed by two refinements of the latitude, all in
    /// tangents (square roots, no trigonometry but one atan and one atan2): accurate to well
    /// under 1 mm in height and 1e-11° in latitude for heights from −10 km to +1000 km (tests
    /// check −500 m … 10 000 m against ``ecef(_:)``).
    /// - Parameter v: ECEF metres.
    /// - Returns: latitude/longitude in degrees, height in metres above the ellipsoid.
    public func geodetic(_ v: Vector3) -> GeodeticPosition { geodetic(v, longitudeByArctangent: false) }

    /// ``geodetic(_:)`` with the longitude from one `atan` (``longitude(y:x:)``) rather than
    /// `atan2`: for the exact points of sightlines (``RayPath``), two a segment, where glibc's
    /// `atan2` was 180 of the conversion's 313 instructions. The longitude may differ from
    /// `atan2`'s by a few ulps of π (under 10⁻¹³°, 10 nm); the walk's choice of grid
    /// tolerates that much on a tile's edge (``RayPath/gridTolerance``).
    func geodeticOnRay(_ v: Vector3) -> GeodeticPosition { geodetic(v, longitudeByArctangent: true) }

    /// The longitude of the direction (x, y), radians in [−π, π], from `atan` of the smaller
    /// of |y/x| and |x/y| (where `atan` is exact to about an ulp) plus ±π or ±π/2: within a few
    /// ulps of π of `atan2(y, x)`, at a third of its cost. (0, 0) gives 0.
    @inline(__always) static func longitude(y: Double, x: Double) -> Double {
        let ax = abs(x), ay = abs(y)
        if ax >= ay {
            guard ax > 0 else { return 0 }
            let t = atan(y / x)
            return x > 0 ? t : (y >= 0 ? t + .pi : t - .pi)
        }
        let t = atan(x / y)
        return y > 0 ? .pi / 2 - t : -.pi / 2 - t
    }

    @inline(__always) private func geodetic(_ v: Vector3, longitudeByArctangent: Bool) -> GeodeticPosition {
        let a = semiMajorAxis, b = semiMinorAxis, e2 = eccentricitySquared, ep2 = secondEccentricitySquared
        let p = (v.x * v.x + v.y * v.y).squareRoot()
        let lambda = longitudeByArctangent ? Self.longitude(y: v.y, x: v.x) : atan2(v.y, v.x)
        if p < 1e-9 {
            // On the polar axis the latitude is ±90° and the height is |z| − b.
            let lat = v.z >= 0 ? 90.0 : -90.0
            return GeodeticPosition(latitude: lat, longitude: 0, height: abs(v.z) - b)
        }
        // Bowring (1976): parametric latitude β from the point, then φ; iterate to converge.
        // tan β = (1 − f)·tan φ. With w = 1 + tan²β, cos³β = w^(−3/2) and sin³β = tan³β·cos³β,
        // so that each round costs one square root and one division:
        // tan φ = (z·w^(3/2) + e′²·b·tan³β) / (p·w^(3/2) − e²·a).
        var tanBeta = (a * v.z) / (b * p)
        var tanPhi = 0.0
        for _ in 0..<2 {
            let w = 1 + tanBeta * tanBeta
            let w32 = w * w.squareRoot()
            tanPhi = (v.z * w32 + ep2 * b * tanBeta * tanBeta * tanBeta) / (p * w32 - e2 * a)
            tanBeta = (1 - flattening) * tanPhi
        }
        let cp = 1 / (1 + tanPhi * tanPhi).squareRoot(), sp = tanPhi * cp
        // Height stable at all latitudes: projection onto the normal, less a²/N = a·√(1 − e² sin²φ).
        let h = p * cp + v.z * sp - a * (1 - e2 * sp * sp).squareRoot()
        return GeodeticPosition(latitude: degrees(atan(tanPhi)), longitude: degrees(lambda), height: h)
    }
}
