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

        /// What one look-up finds: a height as plain numbers, or, where the point has none, the
        /// full answer saying why.
        public enum LookUp: Sendable, Hashable {
            /// Degrees (the longitude wrapped into [−180, 180)) and metres, as in ``PointElevation``.
            case height(latitude: Double, longitude: Double, elevation: Double, geoidUndulation: Double, filled: Bool)
            /// No height: the answer with its ``PointElevation/reason``.
            case none(PointElevation)
        }

        /// Looks a point up once: its height as plain numbers where it has one (no optional
        /// strings to retain, copy and release: a few hundred instructions a point of
        /// `elevation --batch`), else the full answer with its reason. Throws for a latitude
        /// outside ±90 or a non-finite value.
        public mutating func lookUp(latitude: Double, longitude: Double) throws(CoordinateError) -> LookUp {
            let p = try CoordinateError.validated(latitude: latitude, longitude: longitude)
            let n = geoid.undulation(latitude: p.latitude, longitude: p.longitude)
            let found = terrain.sampleMarkingFilled(latitude: p.latitude, longitude: p.longitude)
            if case .height(let h) = found.sample {
                return .height(latitude: p.latitude, longitude: p.longitude, elevation: h, geoidUndulation: n, filled: found.filled)
            }
            var result = PointElevation(latitude: p.latitude, longitude: p.longitude, elevation: nil, geoidUndulation: n)
            switch found.sample {
            case .height: break
            case .void: result.reason = "void"
            case .outside:
                if let damage = terrain.catalog.damage(latitude: p.latitude, longitude: p.longitude) {
                    result.reason = "damaged tile"
                    result.detail = damage
                } else {
                    result.reason = "no tile"
                }
            }
            return .none(result)
        }

        /// ``lookUp(latitude:longitude:)`` as one ``PointElevation``; throws for a latitude
        /// outside ±90 or a non-finite value.
        public mutating func elevation(latitude: Double, longitude: Double) throws(CoordinateError) -> PointElevation {
            switch try lookUp(latitude: latitude, longitude: longitude) {
            case let .height(latitude, longitude, elevation, geoidUndulation, filled):
                return PointElevation(latitude: latitude, longitude: longitude, elevation: elevation, geoidUndulation: geoidUndulation,
                                      filled: filled)
            case .none(let answer):
                return answer
            }
        }
    }

    public func sampler() -> Sampler { Sampler(terrain: TerrainSampler(catalog: catalog), geoid: geoid) }

    /// One look-up (for many, keep a ``sampler()``).
    public func elevation(latitude: Double, longitude: Double) throws(CoordinateError) -> PointElevation {
        var s = sampler()
        return try s.elevation(latitude: latitude, longitude: longitude)
    }
}
