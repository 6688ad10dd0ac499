import Foundation
import TapSeekTestSupport
import Testing
@testable import TapSeekCore

/// Heights in the gap between neighbouring tiles on different lattices, which share no post:
/// Copernicus tiles north of 50° widen their columns by latitude band (1″ south of 50°, 1.5″ to
/// 60°, …), and a Copernicus tile may lie beside an SRTM one. Each tile holds the same plane
/// (integer heights at every post of either lattice); straight lines across the gap reproduce a
/// plane, so every height there is the plane's, known in closed form.
@Suite struct TileGapTests {
    /// 1 000 m at 50° N, 8° E, rising 2 m per arc second north and east.
    static func plane(_ latitude: Double, _ longitude: Double) -> Double {
        1000 + 2 * (latitude - 50) * 3600 + 2 * (longitude - 8) * 3600
    }

    /// A 20 × 20 Int16 GeoTIFF in EPSG:4326 whose first post is at (`north`, `west`), spacings in
    /// arc seconds, holding the plane.
    static func tile(north: Double, west: Double, rowSeconds: Double, columnSeconds: Double) -> [UInt8] {
        let dy = rowSeconds / 3600, dx = columnSeconds / 3600
        var data: [UInt8] = []
        for r in 0..<20 {
            for c in 0..<20 {
                let h = Int16(plane(north - Double(r) * dy, west + Double(c) * dx).rounded())
                data += [UInt8(truncatingIfNeeded: h), UInt8(truncatingIfNeeded: h >> 8)]
            }
        }
        var builder = TIFFBuilder.int16(columns: 20, rows: 20, data: data)
        builder.set(.double(33550, [dx, dy, 0]))
        builder.set(.double(33922, [0, 0, 0, west - dx / 2, north + dy / 2, 0]))
        return builder.bytes()
    }

    private func heights(in tiles: [String: [UInt8]], at points: [(Double, Double)]) throws -> [TerrainSample] {
        let folder = try SharedData.temporaryDirectory("tile-gap")
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, bytes) in tiles { try Data(bytes).write(to: folder.appendingPathComponent(name)) }
        var sampler = TerrainSampler(catalog: try ElevationCatalog(directory: folder.path))
        return points.map { sampler.sample(latitude: $0.0, longitude: $0.1) }
    }

    @Test func gapBetweenLatitudeBandsIsBridged() throws {
        // South: 1″ × 1″ up to 50° N (its north row); north: 1″ × 1.5″ from 50° 0′ 1″ N.
        let tiles = ["south.tif": Self.tile(north: 50, west: 8, rowSeconds: 1, columnSeconds: 1),
                     "north.tif": Self.tile(north: 50 + 20.0 / 3600, west: 8, rowSeconds: 1, columnSeconds: 1.5)]
        let points = (0..<40).map { (k: Int) -> (Double, Double) in
            let across: Double = 0.05 + 0.9 * Double(k % 8) / 7
            return (50 + across / 3600, 8 + Double(k) * 0.47 / 3600)
        }
        for (point, sample) in zip(points, try heights(in: tiles, at: points)) {
            guard case .height(let h) = sample else { Issue.record("\(point): \(sample)"); continue }
            #expect(abs(h - Self.plane(point.0, point.1)) < 1e-3, "at \(point)")
        }
    }

    @Test func gapBetweenColumnsOfDifferentRowSpacingIsBridged() throws {
        // West: 1″ × 1″ up to 8° 0′ 19″ E; east: 1.5″ rows from 8° 0′ 20″ E.
        let tiles = ["west.tif": Self.tile(north: 50.005, west: 8, rowSeconds: 1, columnSeconds: 1),
                     "east.tif": Self.tile(north: 50.005, west: 8 + 20.0 / 3600, rowSeconds: 1.5, columnSeconds: 1)]
        let points = (0..<40).map { (k: Int) -> (Double, Double) in
            let across: Double = 19.05 + 0.9 * Double(k % 8) / 7
            return (50.005 - Double(k) * 0.41 / 3600, 8 + across / 3600)
        }
        for (point, sample) in zip(points, try heights(in: tiles, at: points)) {
            guard case .height(let h) = sample else { Issue.record("\(point): \(sample)"); continue }
            #expect(abs(h - Self.plane(point.0, point.1)) < 1e-3, "at \(point)")
        }
    }

    /// Beyond the gap's width, or past the end of either edge, there is no terrain.
    @Test func pastTheEdgesIsStillOutside() throws {
        let tiles = ["south.tif": Self.tile(north: 50, west: 8, rowSeconds: 1, columnSeconds: 1),
                     "north.tif": Self.tile(north: 50 + 20.0 / 3600, west: 8, rowSeconds: 1, columnSeconds: 1.5)]
        let samples = try heights(in: tiles, at: [(50 + 0.5 / 3600, 8 + 25.0 / 3600), (50 + 0.5 / 3600, 7.999)])
        #expect(samples == [.outside, .outside])
    }
}
