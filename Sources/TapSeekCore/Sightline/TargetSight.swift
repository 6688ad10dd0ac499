import Foundation

/// The sightline from an eye to a known point: the direction in which the eye sees it through
/// the refracting air, and the first terrain in the way.
///
/// The engine's ray is a straight ECEF line from the eye lowered by refraction's k·h²/(2R) at
/// horizontal distance h (``RayPath``). To pass through the target the line is aimed that much
/// above it; h depends on the aim only slightly, so three rounds of "aim, measure h, lift" settle
/// it to well under a millimetre at 100 km. The ray then reaches the target at the slant
/// distance of the lifted point.
public struct TargetSight: Sendable, Hashable {
    /// The first terrain the ray meets on its way to the target.
    public struct Obstruction: Sendable, Hashable {
        /// Slant metres along the ray from the eye.
        public var slantDistance: Double
        /// Degrees, and metres above mean sea level.
        public var latitude: Double
        public var longitude: Double
        public var elevation: Double
    }

    /// The eye, height above the WGS84 ellipsoid.
    public let eye: GeodeticPosition
    /// The ray's initial unit direction in the eye's East-North-Up frame: the apparent
    /// (refracted) direction of the target.
    public let direction: Vector3
    /// Straight-line metres from the eye to the target.
    public let slantRange: Double
    /// Slant metres along the ray at which it reaches the target.
    public let reach: Double
    /// The refraction coefficient k.
    public let refraction: Double

    /// The sightline from `eye` to `target` (both heights above the WGS84 ellipsoid).
    public init(eye: GeodeticPosition, target: GeodeticPosition, refraction: Double) {
        self.init(eye: eye, frame: LocalFrame(origin: eye), radius: Ellipsoid.wgs84.meanRadius(latitude: radians(eye.latitude)),
                  target: target, refraction: refraction)
    }

    /// The same sightline from the eye's `frame` and mean `radius` (``Ellipsoid/meanRadius(latitude:)``),
    /// which a viewshed's sightlines share: the same arithmetic, so the same bits.
    init(eye: GeodeticPosition, frame: LocalFrame, radius: Double, target: GeodeticPosition, refraction: Double) {
        self.init(eye: eye, frame: frame, radius: radius,
                  above: frame.ellipsoid.vertical(latitude: target.latitude, longitude: target.longitude), height: target.height,
                  refraction: refraction)
    }

    /// The same sightline from the vertical through the target (``Ellipsoid/vertical(latitude:longitude:)``
    /// of the target's position) and its height: a viewshed has the sines and cosines of its
    /// rows and columns at hand.
    init(eye: GeodeticPosition, frame: LocalFrame, radius: Double, above: Ellipsoid.Vertical, height: Double, refraction: Double) {
        self.eye = eye
        self.refraction = refraction
        let straight = frame.enu(ofECEF: above.point(height: height))
        slantRange = straight.length
        var lifted = straight
        for _ in 0..<3 {
            let horizontal = lifted.x * lifted.x + lifted.y * lifted.y
            let lift = refraction * horizontal / (2 * radius)
            lifted = frame.enu(ofECEF: above.point(height: height + lift))
        }
        reach = lifted.length
        direction = reach > 0 ? (1 / reach) * lifted : Vector3(0, 0, 1)
    }

    /// The apparent direction of the target: azimuth and elevation angle, degrees.
    public var view: ViewDirection { ViewDirection(enu: direction) }

    /// The first terrain the ray meets before `limit` slant metres, or nil; voids are unknown
    /// and never block.
    public func firstObstruction<T: TerrainGrids>(before limit: Double, geoid: Geoid, over terrain: inout T,
                                                  maximumTerrain: Double = SightlineMarch.highestTerrain) -> Obstruction? {
        guard limit > 0 else { return nil }
        var path = RayPath(eye: eye, direction: direction, geoid: geoid, refraction: refraction, longitudeByArctangent: true)
        var hit = FirstHit(maximumTerrain: maximumTerrain)
        _ = path.walk(from: 0, to: limit, visitor: &hit) { terrain.withGrid(containing: $0, longitude: $1, $2) }
        // A ray that left a void below the terrain was stopped in it: blocked by the void's end.
        guard let s = hit.hit ?? hit.unknownCrossing?.end, s < limit else { return nil }
        let p = path.point(at: s)
        return Obstruction(slantDistance: s, latitude: p.latitude,
                           longitude: normalizedLongitude(p.longitude), elevation: hit.elevation)
    }

    /// Terrain closer than this to the target (slant metres) does not count as in the way:
    /// max(30 m, 0.5 % of the slant range) — the DEM's own error near the target.
    public var tolerance: Double { max(30, 0.005 * slantRange) }

    /// The terrain that hides the target, or nil when the target can be seen: the first
    /// obstruction more than ``tolerance`` short of it.
    public func blocker<T: TerrainGrids>(geoid: Geoid, over terrain: inout T,
                                         maximumTerrain: Double = SightlineMarch.highestTerrain) -> Obstruction? {
        firstObstruction(before: reach - tolerance, geoid: geoid, over: &terrain, maximumTerrain: maximumTerrain)
    }
}
