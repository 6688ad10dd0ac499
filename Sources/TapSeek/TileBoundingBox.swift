import Foundation

/// A latitude/longitude rectangle in WGS84 degrees whose tiles `tapseek dem fetch --bbox` gets.
/// `west > east` means the box crosses the antimeridian (e.g. west 179.5, east −179.5).
public struct TileBoundingBox: Sendable, Hashable {
    /// Southern edge, degrees, −90…90.
    public let south: Double
    /// Western edge, degrees, −180…180.
    public let west: Double
    /// Northern edge, degrees, −90…90, not south of `south`.
    public let north: Double
    /// Eastern edge, degrees, −180…180; less than `west` across the antimeridian.
    public let east: Double

    /// - Throws: ``TileFetchError`` naming the offending edge when a value is not finite, a
    ///   latitude is outside −90…90 or a longitude outside −180…180, or south lies north of north.
    public init(south: Double, west: Double, north: Double, east: Double) throws(TileFetchError) {
        for (name, value, limit) in [("south", south, 90.0), ("west", west, 180), ("north", north, 90), ("east", east, 180)] {
            guard value.isFinite, abs(value) <= limit else {
                throw .invalidBoundingBox("\(name) \(value) is outside −\(Int(limit))…\(Int(limit))")
            }
        }
        guard south <= north else {
            throw .invalidBoundingBox("south \(south) lies north of north \(north)")
        }
        self.south = south
        self.west = west
        self.north = north
        self.east = east
    }

    /// Parses `south,west,north,east` in degrees, e.g. `27.8,86.6,28.1,87.1`.
    /// - Throws: ``TileFetchError`` naming the field that is missing or not a number.
    public init(parsing text: String) throws(TileFetchError) {
        let fields = text.split(separator: ",", omittingEmptySubsequences: false)
        let names = ["south", "west", "north", "east"]
        guard fields.count == 4 else {
            throw .invalidBoundingBox("expected south,west,north,east (4 numbers), got \(fields.count) field(s) in \"\(text)\"")
        }
        var values: [Double] = []
        for (name, field) in zip(names, fields) {
            let trimmed = field.trimmingCharacters(in: .whitespaces)
            guard let value = Double(trimmed) else {
                throw .invalidBoundingBox("\(name) \"\(trimmed)\" is not a number")
            }
            values.append(value)
        }
        try self.init(south: values[0], west: values[1], north: values[2], east: values[3])
    }

    /// Every tile that holds a point of the box, south to north and west to east (across the
    /// antimeridian when the box crosses it). An edge on a whole degree takes only the tile
    /// inside the box: 27…28° N needs `N27` alone, although `N28`'s edge posts touch 28° too.
    public var tiles: [SRTMTileName] {
        // ±180 is one meridian: a box starting at 180 starts at −180, one ending at −180 ends at 180.
        let west = self.west == 180 ? -180 : self.west
        let east = self.east == -180 ? 180 : self.east
        let rows = Self.indices(from: south, to: north, last: 89)
        let columns: [Int]
        if west <= east {
            columns = Array(Self.indices(from: west, to: east, last: 179))
        } else {
            columns = Array(Self.indices(from: west, to: 180, last: 179)) + Array(Self.indices(from: -180, to: east, last: 179))
        }
        return rows.flatMap { row in columns.compactMap { SRTMTileName(latitude: row, longitude: $0) } }
    }

    /// Whole-degree cells from the one holding `low` to the last one that starts below `high`
    /// (at least one cell), capped at `last`.
    private static func indices(from low: Double, to high: Double, last: Int) -> ClosedRange<Int> {
        let first = min(Int(low.rounded(.down)), last)
        let end = min(max(first, Int(high.rounded(.up)) - 1), last)
        return first...end
    }
}
