import Foundation
import PropertyBased
import Testing

@testable import TapSeekCore

/// The even-odd test on synthetic polygons whose answers are plain geometry, and the grid-cell
/// form of it checked against the whole-polygon test.
@Suite struct PointInPolygonTests {
    typealias Ring = [(x: Double, y: Double)]

    static func box(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> Ring {
        [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
    }

    // MARK: Whole polygons

    @Test func unitSquareHoldsItsInsideOnly() {
        let square = [Self.box(0, 0, 1, 1)]
        #expect(PointInPolygon.contains(x: 0.5, y: 0.5, rings: square))
        #expect(!PointInPolygon.contains(x: 1.5, y: 0.5, rings: square))
        #expect(!PointInPolygon.contains(x: -0.5, y: 0.5, rings: square))
        #expect(!PointInPolygon.contains(x: 0.5, y: 1.5, rings: square))
    }

    @Test func holeIsOutsideAndItsSurroundingsInside() {
        let withHole = [Self.box(0, 0, 10, 10), Self.box(4, 4, 6, 6)]
        #expect(!PointInPolygon.contains(x: 5, y: 5, rings: withHole))
        #expect(PointInPolygon.contains(x: 2, y: 2, rings: withHole))
        #expect(PointInPolygon.contains(x: 5, y: 8, rings: withHole))
        // The enclave filling the hole holds exactly what its surroundings do not.
        #expect(PointInPolygon.contains(x: 5, y: 5, rings: [Self.box(4, 4, 6, 6)]))
    }

    @Test func islandInsideALakeInsideLandIsLand() {
        let rings = [Self.box(0, 0, 10, 10), Self.box(2, 2, 8, 8), Self.box(4, 4, 6, 6)]
        #expect(PointInPolygon.contains(x: 1, y: 1, rings: rings))
        #expect(!PointInPolygon.contains(x: 3, y: 3, rings: rings))
        #expect(PointInPolygon.contains(x: 5, y: 5, rings: rings))
    }

    @Test func multipolygonHoldsEachPartAndNotTheGap() {
        let parts = [Self.box(0, 0, 1, 1), Self.box(3, 0, 4, 1)]
        #expect(PointInPolygon.contains(x: 0.5, y: 0.5, rings: parts))
        #expect(PointInPolygon.contains(x: 3.5, y: 0.5, rings: parts))
        #expect(!PointInPolygon.contains(x: 2, y: 0.5, rings: parts))
    }

    /// A ray through a vertex counts the vertex once where the boundary passes through it, and
    /// twice (or not at all) where it turns back: PNPOLY's half-open rule.
    @Test func rayThroughAVertexCountsOnceOnlyWhereTheBoundaryCrosses() {
        let triangle: [Ring] = [[(0, 0), (2, 1), (0, 2)]]
        #expect(PointInPolygon.contains(x: 1, y: 1, rings: triangle))
        #expect(!PointInPolygon.contains(x: -1, y: 1, rings: triangle))
        // A U shape: the ray from the left prong's inside runs through both inner corners.
        let u: [Ring] = [[(0, 0), (3, 0), (3, 3), (2, 3), (2, 1), (1, 1), (1, 3), (0, 3)]]
        #expect(PointInPolygon.contains(x: 0.5, y: 1, rings: u))
        #expect(PointInPolygon.contains(x: 0.5, y: 2, rings: u))
        #expect(!PointInPolygon.contains(x: 1.5, y: 2, rings: u))
        #expect(PointInPolygon.contains(x: 2.5, y: 2, rings: u))
    }

    /// A ring drawn continuously across the antimeridian (170°…190°, as DCW stores Fiji) holds
    /// points on both sides of it, given in [−180, 180).
    @Test func ringAcrossTheAntimeridianHoldsBothSides() {
        let fijiLike = [Self.box(170, -20, 190, -10)]
        #expect(PointInPolygon.contains(x: 175, y: -15, rings: fijiLike))
        #expect(PointInPolygon.contains(x: -175, y: -15, rings: fijiLike))
        #expect(!PointInPolygon.contains(x: 165, y: -15, rings: fijiLike))
        #expect(!PointInPolygon.contains(x: -165, y: -15, rings: fijiLike))
        #expect(!PointInPolygon.contains(x: -175, y: -15, rings: fijiLike, wrapsLongitude: false))
    }

    // MARK: The grid-cell form

    /// A star-shaped polygon around (cx, cy) with `radii.count` spikes: concave, so rays cross
    /// it many times.
    static func star(cx: Double, cy: Double, radii: [Double]) -> Ring {
        radii.enumerated().map { k, r in
            let a = 2 * Double.pi * Double(k) / Double(radii.count)
            return (cx + r * cos(a), cy + r * sin(a))
        }
    }

    static func edges(of rings: [Ring]) -> [(Double, Double, Double, Double)] {
        rings.flatMap { ring in
            ring.indices.map { i in
                let a = ring[i], b = ring[(i + 1) % ring.count]
                return (a.x, a.y, b.x, b.y)
            }
        }
    }

    /// For random concave polygons with holes, random cells and random points in them, the
    /// cell test from the corner's state equals the whole-polygon test, whether it sees every
    /// edge or only those whose bounding box meets the cell.
    @Test func cellTestAgreesWithTheWholePolygon() async {
        await propertyCheck(count: 500, input: Gen.double(in: 0.2...3), Gen.double(in: 0.2...3), Gen.double(in: 0.2...3),
                            Gen.double(in: -2...2), Gen.double(in: -2...2), Gen.double(in: 0...1), Gen.double(in: 0...1)) {
            r1, r2, r3, cellX, cellY, u, v in
            let outer = Self.star(cx: 0, cy: 0, radii: [r1 + 1, r2, r3 + 1, r1, r2 + 1, r3, 2, r1 * 0.5 + 0.5])
            let hole = Self.star(cx: 0.1, cy: -0.05, radii: [0.3, 0.15, 0.35, 0.1, 0.25])
            let rings = [outer, hole]
            let size = 0.37
            let south = cellY, east = cellX + size
            let px = cellX + u * size * 0.999, py = cellY + v * size * 0.999 + 1e-6
            let corner = PointInPolygon.contains(x: east, y: south, rings: rings, wrapsLongitude: false)
            let all = Self.edges(of: rings)
            let nearby = all.filter { e in
                min(e.0, e.2) <= east && max(e.0, e.2) >= cellX && min(e.1, e.3) <= south + size && max(e.1, e.3) >= south
            }
            let expected = PointInPolygon.contains(x: px, y: py, rings: rings, wrapsLongitude: false)
            for edges in [all, nearby] {
                let inside = PointInPolygon.cellContains(px: px, py: py, east: east, south: south, cornerInside: corner) { body in
                    for e in edges { body(e.0, e.1, e.2, e.3) }
                }
                #expect(inside == expected)
            }
        }
    }
}
