/// Terrain heights along one row of a viewshed grid, bit for bit what the terrain's own
/// `sample` answers: the same bilinear arithmetic (``ElevationGrid/interpolate(row:tr:column:tc:)``)
/// with the latitude's part computed once per row and the longitude's once per column and DEM
/// grid, where sampling redid both, and found the grid again, for every cell (a seventh of a
/// viewshed's instructions). A cell the grid in use does not hold, or holds beside a void, is
/// sampled as before; the grid holding it is used from then on when its bilinear height there
/// is the sample's own (the grid a ``TerrainSampler`` keeps for the next point too).
struct RowTerrain {
    private let viewshed: ViewshedGrid
    /// The grid in use: its posts and its columns of posts, and for each column of the
    /// viewshed grid its cell column there (index −1: outside it).
    private var dem: ElevationGrid?
    private var posts: [Float] = []
    private var stride = 0
    private var columns: [(index: Int, fraction: Double)] = []
    /// Grids used before, with their columns: rows along a seam go back and forth.
    private var used: [(dem: ElevationGrid, columns: [(index: Int, fraction: Double)])] = []
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
            }
        }
        let answer = terrain.sample(latitude: latitude, longitude: longitude)
        // A seam's one-cell grid (2 × 2 posts) is not worth its columns.
        if case .height(let h) = answer, let g = terrain.grid(containing: latitude, longitude: longitude), g.rows > 2, g.columns > 2,
           g.contains(latitude: latitude, longitude: longitude), g.interpolate(latitude: latitude, longitude: longitude) == h {
            use(g)
        }
        return answer
    }

    /// Makes `g` the grid in use.
    private mutating func use(_ g: ElevationGrid) {
        func same(_ a: ElevationGrid) -> Bool {
            a.north == g.north && a.west == g.west && a.rows == g.rows && a.columns == g.columns
                && a.latitudeSpacing == g.latitudeSpacing && a.longitudeSpacing == g.longitudeSpacing
        }
        if let dem, same(dem) { return }
        if let i = used.firstIndex(where: { same($0.dem) }) {
            columns = used[i].columns
        } else {
            columns = (0..<viewshed.columns).map {
                let longitude = viewshed.longitude(column: $0)
                return longitude >= g.west && longitude <= g.east ? g.cellColumn(longitude: longitude) : (-1, 0)
            }
            if used.count == 8 { used.removeFirst() }
            used.append((g, columns))
        }
        dem = g
        posts = g.heights
        stride = g.columns
        start(latitude: latitude)
    }
}
