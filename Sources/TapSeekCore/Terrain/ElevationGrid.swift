import Foundation

/// An immutable grid of terrain heights on a regular latitude/longitude lattice of posts
/// (pixel-is-point), shared freely between threads.
///
/// Post (row r, column c) sits at latitude `north − r·latitudeSpacing` and longitude
/// `west + c·longitudeSpacing`; rows run north to south. Heights are metres above the
/// EGM96 geoid (mean sea level) as SRTM gives them; voids are NaN and mean *unknown*.
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
    /// Share of posts that are voids, 0…1.
    public let voidFraction: Double
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
                rows: Int, columns: Int, heights: [Float], boundsTerrain: Bool = true) {
        precondition(rows >= 2 && columns >= 2 && heights.count == rows * columns, "grid shape")
        precondition(latitudeSpacing > 0 && longitudeSpacing > 0, "grid spacing")
        self.north = north
        self.west = west
        self.latitudeSpacing = latitudeSpacing
        self.longitudeSpacing = longitudeSpacing
        self.rows = rows
        self.columns = columns
        self.heights = heights
        rowsPerDegree = 1 / latitudeSpacing
        columnsPerDegree = 1 / longitudeSpacing
        var lo = Float.infinity, hi = -Float.infinity, voids = 0
        for h in heights {
            if h.isNaN { voids += 1; continue }
            lo = min(lo, h)
            hi = max(hi, h)
        }
        minimumHeight = voids == heights.count ? .nan : lo
        maximumHeight = voids == heights.count ? .nan : hi
        voidFraction = Double(voids) / Double(heights.count)
        pyramid = boundsTerrain
            ? heights.withUnsafeBufferPointer { MaximumPyramid(rows: rows, columns: columns, heights: $0) }
            : MaximumPyramid(unboundedRows: rows, columns: columns)
    }

    /// Latitude of the last row of posts, degrees.
    public var south: Double { north - Double(rows - 1) * latitudeSpacing }
    /// Longitude of the last column of posts, degrees.
    public var east: Double { west + Double(columns - 1) * longitudeSpacing }
    /// Memory the heights and their pyramid take, bytes.
    public var byteCount: Int { heights.count * MemoryLayout<Float>.stride + pyramid.byteCount }

    /// Whether the point lies within the rectangle spanned by the posts (edges included), so
    /// that all four posts around it belong to this grid.
    @inlinable public func contains(latitude: Double, longitude: Double) -> Bool {
        latitude <= north && latitude >= south && longitude >= west && longitude <= east
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
        let fr = (north - latitude) * rowsPerDegreeValue
        let fc = (longitude - west) * columnsPerDegreeValue
        // The last row/column is reached from the cell before it with weight 1.
        let r = min(Int(fr), rows - 2)
        let c = min(Int(fc), columns - 2)
        let tr = fr - Double(r), tc = fc - Double(c)
        let v = heights.withUnsafeBufferPointer { h in
            let i = r * columns + c
            let h00 = Double(h[i]), h01 = Double(h[i + 1])
            let h10 = Double(h[i + columns]), h11 = Double(h[i + columns + 1])
            let top = h00 + (h01 - h00) * tc
            let bottom = h10 + (h11 - h10) * tc
            return top + (bottom - top) * tr
        }
        return v.isNaN ? interpolateBesideVoids(row: r, column: c, tr: tr, tc: tc) : v
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
