/// The visible area of a viewshed as polygons: the outlines of its visible cells, merged.
///
/// Each 4-connected patch of visible cells is one polygon: its outer ring counter-clockwise and
/// a clockwise ring around every patch of other cells it encloses (RFC 7946's winding, in
/// longitude–latitude). Rings follow cell edges with the visible cells on their left. Where two
/// visible cells touch only at a corner, no ring touches itself (OGC's simple-feature validity):
/// cells of two patches stay two polygons touching at that point; cells of one patch make its
/// ring close there and leave a hole touching it. Vertices where a ring runs straight on are
/// left out.
public enum ViewshedOutline {
    /// A ring of (longitude, latitude) vertices, degrees, closed (last = first).
    public typealias Ring = [(longitude: Double, latitude: Double)]

    /// The polygons of `grid`'s visible cells: each an outer ring followed by its holes.
    public static func polygons(of grid: ViewshedGrid) -> [[Ring]] {
        let rows = grid.rows, columns = grid.columns
        guard rows > 0, columns > 0 else { return [] }
        let values = grid.values
        func visible(_ r: Int, _ c: Int) -> Bool {
            r >= 0 && c >= 0 && r < rows && c < columns && values[r * columns + c] == ViewshedGrid.visible
        }
        let patch = patches(of: grid)
        // Corners (R, C), 0...rows × 0...columns; edges leave a corner east, north, west or south.
        let width = columns + 1
        var outgoing = [UInt8](repeating: 0, count: (rows + 1) * width)   // bit d: an edge leaves heading d
        for r in 0..<rows {
            for c in 0..<columns where visible(r, c) {
                if !visible(r - 1, c) { outgoing[r * width + c + 1] |= 1 << Direction.west }
                if !visible(r + 1, c) { outgoing[(r + 1) * width + c] |= 1 << Direction.east }
                if !visible(r, c - 1) { outgoing[r * width + c] |= 1 << Direction.south }
                if !visible(r, c + 1) { outgoing[(r + 1) * width + c + 1] |= 1 << Direction.north }
            }
        }
        // The successor of each edge is fixed by all edges at its end, taken or not: `used`
        // only says which edges already belong to a ring.
        var used = [UInt8](repeating: 0, count: outgoing.count)
        var rings: [(patch: Int, area: Double, ring: Ring)] = []
        for start in outgoing.indices where outgoing[start] != 0 {
            while outgoing[start] & ~used[start] != 0 {
                let first = Int((outgoing[start] & ~used[start]).trailingZeroBitCount)
                var corner = start, heading = first
                var vertices: [(Int, Int)] = []
                var area = 0.0
                let owner = patch[Direction.leftCell(corner: corner, heading: heading, width: width, columns: columns)]
                while true {
                    used[corner] |= UInt8(1 << heading)
                    let (r, c) = (corner / width, corner % width)
                    let next = Direction.step(corner, heading, width: width)
                    let (nr, nc) = (next / width, next % width)
                    area += Double(c) * Double(-nr) - Double(nc) * Double(-r)
                    // Left first, then straight on, then right.
                    let edges = outgoing[next], left = (heading + 1) & 3, right = (heading + 3) & 3
                    // Every corner of a ring has as many edges leaving it as reaching it.
                    guard edges != 0 else { break }
                    let turn: Int
                    if edges & (1 << left) != 0, edges & (1 << right) != 0 {
                        // Two visible cells touching at a corner: of different patches, each
                        // keeps its own ring (turn left); of one patch, the ring closes on
                        // itself there and what it encloses becomes a hole touching it (turn right).
                        let here = patch[Direction.leftCell(corner: next, heading: left, width: width, columns: columns)]
                        let there = patch[Direction.leftCell(corner: next, heading: right, width: width, columns: columns)]
                        turn = here == there ? right : left
                    } else {
                        turn = edges & (1 << left) != 0 ? left : (edges & (1 << heading) != 0 ? heading : right)
                    }
                    if turn != heading { vertices.append((nr, nc)) }
                    if next == start, turn == first { break }
                    corner = next
                    heading = turn
                }
                var ring = vertices.map { (longitude: grid.west + (Double($0.1) - 0.5) * grid.longitudeSpacing,
                                           latitude: grid.north - (Double($0.0) - 0.5) * grid.latitudeSpacing) }
                if let head = ring.first { ring.append(head) }
                rings.append((owner, area / 2, ring))
            }
        }
        // One polygon per patch: its outer ring (positive area) first, then its holes.
        var byPatch: [Int: [Ring]] = [:]
        var order: [Int] = []
        for (owner, area, ring) in rings {
            if byPatch[owner] == nil { order.append(owner); byPatch[owner] = [] }
            if area > 0 { byPatch[owner]!.insert(ring, at: 0) } else { byPatch[owner]!.append(ring) }
        }
        return order.map { byPatch[$0]! }
    }

    /// The 4-connected patches of visible cells: a patch number per cell (−1 elsewhere).
    static func patches(of grid: ViewshedGrid) -> [Int] {
        let rows = grid.rows, columns = grid.columns
        var patch = [Int](repeating: -1, count: rows * columns)
        var stack: [Int] = []
        var next = 0
        for start in patch.indices where patch[start] < 0 && grid.values[start] == ViewshedGrid.visible {
            patch[start] = next
            stack.append(start)
            while let i = stack.popLast() {
                let r = i / columns, c = i % columns
                for (nr, nc) in [(r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)] where nr >= 0 && nc >= 0 && nr < rows && nc < columns {
                    let j = nr * columns + nc
                    if patch[j] < 0, grid.values[j] == ViewshedGrid.visible {
                        patch[j] = next
                        stack.append(j)
                    }
                }
            }
            next += 1
        }
        return patch
    }

    /// Headings along cell edges: east, north, west, south (a left turn adds one).
    enum Direction {
        static let east = 0, north = 1, west = 2, south = 3

        /// The corner one edge on from `corner` heading `heading`.
        static func step(_ corner: Int, _ heading: Int, width: Int) -> Int {
            switch heading {
            case east: return corner + 1
            case north: return corner - width
            case west: return corner - 1
            default: return corner + width
            }
        }

        /// The cell on the left of the edge leaving `corner` heading `heading`: the visible one.
        static func leftCell(corner: Int, heading: Int, width: Int, columns: Int) -> Int {
            let r = corner / width, c = corner % width
            switch heading {
            case east: return (r - 1) * columns + c
            case north: return (r - 1) * columns + c - 1
            case west: return r * columns + c - 1
            default: return r * columns + c
            }
        }
    }
}
