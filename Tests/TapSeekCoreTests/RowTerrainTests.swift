import Foundation
import Testing
@testable import TapSeekCore
import TapSeekTestSupport

/// A viewshed's row-wise terrain look-up against the sampler it stands in for.
struct RowTerrainTests {
    /// Three 3″ SRTM tiles meeting at 1° N 1° E (side by side, and one to the north), heights
    /// from one smooth function of the position (so that the posts tiles share agree), with
    /// scattered void posts and a void patch astride the seam.
    static func tiles(in directory: URL) throws {
        let n = 1201
        for (south, west) in [(0, 0), (0, 1), (1, 0)] {
            var bytes = [UInt8](repeating: 0, count: n * n * 2)
            for r in 0..<n {
                for c in 0..<n {
                    let latitude = Double(south + 1) - Double(r) / 1200, longitude = Double(west) + Double(c) / 1200
                    var value = Int16(800 + 300 * sin(latitude * 90) * cos(longitude * 70) + 40 * sin((latitude + longitude) * 400))
                    let seamPatch = abs(longitude - 1) < 0.004 && abs(latitude - 0.97) < 0.003
                    if seamPatch || (r * 7 + c * 13) % 389 == 0 { value = -32768 }
                    let u = UInt16(bitPattern: value)
                    bytes[2 * (r * n + c)] = UInt8(u >> 8)
                    bytes[2 * (r * n + c) + 1] = UInt8(u & 0xFF)
                }
            }
            let name = String(format: "N%02dE%03d.hgt", south, west)
            try Data(bytes).write(to: directory.appendingPathComponent(name))
        }
    }

    /// Every cell of grids across the seams, on the posts (3″) and between them (5″, and 2.7″
    /// from an odd corner), over voids and beyond the tiles: the height, void or outside that
    /// a ``TerrainSampler`` answers, to the bit.
    @Test func everyCellGetsTheSamplersAnswer() throws {
        let directory = try SharedData.temporaryDirectory("row-terrain")
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.tiles(in: directory)
        // Voids kept unknown: the rows must answer them as the sampler does.
        let catalog = try ElevationCatalog(directory: directory.path, fillsVoids: false)
        for (north, west, spacing) in [(1.02, 0.98, 3.0 / 3600), (1.03, 0.97, 5.0 / 3600), (1.0137, 0.9811, 2.7 / 3600)] {
            let rows = Int(0.06 / spacing), columns = Int(0.06 / spacing)
            let grid = ViewshedGrid(north: north, west: west, latitudeSpacing: spacing, longitudeSpacing: spacing, rows: rows,
                                    columns: columns, values: [UInt8](repeating: ViewshedGrid.noData, count: rows * columns))
            var rowTerrain = RowTerrain(grid: grid)
            var terrain = TerrainSampler(catalog: catalog), reference = TerrainSampler(catalog: catalog)
            var differ: [String] = [], kinds = Set<String>()
            for r in 0..<rows {
                let latitude = grid.latitude(row: r)
                rowTerrain.start(latitude: latitude)
                // Rows from both ends, as a viewshed's rows begin and end where the range does.
                for c in (r % 2 == 0 ? Array(0..<columns) : Array((0..<columns).reversed())) {
                    let longitude = grid.longitude(column: c)
                    let got = rowTerrain.sample(column: c, latitude: latitude, longitude: longitude, over: &terrain)
                    let expected = reference.sample(latitude: latitude, longitude: longitude)
                    kinds.insert("\(expected)".prefix(4).description)
                    if got != expected, differ.count < 10 { differ.append("(\(r), \(c)): \(got) against \(expected)") }
                }
            }
            #expect(differ.isEmpty, "spacing \(spacing * 3600)″: \(differ)")
            #expect(kinds.count == 3, "heights, voids and no tile all met: \(kinds)")
        }
    }

    /// A sampler that counts the points it is asked for.
    struct Counting: TerrainGrids {
        var sampler: TerrainSampler
        var samples = 0

        mutating func sample(latitude: Double, longitude: Double) -> TerrainSample {
            samples += 1
            return sampler.sample(latitude: latitude, longitude: longitude)
        }

        mutating func grid(containing latitude: Double, longitude: Double) -> ElevationGrid? {
            sampler.grid(containing: latitude, longitude: longitude)
        }

        mutating func overlaps(of grid: ElevationGrid) -> [GridRectangle]? { sampler.overlaps(of: grid) }
    }

    /// Inside a tile, away from the edge posts its neighbours share, its voids are the terrain's,
    /// answered from its own posts: the rows ask the terrain for their first cell only, never for
    /// a void. On a shared edge a void of one tile may be a height of the other: asked, and
    /// answered as the sampler does (post 161 of N00E000's last column is a void, N00E001's is not).
    @Test func voidsOfATileNoOtherOverlapsAreAnsweredFromItsPosts() throws {
        let directory = try SharedData.temporaryDirectory("row-terrain-alone")
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.tiles(in: directory)
        let catalog = try ElevationCatalog(directory: directory.path, fillsVoids: false)
        for (north, west, alone) in [(0.7, 0.3, true), (0.1, 0.88, true), (0.87, 0.96, false)] {
            let spacing = 3.0 / 3600, rows = 100, columns = 100
            let grid = ViewshedGrid(north: north, west: west, latitudeSpacing: spacing, longitudeSpacing: spacing, rows: rows,
                                    columns: columns, values: [UInt8](repeating: ViewshedGrid.noData, count: rows * columns))
            var rowTerrain = RowTerrain(grid: grid)
            var terrain = Counting(sampler: TerrainSampler(catalog: catalog)), reference = TerrainSampler(catalog: catalog)
            var voids = 0, differ = 0
            for r in 0..<rows {
                let latitude = grid.latitude(row: r)
                rowTerrain.start(latitude: latitude)
                for c in 0..<columns {
                    let longitude = grid.longitude(column: c)
                    let got = rowTerrain.sample(column: c, latitude: latitude, longitude: longitude, over: &terrain)
                    let expected = reference.sample(latitude: latitude, longitude: longitude)
                    if case .void = expected { voids += 1 }
                    if got != expected { differ += 1 }
                }
            }
            #expect(differ == 0 && voids > 10, "\(differ) cells differ, \(voids) voids")
            #expect(alone ? terrain.samples == 1 : terrain.samples > 1, "\(terrain.samples) points asked")
        }
    }
}
