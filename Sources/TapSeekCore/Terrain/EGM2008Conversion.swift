/// The two global geoids side by side, for heights measured against EGM2008 (Copernicus tiles):
/// H₉₆ = H₀₈ + N₀₈ − N₉₆, both undulations bilinear on their own grids, as everywhere else.
public struct EGM2008Conversion: Sendable {
    public let egm2008: Geoid
    public let egm96: Geoid

    public init(egm2008: Geoid, egm96: Geoid) {
        self.egm2008 = egm2008
        self.egm96 = egm96
    }

    /// Loads the EGM2008 grid at `path` (GTX, such as PROJ's old `egm08_25.gtx`, or a GeoTIFF in
    /// EPSG:4326, such as PROJ's `us_nga_egm08_25.tif`) and EGM96 from `egm96Path`.
    /// - Throws: ``TerrainFileError`` naming the file that cannot be read.
    public init(egm2008Path path: String, egm96Path: String = Geoid.defaultPath) throws(TerrainFileError) {
        let lower = path.lowercased()
        let grid = lower.hasSuffix(".tif") || lower.hasSuffix(".tiff")
            ? try GeoTIFFTile.readGrid(path: path)
            : try GTXGrid.readGrid(path: path)
        self.init(egm2008: Geoid(grid: grid), egm96: try Geoid(gtxContentsOf: egm96Path))
    }

    /// EGM2008 minus EGM96 at a point, metres: what a height above EGM2008 gains when it is
    /// given above EGM96.
    public func shift(latitude: Double, longitude: Double) -> Double {
        egm2008.undulation(latitude: latitude, longitude: longitude) - egm96.undulation(latitude: latitude, longitude: longitude)
    }

    /// A grid of heights above EGM2008 as heights above EGM96. Along a row of posts each geoid's
    /// bilinear surface is linear between its own columns, so the shift is evaluated at the
    /// posts' ends and at every column of either geoid in between, and interpolated linearly
    /// between those: the same values as a look-up per post, at a fraction of the cost.
    public func toEGM96(_ grid: ElevationGrid) -> ElevationGrid {
        var heights = grid.heights
        let knots = breakpoints(from: grid.west, to: grid.east)
        heights.withUnsafeMutableBufferPointer { h in
            for r in 0..<grid.rows {
                let latitude = grid.north - Double(r) * grid.latitudeSpacing
                let row = h.baseAddress! + r * grid.columns
                var k = 0
                var left = knots[0], right = knots[min(1, knots.count - 1)]
                var leftShift = shift(latitude: latitude, longitude: left), rightShift = shift(latitude: latitude, longitude: right)
                for c in 0..<grid.columns {
                    let longitude = grid.west + Double(c) * grid.longitudeSpacing
                    while longitude > right, k + 2 < knots.count {
                        k += 1
                        (left, leftShift) = (right, rightShift)
                        right = knots[k + 1]
                        rightShift = shift(latitude: latitude, longitude: right)
                    }
                    let t = right > left ? (longitude - left) / (right - left) : 0
                    row[c] += Float(leftShift + (rightShift - leftShift) * t)
                }
            }
        }
        return ElevationGrid(north: grid.north, west: grid.west, latitudeSpacing: grid.latitudeSpacing,
                             longitudeSpacing: grid.longitudeSpacing, rows: grid.rows, columns: grid.columns, heights: heights)
    }

    /// `from`, `to` and every column longitude of either geoid strictly between, ascending.
    private func breakpoints(from west: Double, to east: Double) -> [Double] {
        var knots = [west, east]
        for g in [egm2008.grid, egm96.grid] {
            var c = ((west - g.west) / g.longitudeSpacing).rounded(.down) + 1
            while true {
                let longitude = g.west + c * g.longitudeSpacing
                guard longitude < east else { break }
                knots.append(longitude)
                c += 1
            }
        }
        return Set(knots).sorted()
    }
}
