import Foundation

/// The geoid as a global grid of undulations N (metres of the geoid above the WGS84 ellipsoid),
/// so that ellipsoidal height h = orthometric height H + N.
///
/// The grid is read from the EGM96 15′ file that PROJ ships (`egm96_15.gtx`, 721 × 1441 posts,
/// −90…90°, −180…180°) and interpolated bilinearly; longitudes wrap.
public struct Geoid: Sendable {
    /// Undulations on a regular global lattice: row 0 at `north`, column 0 at `west`.
    ///
    /// A geoid read from a GTX file (``init(gtxContentsOf:)``) reads its posts in place, from
    /// the mapped file, and makes this grid only when first asked: converting and measuring the
    /// whole 4 MB EGM96 grid, and faulting in the pages that hold it, was 3 ms of every
    /// command's start, of which a viewshed's few thousand look-ups need a few kilobytes.
    public var grid: ElevationGrid {
        switch storage {
        case .grid(let grid): grid
        case .file(let file): file.grid
        }
    }
    /// Where the posts are read.
    @usableFromInline enum Storage: Sendable {
        case grid(ElevationGrid)
        case file(GTXPosts)
    }
    @usableFromInline let storage: Storage
    /// What a look-up reads, held here rather than behind `storage` (whose switch kept the
    /// look-up from being inlined, 10 M instructions more over a viewshed): a grid's posts, or
    /// (empty then) the first of a GTX file's, which `storage` keeps mapped, and their width.
    @usableFromInline let heights: [Float]
    /// Read only, and kept valid by `storage`, which every copy of the geoid holds.
    @usableFromInline nonisolated(unsafe) let filePosts: UnsafeRawPointer?
    @usableFromInline let postWidth: Int
    /// The lattice: the grid's, read without building it.
    @usableFromInline let north: Double, west: Double, latitudeSpacing: Double, longitudeSpacing: Double
    @usableFromInline let rows: Int, columns: Int
    /// The steepest slope of the undulation anywhere, metres per metre of ground: bounds how
    /// far it can change along a stretch of a sightline without looking it up.
    ///
    /// Computed on first use and kept (shared by the copies of this geoid): a pass over the
    /// whole grid (11 M instructions for EGM96 15′) that commands which only look undulations
    /// up, `elevation --batch` among them, never need. Every sightline reads it (its
    /// segments' slack), so a geoid made by ``keepingSteepestGradient(in:)`` also keeps it on
    /// disk between processes.
    public var steepestGradient: Double {
        steepest.withLock { known in
            if let known { return known }
            let value: Double
            if let gradientCache {
                let key = gradientCacheKey
                if let kept = gradientCache.value(for: key) {
                    value = kept
                } else {
                    value = Self.steepestGradient(of: grid)
                    gradientCache.store(value, key: key)
                }
            } else {
                value = Self.steepestGradient(of: grid)
            }
            known = value
            return value
        }
    }
    private let steepest = Locked<Double?>(nil)
    /// Where ``steepestGradient`` is kept between processes; nil: computed by each.
    private var gradientCache: GeoidGradientCache?

    /// The key of this geoid's gradient in a ``GeoidGradientCache``: a file's by what identifies
    /// its contents on disk (its posts are not read), a grid's by its posts.
    private var gradientCacheKey: GeoidGradientCache.Key {
        switch storage {
        case .grid(let grid): GeoidGradientCache.key(for: grid)
        case .file(let file): GeoidGradientCache.key(forFile: file.path, identity: file.identity)
        }
    }

    /// This geoid, its ``steepestGradient`` read from `directory` when a file there holds it for
    /// this very grid, else computed and written there (``GeoidGradientCache``): the CLI passes
    /// its void-fill cache's directory. Nil keeps it in memory only.
    public func keepingSteepestGradient(in directory: URL?) -> Geoid {
        var geoid = self
        geoid.gradientCache = directory.map { GeoidGradientCache(directory: $0) }
        return geoid
    }

    /// Columns in 360° of longitude, and whether the grid goes round the globe (the column
    /// after the last is then the first).
    @usableFromInline let period: Double
    @usableFromInline let wraps: Bool
    /// 1 / the spacings, where both are powers of two (EGM96 15′: 0.25°), else 0. Dividing by
    /// a power of two and multiplying by its exact reciprocal round the same real number, so
    /// give the same bits; a look-up then makes no division (two were a tenth of
    /// `elevation --batch`'s time, the quotients waited on by everything after them).
    @usableFromInline let rowsPerDegree: Double, columnsPerDegree: Double

    public init(grid: ElevationGrid) {
        self.init(storage: .grid(grid), north: grid.north, west: grid.west, latitudeSpacing: grid.latitudeSpacing,
                  longitudeSpacing: grid.longitudeSpacing, rows: grid.rows, columns: grid.columns)
    }

    init(storage: Storage, north: Double, west: Double, latitudeSpacing: Double, longitudeSpacing: Double, rows: Int, columns: Int) {
        self.storage = storage
        switch storage {
        case .grid(let grid): (heights, filePosts, postWidth) = (grid.heights, nil, 4)
        case .file(let file): (heights, filePosts, postWidth) = ([], file.data, file.width)
        }
        self.north = north
        self.west = west
        self.latitudeSpacing = latitudeSpacing
        self.longitudeSpacing = longitudeSpacing
        self.rows = rows
        self.columns = columns
        period = 360 / longitudeSpacing
        wraps = abs(period - Double(columns)) < 0.5
        func isPowerOfTwo(_ x: Double) -> Bool { x.isNormal && x > 0 && x.significandBitPattern == 0 && (1 / x).isNormal }
        let exact = isPowerOfTwo(latitudeSpacing) && isPowerOfTwo(longitudeSpacing)
        rowsPerDegree = exact ? 1 / latitudeSpacing : 0
        columnsPerDegree = exact ? 1 / longitudeSpacing : 0
    }

    /// Post (`row` from the north, `column`), NaN where missing.
    @inlinable @inline(__always) func post(row: Int, column: Int) -> Float {
        if let filePosts { return GTXGrid.post(filePosts, row: row, column: column, rows: rows, columns: columns, width: postWidth) }
        return heights.withUnsafeBufferPointer { $0[row * columns + column] }
    }

    /// ``steepestGradient`` over the cells that hold any part of a box (degrees; any longitudes,
    /// `west` ≤ `east`, at most a turn apart): a tighter bound on how far the undulation changes
    /// across a few kilometres within it. The whole grid's when the box reaches a pole.
    func steepestGradient(south: Double, north: Double, west: Double, east: Double) -> Double {
        let top = Int(((self.north - north) / latitudeSpacing).rounded(.down)), bottom = Int(((self.north - south) / latitudeSpacing).rounded(.up))
        guard top >= 0, bottom <= rows - 1, east - west < 360 else { return steepestGradient }
        var left = Int(((west - self.west) / longitudeSpacing).rounded(.down)), right = Int(((east - self.west) / longitudeSpacing).rounded(.up))
        if !wraps {
            guard left >= 0, right <= columns - 1 else { return steepestGradient }
        } else {
            let turns = Int((Double(left) / period).rounded(.down)) * Int(period.rounded())
            left -= turns
            right -= turns
        }
        return steepestGradient(rows: top..<max(top, bottom), columns: left..<max(left, right))
    }

    /// The largest |∂N/∂east| + |∂N/∂north| of the bilinear surface (≥ its gradient's length),
    /// with ground widths from the WGS84 radii at each cell's poleward row, where the cell is
    /// narrowest. Rows at a pole are skipped (the pole is one point, its posts all equal).
    private static func steepestGradient(of g: ElevationGrid) -> Double {
        var steepest = 0.0
        // Each row's cell slopes go to a buffer, as bit patterns, then the buffer's largest is
        // taken: two loops the compiler vectorises (a running Float maximum it does not). The
        // slopes are never negative, so their bit patterns order as the numbers; a NaN (beside
        // a missing post) counts as 0.
        let slopes = UnsafeMutablePointer<UInt32>.allocate(capacity: g.columns)
        defer { slopes.deallocate() }
        g.heights.withUnsafeBufferPointer { p in
            for r in 0..<(g.rows - 1) {
                // Per cell the larger step along each axis, over its ground width; the row's
                // steepest in single precision (the grid's own), widened once.
                guard let (perEast, perNorth) = inverseWidths(of: g, row: r) else { continue }
                let top = p.baseAddress! + r * g.columns, bottom = top + g.columns
                for c in 0..<(g.columns - 1) {
                    let east1 = (top[c + 1] - top[c]).magnitude, east2 = (bottom[c + 1] - bottom[c]).magnitude
                    let north1 = (bottom[c] - top[c]).magnitude, north2 = (bottom[c + 1] - top[c + 1]).magnitude
                    let slope = (east1 > east2 ? east1 : east2) * perEast + (north1 > north2 ? north1 : north2) * perNorth
                    slopes[c] = slope >= 0 ? slope.bitPattern : 0
                }
                var rowSteepest: UInt32 = 0
                for c in 0..<(g.columns - 1) { rowSteepest = max(rowSteepest, slopes[c]) }
                // One part in a million more: single-precision rounding must not make a bound low.
                steepest = max(steepest, Double(Float(bitPattern: rowSteepest)) * (1 + 1e-6))
            }
        }
        return steepest
    }

    /// 1 / the ground width and 1 / the ground height of the cells of row r (between posts r and
    /// r + 1), metres, from the WGS84 radii at the row's poleward edge, where its cells are
    /// narrowest; nil at a pole, whose posts are one point.
    private static func inverseWidths(of g: ElevationGrid, row r: Int) -> (east: Float, north: Float)? {
        inverseWidths(north: g.north, latitudeSpacing: g.latitudeSpacing, longitudeSpacing: g.longitudeSpacing, row: r)
    }

    private static func inverseWidths(north: Double, latitudeSpacing: Double, longitudeSpacing: Double, row r: Int) -> (east: Float, north: Float)? {
        let ellipsoid = Ellipsoid.wgs84
        let northRow = north - Double(r) * latitudeSpacing, southRow = northRow - latitudeSpacing
        let phi = radians(min(max(abs(northRow), abs(southRow)), 90))
        let dx = ellipsoid.primeVerticalRadius(latitude: phi) * cos(phi) * radians(longitudeSpacing)
        let dy = ellipsoid.semiMajorAxis * (1 - ellipsoid.eccentricitySquared) * radians(latitudeSpacing)
        guard dx > 1 else { return nil }
        return (Float(1 / dx), Float(1 / dy))
    }

    /// ``steepestGradient(of:)`` over the cells of rows `rows` and columns `columns` (columns
    /// past the grid's last wrap round, for a grid that goes round the globe).
    private func steepestGradient(rows: Range<Int>, columns: Range<Int>) -> Double {
        var steepest: Float = 0
        for r in rows where r < self.rows - 1 {
            guard let (perEast, perNorth) = Self.inverseWidths(north: north, latitudeSpacing: latitudeSpacing,
                                                               longitudeSpacing: longitudeSpacing, row: r) else { continue }
            for column in columns {
                let c = column % self.columns, c1 = (column + 1) % self.columns
                let topLeft = post(row: r, column: c), topRight = post(row: r, column: c1)
                let bottomLeft = post(row: r + 1, column: c), bottomRight = post(row: r + 1, column: c1)
                let east = max((topRight - topLeft).magnitude, (bottomRight - bottomLeft).magnitude)
                let north = max((bottomLeft - topLeft).magnitude, (bottomRight - topRight).magnitude)
                let slope = east * perEast + north * perNorth
                if slope > steepest { steepest = slope }
            }
        }
        return Double(steepest) * (1 + 1e-6)
    }

    /// EGM96 undulation at a point, metres (−107 … +85 on Earth). Degrees in; any longitude.
    /// Bilinear between the four surrounding posts; the column after the last wraps to the first
    /// when the grid goes round the globe.
    /// Inlinable: called across modules, from a caller's mutable state, the geoid (152 bytes)
    /// was copied to the stack for each look-up.
    @inlinable @inline(__always) public func undulation(latitude: Double, longitude: Double) -> Double {
        var cell = Cell()
        return undulation(latitude: latitude, longitude: longitude, cell: &cell)
    }

    /// The four posts of the geoid's cell looked up last (none at first): a walk's look-ups
    /// along one ray stay in a 15′ cell for tens of kilometres.
    @usableFromInline struct Cell {
        @usableFromInline var row = -1, column = -1
        @usableFromInline var top = 0.0, topRight = 0.0, bottom = 0.0, bottomRight = 0.0

        @inlinable init() {}
    }

    /// ``undulation(latitude:longitude:)``, its four posts taken from `cell` when the point lies
    /// in the cell looked up last (and kept there otherwise): the same arithmetic, so the same
    /// bits, without the posts' reads and conversions.
    @inlinable @inline(__always) func undulation(latitude: Double, longitude: Double, cell: inout Cell) -> Double {
        let byRows = rowsPerDegree != 0
        let fr = min(max(byRows ? (north - latitude) * rowsPerDegree : (north - latitude) / latitudeSpacing, 0), Double(rows - 1))
        var fc = byRows ? (longitude - west) * columnsPerDegree : (longitude - west) / longitudeSpacing
        if wraps {
            if fc < 0 || fc >= period {
                fc = fc.truncatingRemainder(dividingBy: period)
                if fc < 0 { fc += period }
            }
        } else {
            fc = min(max(fc, 0), Double(columns - 1))
        }
        let r = min(Int(fr), rows - 2), c = min(Int(fc), wraps ? columns - 1 : columns - 2)
        if r != cell.row || c != cell.column { read(&cell, row: r, column: c) }
        let tr = fr - Double(r), tc = fc - Double(c)
        let upper = cell.top + (cell.topRight - cell.top) * tc
        let lower = cell.bottom + (cell.bottomRight - cell.bottom) * tc
        let n = upper + (lower - upper) * tr
        return n.isNaN ? 0 : n
    }

    /// Reads the four posts of the cell at `row`, `column` into `cell`. Not inlined: a walk's
    /// look-ups stay in one cell for tens of kilometres, and the walk, already large, took
    /// the look-up inline only without it.
    @usableFromInline @inline(never) func read(_ cell: inout Cell, row r: Int, column c: Int) {
        let c1 = c + 1 == columns ? 0 : c + 1
        cell.top = Double(post(row: r, column: c))
        cell.topRight = Double(post(row: r, column: c1))
        cell.bottom = Double(post(row: r + 1, column: c))
        cell.bottomRight = Double(post(row: r + 1, column: c1))
        cell.row = r
        cell.column = c
    }

    /// Mean-sea-level height → ellipsoidal height at a point, metres.
    public func ellipsoidalHeight(orthometric h: Double, latitude: Double, longitude: Double) -> Double {
        h + undulation(latitude: latitude, longitude: longitude)
    }

    /// Ellipsoidal height → mean-sea-level height at a point, metres.
    public func orthometricHeight(ellipsoidal h: Double, latitude: Double, longitude: Double) -> Double {
        h - undulation(latitude: latitude, longitude: longitude)
    }
}
