import Foundation
import Testing
import TapSeek
import TapSeekTestSupport

/// Sightlines due north and south from eyes on a tile's west and east edges (whole degrees),
/// with no tile beyond: the ray's track lies on the edge, on one side or the other by the last
/// bits of its longitude (`RayPath`'s exact points take it from one `atan`, within a few ulps of
/// `atan2`'s). The walk's choice of grid takes the tile that holds the track to 10⁻¹³°
/// (`RayPath.grid(near:_:_:)`), so the ray is followed to where the tile really ends. Before,
/// with `atan2`'s longitudes, 10 of these 80 readings found "no terrain" and 41 more left the
/// DEM at once or at a 5 km segment's end, as their longitudes happened to round.
@Suite(.enabled(if: SharedData.available(SharedData.dem), "needs ../shared/dem"), .timeLimit(.minutes(5)))
struct SightlineTileEdgeTests {
    @Test func aSightlineAlongATilesEdgeIsNotLost() throws {
        let tile = SharedData.dem.appendingPathComponent("N42E001.hgt.zip")
        try #require(SharedData.exists(tile), Comment(rawValue: SharedData.missing(tile)))
        let folder = try SharedData.temporaryDirectory("edge-sightline")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("N42E001.hgt.zip"), withDestinationURL: tile)
        let locator = Locator(catalog: try ElevationCatalog(directory: folder.path), geoid: try Geoid())
        var terrain = TerrainSampler(catalog: locator.catalog)
        for longitude in [1.0, 2.0] {
            for k in 0..<10 {
                let latitude = 42.1 + 0.08 * Double(k)
                for heading in [0.0, 180.0] {
                    for pitch in [-1.0, 2.0] {
                        let reading = Reading(location: .init(latitude: latitude, longitude: longitude, altitude: 3000 + 300 * Double(k)),
                                              orientation: .init(heading: heading, pitch: pitch))
                        let result = locator.locate(reading, terrain: &terrain)
                        let what = "\(latitude) N \(longitude) E, heading \(heading)°, pitch \(pitch)°"
                        #expect(result.status == .hit || result.status == .horizon, "\(result.status) at \(what)")
                        // A ray that leaves the data does so across the tile's north or south edge.
                        if result.warnings.contains(where: { $0.code == .leftDEM }), let end = result.track.last {
                            #expect(abs(end.latitude - (heading == 0 ? 43 : 42)) < 1e-3, "left the DEM at \(end.latitude) N, \(what)")
                        }
                    }
                }
            }
        }
    }
}
