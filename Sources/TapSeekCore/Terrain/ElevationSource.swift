/// Anything that answers terrain heights: a single grid, a catalog of tiles, a synthetic surface.
///
/// `mutating` so that implementations may keep a small cache of the tiles they touched last;
/// give each thread its own copy.
public protocol ElevationSource {
    /// Height of the terrain at a point, metres above mean sea level (EGM96); nil where the
    /// data has a void or no tile covers the point. Degrees in.
    mutating func elevation(latitude: Double, longitude: Double) -> Double?
    /// The highest terrain this source can ever answer, metres above mean sea level. Bounds
    /// the length of a sightline.
    var maximumElevation: Double { get }
}

extension ElevationGrid: ElevationSource {
    public func elevation(latitude: Double, longitude: Double) -> Double? {
        height(latitude: latitude, longitude: longitude)
    }
    public var maximumElevation: Double { Double(maximumHeight) }
}
