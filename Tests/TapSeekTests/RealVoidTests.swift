import Foundation
import Testing
import TapSeek
import TapSeekTestSupport

/// The real SRTM v2 voids of N46E008 (7 % of the tile, on the steep north faces of the Eiger,
/// Mönch and Jungfrau): no answer may lie off the sightline, none may call a void the sky, and
/// filling (the default) answers on the filled surface and says so.
@Suite(.enabled(if: SharedData.available(SharedData.dem), "needs ../shared/dem"))
struct RealVoidTests {
    static let geoidPath = "/usr/share/proj/egm96_15.gtx"

    static func locator(fillsVoids: Bool) throws -> Locator {
        try #require(SharedData.exists(SharedData.dem), Comment(rawValue: SharedData.missing(SharedData.dem)))
        let catalog = try ElevationCatalog(directory: SharedData.dem.path, rasterReader: .gdal, fillsVoids: fillsVoids)
        return Locator(catalog: catalog, geoid: try Geoid(contentsOf: geoidPath))
    }

    /// From Grindelwald at 2 950 m, level toward the Eiger's north face (issue 38, item 1).
    static let levelAtTheNorthFace = Reading(location: .init(latitude: 46.624, longitude: 8.041, altitude: 2950),
                                             orientation: .init(heading: 208, pitch: 0))

    /// README's Eiger reading, at `heading`.
    static func readme(heading: Double) -> Reading {
        Reading(location: .init(latitude: 46.624, longitude: 8.041, altitude: 1034), orientation: .init(heading: heading, pitch: 26))
    }

    /// How far a target lies from the straight sightline of a reading, metres (refraction
    /// bends the ray below it by k·d²/(2R): 0.3 m at 5 km).
    static func offLine(_ result: LocateResult, geoid: Geoid) throws -> Double {
        let o = try #require(result.observer), t = try #require(result.target), s = try #require(result.sightline)
        let eye = GeodeticPosition(latitude: o.latitude, longitude: o.longitude,
                                   height: o.altitude + geoid.undulation(latitude: o.latitude, longitude: o.longitude))
        let v = LocalFrame(origin: eye).enu(of: GeodeticPosition(latitude: t.latitude, longitude: t.longitude,
                                                                 height: t.elevation + geoid.undulation(latitude: t.latitude, longitude: t.longitude)))
        let d = ViewDirection(azimuth: s.azimuth, elevation: s.elevationAngle).enu
        return (v - v.dot(d) * d).length
    }

    /// Before: `hit` at 3 930 m, 980 m above the level ray (the first known post past the void).
    @Test func aHitThroughAVoidLiesOnTheSightline() throws {
        let locator = try Self.locator(fillsVoids: true)
        let result = locator.locate(Self.levelAtTheNorthFace)
        #expect(result.status == .hit)
        #expect(try Self.offLine(result, geoid: locator.geoid) < 1)
        let filled = try #require(result.warnings.first { $0.code == .filledVoid }, "\(result.warnings)")
        #expect(filled.message.contains("the target lies on terrain filled across a void"))
        #expect(!result.warnings.contains { $0.code == .voidOnSightline })
    }

    @Test func aSightlineLeavingAVoidBelowTheTerrainIsTerrainUnknownWithoutFilling() throws {
        let locator = try Self.locator(fillsVoids: false)
        for reading in [Self.levelAtTheNorthFace, Self.readme(heading: 208)] {
            let result = locator.locate(reading)
            #expect(result.status == .error && result.error?.code == .terrainUnknown, "\(result.status) \(String(describing: result.target))")
            #expect(result.target == nil)
            #expect(result.error?.message.contains("crosses a void in the DEM") == true)
            // What is known stays: the observer and the sightline.
            #expect(result.observer != nil && result.sightline != nil)
        }
    }

    /// Before: `horizon`, "left the DEM 6290.0 m from the observer" and "no terrain lies in the
    /// tapped direction (the sky?)", for a ray that entered the Eiger's void below the tile's
    /// highest post and met the tile's edge inside it.
    @Test(arguments: [209.0, 210, 211, 212])
    func aRayIntoAVoidIsNeitherTheSkyNorLeavesTheDEMUnmet(heading: Double) throws {
        let unfilled = try Self.locator(fillsVoids: false).locate(Self.readme(heading: heading))
        #expect(unfilled.status == .error && unfilled.error?.code == .terrainUnknown, "\(unfilled.warnings)")
        #expect(!unfilled.warnings.contains { $0.code == .skyTapped || $0.code == .leftDEM })
        // Filled, the ray passes over the filled face and the tile's west edge (8° E) ends the
        // DEM: terrain beyond is unknown, so the sky is not claimed.
        let filled = try Self.locator(fillsVoids: true).locate(Self.readme(heading: heading))
        #expect(filled.status == .hit || filled.status == .horizon)
        #expect(!filled.warnings.contains { $0.code == .skyTapped }, "\(filled.warnings)")
    }

    /// Before: `hitShare` 0.117 and no word of it.
    @Test func fewSamplesHittingIsWarnedWithTheShare() throws {
        let result = try Self.locator(fillsVoids: true).locate(Self.readme(heading: 208),
                                                              uncertainty: .init(samples: 200, seed: 7), jobs: 2)
        let share = try #require(result.uncertainty?.hitShare)
        #expect(share < 0.5)
        let warning = try #require(result.warnings.first { $0.code == .fewSamplesHit }, "\(result.warnings)")
        #expect(warning.message.contains(String(format: "%.1f %%", 100 * share)), "\(warning.message)")
    }

    @Test func theTileLoadsWithItsVoidsFilledAndMarked() throws {
        let filled = try Self.locator(fillsVoids: true).catalog, raw = try Self.locator(fillsVoids: false).catalog
        let index = try #require(filled.tiles.firstIndex { $0.path.hasSuffix("N46E008.tif") })
        let grid = try #require(filled.grid(tile: index)), voids = try #require(raw.grid(tile: index))
        #expect(voids.voidFraction > 0.05 && voids.filled == nil)
        // Every void of this tile lies within VoidFill.maximumReach of known terrain.
        #expect(grid.voidFraction == 0)
        #expect(abs(grid.filledFraction - voids.voidFraction) < 1e-12)
        for (i, h) in voids.heights.enumerated() where i % 7 == 0 {
            if h.isNaN { #expect(grid.filled?.contains(i) == true) } else { #expect(grid.heights[i] == h) }
        }
    }

    /// A sightline's check for filled terrain under it (every 10 m of a skyline) asks the
    /// sampler, which reads the tile in place: a point rests on a filled post exactly where the
    /// unfilled tile has no height (a void among the four posts around it), at any longitude
    /// turn a ray's continuous longitudes take.
    @Test func theSamplerSaysAPointRestsOnFilledPostsWhereTheRawTileHasNoHeight() throws {
        let filled = try Self.locator(fillsVoids: true).catalog, raw = try Self.locator(fillsVoids: false).catalog
        let index = try #require(raw.tiles.firstIndex { $0.path.hasSuffix("N46E008.tif") })
        let voids = try #require(raw.grid(tile: index))
        var sampler = TerrainSampler(catalog: filled)
        var random = SplitMix64(seed: 38)
        var onFilled = 0
        for k in 0..<20_000 {
            let latitude = Double.random(in: 46.001...46.999, using: &random), longitude = Double.random(in: 8.001...8.999, using: &random)
            let turn = [0.0, 360, -360, 720][k % 4]
            let expected = voids.height(latitude: latitude, longitude: longitude) == nil
            #expect(sampler.restsOnFilledPost(latitude: latitude, longitude: longitude + turn) == expected, "\(latitude), \(longitude) + \(turn)")
            if expected { onFilled += 1 }
        }
        #expect(onFilled > 500, "the points reach the filled voids: \(onFilled)")
    }

    /// From the Eiger's summit, skyline points and peaks on the filled north faces are marked and
    /// warned: exactly those whose height the unfilled tile does not know (a void among the
    /// posts around them). Before: no word of it.
    @Test func panoramaMarksSkylinePointsOnFilledTerrain() throws {
        let eiger = Reading.Location(latitude: 46.5775, longitude: 8.0053)
        let result = try Self.locator(fillsVoids: true).panorama(from: eiger, settings: .init(range: 30_000), jobs: 2)
        var raw = TerrainSampler(catalog: try Self.locator(fillsVoids: false).catalog)
        /// Nil off the tile: points on its west edge (8° E), where the search stopped, may fall
        /// 10⁻¹² degrees outside it.
        func isVoid(_ latitude: Double, _ longitude: Double) -> Bool? {
            switch raw.sample(latitude: latitude, longitude: longitude) {
            case .height: false
            case .void: true
            case .outside: nil
            }
        }
        let known = result.panorama.skyline.filter { $0.elevationAngle != nil }
        let marked = known.filter(\.filled)
        #expect(marked.count > 100 && marked.count < known.count, "\(marked.count) of \(known.count)")
        for point in known {
            if let void = isVoid(point.latitude, point.longitude) {
                #expect(point.filled == void, "\(point)")
            } else {
                #expect(!point.complete && abs(point.longitude - 8) < 1e-9, "\(point)")
            }
        }
        for peak in result.panorama.peaks { #expect(peak.filled == isVoid(peak.latitude, peak.longitude), "\(peak)") }
        let warning = try #require(result.warnings.first { $0.code == .filledVoid }, "\(result.warnings)")
        #expect(warning.message.hasPrefix("\(marked.count) of \(result.panorama.skyline.count) azimuths' skyline points"), "\(warning.message)")
        // Unfilled, voids are no terrain: nothing rests on filled posts.
        let unfilled = try Self.locator(fillsVoids: false).panorama(from: eiger, settings: .init(range: 30_000), jobs: 2)
        #expect(!unfilled.panorama.skyline.contains(where: \.filled) && !unfilled.warnings.contains { $0.code == .filledVoid })
    }

    /// A viewshed over the filled faces says how many posts within range were filled: the
    /// count of posts within range that are voids in the unfilled tile (every void of this tile
    /// is within reach of known terrain, so all were filled).
    @Test func viewshedWarnsOfFilledPostsWithinRange() throws {
        let eiger = Reading.Location(latitude: 46.5775, longitude: 8.0053)
        let locator = try Self.locator(fillsVoids: true)
        let result = try locator.viewshed(from: eiger, settings: .init(range: 10_000), jobs: 2)
        let warning = try #require(result.warnings.first { $0.code == .filledVoid }, "\(result.warnings)")
        let raw = try Self.locator(fillsVoids: false).catalog
        let index = try #require(raw.tiles.firstIndex { $0.path.hasSuffix("N46E008.tif") })
        let voids = try #require(raw.grid(tile: index))
        // Posts within range by the geodesic: the warning's flat-earth test may differ only on
        // the range's rim.
        var inside = 0, rim = 0
        for row in 0..<voids.rows {
            let latitude = voids.north - Double(row) * voids.latitudeSpacing
            guard abs(latitude - eiger.latitude) < 0.1 else { continue }
            for column in 0..<voids.columns where voids.heights[row * voids.columns + column].isNaN {
                let d = Geodesic.inverse(latitude1: eiger.latitude, longitude1: eiger.longitude, latitude2: latitude,
                                         longitude2: voids.west + Double(column) * voids.longitudeSpacing).distance
                if d < 9_950 { inside += 1 } else if d < 10_050 { rim += 1 }
            }
        }
        let count = try #require(Int(warning.message.prefix { $0.isNumber }), "\(warning.message)")
        #expect(inside > 1000 && count >= inside && count <= inside + rim, "\(count) against \(inside) (+\(rim) on the rim): \(warning.message)")
        let unfilled = try Self.locator(fillsVoids: false).viewshed(from: eiger, settings: .init(range: 10_000), jobs: 2)
        #expect(!unfilled.warnings.contains { $0.code == .filledVoid })
    }
}
