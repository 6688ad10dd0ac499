import Foundation

#if _endian(big)
#error("the geocoder index is little-endian and read in place")
#endif

/// The cell structure every spatial section of a geocoder index shares (``PolygonLayer``,
/// ``AnswerTree``): a grid of 1440 × 720 cells of 0.25° over [−180, 180) × [−90, 90), each a
/// 32-bit code, with quadtrees beneath. A code's top two bits say what it is: 2 is an internal
/// node whose four children (SW, SE, NW, NE) are the node table's codes 4n…4n+3; the other tags
/// and the 30-bit payload mean what the section says. Sections `…GRD` and `…NOD`, read in place.
///
/// Cells are half-open: a point on a cell line belongs to the cell north-east of it.
struct QuadGrid: Sendable {
    static let cellsPerDegree = 4
    static let columns = 360 * cellsPerDegree
    static let rows = 180 * cellsPerDegree
    static let cellSize = 1.0 / Double(cellsPerDegree)

    static let tagEmpty: UInt32 = 0
    static let tagOwner: UInt32 = 1
    static let tagNode: UInt32 = 2
    static let tagLeaf: UInt32 = 3
    /// Deeper than any tree the build script makes (12 levels): a guard against damaged files.
    static let maximumDepth = 24

    /// Byte offsets of the grid and node sections, and the number of nodes.
    let grid: Int
    let nodes: Int, nodeCount: Int

    /// Reads the sections tagged `prefix` + GRD and NOD.
    init(sections: IndexSections, prefix: String) throws(GeocoderIndexError) {
        let gridRange = try sections.require(prefix + "GRD", stride: 4)
        guard gridRange.count == 4 * Self.columns * Self.rows else {
            throw GeocoderIndexError("geocoder index grid \(prefix)GRD is not 1440 × 720 cells")
        }
        grid = gridRange.lowerBound
        let nodeRange = try sections.require(prefix + "NOD", stride: 16)
        nodes = nodeRange.lowerBound
        nodeCount = nodeRange.count / 16
    }

    /// A cell of the grid or of a quadtree: its code and its box.
    struct Cell {
        var code: UInt32
        var west: Double
        var south: Double
        var size: Double
        var tag: UInt32 { code >> 30 }
        var payload: Int { Int(code & 0x3FFF_FFFF) }
    }

    /// The top-grid cell at `column`, `row`.
    @inline(__always) func topCell(_ raw: UnsafeRawBufferPointer, column: Int, row: Int) -> Cell {
        Cell(code: raw.loadUnaligned(fromByteOffset: grid + 4 * (row * Self.columns + column), as: UInt32.self),
             west: Double(column) * Self.cellSize - 180, south: Double(row) * Self.cellSize - 90, size: Self.cellSize)
    }

    /// Child `child` (bit 0 east, bit 1 north) of an internal node, or an empty cell when the
    /// index is damaged.
    @inline(__always) func child(_ raw: UnsafeRawBufferPointer, of cell: Cell, _ child: Int) -> Cell {
        let half = cell.size * 0.5
        let west = child & 1 == 0 ? cell.west : cell.west + half
        let south = child & 2 == 0 ? cell.south : cell.south + half
        guard cell.payload < nodeCount else { return Cell(code: 0, west: west, south: south, size: half) }
        return Cell(code: raw.loadUnaligned(fromByteOffset: nodes + 16 * cell.payload + 4 * child, as: UInt32.self),
                    west: west, south: south, size: half)
    }

    /// The top-grid column and row holding (x, y), x in [−180, 180), y in [−90, 90].
    @inline(__always) static func topColumnRow(x: Double, y: Double) -> (column: Int, row: Int) {
        (min(max(Int((x + 180) * Double(cellsPerDegree)), 0), columns - 1),
         min(max(Int((y + 90) * Double(cellsPerDegree)), 0), rows - 1))
    }

    /// The deepest cell holding (x, y), x in [−180, 180), y in [−90, 90]: never an internal node.
    @inline(__always) func locate(_ raw: UnsafeRawBufferPointer, x: Double, y: Double) -> Cell {
        let top = Self.topColumnRow(x: x, y: y)
        var cell = topCell(raw, column: top.column, row: top.row)
        var depth = 0
        while cell.tag == Self.tagNode {
            // A damaged node table could loop; real trees are at most 12 levels deep.
            guard depth < Self.maximumDepth else { return Cell(code: 0, west: cell.west, south: cell.south, size: cell.size) }
            depth += 1
            let half = cell.size * 0.5
            cell = child(raw, of: cell, (x >= cell.west + half ? 1 : 0) | (y >= cell.south + half ? 2 : 0))
        }
        return cell
    }
}
