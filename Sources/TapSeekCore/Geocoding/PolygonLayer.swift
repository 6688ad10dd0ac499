import Foundation

/// One layer of polygons in a geocoder index (countries, or first-level regions): a grid with
/// quadtrees beneath that answers "which owner holds this point" mostly without testing a
/// polygon, read in place from the index's bytes.
///
/// Structure (sections `…GRD`, `…NOD`, `…LEF`):
/// - a ``QuadGrid`` whose codes are: 0 no owner (payload 1: open sea, no border within the
///   index's open-sea margin; 0: search nearby), 1 an owner that holds the whole cell, 2 an
///   internal node, 3 a leaf at byte offset 8 × payload in the leaf blob;
/// - a leaf: `UInt16` candidate count, `UInt16` background owner (holding the leaf without an
///   edge in it; 0xFFFF none), `UInt32` byte length; per candidate `UInt16` owner, `UInt8`
///   whether the leaf's south-east corner is inside it, pad, `UInt32` run count; per run
///   `UInt32` vertex count, pad, and the vertices (`Float32` longitude, latitude) of a stretch
///   of the owner's boundary that meets the leaf. Candidates come most specific first (the
///   owner with the smallest ring in the leaf), so that an exclave drawn over its surroundings
///   without a hole in them wins.
///
/// A point in a leaf is placed by ``PointInPolygon/cellContains(px:py:east:south:cornerInside:edges:)``.
struct PolygonLayer: Sendable {
    static let noOwner: UInt16 = 0xFFFF
    typealias Cell = QuadGrid.Cell

    let cells: QuadGrid
    /// Byte offset of the leaf blob, and its size.
    let leaves: Int, leafBytes: Int
    let ownerCount: Int
    /// Whether open-sea codes may be trusted to mean "no border within the coastal fringe".
    let trustsOpenSea: Bool

    /// Reads the sections tagged `prefix` + GRD, NOD, LEF.
    init(sections: IndexSections, prefix: String, ownerCount: Int, trustsOpenSea: Bool) throws(GeocoderIndexError) {
        cells = try QuadGrid(sections: sections, prefix: prefix)
        let leafRange = try sections.require(prefix + "LEF", stride: 8)
        leaves = leafRange.lowerBound
        leafBytes = leafRange.count
        self.ownerCount = ownerCount
        self.trustsOpenSea = trustsOpenSea
    }

    // MARK: Reading records

    @inline(__always) private func u32(_ raw: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
        raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
    }

    @inline(__always) private func u16(_ raw: UnsafeRawBufferPointer, _ offset: Int) -> UInt16 {
        raw.loadUnaligned(fromByteOffset: offset, as: UInt16.self)
    }

    /// The vertex at byte offset `at` as (longitude, latitude) degrees.
    @inline(__always) private func vertex(_ raw: UnsafeRawBufferPointer, _ at: Int) -> (Double, Double) {
        let v = raw.loadUnaligned(fromByteOffset: at, as: SIMD2<Float>.self)
        return (Double(v.x), Double(v.y))
    }

    /// A leaf's candidates and background, or nil when the index is damaged there.
    struct Leaf {
        /// Byte offset of the first candidate and of the leaf's end.
        var first: Int
        var end: Int
        var count: Int
        var background: UInt16
    }

    @inline(__always) private func leaf(_ raw: UnsafeRawBufferPointer, _ payload: Int) -> Leaf? {
        let at = 8 * payload
        guard at + 8 <= leafBytes else { return nil }
        let head = u32(raw, leaves + at)
        let length = Int(u32(raw, leaves + at + 4))
        guard length >= 8, at + length <= leafBytes else { return nil }
        return Leaf(first: leaves + at + 8, end: leaves + at + length, count: Int(head & 0xFFFF), background: UInt16(head >> 16))
    }

    /// The candidate at byte offset `at`: its owner, corner state and run count.
    @inline(__always) private func candidate(_ raw: UnsafeRawBufferPointer, _ at: Int) -> (owner: Int, inside: Bool, runs: Int) {
        let head = u32(raw, at)
        return (Int(head & 0xFFFF), head & 0xFF_0000 != 0, Int(u32(raw, at + 4)))
    }

    /// Calls `body` with every edge (x1, y1, x2, y2) of the candidate at byte offset `at`, whose
    /// runs end before `end`; returns the offset just past the candidate.
    @inline(__always) private func forEachEdge(_ raw: UnsafeRawBufferPointer, candidateAt at: Int, runs: Int, end: Int,
                                               _ body: (Double, Double, Double, Double) -> Void) -> Int {
        var p = at + 8
        for _ in 0..<runs {
            guard p + 8 <= end else { return end }
            let count = Int(u32(raw, p))
            p += 8
            guard count >= 1, p + 8 * count <= end else { return end }
            var (x1, y1) = vertex(raw, p)
            for i in 1..<count {
                let (x2, y2) = vertex(raw, p + 8 * i)
                body(x1, y1, x2, y2)
                x1 = x2
                y1 = y2
            }
            p += 8 * count
        }
        return p
    }

    /// The offset just past the candidate at `at`, without reading its vertices.
    @inline(__always) private func skip(_ raw: UnsafeRawBufferPointer, candidateAt at: Int, runs: Int, end: Int) -> Int {
        var p = at + 8
        for _ in 0..<runs {
            guard p + 8 <= end else { return end }
            p += 8 + 8 * Int(u32(raw, p))
        }
        return min(p, end)
    }

    // MARK: Queries

    /// The first owner holding (x, y) that `accept` takes, in the leaf's order (most specific
    /// ring first, the background last); nil when none.
    ///
    /// - Parameters:
    ///   - x: longitude, degrees in [−180, 180).
    ///   - y: latitude, degrees in [−90, 90].
    @inline(__always)
    func owner(_ raw: UnsafeRawBufferPointer, x: Double, y: Double, accept: (Int) -> Bool) -> Int? {
        let cell = cells.locate(raw, x: x, y: y)
        switch cell.tag {
        case QuadGrid.tagOwner:
            let owner = cell.payload
            return owner < ownerCount && accept(owner) ? owner : nil
        case QuadGrid.tagLeaf:
            guard let leaf = leaf(raw, cell.payload) else { return nil }
            let east = cell.west + cell.size
            var at = leaf.first
            for _ in 0..<leaf.count where at + 8 <= leaf.end {
                let c = candidate(raw, at)
                guard c.owner < ownerCount, accept(c.owner) else {
                    at = skip(raw, candidateAt: at, runs: c.runs, end: leaf.end)
                    continue
                }
                var next = at
                let inside = PointInPolygon.cellContains(px: x, py: y, east: east, south: cell.south, cornerInside: c.inside) { edge in
                    next = forEachEdge(raw, candidateAt: at, runs: c.runs, end: leaf.end, edge)
                }
                if inside { return c.owner }
                at = next
            }
            let background = Int(leaf.background)
            return leaf.background != Self.noOwner && background < ownerCount && accept(background) ? background : nil
        default:
            return nil
        }
    }

    /// Whether (x, y) lies in a top cell with no border within the index's open-sea margin, so
    /// that a nearest-border search cannot find anything.
    func isOpenSea(_ raw: UnsafeRawBufferPointer, x: Double, y: Double) -> Bool {
        guard trustsOpenSea else { return false }
        let top = QuadGrid.topColumnRow(x: x, y: y)
        return cells.topCell(raw, column: top.column, row: top.row).code == QuadGrid.tagEmpty << 30 | 1
    }

    /// The owner `accept` takes whose boundary passes nearest to (x, y), and that distance in
    /// metres, when it is at most `maximumDistance`.
    ///
    /// Distances are measured in the plane tangent at the point, with the WGS84 radii of
    /// curvature there: within 0.1 % for the few kilometres this is used for, away from the poles
    /// (within `maximumDistance` of a pole every longitude is searched, but the plane is poor).
    /// Branch and bound: cells are visited nearest first and skipped once they lie farther than
    /// the best edge so far.
    func nearestOwner(_ raw: UnsafeRawBufferPointer, x: Double, y: Double, within maximumDistance: Double,
                      accept: (Int) -> Bool) -> (owner: Int, distance: Double)? {
        let ellipsoid = Ellipsoid.wgs84
        let phi = y * .pi / 180
        let s = sin(phi)
        let w2 = 1 - ellipsoid.eccentricitySquared * s * s
        // Metres per degree along the meridian (M) and the parallel (N cos φ) at the point.
        let metresPerDegreeY = ellipsoid.semiMajorAxis * (1 - ellipsoid.eccentricitySquared) / (w2 * w2.squareRoot()) * .pi / 180
        let metresPerDegreeX = max(ellipsoid.semiMajorAxis / w2.squareRoot() * cos(phi) * .pi / 180, 1e-9)
        // The search box, generously: a degree of latitude is never shorter than at the equator,
        // a degree of longitude never shorter than on the sphere of radius a at the box's
        // poleward edge.
        let shortestDegreeOfLatitude = ellipsoid.semiMajorAxis * (1 - ellipsoid.eccentricitySquared) * .pi / 180
        let dy = maximumDistance / shortestDegreeOfLatitude
        let polewardCos = cos(min(90, abs(y) + dy) * .pi / 180)
        let dx = polewardCos > 1e-9 ? min(180, maximumDistance / (ellipsoid.semiMajorAxis * .pi / 180 * polewardCos)) : 180
        let row0 = max(0, Int(floor((y - dy + 90) * Double(QuadGrid.cellsPerDegree))))
        let row1 = min(QuadGrid.rows - 1, Int(floor((y + dy + 90) * Double(QuadGrid.cellsPerDegree))))
        var column0 = Int(floor((x - dx + 180) * Double(QuadGrid.cellsPerDegree)))
        var column1 = Int(floor((x + dx + 180) * Double(QuadGrid.cellsPerDegree)))
        if column1 - column0 + 1 >= QuadGrid.columns {
            column0 = 0
            column1 = QuadGrid.columns - 1
        }
        guard row0 <= row1 else { return nil }

        var search = NearestSearch(x: x, y: y, metresPerDegreeX: metresPerDegreeX, metresPerDegreeY: metresPerDegreeY,
                                   best2: maximumDistance * maximumDistance, nodesLeft: cells.nodeCount)
        // Top cells nearest first, each in the frame where it lies nearest the point (shifted by
        // 360° across the antimeridian); on the stack when few (a look-up makes no allocation).
        withUnsafeTemporaryAllocation(of: Candidate.self, capacity: (row1 - row0 + 1) * (column1 - column0 + 1)) { found in
            var count = 0
            for row in row0...row1 {
                for c in column0...column1 {
                    let column = (c % QuadGrid.columns + QuadGrid.columns) % QuadGrid.columns
                    let shift = Double(c - column) * QuadGrid.cellSize
                    let cell = cells.topCell(raw, column: column, row: row)
                    guard cell.tag != QuadGrid.tagEmpty && cell.tag != QuadGrid.tagOwner else { continue }
                    found.initializeElement(at: count, to: (search.distance2(to: cell, shift: shift), cell, shift))
                    count += 1
                }
            }
            visitNearestFirst(raw, UnsafeMutableBufferPointer(rebasing: found[..<count]), &search, accept)
        }
        guard search.owner >= 0 else { return nil }
        return (search.owner, search.best2.squareRoot())
    }

    /// The state of one nearest-border search: the point, the local metric, the best so far.
    private struct NearestSearch {
        let x: Double, y: Double
        let metresPerDegreeX: Double, metresPerDegreeY: Double
        var best2: Double
        /// Internal nodes still to visit. In a sound index each node has one parent and each top
        /// cell is searched once, so no search visits more nodes than the table holds; a damaged
        /// table whose nodes point back at each other would otherwise unfold into 4^depth cells.
        var nodesLeft: Int
        var owner = -1

        /// Squared metres from the point to the cell's box (0 inside it); `shift` moves the
        /// cell east by that many degrees.
        func distance2(to cell: Cell, shift: Double) -> Double {
            let west = cell.west + shift
            let ex = max(west - x, 0, x - (west + cell.size)) * metresPerDegreeX
            let ey = max(cell.south - y, 0, y - (cell.south + cell.size)) * metresPerDegreeY
            return ex * ex + ey * ey
        }

        /// Point-to-segment distance in the tangent plane, squared metres.
        @inline(__always) func distance2(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, shift: Double) -> Double {
            let ax = (x1 + shift - x) * metresPerDegreeX, ay = (y1 - y) * metresPerDegreeY
            let bx = (x2 + shift - x) * metresPerDegreeX, by = (y2 - y) * metresPerDegreeY
            let ex = bx - ax, ey = by - ay
            let length2 = ex * ex + ey * ey
            let t = length2 > 0 ? min(max(-(ax * ex + ay * ey) / length2, 0), 1) : 0
            let cx = ax + t * ex, cy = ay + t * ey
            return cx * cx + cy * cy
        }
    }

    /// A cell to search, its squared distance from the point and its shift east, degrees.
    private typealias Candidate = (distance2: Double, cell: Cell, shift: Double)

    /// Visits `candidates` nearest first, skipping any farther than the best edge so far, and
    /// deinitializes them.
    private func visitNearestFirst(_ raw: UnsafeRawBufferPointer, _ candidates: UnsafeMutableBufferPointer<Candidate>,
                                   _ search: inout NearestSearch, _ accept: (Int) -> Bool) {
        var candidates = candidates
        candidates.sort { $0.distance2 < $1.distance2 }
        for entry in candidates where entry.distance2 <= search.best2 {
            visit(raw, entry.cell, shift: entry.shift, &search, accept)
        }
        candidates.deinitialize()
    }

    /// Searches the leaves under `cell` (shifted east by `shift` degrees), children nearest first,
    /// skipping any farther than the best edge so far.
    private func visit(_ raw: UnsafeRawBufferPointer, _ cell: Cell, shift: Double, _ search: inout NearestSearch,
                       _ accept: (Int) -> Bool) {
        switch cell.tag {
        case QuadGrid.tagNode:
            guard cell.size > QuadGrid.cellSize / Double(1 << QuadGrid.maximumDepth), search.nodesLeft > 0 else { return }
            search.nodesLeft -= 1
            withUnsafeTemporaryAllocation(of: Candidate.self, capacity: 4) { children in
                var count = 0
                for k in 0..<4 {
                    let c = cells.child(raw, of: cell, k)
                    guard c.tag == QuadGrid.tagNode || c.tag == QuadGrid.tagLeaf else { continue }
                    children.initializeElement(at: count, to: (search.distance2(to: c, shift: shift), c, shift))
                    count += 1
                }
                visitNearestFirst(raw, UnsafeMutableBufferPointer(rebasing: children[..<count]), &search, accept)
            }
        case QuadGrid.tagLeaf:
            guard let leaf = leaf(raw, cell.payload) else { return }
            var at = leaf.first
            for _ in 0..<leaf.count where at + 8 <= leaf.end {
                let c = candidate(raw, at)
                guard c.owner < ownerCount, accept(c.owner) else {
                    at = skip(raw, candidateAt: at, runs: c.runs, end: leaf.end)
                    continue
                }
                at = forEachEdge(raw, candidateAt: at, runs: c.runs, end: leaf.end) { x1, y1, x2, y2 in
                    let d2 = search.distance2(x1, y1, x2, y2, shift: shift)
                    if d2 < search.best2 || (d2 == search.best2 && search.owner < 0) {
                        search.best2 = d2
                        search.owner = c.owner
                    }
                }
            }
        default:
            return
        }
    }

}
