/// Terrain heights along one row of a viewshed grid, bit for bit what the terrain's own
/// `sample` answers: the same bilinear arithmetic (``ElevationGrid/interpolate(row:tr:column:tc:)``)
/// with the latitude's part computed once per row and the longitude's once per column and DEM
/// grid, where sampling redid both, and found the grid again, for every cell (a seventh of a
/// viewshed's instructions). A cell the grid in use does not hold, or holds beside a void, is
/// sampled as before; the grid holding it is used from then on when its bilinear height there
/// is the sample's own (the grid a ``TerrainSampler`` keeps for the next point too). A void of
/// the grid in use where the terrain says no other grid overlaps it (``TerrainGrids/overlaps(of:)``)
/// is the terrain's void: the sampler asked its catalog again for each, 2 000 instructions a cell
/// over a strip of voids.
struct RowTerrain {
    private let viewshed: ViewshedGrid
    /// The grid in use: its posts and its columns of posts, and for each column of the
    /// viewshed grid its cell column there (index −1: outside it).
    private var dem: ElevationGrid?
    private var posts: [Float] = []
    private var stride = 0
    private var columns: [(index: Int, fraction: Double)] = []
    /// The other grids of the terrain that overlap the grid in use (nil: not known).
    private var overlaps: [GridRectangle]?
    /// Grids used before, with their columns and overlaps: rows along a seam go back and forth.
    private var used: [(dem: ElevationGrid, columns: [(index: Int, fraction: Double)], overlaps: [GridRectangle]?)] = []
    /// The current row's first post in `posts` and fraction southward (−1: outside the grid).
    private var row = (first: -1, fraction: 0.0)
    private var latitude = Double.nan

    init(grid: ViewshedGrid) { viewshed = grid }

    /// Begins a row of the viewshed grid.
    mutating func start(latitude: Double) {
        self.latitude = latitude
        row = (-1, 0)
        if let dem, latitude <= dem.north, latitude >= dem.south {
            let r = dem.cellRow(latitude: latitude)
            row = (r.index * stride, r.fraction)
        }
    }

    /// The terrain at column `c` of the current row (at `latitude`, `longitude`).
    @inline(__always)
    mutating func sample<T: TerrainGrids>(column c: Int, latitude: Double, longitude: Double, over terrain: inout T) -> TerrainSample {
        if row.first >= 0 {
            let column = columns[c]
            if column.index >= 0 {
                let h = posts.withUnsafeBufferPointer {
                    ElevationGrid.bilinear($0, columns: stride, at: row.first + column.index, tr: row.fraction, tc: column.fraction)
                }
                if !h.isNaN { return .height(h) }
                // Beside a void (a post weighing nothing still makes the sum NaN here), the grid's
                // own look-up, as the terrain's, where no other grid can answer.
                if let overlaps, let dem, !overlaps.contains(where: {
                    latitude >= $0.south && latitude <= $0.north && longitude >= $0.west && longitude <= $0.east
                }) {
                    let h = dem.interpolate(latitude: latitude, longitude: longitude)
                    return h.isNaN ? .void : .height(h)
                }
            }
        }
        let answer = terrain.sample(latitude: latitude, longitude: longitude)
        // A seam's one-cell grid (2 × 2 posts) is not worth its columns.
        if case .height(let h) = answer, let g = terrain.grid(containing: latitude, longitude: longitude), g.rows > 2, g.columns > 2,
           g.contains(latitude: latitude, longitude: longitude), g.interpolate(latitude: latitude, longitude: longitude) == h {
            use(g, over: &terrain)
        }
        return answer
    }

    /// Makes `g` the grid in use.
    private mutating func use<T: TerrainGrids>(_ g: ElevationGrid, over terrain: inout T) {
        if let dem, dem.hasSameLattice(as: g) { return }
        if let i = used.firstIndex(where: { $0.dem.hasSameLattice(as: g) }) {
            columns = used[i].columns
            overlaps = used[i].overlaps
        } else {
            columns = (0..<viewshed.columns).map {
                let longitude = viewshed.longitude(column: $0)
                return longitude >= g.west && longitude <= g.east ? g.cellColumn(longitude: longitude) : (-1, 0)
            }
            overlaps = terrain.overlaps(of: g)
            if used.count == 8 { used.removeFirst() }
            used.append((g, columns, overlaps))
        }
        dem = g
        posts = g.heights
        stride = g.columns
        start(latitude: latitude)
    }
}
