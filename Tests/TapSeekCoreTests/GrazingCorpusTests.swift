import Foundation
import Testing
import TapSeekCore
import TapSeekTestSupport

/// The exact engine against brute force on grazing rays: rays aimed within centimetres of thin
/// crests, of ridges lying exactly on post lines (and rays running exactly along them), of
/// cliff edges and of random rough terrain, under a geoid with kinks. The first hit must be
/// the brute force's to 1 cm along the ray, and no crossing may be missed.
@Suite(.timeLimit(.minutes(10)))
struct GrazingCorpusTests {
    /// Offsets of the aim point above (+) and below (−) the crest, metres.
    static let offsets = [-0.05, -0.02, -0.01, 0.01, 0.02, 0.05]

    /// A geoid of 0.25° posts around the test area with random undulations 40–60 m, so that
    /// rays cross its cell edges, where its bilinear surface has kinks.
    static let kinkedGeoid: Geoid = {
        var random = SplitMix64(seed: 7)
        let heights = (0..<(41 * 41)).map { _ in Float(40 + Double(random.next() % 2001) / 100) }
        return Geoid(grid: ElevationGrid(north: 51, west: 3, latitudeSpacing: 0.25, longitudeSpacing: 0.25,
                                         rows: 41, columns: 41, heights: heights))
    }()

    static func grid(north: Double, west: Double, spacing: Double, rows: Int, columns: Int,
                     height: (Int, Int) -> Double) -> ElevationGrid {
        var heights = [Float](repeating: 0, count: rows * columns)
        for r in 0..<rows { for c in 0..<columns { heights[r * columns + c] = Float(height(r, c)) } }
        return ElevationGrid(north: north, west: west, latitudeSpacing: spacing, longitudeSpacing: spacing,
                             rows: rows, columns: columns, heights: heights)
    }

    static func aim(from eye: GeodeticPosition, latitude: Double, longitude: Double, msl: Double, geoid: Geoid,
                    refraction: Double) -> Vector3 {
        BruteForceSightline.aim(from: eye, latitude: latitude, longitude: longitude, msl: msl, geoid: geoid, refraction: refraction)
    }

    /// Runs one ray both ways and compares; returns whether the brute force found a hit.
    @discardableResult
    static func check(eye: GeodeticPosition, direction: Vector3, grid: ElevationGrid, geoid: Geoid, slope: Double,
                      limit: Double, refraction: Double = 0.13, _ label: String) -> Bool {
        let outcome = BruteForceSightline.compare(eye: eye, direction: direction, grid: grid, geoid: geoid, slope: slope,
                                                  limit: limit, refraction: refraction)
        #expect(outcome.mismatch == nil, "\(label): \(outcome.mismatch ?? "")")
        return outcome.bruteForceHits
    }

    /// A ridge one post wide along a post row, 150 m over a 600 m plain, 1″ posts: rays from
    /// three places and at three obliquities aimed at a post of the crest ± 1–5 cm.
    @Test func thinCrestOnAPostRow() {
        let spacing = 1.0 / 3600, north = 46.05, west = 7.45
        let crestRow = 100
        let grid = Self.grid(north: north, west: west, spacing: spacing, rows: 200, columns: 200) { r, _ in r == crestRow ? 750 : 600 }
        var cases = 0, hits = 0
        for (eyeRow, eyeColumn, eyeMSL) in [(190, 100, 640.0), (160, 40, 700.0), (199, 170, 900.0)] {
            let eye = GeodeticPosition(latitude: north - Double(eyeRow) * spacing, longitude: west + Double(eyeColumn) * spacing,
                                       height: eyeMSL + Self.kinkedGeoid.undulation(latitude: 46, longitude: 7.5))
            for targetColumn in [60, 100, 141] {
                for offset in Self.offsets {
                    let lat = north - Double(crestRow) * spacing, lon = west + Double(targetColumn) * spacing
                    let direction = Self.aim(from: eye, latitude: lat, longitude: lon, msl: 750 + offset, geoid: Self.kinkedGeoid, refraction: 0.13)
                    let hit = Self.check(eye: eye, direction: direction, grid: grid, geoid: Self.kinkedGeoid, slope: 10, limit: 6000,
                                         "eye (\(eyeRow), \(eyeColumn)), crest column \(targetColumn), \(offset) m")
                    // Every eye is below the crest: aimed under it, the ray meets its face.
                    #expect(hit == (offset < 0), "crest column \(targetColumn), \(offset) m")
                    cases += 1
                    hits += hit ? 1 : 0
                }
            }
        }
        #expect(cases == 54 && hits == 27)
    }

    /// The track runs exactly along a post column (the observer stands on it, looking north)
    /// toward a crest on a post row: the ray lies on cell edges the whole way.
    @Test func rayAlongAPostLineToARidgeOnAPostLine() {
        let spacing = 3.0 / 3600, north = 46.2, west = 7.4
        let grid = Self.grid(north: north, west: west, spacing: spacing, rows: 150, columns: 60) { r, c in
            (r == 40 ? 1900 : 1200) + Double((c * 37) % 11)
        }
        let eye = GeodeticPosition(latitude: north - 140 * spacing, longitude: west + 30 * spacing,
                                   height: 1300 + Self.kinkedGeoid.undulation(latitude: 46.1, longitude: 7.4))
        for offset in Self.offsets {
            // Due north along the column: azimuth 0 keeps the track on the meridian.
            let crest = 1900 + Double((30 * 37) % 11)
            let elevation = Self.elevationAngle(from: eye, latitude: north - 40 * spacing, longitude: eye.longitude, msl: crest + offset)
            let direction = ViewDirection(azimuth: 0, elevation: elevation).enu
            let hit = Self.check(eye: eye, direction: direction, grid: grid, geoid: Self.kinkedGeoid, slope: 10, limit: 10_000,
                                 "along the column, \(offset) m")
            #expect(hit == (offset < 0), "along the column, \(offset) m")
        }
    }

    /// The elevation angle (degrees) of the refracted ray from the eye through a point.
    static func elevationAngle(from eye: GeodeticPosition, latitude: Double, longitude: Double, msl: Double) -> Double {
        ViewDirection(enu: aim(from: eye, latitude: latitude, longitude: longitude, msl: msl, geoid: kinkedGeoid, refraction: 0.13)).elevation
    }

    /// A 1 000 m cliff rising within one 1″ cell (slope 33): rays aimed at its edge ± 1–5 cm,
    /// from below and from above.
    @Test func nearVerticalCliffEdge() {
        let spacing = 1.0 / 3600, north = 46.05, west = 7.45
        let grid = Self.grid(north: north, west: west, spacing: spacing, rows: 120, columns: 80) { r, _ in r <= 50 ? 2000 : 1000 }
        for (eyeMSL, eyeRow) in [(1100.0, 119), (2300.0, 110), (1990.0, 100)] {
            let eye = GeodeticPosition(latitude: north - Double(eyeRow) * spacing, longitude: west + 35 * spacing,
                                       height: eyeMSL + Self.kinkedGeoid.undulation(latitude: 46.04, longitude: 7.46))
            for offset in Self.offsets {
                let direction = Self.aim(from: eye, latitude: north - 50 * spacing, longitude: west + 47.3 * spacing, msl: 2000 + offset,
                                         geoid: Self.kinkedGeoid, refraction: 0.13)
                let hit = Self.check(eye: eye, direction: direction, grid: grid, geoid: Self.kinkedGeoid, slope: 40, limit: 4000,
                                     "cliff from \(eyeMSL) m, \(offset) m")
                // From above the plateau every ray comes down on it or on the face; from below,
                // only those aimed under the edge meet the face (over it, the plateau is level).
                #expect(hit == (eyeMSL > 2000 || offset < 0), "cliff from \(eyeMSL) m, \(offset) m")
            }
        }
    }

    /// Rough random terrain (3″ posts, up to ±300 m): rays aimed at random posts and random
    /// points inside cells, ± 2 cm, and under random refraction.
    @Test func randomRoughTerrain() {
        var random = SplitMix64(seed: 2026)
        func uniform() -> Double { Double(random.next() % 1_000_001) / 1_000_000 }
        let spacing = 3.0 / 3600, north = 46.1, west = 7.4
        let heights = (0..<(121 * 121)).map { _ in 1500 + 600 * (uniform() - 0.5) }
        let grid = Self.grid(north: north, west: west, spacing: spacing, rows: 121, columns: 121) { r, c in heights[r * 121 + c] }
        var atAim = 0
        for i in 0..<40 {
            let eye = GeodeticPosition(latitude: north - (20 + 80 * uniform()) * spacing, longitude: west + (20 + 80 * uniform()) * spacing,
                                       height: 1900 + 300 * uniform() + 50)
            // Random posts for even cases (a peak's tip), random points inside cells for odd.
            let r = 2 + 116 * uniform(), c = 2 + 116 * uniform()
            let (tr, tc) = i % 2 == 0 ? (r.rounded(), c.rounded()) : (r, c)
            let lat = north - tr * spacing, lon = west + tc * spacing
            guard let h = grid.height(latitude: lat, longitude: lon) else { continue }
            let k = -0.2 + 0.4 * uniform()
            for offset in [-0.02, 0.02] {
                let direction = Self.aim(from: eye, latitude: lat, longitude: lon, msl: h + offset, geoid: Self.kinkedGeoid, refraction: k)
                // How far the aim point is: a ray that reaches it unblocked grazes it.
                let frame = LocalFrame(origin: eye)
                let aimed = frame.enu(of: GeodeticPosition(latitude: lat, longitude: lon,
                                                           height: h + Self.kinkedGeoid.undulation(latitude: lat, longitude: lon))).length
                let outcome = BruteForceSightline.compare(eye: eye, direction: direction, grid: grid, geoid: Self.kinkedGeoid, slope: 10,
                                                          limit: aimed + 500, refraction: k)
                #expect(outcome.mismatch == nil, "random ray \(i), \(offset) m: \(outcome.mismatch ?? "")")
                if offset < 0, outcome.engine.outcome == .hit, abs(outcome.engine.marchedDistance - aimed) < 1 { atAim += 1 }
            }
        }
        // A fair share of the rays are not blocked before their aim point and so graze it.
        #expect(atAim >= 5, "\(atAim) rays grazed their aim point")
    }
}

/// Two grids on either side of the antimeridian, as a catalog of tiles would hold them.
struct AntimeridianTiles: TerrainGrids {
    let west: ElevationGrid, east: ElevationGrid

    func grid(containing latitude: Double, longitude: Double) -> ElevationGrid? {
        let lon = normalizedLongitude(longitude)
        if west.contains(latitude: latitude, longitude: lon) { return west }
        if east.contains(latitude: latitude, longitude: lon) { return east }
        return nil
    }

    func sample(latitude: Double, longitude: Double) -> TerrainSample {
        guard let g = grid(containing: latitude, longitude: longitude) else { return .outside }
        return g.sample(latitude: latitude, longitude: normalizedLongitude(longitude))
    }
}

struct AntimeridianTests {
    /// A level plateau split at ±180°: a ray from 179.9° E looking east meets it beyond the
    /// antimeridian where the closed form says, and says so in continuous longitude's terms
    /// (the reported longitude is back in −180…180).
    @Test func rayAcrossTheAntimeridianHitsTheFarTile() throws {
        func plateau(west: Double) -> ElevationGrid {
            ElevationGrid(north: -16.8, west: west, latitudeSpacing: 0.01, longitudeSpacing: 0.01, rows: 41, columns: 41,
                          heights: [Float](repeating: 300, count: 41 * 41))
        }
        var terrain = AntimeridianTiles(west: plateau(west: 179.6), east: plateau(west: -180))
        let eye = GeodeticPosition(latitude: -17, longitude: 179.9, height: 1300)
        let geoid = Geoid(grid: ElevationGrid(north: 90, west: -180, latitudeSpacing: 180, longitudeSpacing: 360, rows: 2, columns: 2,
                                              heights: [0, 0, 0, 0]))
        var march = SightlineMarch(observer: eye, direction: ViewDirection(azimuth: 90, elevation: -2.5).enu, geoid: geoid,
                                   settings: MarchSettings())
        let result = march.run(over: &terrain, maximumTerrain: 300)
        let expected = try #require(SyntheticTerrain.Truth.plateauSlantDistance(latitude: -17, longitude: 179.9, eyeHeight: 1300, azimuth: 90,
                                                                                 elevation: -2.5, plateau: 300, refraction: MarchSettings.defaultRefraction))
        #expect(result.outcome == .hit)
        #expect(abs(result.marchedDistance - expected) < 0.5, "marched \(result.marchedDistance), closed form \(expected)")
        #expect(result.longitude < -179.5, "hit at \(result.longitude)")
    }
}
