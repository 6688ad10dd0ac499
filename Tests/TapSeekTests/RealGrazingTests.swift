import Foundation
import Testing
import TapSeek
import TapSeekTestSupport

/// The exact engine against brute force on the real tiles: rays aimed within centimetres of the
/// tops of the steepest cliffs of the Everest tile (3″) and the Bernese Alps tile (with voids),
/// under the real EGM96 geoid.
@Suite(.enabled(if: SharedData.available(SharedData.dem), "needs ../shared/dem"), .timeLimit(.minutes(10)))
struct RealGrazingTests {
    /// Whether the eight posts around a post are known: on a post between void cells only the
    /// post itself is known terrain, a point the brute force cannot sample.
    static func isClearOfVoids(_ grid: ElevationGrid, _ r: Int, _ c: Int) -> Bool {
        (-1...1).allSatisfy { dr in (-1...1).allSatisfy { dc in grid.post(row: r + dr, column: c + dc) != nil } }
    }

    /// The `count` posts clear of voids with the largest drop to a neighbouring post, at least
    /// `apart` posts from each other, with the direction (row, column step) of that drop.
    static func cliffTops(of grid: ElevationGrid, count: Int, apart: Int) -> [(row: Int, column: Int, down: (Int, Int))] {
        var found: [(drop: Float, row: Int, column: Int, down: (Int, Int))] = []
        for r in stride(from: 50, to: grid.rows - 50, by: 1) {
            for c in stride(from: 50, to: grid.columns - 50, by: 1) {
                guard let h = grid.post(row: r, column: c), Self.isClearOfVoids(grid, r, c) else { continue }
                for (dr, dc) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
                    guard let low = grid.post(row: r + dr, column: c + dc), h - low > (found.last?.drop ?? 0) || found.count < count else { continue }
                    if found.contains(where: { abs($0.row - r) < apart && abs($0.column - c) < apart }) { continue }
                    found.append((h - low, r, c, (dr, dc)))
                    found.sort { $0.drop > $1.drop }
                    if found.count > count { found.removeLast() }
                }
            }
        }
        return found.map { ($0.row, $0.column, $0.down) }
    }

    @Test(arguments: ["N27E086.hgt", "N46E008.tif"])
    func raysGrazingRealCliffTopsAgreeWithBruteForce(file: String) throws {
        let url = SharedData.dem.appendingPathComponent(file)
        try #require(SharedData.exists(url), Comment(rawValue: SharedData.missing(url)))
        let directory = try SharedData.temporaryDirectory("grazing")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createSymbolicLink(at: directory.appendingPathComponent(file), withDestinationURL: url)
        let catalog = try ElevationCatalog(directory: directory.path, rasterReader: .gdal, fillsVoids: false)
        let grid = try #require(catalog.grid(tile: 0))
        let geoid = try Geoid()
        var hits = 0
        for (i, top) in Self.cliffTops(of: grid, count: 12, apart: 40).enumerated() {
            let h = Double(try #require(grid.post(row: top.row, column: top.column)))
            let lat = grid.north - Double(top.row) * grid.latitudeSpacing, lon = grid.west + Double(top.column) * grid.longitudeSpacing
            // The observer 20 posts out on the low side, 150 m above the terrain there: straight
            // out (the ray runs along a post line) and 7 posts aside (obliquely across cells).
            for aside in [0, 7] {
            let dr = top.down.0 * 20 + top.down.1 * aside, dc = top.down.1 * 20 + top.down.0 * aside
            let eyeLat = lat - Double(dr) * grid.latitudeSpacing, eyeLon = lon + Double(dc) * grid.longitudeSpacing
            guard let ground = grid.height(latitude: eyeLat, longitude: eyeLon) else { continue }
            let eye = GeodeticPosition(latitude: eyeLat, longitude: eyeLon,
                                       height: ground + 150 + geoid.undulation(latitude: eyeLat, longitude: eyeLon))
            for offset in [-0.03, -0.01, 0.01, 0.03] {
                let direction = BruteForceSightline.aim(from: eye, latitude: lat, longitude: lon, msl: h + offset, geoid: geoid, refraction: 0.13)
                let outcome = BruteForceSightline.compare(eye: eye, direction: direction, grid: grid, geoid: geoid, slope: 10,
                                                          limit: 6000, refraction: 0.13)
                #expect(outcome.mismatch == nil, "\(file) cliff \(i) at (\(top.row), \(top.column)), \(offset) m: \(outcome.mismatch ?? "")")
                hits += outcome.bruteForceHits ? 1 : 0
            }
            }
        }
        #expect(hits >= 24, "\(hits) of 96 rays hit")
    }
}
