/// The steepest slope of a grid's bilinear surface block by block (``ElevationGrid/slopeMap(cellsPerBlock:)``):
/// a local Lipschitz bound for a ``SightlineMarch``, far tighter than one bound per tile. A
/// valley floor next to a cliff no longer makes every step near the ground subdivide.
///
/// Blocks are squares of `cellsPerBlock × cellsPerBlock` cells from the grid's north-west post;
/// slopes in metres per metre as ``ElevationGrid/steepestSlope()`` defines them. Sendable and
/// small (a 3″ tile's map holds 75 × 75 values).
public struct SlopeMap: Sendable {
    /// Cells along each side of a block by default.
    public static let defaultCellsPerBlock = 16

    /// The grid's north-west post and post spacing, degrees.
    public let north: Double, west: Double
    public let latitudeSpacing: Double, longitudeSpacing: Double
    /// The grid's last post row and column, degrees.
    public let south: Double, east: Double
    public let cellsPerBlock: Int
    public let blockRows: Int, blockColumns: Int
    /// Row-major from the north, metres per metre.
    public let slopes: [Double]
    /// The steepest slope of the whole grid.
    public let steepest: Double

    init(grid: ElevationGrid, cellsPerBlock: Int, blockRows: Int, blockColumns: Int, slopes: [Double]) {
        north = grid.north
        west = grid.west
        latitudeSpacing = grid.latitudeSpacing
        longitudeSpacing = grid.longitudeSpacing
        south = grid.south
        east = grid.east
        self.cellsPerBlock = cellsPerBlock
        self.blockRows = blockRows
        self.blockColumns = blockColumns
        self.slopes = slopes
        steepest = slopes.max() ?? 0
    }

    /// The steepest slope of the blocks that the rectangle between two points touches (its
    /// edges included, so a point on a block boundary counts both blocks); nil when the
    /// rectangle is not wholly inside the grid. Degrees in; longitudes as the grid's.
    public func maximumSlope(latitude lat1: Double, longitude lon1: Double, latitude lat2: Double, longitude lon2: Double) -> Double? {
        let top = max(lat1, lat2), bottom = min(lat1, lat2), left = min(lon1, lon2), right = max(lon1, lon2)
        guard top <= north, bottom >= south, left >= west, right <= east else { return nil }
        let blockHeight = Double(cellsPerBlock) * latitudeSpacing, blockWidth = Double(cellsPerBlock) * longitudeSpacing
        // Widened by a billionth of a block, so that a point on (or within rounding of) a
        // boundary between blocks counts the blocks on both sides.
        let slack = 1e-9
        let r0 = clamp(((north - top) / blockHeight - slack).rounded(.down), blockRows)
        let r1 = clamp(((north - bottom) / blockHeight + slack).rounded(.down), blockRows)
        let c0 = clamp(((left - west) / blockWidth - slack).rounded(.down), blockColumns)
        let c1 = clamp(((right - west) / blockWidth + slack).rounded(.down), blockColumns)
        var steepest = 0.0
        for r in r0...r1 {
            for c in c0...c1 { steepest = max(steepest, slopes[r * blockColumns + c]) }
        }
        return steepest
    }

    /// A block index in 0..<count.
    private func clamp(_ index: Double, _ count: Int) -> Int { Int(min(max(index, 0), Double(count - 1))) }
}
