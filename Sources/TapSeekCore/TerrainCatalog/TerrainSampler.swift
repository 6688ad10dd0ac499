
/// Terrain heights from an ``ElevationCatalog`` for one thread: remembers the grid it used
/// last so that consecutive nearby look-ups never touch the catalog's lock.
///
/// Heights are bilinear between the four posts around the point. Where the posts belong to
/// different tiles (a seam between tiles that do not overlap), they are gathered post by post
/// from the tiles that hold them, so the surface is continuous across seams.
public struct TerrainSampler: TerrainGrids, Sendable {
    public let catalog: ElevationCatalog
    private var recent: ElevationGrid?

    public init(catalog: ElevationCatalog) { self.catalog = catalog }

    /// ``grid(containing:longitude:)`` answers the tile used last first, and every tile it
    /// answers becomes the one used last (a seam's one-cell grid does not).
    public static var answersLastGridFirst: Bool { true }

    public mutating func sample(latitude: Double, longitude: Double) -> TerrainSample {
        // Read in place: copying the grid out of the optional would retain its buffers.
        if let h = recent?.height(latitude: latitude, longitude: longitude) { return .height(h) }
        return sampleSlowly(latitude: latitude, longitude: normalizedLongitude(longitude))
    }

    /// ``sample(latitude:longitude:)`` and, where it finds a height, whether the height rests on
    /// a filled post (``isFilled(latitude:longitude:)``), from one look-up: on the tile used
    /// last, the cell found for the height is the one whose posts are checked. `longitude`
    /// normalised to ±180°. Where there is no height, the sample says why (void or no tile) and
    /// `filled` is false: a caller needing the reason asks nothing twice.
    public mutating func sampleMarkingFilled(latitude: Double, longitude: Double) -> (sample: TerrainSample, filled: Bool) {
        if let answer = recent?.heightMarkingFilled(latitude: latitude, longitude: longitude) { return (.height(answer.height), answer.filled) }
        let answer = sampleSlowly(latitude: latitude, longitude: normalizedLongitude(longitude))
        guard case .height = answer else { return (answer, false) }
        // The slow path left the grid that gave the height as the tile used last (or found it
        // at a seam, in a cell of no filled posts): ask as `isFilled` always did.
        return (answer, isFilled(latitude: latitude, longitude: longitude))
    }

    /// Reads the posts around each point from the tile used last, where it holds the point,
    /// and answers their sum: for a batch to start the memory reads of points it will look up a
    /// little later, all at once, so that over scattered points their cache misses overlap
    /// instead of stalling one look-up after another. Keep the answer (sum it) so that the reads
    /// are not optimised away.
    public func touch(_ points: UnsafeBufferPointer<(latitude: Double, longitude: Double)>) -> Float {
        recent?.touchPosts(points) ?? 0
    }

    /// The grid holding a point: the tile used last when it holds it, else the first tile of the
    /// catalog that does; at a seam between tiles that do not share their edge posts, a one-cell
    /// grid of the four posts around the point; nil where no data covers it.
    public mutating func grid(containing latitude: Double, longitude: Double) -> ElevationGrid? {
        let longitude = normalizedLongitude(longitude)
        if let g = recent, g.contains(latitude: latitude, longitude: longitude) { return g }
        let candidates = catalog.candidates(latitude: latitude, longitude: longitude)
        for i in candidates where catalog.tiles[Int(i)].contains(latitude: latitude, longitude: longitude) {
            if let g = catalog.grid(tile: Int(i)) {
                recent = g
                return g
            }
        }
        return seamCell(latitude: latitude, longitude: longitude, candidates: candidates)
    }

    /// The catalog's other tiles whose rectangles overlap `grid`'s (or touch it: neighbours share
    /// their edge posts), in every turn of longitude that does; nil when no tile of the catalog
    /// has `grid`'s lattice. Asked once for each grid a viewshed's rows use.
    public func overlaps(of grid: ElevationGrid) -> [GridRectangle]? {
        let tiles = catalog.tiles
        guard let own = tiles.firstIndex(where: {
            grid.hasLattice(north: $0.north, west: $0.west, latitudeSpacing: $0.latitudeSpacing, longitudeSpacing: $0.longitudeSpacing,
                            rows: $0.rows, columns: $0.columns)
        }) else { return nil }
        var others: [GridRectangle] = []
        for (i, t) in tiles.enumerated() where i != own && t.south <= grid.north && t.north >= grid.south {
            for turn in [-360.0, 0, 360] where t.west + turn <= grid.east && t.east + turn >= grid.west {
                others.append((t.south, t.north, t.west + turn, t.east + turn))
            }
        }
        return others
    }

    /// ``grid(containing:longitude:)``'s grid passed to `body`: the tile used last read in place.
    public mutating func withGrid<R>(containing latitude: Double, longitude: Double,
                                     _ body: (ElevationGrid) throws -> R) rethrows -> R? {
        let longitude = normalizedLongitude(longitude)
        // Optional chaining reads the grid in place; `if let` would copy it.
        if let answer = try recent?.holding(latitude: latitude, longitude: longitude, body) { return answer }
        guard let grid = grid(containing: latitude, longitude: longitude) else { return nil }
        return try body(grid)
    }

    /// Whether the height at a point rests on a post filled across a void
    /// (``ElevationGrid/isFilled(latitude:longitude:)``); false where nothing was filled.
    public mutating func isFilled(latitude: Double, longitude: Double) -> Bool {
        restsOnFilledPost(latitude: latitude, longitude: longitude)
    }

    /// ``isFilled(latitude:longitude:)``, as ``TerrainGrids`` asks it: the tile used last read in
    /// place. Through the grid's copy, a skyline's check every 10 m for filled terrain under it
    /// cost 1.6 M instructions a reading over a tile with filled voids.
    public mutating func restsOnFilledPost(latitude: Double, longitude: Double) -> Bool {
        // The tile used last, read in place (copying it out of the optional retains and
        // releases its buffers: a tenth of an `elevation --batch` line); a grid that filled
        // nothing answers at once.
        if let answer = recent?.isFilledIfHolding(latitude: latitude, longitude: normalizedLongitude(longitude)) { return answer }
        guard let grid = grid(containing: latitude, longitude: longitude), grid.filled != nil else { return false }
        return grid.isFilled(latitude: latitude, longitude: normalizedLongitude(longitude) + grid.longitudeShift(toward: normalizedLongitude(longitude)))
    }

    private mutating func sampleSlowly(latitude: Double, longitude: Double) -> TerrainSample {
        let candidates = catalog.candidates(latitude: latitude, longitude: longitude)
        var covered = false
        for i in candidates {
            guard catalog.tiles[Int(i)].contains(latitude: latitude, longitude: longitude),
                  let g = catalog.grid(tile: Int(i)) else { continue }
            covered = true
            let h = g.interpolate(latitude: latitude, longitude: longitude)
            recent = g
            if !h.isNaN { return .height(h) }
        }
        if covered { return .void }
        return seamSample(latitude: latitude, longitude: longitude, candidates: candidates)
    }

    /// The bilinear height from posts spread over neighbouring tiles on one common lattice.
    private mutating func seamSample(latitude: Double, longitude: Double, candidates: [Int32]) -> TerrainSample {
        guard let cell = seamCell(latitude: latitude, longitude: longitude, candidates: candidates) else { return .outside }
        let h = cell.interpolate(latitude: latitude, longitude: longitude)
        return h.isNaN ? .void : .height(h)
    }

    /// The cell around a point whose four posts lie in different tiles of one common lattice, as
    /// a grid of 2 × 2 posts (NaN for a void post); nil when no lattice has all four.
    private func seamCell(latitude: Double, longitude: Double, candidates: [Int32]) -> ElevationGrid? {
        // The tiles' fields are read in place: a copy of a `DEMTile` retains and releases its
        // path, driver and reader, most of what a ray leaving the data paid here.
        let tiles = catalog.tiles
        for i in candidates {
            let north = tiles[Int(i)].north, west = tiles[Int(i)].west
            let latitudeSpacing = tiles[Int(i)].latitudeSpacing, longitudeSpacing = tiles[Int(i)].longitudeSpacing
            let rows = tiles[Int(i)].rows, columns = tiles[Int(i)].columns
            let fr = (north - latitude) / latitudeSpacing
            let fc = (longitude - west) / longitudeSpacing
            // Only a point within one cell of this tile's posts can share its lattice.
            guard fr > -1, fr < Double(rows), fc > -1, fc < Double(columns) else { continue }
            let r = fr.rounded(.down), c = fc.rounded(.down)
            var corners: (Double, Double, Double, Double) = (.nan, .nan, .nan, .nan)
            var complete = true
            // One post outside every tile is enough: a ray leaving the data asks here at its
            // last step. The posts past this tile's own rows and columns are asked first, as
            // they are the ones that may be outside every tile; the answer does not depend on
            // the order, and the posts after an outside one cost nothing.
            let beyond = { (k: Int) -> Bool in
                let row = r + Double(k / 2), column = c + Double(k % 2)
                return row < 0 || row >= Double(rows) || column < 0 || column >= Double(columns)
            }
            for pass in 0..<2 {
                for k in 0..<4 where complete && beyond(k) == (pass == 0) {
                    let postLat = north - (r + Double(k / 2)) * latitudeSpacing
                    let postLon = west + (c + Double(k % 2)) * longitudeSpacing
                    let value: Double
                    switch post(latitude: postLat, longitude: postLon, latitudeSpacing: latitudeSpacing,
                                longitudeSpacing: longitudeSpacing) {
                    case .height(let h): value = Double(Float(h))
                    case .void: value = .nan
                    case .outside: complete = false; continue
                    }
                    switch k {
                    case 0: corners.0 = value
                    case 1: corners.1 = value
                    case 2: corners.2 = value
                    default: corners.3 = value
                    }
                }
            }
            guard complete else { continue }
            return ElevationGrid(north: north - r * latitudeSpacing, west: west + c * longitudeSpacing,
                                 latitudeSpacing: latitudeSpacing, longitudeSpacing: longitudeSpacing,
                                 rows: 2, columns: 2,
                                 heights: [Float(corners.0), Float(corners.1), Float(corners.2), Float(corners.3)])
        }
        return gapCell(latitude: latitude, longitude: longitude, candidates: candidates)
    }

    /// The cell around a point in the gap between two tiles on different lattices that do not
    /// share their edge posts: a Copernicus tile north of 50° beside the one south of it (its
    /// columns widen by latitude band), or a Copernicus tile beside an SRTM tile. Each tile's edge
    /// is linear between its own posts; the cell spans the gap and, along it, the stretch between
    /// the nearest posts of either edge, so that its bilinear surface is exactly the two edges
    /// joined by straight lines across the gap. nil when the point is not in such a gap.
    private func gapCell(latitude: Double, longitude: Double, candidates: [Int32]) -> ElevationGrid? {
        // Tiles by index, their fields read in place: a `DEMTile` copied retains and releases
        // its path, driver and reader, most of what a ray leaving the data paid here.
        var north, south, west, east: Int?
        let tiles = catalog.tiles
        for i in candidates {
            let tileWest = tiles[Int(i)].west, tileEast = tiles[Int(i)].east
            let tileNorth = tiles[Int(i)].north, tileSouth = tiles[Int(i)].south
            let latitudeSpacing = tiles[Int(i)].latitudeSpacing, longitudeSpacing = tiles[Int(i)].longitudeSpacing
            if longitude >= tileWest, longitude <= tileEast {
                if tileSouth > latitude, tileSouth - latitudeSpacing < latitude { north = Int(i) }
                if tileNorth < latitude, tileNorth + latitudeSpacing > latitude { south = Int(i) }
            }
            if latitude >= tileSouth, latitude <= tileNorth {
                if tileEast < longitude, tileEast + longitudeSpacing > longitude { west = Int(i) }
                if tileWest > longitude, tileWest - longitudeSpacing < longitude { east = Int(i) }
            }
        }
        /// The posts of `t` along one axis around `x` (its edge's last stretch when `x` is on its last post).
        func bracket(_ x: Double, first: Double, spacing: Double, count: Int) -> (Double, Double) {
            let k = min(max(((x - first) / spacing).rounded(.down), 0), Double(count - 2))
            return (first + k * spacing, first + (k + 1) * spacing)
        }
        if let north, let south, let upper = catalog.grid(tile: north), let lower = catalog.grid(tile: south) {
            let a = bracket(longitude, first: tiles[north].west, spacing: tiles[north].longitudeSpacing, count: tiles[north].columns)
            let b = bracket(longitude, first: tiles[south].west, spacing: tiles[south].longitudeSpacing, count: tiles[south].columns)
            let lo = max(a.0, b.0), hi = min(a.1, b.1)
            guard hi > lo else { return nil }
            let corners = [upper.interpolate(latitude: upper.south, longitude: lo), upper.interpolate(latitude: upper.south, longitude: hi),
                           lower.interpolate(latitude: lower.north, longitude: lo), lower.interpolate(latitude: lower.north, longitude: hi)]
            return ElevationGrid(north: upper.south, west: lo, latitudeSpacing: upper.south - lower.north, longitudeSpacing: hi - lo,
                                 rows: 2, columns: 2, heights: corners.map(Float.init))
        }
        if let west, let east, let left = catalog.grid(tile: west), let right = catalog.grid(tile: east) {
            let a = bracket(-latitude, first: -tiles[west].north, spacing: tiles[west].latitudeSpacing, count: tiles[west].rows)
            let b = bracket(-latitude, first: -tiles[east].north, spacing: tiles[east].latitudeSpacing, count: tiles[east].rows)
            let top = -max(a.0, b.0), bottom = -min(a.1, b.1)
            guard top > bottom else { return nil }
            let corners = [left.interpolate(latitude: top, longitude: left.east), right.interpolate(latitude: top, longitude: right.west),
                           left.interpolate(latitude: bottom, longitude: left.east), right.interpolate(latitude: bottom, longitude: right.west)]
            return ElevationGrid(north: top, west: left.east, latitudeSpacing: top - bottom, longitudeSpacing: right.west - left.east,
                                 rows: 2, columns: 2, heights: corners.map(Float.init))
        }
        return nil
    }

    /// The value of the post at exactly this position in any tile whose lattice has these
    /// spacings (degrees).
    private func post(latitude: Double, longitude: Double, latitudeSpacing: Double, longitudeSpacing: Double) -> TerrainSample {
        let lon = normalizedLongitude(longitude)
        let tiles = catalog.tiles
        for i in catalog.candidates(latitude: latitude, longitude: lon) {
            guard abs(tiles[Int(i)].latitudeSpacing - latitudeSpacing) < 1e-9 * latitudeSpacing + 1e-12,
                  abs(tiles[Int(i)].longitudeSpacing - longitudeSpacing) < 1e-9 * longitudeSpacing + 1e-12 else { continue }
            let fr = (tiles[Int(i)].north - latitude) / tiles[Int(i)].latitudeSpacing
            let fc = (lon - tiles[Int(i)].west) / tiles[Int(i)].longitudeSpacing
            let r = fr.rounded(), c = fc.rounded()
            // Posts of aligned tiles coincide to rounding; anything further off is another lattice.
            guard abs(fr - r) < 1e-6, abs(fc - c) < 1e-6, r >= 0, c >= 0, Int(r) < tiles[Int(i)].rows,
                  Int(c) < tiles[Int(i)].columns, let g = catalog.grid(tile: Int(i)) else { continue }
            if let h = g.post(row: Int(r), column: Int(c)) { return .height(Double(h)) }
            return .void
        }
        return .outside
    }
}

extension ElevationGrid {
    /// The sum of the west posts of the cells holding the points inside the grid, one from each
    /// row of a cell (the east posts share their cache lines nearly always). Where the posts are
    /// first found, then read in a loop of a few instructions, so that every read is under way
    /// at once.
    fileprivate func touchPosts(_ points: UnsafeBufferPointer<(latitude: Double, longitude: Double)>) -> Float {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: points.count) { posts in
            var count = 0
            for p in points where contains(latitude: p.latitude, longitude: p.longitude) {
                posts[count] = cellRow(latitude: p.latitude).index * columns + cellColumn(longitude: p.longitude).index
                count += 1
            }
            return heights.withUnsafeBufferPointer { h in
                var sum: Float = 0
                for k in 0..<count { sum += h[posts[k]] + h[posts[k] + columns] }
                return sum
            }
        }
    }
}
