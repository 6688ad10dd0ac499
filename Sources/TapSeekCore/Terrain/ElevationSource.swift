/// What the terrain model knows at one point.
public enum TerrainSample: Sendable, Hashable {
    /// Terrain height, metres above mean sea level (EGM96).
    case height(Double)
    /// A tile covers the point but its data has a void there: the height is unknown.
    case void
    /// No tile covers the point.
    case outside
}

/// Anything that answers terrain heights: a single grid, a catalog of tiles, a synthetic surface.
///
/// `mutating` so that implementations may keep a small cache of the tiles they touched last;
/// give each thread its own copy.
public protocol ElevationSource {
    /// The terrain at a point given in WGS84 degrees.
    mutating func sample(latitude: Double, longitude: Double) -> TerrainSample
}

extension ElevationSource {
    /// Height of the terrain at a point, metres above mean sea level; nil where unknown.
    public mutating func elevation(latitude: Double, longitude: Double) -> Double? {
        if case .height(let h) = sample(latitude: latitude, longitude: longitude) { return h }
        return nil
    }
}

extension ElevationGrid: ElevationSource {
    public func sample(latitude: Double, longitude: Double) -> TerrainSample {
        guard contains(latitude: latitude, longitude: longitude) else { return .outside }
        let h = interpolate(latitude: latitude, longitude: longitude)
        return h.isNaN ? .void : .height(h)
    }
}

extension TerrainSample {
    /// The height when known.
    public var height: Double? {
        if case .height(let h) = self { return h }
        return nil
    }
}
