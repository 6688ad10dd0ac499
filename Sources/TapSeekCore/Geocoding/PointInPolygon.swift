/// The even-odd point-in-polygon test (W. Randolph Franklin's PNPOLY) in the plane of longitude
/// and latitude degrees, and the local form of it that the geocoder's grid uses.
///
/// A polygon here is any set of closed rings combined by the even-odd rule, so that holes,
/// enclaves and islands need no special casing: a point is inside when a ray from it crosses the
/// rings an odd number of times. PNPOLY's half-open conventions decide the cases where a ray
/// meets a vertex: an edge counts when exactly one of its ends lies strictly above the ray and the
/// crossing lies strictly east of the point. A point exactly on an edge is classified as if nudged
/// infinitesimally north-east; nothing else depends on floating-point ties.
public enum PointInPolygon {
    /// Whether the edge (x1, y1)–(x2, y2) crosses the eastward ray from (px, py), the crossing
    /// lying in (px, east]: PNPOLY's test, with an eastern limit.
    @inlinable @inline(__always)
    public static func crossesEastward(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double,
                                       px: Double, py: Double, east: Double = .infinity) -> Bool {
        guard (y1 > py) != (y2 > py) else { return false }
        let xi = x1 + (py - y1) * (x2 - x1) / (y2 - y1)
        return xi > px && xi <= east
    }

    /// Whether the edge crosses the vertical segment x = `x`, `south` < y ≤ `north`, with the
    /// same half-open rule across x (an end exactly on the line counts as west of it).
    @inlinable @inline(__always)
    public static func crossesNorthward(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double,
                                        x: Double, south: Double, north: Double) -> Bool {
        guard (x1 > x) != (x2 > x) else { return false }
        let yi = y1 + (x - x1) * (y2 - y1) / (x2 - x1)
        return yi > south && yi <= north
    }

    /// Whether (x, y) lies inside `rings` by the even-odd rule.
    ///
    /// - Parameters:
    ///   - rings: closed rings of (longitude, latitude) degrees; a ring's last vertex may repeat
    ///     its first or not (the closing edge is implied). Longitudes may run beyond ±180 for a
    ///     ring drawn continuously across the antimeridian (170…190 rather than 170…−170).
    ///   - x, y: the point's longitude and latitude, degrees.
    ///   - wrapsLongitude: also test the point at x ± 360, so that a ring given as 170…190 holds
    ///     the point −175. The rings must then not overlap themselves shifted by 360°.
    public static func contains(x: Double, y: Double, rings: [[(x: Double, y: Double)]],
                                wrapsLongitude: Bool = true) -> Bool {
        var inside = false
        for shift in wrapsLongitude ? [0.0, 360, -360] : [0.0] {
            for ring in rings where ring.count >= 3 {
                var previous = ring[ring.count - 1]
                for vertex in ring {
                    if crossesEastward(previous.x, previous.y, vertex.x, vertex.y, px: x + shift, py: y) {
                        inside.toggle()
                    }
                    previous = vertex
                }
            }
        }
        return inside
    }

    /// The even-odd test inside one cell of a grid, touching only the edges that meet the cell.
    ///
    /// A ray from the point east to the cell's east side, then down that side to the cell's
    /// south-east corner, crosses the polygon's boundary only inside the cell; so the point's
    /// state is the corner's state flipped once per crossing of that L-shaped path. The corner's
    /// state is precomputed (by the same rule) when the index is built.
    ///
    /// - Parameters:
    ///   - cornerInside: whether the cell's south-east corner (east, south) is inside.
    ///   - east, south: the cell's east longitude and south latitude, degrees; the point must lie
    ///     in the cell (west of `east`, north of `south`).
    ///   - edges: calls its argument with every edge of the polygon that meets the closed cell
    ///     (more are harmless), as (x1, y1, x2, y2).
    @inlinable @inline(__always)
    public static func cellContains(px: Double, py: Double, east: Double, south: Double, cornerInside: Bool,
                                    edges: ((Double, Double, Double, Double) -> Void) -> Void) -> Bool {
        var inside = cornerInside
        edges { x1, y1, x2, y2 in
            if crossesEastward(x1, y1, x2, y2, px: px, py: py, east: east) { inside.toggle() }
            if crossesNorthward(x1, y1, x2, y2, x: east, south: south, north: py) { inside.toggle() }
        }
        return inside
    }
}
