import Foundation

extension ElevationGrid {
    /// The steepest slope of the grid's bilinear surface, metres of height per metre of ground
    /// distance (tan of the steepest inclination): the Lipschitz bound that lets a
    /// ``SightlineMarch`` prove that no crest rises between two samples.
    ///
    /// Inside a cell the bilinear surface's east gradient is a blend of the cell's two east–west
    /// post differences and its north gradient a blend of the two north–south ones, so
    /// |∇h| ≤ √(max|Δ_east|² / dx² + max|Δ_north|² / dy²) for every point of the cell. Ground
    /// widths use the WGS84 radii of curvature: dy = M(φ)·Δφ, dx = N(φ)·cos φ·Δλ, taken at the
    /// cell's poleward row where the cell is narrowest, so the bound is never low. Cells with a
    /// void post are skipped (no height is interpolated inside them). Cells touching a pole are
    /// capped at ``SightlineMarch/steepestBoundedSlope``.
    ///
    /// Cost: one pass over the posts (about 5 ms for a 1201 × 1201 tile in a release build).
    /// - Returns: 0 for a grid that is flat or all void.
    public func steepestSlope() -> Double {
        var steepest = 0.0
        forEachCellSlope(cellsPerBlock: Int.max, blockColumns: 1) { _, squared in steepest = max(steepest, squared) }
        return min(steepest.squareRoot(), SightlineMarch.steepestBoundedSlope)
    }

    /// The steepest slope block by block: see ``SlopeMap``. One pass over the posts.
    /// - Parameter cellsPerBlock: cells along each side of a block; 16 makes a 3″ tile's
    ///   blocks about 1.5 km across and its map 75 × 75 values.
    public func slopeMap(cellsPerBlock: Int = SlopeMap.defaultCellsPerBlock) -> SlopeMap {
        precondition(cellsPerBlock >= 1, "cellsPerBlock must be positive")
        let blockRows = (rows - 2) / cellsPerBlock + 1, blockColumns = (columns - 2) / cellsPerBlock + 1
        var slopes = [Double](repeating: 0, count: blockRows * blockColumns)
        forEachCellSlope(cellsPerBlock: cellsPerBlock, blockColumns: blockColumns) { i, squared in
            if squared > slopes[i] { slopes[i] = squared }
        }
        for i in slopes.indices { slopes[i] = min(slopes[i].squareRoot(), SightlineMarch.steepestBoundedSlope) }
        return SlopeMap(grid: self, cellsPerBlock: cellsPerBlock, blockRows: blockRows, blockColumns: blockColumns, slopes: slopes)
    }

    /// Calls `body(block, squaredSlope)` for every cell without a void post, with the square of
    /// the bound on its slope described in ``steepestSlope()`` (one square root per block, not
    /// per cell) and the row-major index of its block.
    private func forEachCellSlope(cellsPerBlock: Int, blockColumns: Int, _ body: (Int, Double) -> Void) {
        let ellipsoid = Ellipsoid.wgs84
        let e2 = ellipsoid.eccentricitySquared
        let degree = Double.pi / 180
        heights.withUnsafeBufferPointer { h in
            for r in 0..<(rows - 1) {
                let northRow = north - Double(r) * latitudeSpacing
                let southRow = northRow - latitudeSpacing
                // The poleward row of the cell: the larger |latitude|.
                let poleward = abs(northRow) > abs(southRow) ? northRow : southRow
                let phi = min(abs(poleward), 90) * degree
                let w2 = 1 - e2 * sin(phi) * sin(phi)
                let primeVertical = ellipsoid.semiMajorAxis / w2.squareRoot()
                let meridian = ellipsoid.semiMajorAxis * (1 - e2) / (w2 * w2.squareRoot())
                // At the cell's equatorward row the meridian radius is smaller still; the
                // difference over one cell (< 1e−6 relative) is covered by the march's margin.
                let dy = meridian * latitudeSpacing * degree
                let dx = primeVertical * cos(phi) * longitudeSpacing * degree
                // Cells touching a pole have no width: bounded by the cap.
                let perEast = dx > 0 ? 1 / dx : .infinity, perNorth = dy > 0 ? 1 / dy : .infinity
                let top = r * columns, bottom = top + columns
                let rowOfBlocks = (r / cellsPerBlock) * blockColumns
                var block = rowOfBlocks, left = cellsPerBlock
                for c in 0..<(columns - 1) {
                    if left == 0 {
                        block += 1
                        left = cellsPerBlock
                    }
                    left -= 1
                    let h00 = h[top + c], h01 = h[top + c + 1], h10 = h[bottom + c], h11 = h[bottom + c + 1]
                    // NaN (a void post) makes the sum NaN: no height is interpolated there.
                    if (h00 + h01 + h10 + h11).isNaN { continue }
                    let gx = Double(max(abs(h01 - h00), abs(h11 - h10))) * perEast
                    let gy = Double(max(abs(h00 - h10), abs(h01 - h11))) * perNorth
                    let squared = gx * gx + gy * gy
                    body(block, squared.isNaN ? .infinity : squared)
                }
            }
        }
    }
}
