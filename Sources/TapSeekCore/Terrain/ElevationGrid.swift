import Foundation

/// An immutable grid of terrain heights on a regular latitude/longitude lattice of posts
/// (pixel-is-point), shared freely between threads.
///
/// Post (row r, column c) sits at latitude `north − r·latitudeSpacing` and longitude
/// `west + c·longitudeSpacing`; rows run north to south. Heights are metres above the
/// EGM96 geoid (mean sea level) as SRTM gives them; voids are NaN and mean *unknown*. A grid
/// whose voids were filled (``fillingVoids(within:)``) says which posts were in ``filled``.
public struct ElevationGrid: Sendable {
    /// Latitude of the first row of posts, degrees.
    public let north: Double
    /// Longitude of the first column of posts, degrees.
    public let west: Double
    /// Distance between rows and between columns of posts, degrees (both positive).
    public let latitudeSpacing: Double
    public let longitudeSpacing: Double
    public let rows: Int
    public let columns: Int
    /// Heights row-major, north row first; NaN marks a void.
    public let heights: [Float]
    /// Lowest and highest known height, metres (NaN when the grid is all void).
    public let minimumHeight: Float
    public let maximumHeight: Float
    /// Share of posts that are voids, 0…1 (after any filling: the posts still unknown).
    public let voidFraction: Double
    /// The posts filled in across voids (``VoidFill``), nil when none was.
    public let filled: PostMask?
    /// The highest post over blocks of cells, level by level: lets a sightline skip terrain
    /// it provably clears. Built with the grid.
    public let pyramid: MaximumPyramid

    private let rowsPerDegree: Double
    private let columnsPerDegree: Double

    /// - Parameters:
    ///   - heights: `rows × columns` values, row-major from the north; NaN for voids.
    ///   - boundsTerrain: whether to build the ``pyramid`` of block maxima that lets a
    ///     sightline skip terrain. A grid that is only looked up (the geoid's undulations) passes
    ///     false and gets a pyramid that bounds nothing: marching over it stays exact, only slow.
    public init(north: Double, west: Double, latitudeSpacing: Double, longitudeSpacing: Double,
                rows: Int, columns: Int, heights: [Float], boundsTerrain: Bool = true, filled: PostMask? = nil) {
        self.init(north: north, west: west, latitudeSpacing: latitudeSpacing, longitudeSpacing: longitudeSpacing,
                  rows: rows, columns: columns, heights: heights, boundsTerrain: boundsTerrain, filled: filled, extent: nil)
    }

    /// As the public initialiser, with the ``extent(of:)`` of `heights` when the caller knows
    /// it without a pass over them (a tile whose few filled posts were put in): nil measures it.
    init(north: Double, west: Double, latitudeSpacing: Double, longitudeSpacing: Double,
         rows: Int, columns: Int, heights: [Float], boundsTerrain: Bool = true, filled: PostMask? = nil,
         extent known: (lowest: Float, highest: Float, voids: Int)?) {
        precondition(rows >= 2 && columns >= 2 && heights.count == rows * columns, "grid shape")
        precondition(latitudeSpacing > 0 && longitudeSpacing > 0, "grid spacing")
        self.north = north
        self.west = west
        self.latitudeSpacing = latitudeSpacing
        self.longitudeSpacing = longitudeSpacing
        self.rows = rows
        self.columns = columns
        self.heights = heights
        self.filled = filled
        rowsPerDegree = 1 / latitudeSpacing
        columnsPerDegree = 1 / longitudeSpacing
        let (lo, hi, voids) = known ?? Self.extent(of: heights)
        minimumHeight = voids == heights.count ? .nan : lo
        maximumHeight = voids == heights.count ? .nan : hi
        voidFraction = Double(voids) / Double(heights.count)
        pyramid = boundsTerrain
            ? heights.withUnsafeBufferPointer { MaximumPyramid(rows: rows, columns: columns, heights: $0) }
            : MaximumPyramid(unboundedRows: rows, columns: columns)
    }

    /// The lowest and highest known height and the number of voids. Sixteen posts at a time (a
    /// NaN compares false, so it moves neither extreme), then the rest: a loop over a tile's
    /// million posts that the compiler vectorises, where a scalar one with a branch per void
    /// cost 8 instructions a post, a sixth of a viewshed's start-up.
    static func extent(of heights: [Float]) -> (lowest: Float, highest: Float, voids: Int) {
        heights.withUnsafeBufferPointer { h in
            var lo = SIMD16<Float>(repeating: .infinity), hi = SIMD16<Float>(repeating: -.infinity)
            var voids = SIMD16<Int32>.zero
            let one = SIMD16<Int32>(repeating: 1)
            var i = 0
            while i + 16 <= h.count {
                let v = UnsafeRawPointer(h.baseAddress! + i).loadUnaligned(as: SIMD16<Float>.self)
                lo.replace(with: v, where: v .< lo)
                hi.replace(with: v, where: v .> hi)
                voids &+= one.replacing(with: 0 as Int32, where: v .== v)
                i += 16
            }
            var lowest = lo.min(), highest = hi.max(), count = Int(voids.wrappedSum())
            while i < h.count {
                let v = h[i]
                if v.isNaN { count += 1 } else {
                    lowest = min(lowest, v)
                    highest = max(highest, v)
                }
                i += 1
            }
            return (lowest, highest, count)
        }
    }

    /// The grid with the ``pyramid`` that bounds its terrain: itself when it has it, else the same
    /// posts, extent and filled mask with the pyramid built. A tile whose voids are filled on
    /// load is read without one and gets it once filled (building it twice cost 14 M
    /// instructions of a 3″ tile's load, a ninth of `elevation` of one point).
    public func boundingTerrain() -> ElevationGrid {
        pyramid.boundsTerrain ? self : ElevationGrid(self, pyramid: heights.withUnsafeBufferPointer { MaximumPyramid(rows: rows, columns: columns, heights: $0) })
    }

    private init(_ grid: ElevationGrid, pyramid: MaximumPyramid) {
        north = grid.north
        west = grid.west
        latitudeSpacing = grid.latitudeSpacing
        longitudeSpacing = grid.longitudeSpacing
        rows = grid.rows
        columns = grid.columns
        heights = grid.heights
        minimumHeight = grid.minimumHeight
        maximumHeight = grid.maximumHeight
        voidFraction = grid.voidFraction
        filled = grid.filled
        self.pyramid = pyramid
        rowsPerDegree = grid.rowsPerDegree
        columnsPerDegree = grid.columnsPerDegree
    }

    /// Latitude of the last row of posts, degrees.
    public var south: Double { north - Double(rows - 1) * latitudeSpacing }
    /// Longitude of the last column of posts, degrees.
    public var east: Double { west + Double(columns - 1) * longitudeSpacing }
    /// Memory the heights and their pyramid take, bytes.
    public var byteCount: Int { heights.count * MemoryLayout<Float>.stride + pyramid.byteCount + (filled?.byteCount ?? 0) }

    /// Share of posts filled in across voids, 0…1.
    public var filledFraction: Double { Double(filled?.count ?? 0) / Double(heights.count) }

    /// The grid with its voids filled from the posts around them (``VoidFill``), those no
    /// farther than `reach` metres from known terrain; the grid itself when it has no void.
    /// Costs nothing for a grid without voids (their count is known from loading).
    public func fillingVoids(within reach: Double = VoidFill.maximumReach) -> ElevationGrid {
        guard voidFraction > 0 else { return self }
        var h = Self.copyOnHugePages(heights)
        let middle = radians((north + south) / 2)
        let rowSpacing = latitudeSpacing * VoidFill.metresPerDegree
        let columnSpacing = max(longitudeSpacing * VoidFill.metresPerDegree * cos(middle), 1e-3)
        guard let mask = VoidFill.fill(&h, rows: rows, columns: columns, rowSpacing: rowSpacing,
                                       columnSpacing: columnSpacing, reach: reach) else { return self }
        return ElevationGrid(north: north, west: west, latitudeSpacing: latitudeSpacing, longitudeSpacing: longitudeSpacing,
                             rows: rows, columns: columns, heights: h, filled: mask)
    }

    /// ``fillingVoids(within:)`` of only the voids with a post in `area` (a row and column of
    /// posts around it included), each filled to the bit as the whole grid's fill fills it
    /// (``VoidFill``); the other voids stay unknown. nil `area`: every void.
    public func fillingVoids(within reach: Double = VoidFill.maximumReach, area: VoidFillArea?) -> ElevationGrid {
        guard let area else { return fillingVoids(within: reach) }
        guard voidFraction > 0, let region = voidFillRegion(of: area) else { return self }
        var h = Self.copyOnHugePages(heights)
        let middle = radians((north + south) / 2)
        let rowSpacing = latitudeSpacing * VoidFill.metresPerDegree
        let columnSpacing = max(longitudeSpacing * VoidFill.metresPerDegree * cos(middle), 1e-3)
        guard let mask = VoidFill.fill(&h, rows: rows, columns: columns, rowSpacing: rowSpacing,
                                       columnSpacing: columnSpacing, reach: reach, region: region) else { return self }
        return ElevationGrid(north: north, west: west, latitudeSpacing: latitudeSpacing, longitudeSpacing: longitudeSpacing,
                             rows: rows, columns: columns, heights: h, filled: mask)
    }

    /// The posts of `area` (a row and column around it included), clamped to the grid; nil
    /// when the area misses the grid.
    func voidFillRegion(of area: VoidFillArea) -> VoidFill.Region? {
        let shift = longitudeShift(toward: (area.west + area.east) / 2)
        let rowRange = ((north - area.north) / latitudeSpacing).rounded(.down) - 1...((north - area.south) / latitudeSpacing).rounded(.up) + 1
        let columnRange = ((area.west + shift - west) / longitudeSpacing).rounded(.down) - 1...((area.east + shift - west) / longitudeSpacing).rounded(.up) + 1
        guard rowRange.upperBound >= 0, rowRange.lowerBound <= Double(rows - 1),
              columnRange.upperBound >= 0, columnRange.lowerBound <= Double(columns - 1) else { return nil }
        return VoidFill.Region(rows: Int(max(rowRange.lowerBound, 0))...Int(min(rowRange.upperBound, Double(rows - 1))),
                               columns: Int(max(columnRange.lowerBound, 0))...Int(min(columnRange.upperBound, Double(columns - 1))))
    }

    /// Whether ``fillingVoids(within:area:)`` of `area` fills every void, as the whole grid's
    /// fill does: nil, or an area holding every post (a viewshed's window cut to its range).
    public func voidFillCoversGrid(area: VoidFillArea?) -> Bool {
        guard let area else { return true }
        guard let region = voidFillRegion(of: area) else { return false }
        return region.rows == 0...(rows - 1) && region.columns == 0...(columns - 1)
    }

    /// How many posts are voids (NaN), from ``voidFraction``.
    var voidCount: Int { Int((voidFraction * Double(heights.count)).rounded()) }

    /// A copy of `heights` in storage advised onto huge pages (``HugePages``): the fill writes
    /// into a copy of the tile's posts, and the copy made by writing to the array faulted its
    /// megabytes in 4 KiB page by page (a tenth of a one-point `elevation`'s time on N46E008
    /// went to page faults).
    static func copyOnHugePages(_ heights: [Float]) -> [Float] {
        HugePages.array(count: heights.count) { h in heights.withUnsafeBufferPointer { _ = h.initialize(fromContentsOf: $0) } }
    }

    /// Whether the bilinear height at a point inside the grid rests on a filled post: one of
    /// the four posts around it that weigh in (as ``interpolate(latitude:longitude:)`` snaps).
    public func isFilled(latitude: Double, longitude: Double) -> Bool {
        guard filled != nil, contains(latitude: latitude, longitude: longitude) else { return false }
        return isFilled(row: cellRow(latitude: latitude), column: cellColumn(longitude: longitude))
    }

    /// ``isFilled(latitude:longitude:)`` of the point at this ``cellRow(latitude:)`` and
    /// ``cellColumn(longitude:)``: a look-up that found the cell for the height asks here
    /// without finding it again.
    @inlinable public func isFilled(row: (index: Int, fraction: Double), column: (index: Int, fraction: Double)) -> Bool {
        // Read in place: `if let` of the optional mask would retain and release its words.
        guard filled != nil else { return false }
        let snap = 1e-6
        let i = row.index * columns + column.index
        let south = row.fraction > snap, north = row.fraction < 1 - snap
        let east = column.fraction > snap, west = column.fraction < 1 - snap
        return (north && west && filled!.contains(i)) || (north && east && filled!.contains(i + 1))
            || (south && west && filled!.contains(i + columns)) || (south && east && filled!.contains(i + columns + 1))
    }

    /// The bilinear height at a point the grid holds and whether it rests on a filled post
    /// (``height(latitude:longitude:)`` and ``isFilled(latitude:longitude:)`` from one finding of
    /// the point's cell, the same arithmetic, so the same answers); nil when the grid does not
    /// hold the point or the height is unknown. `longitude` normalised to ±180° (a grid holding
    /// such a point needs no shift of 360°: it is narrower than 360°).
    @inlinable public func heightMarkingFilled(latitude: Double, longitude: Double) -> (height: Double, filled: Bool)? {
        guard contains(latitude: latitude, longitude: longitude) else { return nil }
        let row = cellRow(latitude: latitude), column = cellColumn(longitude: longitude)
        let h = interpolate(row: row.index, tr: row.fraction, column: column.index, tc: column.fraction)
        if h.isNaN { return nil }
        return (h, isFilled(row: row, column: column))
    }

    /// ``isFilled(latitude:longitude:)`` for a point this grid holds (`longitude` normalised to
    /// ±180°, shifted toward the grid as ``TerrainSampler`` does); nil when it does not hold it.
    @inlinable public func isFilledIfHolding(latitude: Double, longitude: Double) -> Bool? {
        guard contains(latitude: latitude, longitude: longitude) else { return nil }
        return filled != nil && isFilled(latitude: latitude, longitude: longitude + longitudeShift(toward: longitude))
    }

    /// Whether the point lies within the rectangle spanned by the posts (edges included), so
    /// that all four posts around it belong to this grid.
    @inlinable public func contains(latitude: Double, longitude: Double) -> Bool {
        latitude <= north && latitude >= south && longitude >= west && longitude <= east
    }

    /// Whether `other`'s posts lie where this grid's do: the same corner, spacings, rows and columns.
    public func hasSameLattice(as other: ElevationGrid) -> Bool {
        hasLattice(north: other.north, west: other.west, latitudeSpacing: other.latitudeSpacing,
                   longitudeSpacing: other.longitudeSpacing, rows: other.rows, columns: other.columns)
    }

    /// Whether this grid's posts lie on the lattice of that corner, spacings, rows and columns (a
    /// catalog tile's, say).
    public func hasLattice(north: Double, west: Double, latitudeSpacing: Double, longitudeSpacing: Double, rows: Int, columns: Int) -> Bool {
        north == self.north && west == self.west && rows == self.rows && columns == self.columns
            && latitudeSpacing == self.latitudeSpacing && longitudeSpacing == self.longitudeSpacing
    }

    /// Height at a point by bilinear interpolation between the four surrounding posts, metres
    /// above mean sea level; nil when the point is outside the posts' rectangle or any of the
    /// four posts is a void. Exact at posts; error vs the true surface bounded by the data.
    @inlinable public func height(latitude: Double, longitude: Double) -> Double? {
        guard contains(latitude: latitude, longitude: longitude) else { return nil }
        let h = interpolate(latitude: latitude, longitude: longitude)
        return h.isNaN ? nil : h
    }

    /// Bilinear height at a point known to be inside ``contains(latitude:longitude:)``; NaN when
    /// any of the four posts is a void. The hot path of every look-up.
    @inlinable public func interpolate(latitude: Double, longitude: Double) -> Double {
        let row = cellRow(latitude: latitude), column = cellColumn(longitude: longitude)
        return interpolate(row: row.index, tr: row.fraction, column: column.index, tc: column.fraction)
    }

    /// The row of cells holding a latitude within the grid, and how far (0…1) it lies south
    /// of the cell's north posts: the latitude's part of ``interpolate(latitude:longitude:)``,
    /// so that a caller looking up many points along a parallel computes it once.
    @inlinable public func cellRow(latitude: Double) -> (index: Int, fraction: Double) {
        let fr = (north - latitude) * rowsPerDegreeValue
        // The last row is reached from the cell before it with weight 1.
        let r = min(Int(fr), rows - 2)
        return (r, fr - Double(r))
    }

    /// The column of cells holding a longitude within the grid, and how far (0…1) it lies east
    /// of the cell's west posts: the longitude's part of ``interpolate(latitude:longitude:)``.
    @inlinable public func cellColumn(longitude: Double) -> (index: Int, fraction: Double) {
        let fc = (longitude - west) * columnsPerDegreeValue
        let c = min(Int(fc), columns - 2)
        return (c, fc - Double(c))
    }

    /// ``interpolate(latitude:longitude:)`` from the point's ``cellRow(latitude:)`` and
    /// ``cellColumn(longitude:)``: the same arithmetic, so the same height to the last bit.
    @inlinable public func interpolate(row r: Int, tr: Double, column c: Int, tc: Double) -> Double {
        let v = heights.withUnsafeBufferPointer { Self.bilinear($0, columns: columns, at: r * columns + c, tr: tr, tc: tc) }
        return v.isNaN ? interpolateBesideVoids(row: r, column: c, tr: tr, tc: tc) : v
    }

    /// The bilinear height between posts `i`, `i + 1` and the two below them in `heights`, rows
    /// of `columns`, at fractions `tr` southward and `tc` eastward; NaN beside a void. The one
    /// formula of every bilinear look-up, so that any two give the same bits.
    @inlinable @inline(__always)
    public static func bilinear(_ h: UnsafeBufferPointer<Float>, columns: Int, at i: Int, tr: Double, tc: Double) -> Double {
        let h00 = Double(h[i]), h01 = Double(h[i + 1])
        let h10 = Double(h[i + columns]), h11 = Double(h[i + columns + 1])
        let top = h00 + (h01 - h00) * tc
        let bottom = h10 + (h11 - h10) * tc
        return top + (bottom - top) * tr
    }

    /// Bilinear interpolation when a void is among the four posts: a void post with (next to)
    /// no weight does not spoil the answer, so a valid post next to a void still reads its own
    /// height; anywhere else near the void the height is unknown (NaN).
    @usableFromInline func interpolateBesideVoids(row r: Int, column c: Int, tr: Double, tc: Double) -> Double {
        // Positions within a millionth of a cell of a post count as on it (rounding of the
        // post's own coordinates).
        let snap = 1e-6
        let wr = tr < snap ? 0 : (tr > 1 - snap ? 1 : tr), wc = tc < snap ? 0 : (tc > 1 - snap ? 1 : tc)
        var sum = 0.0
        for (dr, dc, w) in [(0, 0, (1 - wr) * (1 - wc)), (0, 1, (1 - wr) * wc), (1, 0, wr * (1 - wc)), (1, 1, wr * wc)] where w > 0 {
            let h = Double(heights[(r + dr) * columns + c + dc])
            if h.isNaN { return .nan }
            sum += w * h
        }
        return sum
    }

    /// The height of post (row, column), or nil when it is a void or outside the grid.
    public func post(row: Int, column: Int) -> Float? {
        guard row >= 0, row < rows, column >= 0, column < columns else { return nil }
        let h = heights[row * columns + column]
        return h.isNaN ? nil : h
    }

    @usableFromInline var rowsPerDegreeValue: Double { rowsPerDegree }
    @usableFromInline var columnsPerDegreeValue: Double { columnsPerDegree }
}
