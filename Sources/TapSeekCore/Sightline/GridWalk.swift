/// One cell of terrain as a stretch of ray crosses it, in the cell's own coordinates.
///
/// The ray's ground track runs straight across the cell from (tr0, tc0) at slant distance s0
/// to (tr1, tc1) at s1 (fractions of a cell from its north-west post, rows southward); over a
/// cell of 90 m the track bends away from that chord by 0.2 mm at most (d²·tan φ/(8R) at 60°).
/// With w ∈ [0, 1] running from entry to exit, the bilinear terrain along the chord and the
/// ray's height are both quadratics in w.
struct CellCrossing {
    var s0: Double, s1: Double
    var tr0: Double, tc0: Double, tr1: Double, tc1: Double
    /// The four posts, metres above mean sea level: north-west, north-east, south-west,
    /// south-east; NaN for a void.
    var h00: Double, h01: Double, h10: Double, h11: Double
    /// The ray's height above the ellipsoid as a quadratic in w.
    var ellipsoidalRay: Quadratic
    /// Lowest and highest undulation of the geoid under the cell, metres (the segment's bounds).
    var lowestUndulation: Double, highestUndulation: Double
    /// Geoid undulation at entry and exit, metres: set only for ``RayVisitor/visit(_:)``.
    var n0 = 0.0, n1 = 0.0
    /// The highest known post of the cell's grid, metres above mean sea level: as high as
    /// terrain hidden in a void of it is taken to reach.
    var ceiling = Double.infinity

    /// The ray's height above mean sea level as a quadratic in w (once n0 and n1 are set).
    var ray: Quadratic {
        Quadratic(a: ellipsoidalRay.a, b: ellipsoidalRay.b - (n1 - n0), c: ellipsoidalRay.c - n0)
    }

    /// The highest of the four posts (NaN when one is a void).
    var highestPost: Double { max(max(h00, h01), max(h10, h11)) }

    var hasVoid: Bool { (h00 + h01 + h10 + h11).isNaN }

    /// The cell as far as it is known: itself without voids, else its ``knownEdge()``.
    func known() -> CellCrossing? { hasVoid ? knownEdge() : self }

    /// A cell with a void post is unknown, except along an edge whose two posts are known: a
    /// chord that runs along such an edge (to a millionth of a cell, as
    /// ``ElevationGrid/interpolate(latitude:longitude:)`` snaps) reads the edge. This gives the
    /// cell with the chord snapped onto the edge and the void posts, which then weigh nothing,
    /// set to 0; nil when the chord crosses unknown terrain.
    func knownEdge() -> CellCrossing? {
        let snap = 1e-6
        func on(_ a: Double, _ b: Double, _ line: Double) -> Bool { abs(a - line) < snap && abs(b - line) < snap }
        var cell = self
        if on(tr0, tr1, 0) { cell.tr0 = 0; cell.tr1 = 0; cell.h10 = 0; cell.h11 = 0 }
        else if on(tr0, tr1, 1) { cell.tr0 = 1; cell.tr1 = 1; cell.h00 = 0; cell.h01 = 0 }
        else if on(tc0, tc1, 0) { cell.tc0 = 0; cell.tc1 = 0; cell.h01 = 0; cell.h11 = 0 }
        else if on(tc0, tc1, 1) { cell.tc0 = 1; cell.tc1 = 1; cell.h00 = 0; cell.h10 = 0 }
        else { return nil }
        return cell.hasVoid ? nil : cell
    }

    /// The bilinear terrain along the chord as a quadratic in w, metres above mean sea level.
    @inline(__always) var terrain: Quadratic {
        let east = h01 - h00, south = h10 - h00, twist = h11 - h10 - h01 + h00
        let dr = tr1 - tr0, dc = tc1 - tc0
        return Quadratic(a: twist * dr * dc,
                         b: east * dc + south * dr + twist * (tr0 * dc + tc0 * dr),
                         c: h00 + east * tc0 + south * tr0 + twist * tr0 * tc0)
    }
}

/// A stretch of ray over a flat block of the pyramid (``MaximumPyramid/isFlat(level:row:column:)``:
/// every post of one height, a lake or the sea), its terrain taken whole rather than cell by cell.
struct FlatStretch {
    var s0: Double, s1: Double
    /// The terrain's height, metres above mean sea level.
    var height: Double
    /// The geoid's undulation under the ray as a quadratic in w ∈ [0, 1] from s0 to s1, through
    /// exact look-ups at both ends and halfway, all three in one cell of the geoid: along a
    /// straight track the bilinear geoid is a quadratic (the track bends by millimetres per
    /// kilometre), closer to it than a crossing's straight line between its ends.
    var undulation: Quadratic
}

/// What a walk along a ray looks for: the first hit, or the skyline.
protocol RayVisitor {
    /// Whether the ray passed over a void cell; once set, blocks with voids may be skipped.
    var crossedVoid: Bool { get }
    /// Whether terrain no higher than `maximum` metres above mean sea level, under the ray
    /// between u0 and u1 of `segment`, could change the answer. False lets the walk skip it.
    mutating func mayMatter(maximum: Double, segment: RayPath.Segment, from u0: Double, to u1: Double) -> Bool
    /// Whether terrain as high as `maximum` under the ray at u of `segment` matters whatever
    /// stretch follows (a cheap sufficient condition for ``mayMatter(maximum:segment:from:to:)``).
    func surelyMatters(maximum: Double, segment: RayPath.Segment, at u: Double) -> Bool
    /// Whether a cell the ray crosses needs a closer look (with the geoid looked up), from its
    /// posts and the segment's undulation bounds; void cells always do.
    func mayMatter(_ cell: CellCrossing) -> Bool
    /// Looks at one cell the ray crosses, with ``CellCrossing/n0`` and ``CellCrossing/n1`` set;
    /// true ends the walk.
    mutating func visit(_ cell: CellCrossing) -> Bool
    /// Whether anything at slant distance s or beyond could still change the answer; asked
    /// before every segment.
    mutating func goesOn(at s: Double, segment: RayPath.Segment) -> Bool
    /// Whether the walk hands this visitor the flat blocks that matter whole (``visit(flat:)``)
    /// rather than cell by cell.
    static var takesFlatBlocks: Bool { get }
    /// Looks at a flat block the ray crosses, whole; true ends the walk.
    mutating func visit(flat stretch: FlatStretch) -> Bool
}

extension RayVisitor {
    func surelyMatters(maximum: Double, segment: RayPath.Segment, at u: Double) -> Bool { false }
    static var takesFlatBlocks: Bool { false }
    mutating func visit(flat stretch: FlatStretch) -> Bool { preconditionFailure("flat blocks are handed only to visitors that take them") }
}

extension RayPath {
    /// How a walk ended.
    enum WalkEnd: Equatable {
        /// The visitor ended it.
        case stopped
        /// It reached its end, or the visitor saw nothing more to find.
        case finished(Double)
        /// The ray's ground track left the terrain data at this slant distance.
        case leftData(Double)
    }

    /// Positions within this many metres are the same: a boundary crossed is left behind by it,
    /// and a crossing closer than half of it ahead is taken as already made.
    static let nudge = 1e-6
    /// How far outside its grid (cells) the walk's arithmetic may put a track that the grid's own
    /// test placed inside: rounding in the two is of order 10⁻¹², this is 0.1 mm of a 90 m cell.
    static let edgeTolerance = 1e-9

    /// How far a point may lie outside a grid, degrees, for the walk still to take that grid
    /// (``grid(near:_:_:)``): a few hundred ulps of 8°, more than the sightline's longitude may
    /// stray from `atan2`'s (``Ellipsoid/geodeticOnRay(_:)``: a few ulps of π, under 10⁻¹³°
    /// only near ±180°), and 10 nm on the ground.
    static let gridTolerance = 1e-13

    /// The grid holding the point moved by ``gridTolerance`` east or west, when it holds the
    /// point itself to within half the walk's own ``edgeTolerance`` (in cells); nil otherwise.
    /// Asked only where no grid holds the point and the track runs along the eye's meridian: a
    /// ray due north or south from an eye on a tile's west or east edge, with no tile beyond,
    /// lies on one side of the edge or the other by the last bits of its longitude, and an
    /// answer's kind must not hang on those (within the grid's cells the walk already reads
    /// such a track as on the edge). Nothing else is asked: each look-up may change which
    /// tile the terrain answers first, and so the answers where tiles overlap.
    static func grid(near latitude: Double, _ longitude: Double,
                     _ gridContaining: (Double, Double) -> ElevationGrid?) -> ElevationGrid? {
        func holds(_ grid: ElevationGrid) -> Bool {
            let lon = normalizedLongitude(longitude) + grid.longitudeShift(toward: normalizedLongitude(longitude))
            let r = (grid.north - latitude) / grid.latitudeSpacing, c = (lon - grid.west) / grid.longitudeSpacing
            let slack = edgeTolerance / 2
            return r >= -slack && r <= Double(grid.rows - 1) + slack && c >= -slack && c <= Double(grid.columns - 1) + slack
        }
        if let grid = gridContaining(latitude, longitude + gridTolerance), holds(grid) { return grid }
        if let grid = gridContaining(latitude, longitude - gridTolerance), holds(grid) { return grid }
        return nil
    }

    /// Walks the ray from slant distance `start` to `end` over the terrain, cell by cell where the
    /// visitor cannot rule terrain out, skipping whole pyramid blocks where it can.
    ///
    /// A block of a level is skipped when `visitor.mayMatter` says its maximum cannot matter
    /// over the stretch of ray above it; otherwise the walk goes down a level, and at level 0
    /// walks the block's cells in order (Amanatides–Woo), handing each to the visitor. After a
    /// block it climbs a level when the track leaves that block's parent, and keeps its level
    /// from one segment to the next. Tiles are left and entered as the track crosses them.
    ///
    /// `withGrid` calls its third argument with the grid holding a point, read in place, and
    /// answers what that returned; nil when no grid holds the point
    /// (``TerrainGrids/withGrid(containing:longitude:_:)``): a closure rather than a generic
    /// terrain, so that the walk is specialised for its visitor wherever the terrain's type is
    /// generic. Read in place, a grid is not copied: a copy retains and releases its buffers,
    /// about 460 instructions that each of a viewshed's own sightlines paid at every segment.
    ///
    /// `keepsGrid`: the terrain answers the grid it answered last while that grid holds the
    /// point (``TerrainGrids/answersLastGridFirst``) and nothing else asks it during the walk;
    /// the walk then keeps that grid across segments rather than asking for it again (each
    /// answer is a copy of the grid, whose buffers are retained and released).
    ///
    /// `startLevel`: the pyramid level the walk begins at (the top when higher): a short walk
    /// that ends on the terrain, a viewshed cell's own sightline, would only find every block
    /// above a few hundred cells mattering, a level at a time.
    mutating func walk<V: RayVisitor>(from start: Double, to end: Double, visitor: inout V, keepsGrid: Bool = false,
                                      startLevel: Int = .max,
                                      withGrid: (Double, Double, (ElevationGrid) -> WalkEnd) -> WalkEnd?) -> WalkEnd {
        var s = start
        var segmentIndex = -1
        // The pyramid level the walk is at, carried from one segment to the next.
        var level = startLevel
        // The grid answered last, when it is a tile's (a seam's one-cell grid is 2 × 2 posts and
        // is not the terrain's last answer for what follows).
        var kept: ElevationGrid?
        while s < end {
            let segment = segment(at: s)
            let index = index(of: s)
            if index != segmentIndex {
                segmentIndex = index
                guard visitor.goesOn(at: s, segment: segment) else { return .finished(s) }
            }
            let segmentEnd = min(segment.start + segmentLength, end)
            let u = s - segment.start + Self.nudge
            let latitude = segment.latitude(u), longitude = segment.longitude(u)
            let walked: WalkEnd
            // The kept grid is read in place: bound to a constant, it was copied (its buffers
            // retained and released) at every segment.
            if kept?.contains(latitude: latitude, longitude: normalizedLongitude(longitude)) == true {
                walked = walk(kept.unsafelyUnwrapped, segment, from: s, to: segmentEnd, level: &level, visitor: &visitor)
            } else {
                // Not copied into `kept` when it is not kept: a viewshed's own sightlines, a
                // segment or two each, paid that copy's retains and releases (25 M on a plain).
                if let answer = withGrid(latitude, longitude, { grid in
                    if keepsGrid { kept = grid.rows == 2 && grid.columns == 2 ? nil : grid }
                    return walk(grid, segment, from: s, to: segmentEnd, level: &level, visitor: &visitor)
                }) {
                    walked = answer
                } else if abs(longitude - frame.origin.longitude) <= Self.gridTolerance,
                          // A track along the eye's meridian (a ray due north or south) may lie on a
                          // tile's edge, outside by the last bits of its longitude: ``grid(near:_:_:)``.
                          let near = Self.grid(near: latitude, longitude, { latitude, longitude in
                              var copy: ElevationGrid?
                              _ = withGrid(latitude, longitude) { copy = $0; return .stopped }
                              return copy
                          }) {
                    if keepsGrid { kept = near.rows == 2 && near.columns == 2 ? nil : near }
                    walked = walk(near, segment, from: s, to: segmentEnd, level: &level, visitor: &visitor)
                } else {
                    return .leftData(s)
                }
            }
            switch walked {
            case .stopped: return .stopped
            case .finished: s = segmentEnd
            case .leftData(let t):
                // A grid that holds the point by its own test but not by the walk's arithmetic
                // (rounding on its edge) is stepped over.
                s = t > s ? t : s + Self.nudge
            }
        }
        return .finished(end)
    }

    /// The walk within one grid and one segment, from s to `end` or until the track leaves the
    /// grid, starting at pyramid `level` (or the top) and leaving it where the walk ended.
    /// Mutating though it changes nothing: called from the closure that receives a grid read in
    /// place, a non-mutating call took a copy of the path (its arrays retained and released).
    private mutating func walk<V: RayVisitor>(_ grid: ElevationGrid, _ segment: RayPath.Segment, from s: Double, to end: Double,
                                              level: inout Int, visitor: inout V) -> WalkEnd {
        let shift = grid.longitudeShift(toward: segment.longitude(s - segment.start))
        // The track in the grid's fractional rows and columns (rows southward), quadratics in u.
        let row = segment.latitude.scaled(-1 / grid.latitudeSpacing, plus: grid.north / grid.latitudeSpacing)
        let column = segment.longitude.scaled(1 / grid.longitudeSpacing, plus: (shift - grid.west) / grid.longitudeSpacing)
        let pyramid = grid.pyramid
        let top = pyramid.levels - 1
        let lastRow = Double(grid.rows - 1), lastColumn = Double(grid.columns - 1)
        let columns = grid.columns
        // A grid of voids only has no known post to compare with: none is taken as below the ray.
        let ceiling = grid.maximumHeight.isNaN ? -Double.infinity : Double(grid.maximumHeight)
        let uEnd = end - segment.start
        let half = Self.nudge / 2
        var u = s - segment.start
        level = min(level, top)
        // The block last left, skipped or walked: the walk climbs a level only when it leaves
        // that block's parent too (the parent it came down from mattered; its other blocks are
        // taken one by one).
        var left: (row: Int, column: Int)?
        // Undulation at the start of the next cell, carried from the previous cell's exit.
        var undulation = (at: Double.nan, value: 0.0)
        var geoidCell = Geoid.Cell()
        // Where the track runs one way along an axis over the whole stretch (nearly always: it
        // bends by millimetres per kilometre), a cell is left only through its side ahead.
        let rowHeading = row.heading(from: u, to: uEnd), columnHeading = column.heading(from: u, to: uEnd)
        return grid.heights.withUnsafeBufferPointer { h -> WalkEnd in pyramid.withLevels { pyramid -> WalkEnd in
            while u < uEnd {
                let r = row(u + Self.nudge), c = column(u + Self.nudge)
                // The grid was chosen as holding this point by its own arithmetic; a track that
                // runs along the grid's edge may fall a rounding error outside by this one's and
                // reads the edge (else the walk would step along it a nudge at a time).
                guard r >= -Self.edgeTolerance, r <= lastRow + Self.edgeTolerance,
                      c >= -Self.edgeTolerance, c <= lastColumn + Self.edgeTolerance else { return .leftData(segment.start + u) }
                let cellOfRow = Int(r), cellOfColumn = Int(c)
                if let block = left, level < top {
                    let pr = min(MaximumPyramid.block(ofCell: cellOfRow, level: level + 1), pyramid.blockRows[level + 1] - 1)
                    let pc = min(MaximumPyramid.block(ofCell: cellOfColumn, level: level + 1), pyramid.blockColumns[level + 1] - 1)
                    if pr != block.row >> 1 || pc != block.column >> 1 { level += 1 }
                }
                left = nil
                let size = MaximumPyramid.cellsPerBlock(level: level)
                let br = min(MaximumPyramid.block(ofCell: cellOfRow, level: level), pyramid.blockRows[level] - 1)
                let bc = min(MaximumPyramid.block(ofCell: cellOfColumn, level: level), pyramid.blockColumns[level] - 1)
                let maximum = Double(pyramid.maximum(level: level, row: br, column: bc))
                // A block that matters where the ray enters it is looked into at once: where the
                // ray leaves it does not change that.
                if level > 0, visitor.surelyMatters(maximum: maximum, segment: segment, at: u) {
                    level -= 1
                    continue
                }
                // A block on the grid's edge reaches as far as the guard above lets the track:
                // were it to end at the edge itself, a track just past the edge (within the
                // tolerance) would find its exit behind it and walk on beyond the grid.
                let r0 = br == 0 ? -Self.edgeTolerance : Double(br * size)
                let r1 = Double((br + 1) * size) >= lastRow ? lastRow + Self.edgeTolerance : Double((br + 1) * size)
                let c0 = bc == 0 ? -Self.edgeTolerance : Double(bc * size)
                let c1 = Double((bc + 1) * size) >= lastColumn ? lastColumn + Self.edgeTolerance : Double((bc + 1) * size)
                let uExit = smallest(uEnd, row.exit(from: r0, r1, after: u + half, limit: uEnd, heading: rowHeading),
                                     column.exit(from: c0, c1, after: u + half, limit: uEnd, heading: columnHeading))
                // A block with a void is looked into until the ray is known to cross one: the
                // answer must say so, and only its cells tell whether the ray passes over it.
                if !visitor.mayMatter(maximum: maximum, segment: segment, from: u, to: uExit),
                   visitor.crossedVoid || !pyramid.hasVoid(level: level, row: br, column: bc) {
                    u = uExit
                    left = (br, bc)
                    continue
                }
                // A flat block, to a visitor that takes it whole, in one cell of the geoid (else
                // its blocks or cells, one by one).
                if V.takesFlatBlocks, pyramid.isFlat(level: level, row: br, column: bc) {
                    let n0 = undulation.at == u ? undulation.value : undulationAt(segment, u, &geoidCell)
                    let entry = (row: geoidCell.row, column: geoidCell.column)
                    let nm = undulationAt(segment, (u + uExit) / 2, &geoidCell)
                    let middle = (row: geoidCell.row, column: geoidCell.column)
                    let n1 = undulationAt(segment, uExit, &geoidCell)
                    undulation = (uExit, n1)
                    if entry == middle, entry == (geoidCell.row, geoidCell.column) {
                        let stretch = FlatStretch(s0: segment.start + u, s1: segment.start + uExit, height: maximum,
                                                  undulation: Quadratic(through: n0, nm, n1, length: 1))
                        if visitor.visit(flat: stretch) { return .stopped }
                        u = uExit
                        left = (br, bc)
                        continue
                    }
                }
                if level > 0 {
                    level -= 1
                    continue
                }
                var v = u
                // A cell is left through one side at a time: the exit through the other axis's
                // side ahead stands while the track stays in that row or column, and is kept
                // rather than found again (two Newton steps, two divisions waited on). From a
                // later start the steps find the same crossing to an ulp; a kept exit not ahead of
                // the point (a track grazing the side) is found again.
                var rowExit = (cell: -1, at: 0.0), columnExit = (cell: -1, at: 0.0)
                while v < uExit {
                    let rv = row(v + Self.nudge), cv = column(v + Self.nudge)
                    let cellRow = min(max(Int(rv), 0), grid.rows - 2), cellColumn = min(max(Int(cv), 0), columns - 2)
                    if rowExit.cell != cellRow || !(rowExit.at > v + half) {
                        rowExit = (cellRow, row.exit(from: cellRow == 0 ? -Self.edgeTolerance : Double(cellRow),
                                                     cellRow + 2 == grid.rows ? lastRow + Self.edgeTolerance : Double(cellRow + 1),
                                                     after: v + half, limit: uExit, heading: rowHeading))
                    }
                    if columnExit.cell != cellColumn || !(columnExit.at > v + half) {
                        columnExit = (cellColumn, column.exit(from: cellColumn == 0 ? -Self.edgeTolerance : Double(cellColumn),
                                                              cellColumn + 2 == columns ? lastColumn + Self.edgeTolerance : Double(cellColumn + 1),
                                                              after: v + half, limit: uExit, heading: columnHeading))
                    }
                    let vExit = smallest(uExit, rowExit.at, columnExit.at)
                    let i = cellRow * columns + cellColumn
                    let du = vExit - v
                    let height = segment.height
                    var cell = CellCrossing(s0: segment.start + v, s1: segment.start + vExit,
                                            tr0: row(v) - Double(cellRow), tc0: column(v) - Double(cellColumn),
                                            tr1: row(vExit) - Double(cellRow), tc1: column(vExit) - Double(cellColumn),
                                            h00: Double(h[i]), h01: Double(h[i + 1]),
                                            h10: Double(h[i + columns]), h11: Double(h[i + columns + 1]),
                                            ellipsoidalRay: Quadratic(a: height.a * du * du, b: height.slope(v) * du, c: height(v)),
                                            lowestUndulation: segment.lowestUndulation, highestUndulation: segment.highestUndulation)
                    if visitor.mayMatter(cell) {
                        cell.ceiling = ceiling
                        cell.n0 = undulation.at == v ? undulation.value : undulationAt(segment, v, &geoidCell)
                        cell.n1 = undulationAt(segment, vExit, &geoidCell)
                        undulation = (vExit, cell.n1)
                        if visitor.visit(cell) { return .stopped }
                    }
                    v = vExit
                }
                u = uExit
                left = (br, bc)
            }
            return .finished(segment.start + uEnd)
        } }
    }

    /// The undulation under the ray at u along a segment, metres, `cell` the geoid's cell looked
    /// up last.
    private func undulationAt(_ segment: RayPath.Segment, _ u: Double, _ cell: inout Geoid.Cell) -> Double {
        geoid.undulation(latitude: segment.latitude(u), longitude: segment.longitude(u), cell: &cell)
    }
}
