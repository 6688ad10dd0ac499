import Foundation
import Testing
import TapSeekCore
import TapSeekGDAL
import TapSeekTestSupport

/// Heights of real summits in the shared tiles. Expected values are the DEM heights the shared
/// data's README lists for each summit (official height → SRTM post), i.e. independent truth.
@Suite(.enabled(if: SharedData.available(SharedData.dem), "needs ../shared/dem"))
struct ElevationCatalogTests {
    static let catalog: ElevationCatalog? = try? ElevationCatalog(directory: SharedData.dem.path, rasterReader: .gdal, fillsVoids: false)

    func sampler() throws -> TerrainSampler {
        let catalog = try #require(Self.catalog, Comment(rawValue: SharedData.missing(SharedData.dem)))
        return TerrainSampler(catalog: catalog)
    }

    /// The issue's reference posts: the height of the post nearest each summit, read at the
    /// post's own position (where bilinear interpolation must return the post exactly).
    @Test(arguments: [
        ("Everest", 27.9883, 86.9250, 8840.0, 1.0),
        ("Säntis", 47.2492, 9.3433, 2471, 2),
        ("Eiger", 46.5775, 8.0050, 3933, 2),
    ])
    func summitPostReadsItsKnownHeight(name: String, latitude: Double, longitude: Double,
                                       expected: Double, tolerance: Double) throws {
        var s = try sampler()
        let spacing = 1.0 / 1200
        let postLatitude = (latitude / spacing).rounded() * spacing, postLongitude = (longitude / spacing).rounded() * spacing
        let height = s.elevation(latitude: postLatitude, longitude: postLongitude)
        let h = try #require(height, "\(name) has no height")
        #expect(abs(h - expected) <= tolerance, "\(name): \(h) m, expected \(expected) ± \(tolerance)")
        // Between posts the surface is bilinear: the summit point itself stays within the
        // range of its four surrounding posts.
        let between = s.elevation(latitude: latitude, longitude: longitude) ?? .nan
        #expect(abs(between - h) < 10, "\(name) between posts: \(between)")
    }

    /// GDAL's own nearest-post reader (`gdallocationinfo -valonly -wgs84`) is the independent
    /// truth: at post positions across every geographic tile our interpolation returns its value.
    @Test func postsAgreeWithGDALLocationInfoAcrossAllTiles() throws {
        let catalog = try #require(Self.catalog)
        var generator = SplitMix64(seed: 17)
        var s = TerrainSampler(catalog: catalog)
        for tile in catalog.tiles where !tile.isProjected {
            var points: [(Double, Double)] = []
            for _ in 0..<40 {
                let r = Double(Int(generator.nextUnit() * Double(tile.rows - 2)) + 1)
                let c = Double(Int(generator.nextUnit() * Double(tile.columns - 2)) + 1)
                points.append((tile.north - r * tile.latitudeSpacing, tile.west + c * tile.longitudeSpacing))
            }
            let input = points.map { "\($0.1) \($0.0)" }.joined(separator: "\n") + "\n"
            let output = try SharedData.capture("gdallocationinfo", ["-valonly", "-wgs84", tile.path], input: input)
            let values = output.split(separator: "\n", omittingEmptySubsequences: false).prefix(points.count)
            #expect(values.count == points.count)
            for (p, text) in zip(points, values) {
                let ours = s.sample(latitude: p.0, longitude: p.1)
                if let theirs = Double(text), theirs > -32767 {
                    #expect(ours.height.map { abs($0 - theirs) < 1e-3 } == true, "\(tile.path) at \(p): ours \(ours), GDAL \(theirs)")
                } else {
                    #expect(ours == .void, "\(tile.path) at \(p): ours \(ours), GDAL '\(text)'")
                }
            }
        }
    }

    /// One look-up answers a height where the DEM has one (the Eiger's post at the height the
    /// shared data's README lists, also when its longitude is given 360° round, which comes back
    /// wrapped) and otherwise says why: the Finsteraarhorn's summit is an SRTM void, the
    /// mid-Atlantic has no tile. With voids filled the Finsteraarhorn gets a height marked
    /// filled, below its 4 274 m (the fill spans the void from the lower ground around it) and
    /// above the Eiger; an invalid latitude is refused.
    @Test func aLookUpAnswersTheHeightOrWhyThereIsNone() throws {
        let catalog = try #require(Self.catalog, Comment(rawValue: SharedData.missing(SharedData.dem)))
        let geoid = try Geoid(gtxContentsOf: Geoid.defaultPath)
        var sampler = ElevationService(catalog: catalog, geoid: geoid).sampler()
        let spacing = 1.0 / 1200
        let eiger = ((46.5775 / spacing).rounded() * spacing, (8.0050 / spacing).rounded() * spacing)
        for longitude in [eiger.1, eiger.1 + 360] {
            guard case let .height(latitude, wrapped, elevation, _, filled) = try sampler.lookUp(latitude: eiger.0, longitude: longitude) else {
                Issue.record("the Eiger at longitude \(longitude) has no height")
                continue
            }
            #expect(latitude == eiger.0 && abs(wrapped - eiger.1) < 1e-9 && abs(elevation - 3933) <= 2 && !filled)
        }
        let finsteraarhorn = (46.5367, 8.1258)
        for (point, reason) in [(finsteraarhorn, "void"), ((0.5, -30.5), "no tile")] {
            guard case .none(let answer) = try sampler.lookUp(latitude: point.0, longitude: point.1) else {
                Issue.record("\(point) has a height")
                continue
            }
            #expect(answer.elevation == nil && answer.reason == reason, "\(point): \(answer)")
        }
        #expect(throws: CoordinateError.self) { try sampler.lookUp(latitude: 91, longitude: 8) }

        let filling = try ElevationCatalog(directory: SharedData.dem.path, rasterReader: .gdal,
                                           voidFillArea: .around(latitude: finsteraarhorn.0, longitude: finsteraarhorn.1, radius: 0))
        var filledSampler = ElevationService(catalog: filling, geoid: geoid).sampler()
        let answer = try filledSampler.lookUp(latitude: finsteraarhorn.0, longitude: finsteraarhorn.1)
        guard case let .height(_, _, elevation, _, filled) = answer else {
            Issue.record("the filled Finsteraarhorn has no height: \(answer)")
            return
        }
        #expect(filled && elevation > 3933 && elevation < 4274, "\(elevation) m")
    }

    @Test func finsteraarhornIsAVoidNotSeaLevel() throws {
        var s = try sampler()
        let finsteraarhorn = s.sample(latitude: 46.5367, longitude: 8.1258)
        #expect(finsteraarhorn == .void)
    }

    @Test func deadSeaTileGoesBelowMinus400Metres() throws {
        let catalog = try #require(Self.catalog)
        let i = try #require(catalog.tiles.firstIndex { $0.path.hasSuffix("n31_e035_3arc_v2.tif") })
        let grid = try #require(catalog.grid(tile: i))
        #expect(grid.minimumHeight < -400)
        // The lake surface north of the Lisan peninsula (about −415 m at the time of SRTM, 2000).
        var s = try sampler()
        let lake = s.elevation(latitude: 31.6, longitude: 35.5)
        let surface = try #require(lake)
        #expect(surface < -400 && surface > -430)
    }

    @Test func dtedTileReadsSaoTomeHighPoint() throws {
        let catalog = try #require(Self.catalog)
        let i = try #require(catalog.tiles.firstIndex { $0.driver == "DTED" })
        let grid = try #require(catalog.grid(tile: i))
        // Pico de São Tomé is 2 024 m officially; SRTM's 3″ posts miss the very top.
        #expect(grid.maximumHeight > 1800 && grid.maximumHeight < 2024)
        #expect(grid.minimumHeight < 10)
    }

    @Test func oneArcSecondTileHas3601Posts() throws {
        let catalog = try #require(Self.catalog)
        let tile = try #require(catalog.tiles.first { $0.path.hasSuffix("S38E178.hgt.zip") })
        #expect(tile.rows == 3601 && tile.columns == 3601)
        #expect(abs(tile.latitudeSpacing * 3600 - 1) < 1e-9)
        #expect(abs(tile.south - -38) < 1e-9 && abs(tile.west - 178) < 1e-9)
    }

    @Test func webMercatorCopyAgreesWithTheHGTTile() throws {
        let directory = try SharedData.temporaryDirectory("mercator")
        defer { try? FileManager.default.removeItem(at: directory) }
        let hgt = try ElevationCatalog(directory: SharedData.dem.path, rasterReader: .gdal, fillsVoids: false)
        let hgtIndex = try #require(hgt.tiles.firstIndex { $0.path.hasSuffix("N43E006.hgt") })
        let reference = try #require(hgt.grid(tile: hgtIndex))
        let mercatorIndex = try #require(hgt.tiles.firstIndex { $0.path.hasSuffix("N43E006_3857.tiff") })
        #expect(hgt.tiles[mercatorIndex].isProjected)
        let mercator = try #require(hgt.grid(tile: mercatorIndex))
        var generator = SplitMix64(seed: 43)
        var differences: [Double] = []
        for _ in 0..<2000 {
            let lat = 43.02 + 0.96 * generator.nextUnit(), lon = 6.02 + 0.96 * generator.nextUnit()
            guard let a = reference.height(latitude: lat, longitude: lon),
                  let b = mercator.height(latitude: lat, longitude: lon) else { continue }
            differences.append(abs(a - b))
        }
        differences.sort()
        #expect(differences.count > 1000)
        // The Mercator copy was resampled by its publisher (127 m rows) and is resampled once
        // more to a geographic lattice on loading: flat ground agrees to a metre or two, steep
        // slopes by up to tens of metres.
        let median = differences[differences.count / 2], p90 = differences[differences.count * 9 / 10]
        print("mercator vs hgt: median \(median) m, p90 \(p90) m")
        #expect(median < 3, "median difference \(median) m")
        #expect(p90 < 20, "90th percentile difference \(p90) m")
    }

    @Test func tileCutInFourAnswersLikeTheWholeTileAcrossSeams() throws {
        let source = SharedData.dem.appendingPathComponent("N47E009.hgt")
        try #require(SharedData.exists(source), Comment(rawValue: SharedData.missing(source)))
        let whole = try SharedData.temporaryDirectory("whole"), quarters = try SharedData.temporaryDirectory("quarters")
        defer {
            try? FileManager.default.removeItem(at: whole)
            try? FileManager.default.removeItem(at: quarters)
        }
        try SharedData.run("gdal_translate", ["-q", "-of", "GTiff", source.path, whole.appendingPathComponent("whole.tif").path])
        try SharedData.writeQuarters(of: source, to: quarters)
        var a = TerrainSampler(catalog: try ElevationCatalog(directory: whole.path, rasterReader: .gdal, fillsVoids: false))
        var b = TerrainSampler(catalog: try ElevationCatalog(directory: quarters.path, rasterReader: .gdal, fillsVoids: false))
        var generator = SplitMix64(seed: 9)
        var compared = 0
        let seam = 9.0 + 601.0 / 1200.0 - 0.5 / 1200.0
        for k in 0..<6000 {
            var lat = 47.0 + generator.nextUnit(), lon = 9.0 + generator.nextUnit()
            // A third of the points sit within one cell of a seam.
            if k % 3 == 0 { lon = seam + (generator.nextUnit() - 0.5) / 1200 }
            if k % 3 == 1 { lat = 48.0 - (seam - 9.0) + (generator.nextUnit() - 0.5) / 1200 }
            let x = a.sample(latitude: lat, longitude: lon), y = b.sample(latitude: lat, longitude: lon)
            switch (x, y) {
            case (.height(let p), .height(let q)):
                #expect(abs(p - q) < 1e-6, "at \(lat), \(lon): \(p) vs \(q)")
                compared += 1
            default:
                #expect(x == y, "at \(lat), \(lon): \(x) vs \(y)")
            }
        }
        #expect(compared > 5900)
    }

    @Test func missingDirectoryIsAOneLineError() {
        #expect {
            try ElevationCatalog(directory: "/nonexistent/tapseek-dem", rasterReader: .gdal)
        } throws: { error in
            "\(error)" == "DEM directory /nonexistent/tapseek-dem does not exist"
        }
    }

    @Test func emptyDirectoryIsAnError() throws {
        let directory = try SharedData.temporaryDirectory("empty")
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect {
            try ElevationCatalog(directory: directory.path, rasterReader: .gdal)
        } throws: { error in
            "\(error)".contains("holds no elevation raster") && !"\(error)".contains("\n")
        }
    }

    @Test func corruptFileAmongGoodOnesIsSkippedWithAWarning() throws {
        let directory = try SharedData.temporaryDirectory("corrupt")
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("this is not a raster".utf8).write(to: directory.appendingPathComponent("N10E010.hgt"))
        try Data(repeating: 7, count: 1000).write(to: directory.appendingPathComponent("broken.tif"))
        try SharedData.run("gdal_translate", ["-q", "-of", "GTiff", SharedData.dem.appendingPathComponent("N47E009.hgt").path,
                                               directory.appendingPathComponent("good.tif").path])
        let catalog = try ElevationCatalog(directory: directory.path, rasterReader: .gdal)
        #expect(catalog.tiles.count == 1)
        #expect(catalog.warnings.count == 2)
        #expect(catalog.warnings.allSatisfy { $0.code == .skippedFile && $0.message.hasPrefix("skipping ") && !$0.message.contains("\n") })
        var s = TerrainSampler(catalog: catalog)
        let santis = s.elevation(latitude: 47 + 299.0 / 1200, longitude: 9 + 412.0 / 1200) ?? 0
        #expect(abs(santis - 2471) <= 2)
    }

    /// A FIFO named like a raster would block the catalog's open for ever: it is skipped with a
    /// warning, and the good tile beside it serves. The limit only turns a hang into a failure: it
    /// counts from when the test is scheduled, so on a loaded machine it must be generous.
    @Test(.timeLimit(.minutes(10)))
    func fifoNamedLikeARasterIsSkippedNotOpened() throws {
        let directory = try SharedData.temporaryDirectory("fifo")
        defer { try? FileManager.default.removeItem(at: directory) }
        try SharedData.run("mkfifo", [directory.appendingPathComponent("x.tif").path])
        try FileManager.default.createSymbolicLink(at: directory.appendingPathComponent("N47E009.hgt"),
                                                   withDestinationURL: SharedData.dem.appendingPathComponent("N47E009.hgt"))
        let catalog = try ElevationCatalog(directory: directory.path, rasterReader: .gdal)
        #expect(catalog.tiles.count == 1)
        #expect(catalog.warnings == [Warning(.skippedFile, "skipping \(directory.appendingPathComponent("x.tif").path): not a regular file")])
        var s = TerrainSampler(catalog: catalog)
        #expect(abs((s.elevation(latitude: 47 + 299.0 / 1200, longitude: 9 + 412.0 / 1200) ?? 0) - 2471) <= 2)
    }

    @Test func cacheEvictsLeastRecentlyUsedTilesBeyondItsBudget() throws {
        // Budget of 8 MB holds one 3″ tile (5.8 MB) at a time.
        let catalog = try ElevationCatalog(directory: SharedData.dem.path, memoryBudget: 8 << 20, rasterReader: .gdal)
        var s = TerrainSampler(catalog: catalog)
        _ = s.elevation(latitude: 27.9883, longitude: 86.9250)
        _ = s.elevation(latitude: 47.2492, longitude: 9.3433)
        #expect(catalog.cachedBytes <= 8 << 20)
        // Evicted tiles reload transparently.
        let everest = s.elevation(latitude: 28 - 14.0 / 1200, longitude: 86 + 1110.0 / 1200) ?? 0
        #expect(abs(everest - 8840) < 1e-6)
    }
}
