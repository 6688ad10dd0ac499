import Foundation
import Testing
import TapSeek
import TapSeekTestSupport

/// A skyline azimuth whose ray runs along the edge of the only tile (due north from a point on
/// N46E008's west edge, 8° E) costs as few grid look-ups as any other: it once crept along the
/// edge a micrometre at a time and took 100 s of CPU (`tapseek photo … --location 46.55,8.0
/// --heading 0` with that tile alone).
@Suite(.enabled(if: SharedData.available(SharedData.dem), "needs ../shared/dem"), .timeLimit(.minutes(5)))
struct PanoramaTileEdgeTests {
    /// A terrain that counts the grid look-ups of a walk, and ends the data after `limit` of
    /// them so that a creeping walk fails the test rather than hanging it.
    struct Counting: TerrainGrids {
        var sampler: TerrainSampler
        var lookups = 0
        let limit = 100_000

        mutating func grid(containing latitude: Double, longitude: Double) -> ElevationGrid? {
            lookups += 1
            return lookups > limit ? nil : sampler.grid(containing: latitude, longitude: longitude)
        }

        mutating func sample(latitude: Double, longitude: Double) -> TerrainSample {
            sampler.sample(latitude: latitude, longitude: longitude)
        }
    }

    @Test(arguments: [0.0, 180.0, 90.0])
    func aRayAlongTheTileEdgeCostsAFewLookUps(azimuth: Double) throws {
        let tile = SharedData.dem.appendingPathComponent("N46E008.tif")
        try #require(SharedData.exists(tile), Comment(rawValue: SharedData.missing(tile)))
        let folder = try SharedData.temporaryDirectory("edge")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("N46E008.tif"), withDestinationURL: tile)
        let catalog = try ElevationCatalog(directory: folder.path)
        let geoid = try Geoid()
        var terrain = Counting(sampler: TerrainSampler(catalog: catalog))
        let height = terrain.sampler.elevation(latitude: 46.55, longitude: 8.0)
        let ground = try #require(height)
        let eye = GeodeticPosition(latitude: 46.55, longitude: 8.0, height: ground + 2 + geoid.undulation(latitude: 46.55, longitude: 8.0))
        var crossedVoid = false
        let point = Panorama.skylinePoint(azimuth: azimuth, eye: eye, geoid: geoid, settings: Panorama.Settings(azimuthStep: 0.05, range: 40_000),
                                          range: 40_000, over: &terrain, crossedVoid: &crossedVoid)
        // The seed every few hundred metres to 40 km, then one look-up per segment and tile: a
        // few hundred in all. The creeping walk made millions.
        #expect(terrain.lookups < 2_000, "\(terrain.lookups) grid look-ups for azimuth \(azimuth)°")
        #expect(point.elevationAngle != nil)
    }
    /// Rays that leave the Everest tile across its north edge (28° N) at a grazing angle, with
    /// no tile beyond: nothing north of the edge is known, so no skyline point may lie there. A
    /// track a rounding error past the edge once found its exit behind it and walked on over
    /// row 0 extrapolated, drawing peaks 20 m beyond the data 2° higher than the terrain.
    @Test func aRayLeavingTheTileAcrossItsEdgeReadsNothingBeyondIt() throws {
        let tile = SharedData.dem.appendingPathComponent("N27E086.hgt")
        try #require(SharedData.exists(tile), Comment(rawValue: SharedData.missing(tile)))
        let catalog = try ElevationCatalog(directory: SharedData.dem.path)
        let geoid = try Geoid()
        var terrain = TerrainSampler(catalog: catalog)
        let (latitude, longitude) = (27.9957, 86.8285)
        let eye = GeodeticPosition(latitude: latitude, longitude: longitude, height: 5650 + geoid.undulation(latitude: latitude, longitude: longitude))
        let settings = Panorama.Settings(azimuthStep: 0.01, range: 40_000, layers: Panorama.Settings.pictureLayers)
        var beyond: [Double] = []
        for step in 0...300 {
            let azimuth = 84.0 + Double(step) * 0.01
            var crossedVoid = false
            let point = Panorama.skylinePoint(azimuth: azimuth, eye: eye, geoid: geoid, settings: settings, range: 40_000,
                                              over: &terrain, crossedVoid: &crossedVoid)
            if point.latitude > 28 + 1e-7 { beyond.append(azimuth) }
        }
        #expect(beyond.isEmpty, "skyline points north of the tile at azimuths \(beyond.prefix(10))")
    }
}
