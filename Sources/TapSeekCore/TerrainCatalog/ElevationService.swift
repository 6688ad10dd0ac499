/// The offline elevation service: terrain height above mean sea level and the geoid undulation
/// at any point, from a DEM catalog and the EGM96 geoid.
public struct ElevationService: Sendable {
    public let catalog: ElevationCatalog
    public let geoid: Geoid

    public init(catalog: ElevationCatalog, geoid: Geoid) {
        self.catalog = catalog
        self.geoid = geoid
    }

    /// What the service says about one point.
    public struct PointElevation: Sendable, Hashable {
        /// Degrees; the longitude wrapped into [−180, 180).
        public var latitude: Double
        public var longitude: Double
        /// Terrain height, metres above mean sea level (EGM96); nil where unknown.
        public var elevation: Double?
        /// EGM96 undulation N, metres (ellipsoidal height = elevation + N).
        public var geoidUndulation: Double
        /// Why ``elevation`` is nil: `"void"` (the tile has no data there), `"no tile"`, or
        /// `"damaged tile"` (a tile covers the point but its file cannot be read; ``detail`` says
        /// which and why).
        public var reason: String?
        public var detail: String?
        /// Whether ``elevation`` rests on posts filled across a void (``VoidFill``): interpolated
        /// from the terrain around the void, not measured.
        public var filled = false
    }

    /// A per-thread handle that remembers its last tile; use one per thread for bulk look-ups.
    public struct Sampler: Sendable {
        public var terrain: TerrainSampler
        public let geoid: Geoid

        /// Looks a point up; throws for a latitude outside ±90 or a non-finite value.
        public mutating func elevation(latitude: Double, longitude: Double) throws(CoordinateError) -> PointElevation {
            let p = try CoordinateError.validated(latitude: latitude, longitude: longitude)
            let n = geoid.undulation(latitude: p.latitude, longitude: p.longitude)
            var result = PointElevation(latitude: p.latitude, longitude: p.longitude, elevation: nil, geoidUndulation: n)
            switch terrain.sample(latitude: p.latitude, longitude: p.longitude) {
            case .height(let h):
                result.elevation = h
                result.filled = terrain.isFilled(latitude: p.latitude, longitude: p.longitude)
            case .void: result.reason = "void"
            case .outside:
                if let damage = terrain.catalog.damage(latitude: p.latitude, longitude: p.longitude) {
                    result.reason = "damaged tile"
                    result.detail = damage
                } else {
                    result.reason = "no tile"
                }
            }
            return result
        }

        /// ``elevation(latitude:longitude:)`` where the point has a height, as plain numbers;
        /// nil where it has none (ask that method why). No optional strings to retain, copy and
        /// release per point: 200 instructions of `elevation --batch`'s look-up.
        public mutating func height(latitude: Double, longitude: Double) throws(CoordinateError)
            -> (latitude: Double, longitude: Double, elevation: Double, geoidUndulation: Double, filled: Bool)? {
            let p = try CoordinateError.validated(latitude: latitude, longitude: longitude)
            guard case .height(let h) = terrain.sample(latitude: p.latitude, longitude: p.longitude) else { return nil }
            return (p.latitude, p.longitude, h, geoid.undulation(latitude: p.latitude, longitude: p.longitude),
                    terrain.isFilled(latitude: p.latitude, longitude: p.longitude))
        }
    }

    public func sampler() -> Sampler { Sampler(terrain: TerrainSampler(catalog: catalog), geoid: geoid) }

    /// One look-up (for many, keep a ``sampler()``).
    public func elevation(latitude: Double, longitude: Double) throws(CoordinateError) -> PointElevation {
        var s = sampler()
        return try s.elevation(latitude: latitude, longitude: longitude)
    }
}
