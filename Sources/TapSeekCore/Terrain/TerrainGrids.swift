/// A terrain made of ``ElevationGrid``s: what a sightline walks cell by cell.
///
/// Besides point heights (``ElevationSource``), it answers which grid holds a point, so that the
/// walk can use the grid's cells and its ``MaximumPyramid``. Where the four posts around a point
/// belong to different grids (a seam between tiles that do not share their edge posts), it may
/// answer a one-cell grid made of those posts.
public protocol TerrainGrids: ElevationSource {
    /// A grid whose posts' rectangle contains the point (WGS84 degrees, any longitude), or nil
    /// when no data covers it.
    mutating func grid(containing latitude: Double, longitude: Double) -> ElevationGrid?
    /// `body` called with the grid ``grid(containing:longitude:)`` answers, and what it returns;
    /// nil when no data covers the point. A terrain that keeps the grid passes it in place: a
    /// copy retains and releases the grid's buffers, which a viewshed's thousands of short
    /// sightlines paid at every segment.
    mutating func withGrid<R>(containing latitude: Double, longitude: Double, _ body: (ElevationGrid) throws -> R) rethrows -> R?
    /// Whether ``grid(containing:longitude:)`` answers the grid it answered last, as long as that
    /// is a tile's grid (not a one-cell grid at a seam, of 2 × 2 posts) holding the point with
    /// its longitude normalised to ±180°, when nothing else asked the terrain in between: then a
    /// walk keeps that grid from one segment to the next instead of asking again.
    static var answersLastGridFirst: Bool { get }
    /// Whether the height at a point (any longitude) rests on a post filled across a void
    /// (``ElevationGrid/isFilled(latitude:longitude:)`` of the grid holding it); false where
    /// nothing was filled or no data covers it.
    mutating func restsOnFilledPost(latitude: Double, longitude: Double) -> Bool
    /// The rectangles of the terrain's other grids that overlap `grid`, one of its own: outside
    /// them, a point that `grid` holds as a void (its bilinear height unknown) is a void of the
    /// terrain, no other grid answering there. Nil when the terrain cannot tell, or `grid` is not
    /// one of its own. A viewshed's rows over a strip of voids then ask the terrain nothing.
    mutating func overlaps(of grid: ElevationGrid) -> [GridRectangle]?
}

/// Latitudes and longitudes bounding a grid's posts, degrees.
public typealias GridRectangle = (south: Double, north: Double, west: Double, east: Double)

extension TerrainGrids {
    public static var answersLastGridFirst: Bool { false }

    public mutating func overlaps(of grid: ElevationGrid) -> [GridRectangle]? { nil }

    /// Through ``grid(containing:longitude:)``: a copy of the grid a look-up.
    public mutating func withGrid<R>(containing latitude: Double, longitude: Double,
                                     _ body: (ElevationGrid) throws -> R) rethrows -> R? {
        guard let grid = grid(containing: latitude, longitude: longitude) else { return nil }
        return try body(grid)
    }

    /// Through ``grid(containing:longitude:)``: a copy of the grid a look-up.
    public mutating func restsOnFilledPost(latitude: Double, longitude: Double) -> Bool {
        guard let grid = grid(containing: latitude, longitude: longitude), grid.filled != nil else { return false }
        return grid.isFilled(latitude: latitude, longitude: longitude + grid.longitudeShift(toward: longitude))
    }
}

extension ElevationGrid: TerrainGrids {
    public func grid(containing latitude: Double, longitude: Double) -> ElevationGrid? {
        let lon = longitude + longitudeShift(toward: longitude)
        return contains(latitude: latitude, longitude: lon) ? self : nil
    }

    /// None: the grid is the whole terrain.
    public func overlaps(of grid: ElevationGrid) -> [GridRectangle]? { grid.hasSameLattice(as: self) ? [] : nil }

    public func withGrid<R>(containing latitude: Double, longitude: Double, _ body: (ElevationGrid) throws -> R) rethrows -> R? {
        try holding(latitude: latitude, longitude: longitude + longitudeShift(toward: longitude), body)
    }

    /// `body` called with this grid when it holds the point (its longitude within the grid's
    /// turn), and what it returns; nil when not. The grid is passed in place, not copied.
    func holding<R>(latitude: Double, longitude: Double, _ body: (ElevationGrid) throws -> R) rethrows -> R? {
        contains(latitude: latitude, longitude: longitude) ? try body(self) : nil
    }

    /// The multiple of 360° that brings a longitude nearest to the grid's middle: the grid's
    /// longitudes and a ray's continuous ones may differ by turns around the antimeridian.
    public func longitudeShift(toward longitude: Double) -> Double {
        360 * (((west + east) / 2 - longitude) / 360).rounded()
    }
}
