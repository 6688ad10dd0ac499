import Foundation
import Testing
import TapSeek
import TapSeekTestSupport

/// `Locator.viewshed` cell by cell: against `aim` for every cell of windows of the real tiles,
/// against a closed-form sphere with one ridge, and against the independent brute-force
/// sightline of TapSeekTestSupport.
@Suite(.serialized, .timeLimit(.minutes(10)))
struct ViewshedTests {
    typealias Truth = SyntheticTerrain.Truth

    static func sharedLocator() throws -> Locator {
        try #require(SharedData.exists(SharedData.dem), Comment(rawValue: SharedData.missing(SharedData.dem)))
        return Locator(catalog: try ElevationCatalog(directory: SharedData.dem.path, rasterReader: .gdal), geoid: try Geoid())
    }

    struct Window: Sendable, CustomTestStringConvertible {
        var name: String
        var latitude: Double, longitude: Double
        var range: Double
        var targetHeight = 0.0
        /// Every `stride`-th row and column is checked.
        var stride = 1
        var altitude: Double?
        /// Arc seconds between cell centres (nil: the DEM's).
        var resolution: Double?
        var testDescription: String { name }
    }

    static let windows = [
        Window(name: "Wasserauen, in the valley: every cell within 3 km", latitude: 47.2840, longitude: 9.4300, range: 3000),
        Window(name: "Säntis summit: every cell within 3 km, 10 m masts", latitude: 47.2492, longitude: 9.3433, range: 3000,
               targetHeight: 10),
        Window(name: "Khumbu, below Ama Dablam: every cell within 2.5 km", latitude: 27.8650, longitude: 86.8000, range: 2500),
        Window(name: "Appenzell: every 7th cell within 15 km", latitude: 47.3306, longitude: 9.4086, range: 15_000, stride: 7),
        Window(name: "Khumbu from 6 000 m: every 11th cell within 25 km", latitude: 27.9600, longitude: 86.9000, range: 25_000,
               stride: 11, altitude: 6000),
        Window(name: "Hoher Kasten at 5″, off the posts: every cell within 4 km", latitude: 47.2840, longitude: 9.4860, range: 4000,
               resolution: 5),
        // The terrains of scripts/bench-terrains.sh, where the bounds are tightest: a summit that
        // sees far and wide, a plain seen near grazing, a coast over the sea.
        Window(name: "Dammastock summit: every 11th cell within 30 km", latitude: 46.6436, longitude: 8.4208, range: 30_000, stride: 11),
        // Every cell, where whole blocks of them are proved hidden at once (ViewshedBlock)
        // beside blocks holding visible cells.
        Window(name: "Dammastock summit: every cell within 6 km", latitude: 46.6436, longitude: 8.4208, range: 6000),
        Window(name: "Thurgau plain: every 11th cell within 30 km", latitude: 47.50, longitude: 9.38, range: 30_000, stride: 11),
        // Lake Constance seen from 100 m above its shore: thousands of water cells visible near
        // grazing, whose sightlines' last stretches their posts settle (SightlineTail).
        Window(name: "Thurgau plain over Lake Constance: every 3rd cell within 30 km", latitude: 47.50, longitude: 9.38, range: 30_000,
               stride: 3),
        Window(name: "Dammastock summit: every 4th cell within 30 km", latitude: 46.6436, longitude: 8.4208, range: 30_000, stride: 4),
        Window(name: "Above Sainte-Maxime, over the sea: every 11th cell within 30 km", latitude: 43.31, longitude: 6.60, range: 30_000,
               stride: 11),
    ]

    /// Every cell checked says what `aim` says of its centre, raised by the target height; the
    /// sweep settles most cells without a ray of their own; no cell within range with terrain
    /// is left without an answer.
    @Test(.enabled(if: SharedData.available(SharedData.dem), "needs ../shared/dem"), arguments: windows)
    func everyCellAgreesWithAim(window: Window) throws {
        let locator = try Self.sharedLocator()
        let location = Reading.Location(latitude: window.latitude, longitude: window.longitude, altitude: window.altitude)
        let result = try locator.viewshed(from: location, settings: .init(range: window.range, targetHeight: window.targetHeight,
                                                                          resolution: window.resolution.map { $0 / 3600 }),
                                          jobs: 2)
        let grid = result.viewshed.grid
        if let resolution = window.resolution { #expect(abs(grid.latitudeSpacing * 3600 - resolution) < 1e-9) }
        var terrain = TerrainSampler(catalog: locator.catalog)
        var checked = 0, visible = 0
        var mismatches: [String] = []
        for r in Swift.stride(from: 0, to: grid.rows, by: window.stride) {
            for c in Swift.stride(from: 0, to: grid.columns, by: window.stride) {
                let latitude = grid.latitude(row: r), longitude = grid.longitude(column: c)
                let value = grid.values[r * grid.columns + c]
                guard case .height(let ground) = terrain.sample(latitude: latitude, longitude: longitude) else {
                    if value != ViewshedGrid.noData { mismatches.append("(\(r), \(c)) has no terrain but value \(value)") }
                    continue
                }
                let aim = locator.aim(AimRequest(observer: Reading(location: location),
                                                 target: .position(latitude: latitude, longitude: longitude,
                                                                   elevation: ground + window.targetHeight, name: nil)),
                                      terrain: &terrain)
                if aim.error != nil {
                    // Only the observer's own cell has no sightline.
                    if value != ViewshedGrid.visible { mismatches.append("(\(r), \(c)): aim \(aim.error!.message), value \(value)") }
                    continue
                }
                if value == ViewshedGrid.noData {
                    // Beyond the range (the grid measures it horizontally from the eye).
                    if aim.distance < window.range - 50 { mismatches.append("(\(r), \(c)) at \(aim.distance) m has no value") }
                    continue
                }
                checked += 1
                if aim.visible == true { visible += 1 }
                if aim.visible != (value == ViewshedGrid.visible) {
                    mismatches.append("(\(r), \(c)) \(latitude), \(longitude) at \(Int(aim.distance)) m: aim \(String(describing: aim.visible)), viewshed \(value)")
                }
            }
        }
        let cells = grid.cells
        print("viewshed \(window.name): \(cells) cells, \(result.viewshed.exactCells) by their own ray (\(100 * result.viewshed.exactCells / max(cells, 1)) %), \(result.viewshed.radials) radials; \(checked) checked against aim, \(visible) visible, \(mismatches.count) differ")
        #expect(checked > 500)
        #expect(visible > 0 && visible < checked, "a window with both visible and hidden cells")
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
        #expect(result.viewshed.exactCells * 2 < cells, "the sweep settles most cells")
    }

    /// A geoid of constant undulation 0: mean sea level is the ellipsoid.
    static let flatGeoid = Geoid(grid: ElevationGrid(north: 90, west: -180, latitudeSpacing: 180, longitudeSpacing: 360,
                                                     rows: 2, columns: 2, heights: [0, 0, 0, 0]))

    /// The eye's East-North-Up coordinates of a point, from the closed forms of ``SyntheticTerrain/Truth`` alone.
    static func enu(from eye: (Double, Double, Double), to point: (Double, Double, Double)) -> (x: Double, y: Double, z: Double) {
        let o = Truth.ecef(eye.0, eye.1, eye.2), p = Truth.ecef(point.0, point.1, point.2)
        let d = (p.x - o.x, p.y - o.y, p.z - o.z)
        func dot(_ u: (x: Double, y: Double, z: Double)) -> Double { u.x * d.0 + u.y * d.1 + u.z * d.2 }
        return (dot(Truth.direction(eye.0, eye.1, azimuth: 90, elevation: 0)), dot(Truth.direction(eye.0, eye.1, azimuth: 0, elevation: 0)),
                dot(Truth.direction(eye.0, eye.1, azimuth: 0, elevation: 90)))
    }

    /// A sea-level sphere (the ellipsoid, the geoid flat at 0) with one straight ridge along a
    /// meridian 4 km east of an eye 2 m above the sea, seeing 1 m masts: every cell agrees with the closed form —
    /// hidden beyond the refracted horizon (the ray meets the sea where h₀ + x·tan e + c·x² = 0,
    /// c = (1/R_α − k/R)/2) and in the ridge's shadow (the ray passes under the crest) — except
    /// cells within 0.5 m of either condition (grazing).
    @Test func seaLevelSphereWithOneRidgeMatchesTheClosedForm() throws {
        let directory = try SharedData.temporaryDirectory("viewshed-ridge")
        defer { try? FileManager.default.removeItem(at: directory) }
        let spacing = 1.0 / 1200, north = 47.12, west = 8.84, rows = 289, columns = 385
        let eye = (47.0, 9.0), eyeHeight = 2.0, k = MarchSettings.defaultRefraction
        let ridgeColumn = Int(((9.0 + 0.0527 - west) / spacing).rounded())
        let ridgeLongitude = west + Double(ridgeColumn) * spacing, crest = 100.0
        var heights = [Float](repeating: 0, count: rows * columns)
        for r in 0..<rows {
            heights[r * columns + ridgeColumn] = Float(crest)
            heights[r * columns + ridgeColumn - 1] = 40
            heights[r * columns + ridgeColumn + 1] = 40
        }
        _ = try SyntheticTerrain.writeGeoTIFF(north: north, west: west, spacing: spacing, rows: rows, columns: columns,
                                              heights: heights, name: "ridge", in: directory)
        let locator = Locator(catalog: try ElevationCatalog(directory: directory.path, rasterReader: .gdal), geoid: Self.flatGeoid,
                              settings: MarchSettings(refraction: k))
        let range = 12_000.0, mast = 1.0
        let result = try locator.viewshed(from: Reading.Location(latitude: eye.0, longitude: eye.1, altitude: eyeHeight),
                                          settings: .init(range: range, refraction: k, targetHeight: mast), jobs: 2)
        let grid = result.viewshed.grid
        let r0 = Truth.meanRadius(eye.0)
        var judged = 0, grazing = 0, hiddenBySea = 0, hiddenByRidge = 0
        var mismatches: [String] = []
        for r in 0..<grid.rows {
            for c in 0..<grid.columns {
                let value = grid.values[r * grid.columns + c]
                guard value != ViewshedGrid.noData else { continue }
                let latitude = grid.latitude(row: r), longitude = grid.longitude(column: c)
                let column = Int(((longitude - west) / spacing).rounded())
                let ground = column == ridgeColumn ? crest : (abs(column - ridgeColumn) == 1 ? 40.0 : 0.0)
                let t = Self.enu(from: (eye.0, eye.1, eyeHeight), to: (latitude, longitude, ground + mast))
                let x = (t.x * t.x + t.y * t.y).squareRoot()
                guard x > 100 else { continue }
                let azimuth = atan2(t.x, t.y) * 180 / .pi
                // The refracted ray through the target: z = x·tan e − k·x²/(2R).
                let tanE = (t.z + k * x * x / (2 * r0)) / x
                func ray(_ d: Double) -> Double { d * tanE - k * d * d / (2 * r0) }
                let slant = (x * x + t.z * t.z).squareRoot()
                let cut = x * (1 - max(30, 0.005 * slant) / slant)
                // The sea: z = −h₀ − x²/(2R_α); the ray's margin over it is h₀ + x·tan e + c·x².
                let c2 = (1 / Truth.radius(eye.0, azimuth: azimuth) - k / r0) / 2
                var margin = Double.infinity, bySea = false
                if c2 > 0 {
                    // Lowest margin over (0, cut): at the vertex or the cut.
                    let vertex = min(max(-tanE / (2 * c2), 0), cut)
                    let low = min(eyeHeight + vertex * tanE + c2 * vertex * vertex, eyeHeight + cut * tanE + c2 * cut * cut)
                    margin = low
                    bySea = low < 0
                }
                // The crest, where the sightline's vertical plane crosses the ridge's meridian.
                var byRidge = false
                if longitude > ridgeLongitude + spacing / 2 {
                    var lo = 46.5, hi = 47.5
                    for _ in 0..<60 {
                        let mid = (lo + hi) / 2
                        let p = Self.enu(from: (eye.0, eye.1, eyeHeight), to: (mid, ridgeLongitude, crest))
                        // Latitude rises with the crossing point's azimuth measured from north.
                        if atan2(p.x, p.y) * 180 / .pi > azimuth { lo = mid } else { hi = mid }
                    }
                    let p = Self.enu(from: (eye.0, eye.1, eyeHeight), to: ((lo + hi) / 2, ridgeLongitude, crest))
                    let xr = (p.x * p.x + p.y * p.y).squareRoot()
                    if xr < cut {
                        let m = ray(xr) - p.z
                        margin = min(margin, m)
                        byRidge = m <= 0
                    }
                }
                guard abs(margin) >= 0.5 else {
                    grazing += 1
                    continue
                }
                judged += 1
                let expected = !(bySea || byRidge)
                if bySea { hiddenBySea += 1 } else if byRidge { hiddenByRidge += 1 }
                if expected != (value == ViewshedGrid.visible) {
                    mismatches.append("(\(r), \(c)) at \(Int(x)) m: closed form \(expected), viewshed \(value), margin \(margin) m")
                }
            }
        }
        print("sphere with a ridge: \(judged) cells judged, \(hiddenBySea) beyond the horizon, \(hiddenByRidge) behind the ridge, \(grazing) grazing left out, \(mismatches.count) differ; \(result.viewshed.exactCells) by their own ray")
        #expect(hiddenBySea > 1000 && hiddenByRidge > 1000)
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    struct Observer: Sendable, CustomTestStringConvertible {
        var name: String
        var latitude: Double, longitude: Double
        var tile: String
        var utm: Int
        var testDescription: String { name }
    }

    static let observers = [
        Observer(name: "Säntis summit, 12 km", latitude: 47.2492, longitude: 9.3433, tile: "N47E009.hgt", utm: 32632),
        Observer(name: "Hoher Kasten, 12 km", latitude: 47.2840, longitude: 9.4860, tile: "N47E009.hgt", utm: 32632),
        Observer(name: "Khumbu, Kala Patthar side, 12 km", latitude: 27.9957, longitude: 86.8285, tile: "N27E086.hgt", utm: 32645),
        Observer(name: "Khumbu, Lukla side, 12 km", latitude: 27.7000, longitude: 86.6600, tile: "N27E086.hgt", utm: 32645),
    ]

    /// Cells of 12 km viewsheds against the independent brute-force sightline (every metre of
    /// the ray converted exactly, bisected to 0.1 mm): at least 99.5 % agree, and every cell
    /// that does not lies within 0.02° of grazing (raising or lowering its target by 0.02°
    /// changes the brute force's answer). `gdal_viewshed -cc 0.87` on a 90 m UTM warp of the same
    /// tile, as a user would run it, is scored against the same brute force and printed.
    @Test(.enabled(if: SharedData.available(SharedData.dem), "needs ../shared/dem"), arguments: observers)
    func cellsAgreeWithTheBruteForceSightline(observer: Observer) throws {
        let locator = try Self.sharedLocator()
        let range = 12_000.0, k = MarchSettings.defaultRefraction
        let catalog = locator.catalog, geoid = locator.geoid
        let index = try #require(catalog.tiles.firstIndex { $0.path.hasSuffix(observer.tile) }, "\(observer.tile) in ../shared/dem")
        let grid = try #require(catalog.grid(tile: index))
        let result = try locator.viewshed(from: Reading.Location(latitude: observer.latitude, longitude: observer.longitude),
                                          settings: .init(range: range), jobs: 2)
        let v = result.viewshed.grid
        let ground = try #require(grid.height(latitude: observer.latitude, longitude: observer.longitude))
        let eyeMSL = ground + Reading.Location.defaultEyeHeight
        let eye = GeodeticPosition(latitude: observer.latitude, longitude: observer.longitude,
                                   height: eyeMSL + geoid.undulation(latitude: observer.latitude, longitude: observer.longitude))
        let radius = Truth.meanRadius(observer.latitude)
        // The brute force's answer for a point `raise` degrees of elevation above the cell's centre.
        func bruteVisible(_ latitude: Double, _ longitude: Double, _ msl: Double, raise: Double = 0) -> Bool {
            let t = Self.enu(from: (eye.latitude, eye.longitude, eye.height),
                             to: (latitude, longitude, msl + geoid.undulation(latitude: latitude, longitude: longitude)))
            let horizontal = (t.x * t.x + t.y * t.y).squareRoot()
            let target = msl + horizontal * tan(raise * .pi / 180)
            let lifted = Self.enu(from: (eye.latitude, eye.longitude, eye.height),
                                  to: (latitude, longitude, target + geoid.undulation(latitude: latitude, longitude: longitude)
                                       + k * horizontal * horizontal / (2 * radius)))
            let slant = (t.x * t.x + t.y * t.y + t.z * t.z).squareRoot()
            let reach = (lifted.x * lifted.x + lifted.y * lifted.y + lifted.z * lifted.z).squareRoot()
            let limit = reach - max(30, 0.005 * slant)
            guard limit > 0 else { return true }
            let direction = BruteForceSightline.aim(from: eye, latitude: latitude, longitude: longitude, msl: target, geoid: geoid,
                                                    refraction: k)
            return BruteForceSightline(eye: eye, direction: direction, refraction: k, geoid: geoid, slope: 3)
                .firstHit(over: grid, limit: limit) == nil
        }
        // A lattice of cells over the square, kept where the viewshed judged them.
        var cells: [(r: Int, c: Int, latitude: Double, longitude: Double, msl: Double)] = []
        for r in Swift.stride(from: 2, to: v.rows, by: 7) {
            for c in Swift.stride(from: 3, to: v.columns, by: 7) where v.values[r * v.columns + c] != ViewshedGrid.noData {
                let latitude = v.latitude(row: r), longitude = v.longitude(column: c)
                guard let h = grid.height(latitude: latitude, longitude: longitude) else { continue }
                cells.append((r, c, latitude, longitude, h))
            }
        }
        var agree = 0, grazing = 0, visible = 0
        var brute: [Bool] = []
        var mismatches: [String] = []
        for cell in cells {
            let seen = bruteVisible(cell.latitude, cell.longitude, cell.msl)
            brute.append(seen)
            if seen { visible += 1 }
            if seen == (v.values[cell.r * v.columns + cell.c] == ViewshedGrid.visible) {
                agree += 1
            } else if bruteVisible(cell.latitude, cell.longitude, cell.msl, raise: 0.02) != bruteVisible(cell.latitude, cell.longitude, cell.msl, raise: -0.02) {
                grazing += 1
            } else {
                mismatches.append("(\(cell.r), \(cell.c)) \(cell.latitude), \(cell.longitude): brute force \(seen)")
            }
        }

        // gdal_viewshed on the tile warped to UTM at 90 m, sampled at the same cells.
        let directory = try SharedData.temporaryDirectory("viewshed-gdal")
        defer { try? FileManager.default.removeItem(at: directory) }
        let window = directory.appendingPathComponent("window.tif").path, utm = directory.appendingPathComponent("utm.tif").path
        let out = directory.appendingPathComponent("gdal.tif").path
        let span = 0.2
        try SharedData.run("gdal_translate", ["-q", "-projwin", "\(observer.longitude - span / cos(observer.latitude * .pi / 180))",
                                              "\(observer.latitude + span)", "\(observer.longitude + span / cos(observer.latitude * .pi / 180))",
                                              "\(observer.latitude - span)", catalog.tiles[index].path, window])
        try SharedData.run("gdalwarp", ["-q", "-t_srs", "EPSG:\(observer.utm)", "-tr", "90", "90", "-r", "bilinear", window, utm])
        let xy = try SharedData.capture("gdaltransform", ["-s_srs", "EPSG:4326", "-t_srs", "EPSG:\(observer.utm)"],
                                        input: "\(observer.longitude) \(observer.latitude)\n").split(separator: " ")
        try SharedData.run("gdal_viewshed", ["-q", "-md", "\(Int(range))", "-cc", "0.87", "-oz", "1.6", "-ox", String(xy[0]),
                                             "-oy", String(xy[1]), "-vv", "1", "-iv", "0", "-ov", "255", utm, out])
        let values = try SharedData.capture("gdallocationinfo", ["-valonly", "-wgs84", out],
                                            input: cells.map { "\($0.longitude) \($0.latitude)\n" }.joined()).split(separator: "\n")
        var gdalJudged = 0, gdalAgree = 0
        for (i, text) in values.enumerated() where i < cells.count {
            guard let value = Int(text), value != 255 else { continue }
            gdalJudged += 1
            if (value == 1) == brute[i] { gdalAgree += 1 }
        }
        let share = 100 * Double(agree) / Double(cells.count)
        print(String(format: "brute force, %@: %d cells (%d visible); viewshed agrees on %.2f %% (%d), %d grazing within 0.02°, %d other; gdal_viewshed agrees on %.1f %% of %d", observer.name, cells.count, visible, share, agree, grazing, mismatches.count, 100 * Double(gdalAgree) / Double(max(gdalJudged, 1)), gdalJudged))
        #expect(cells.count > 500 && visible > 20)
        #expect(share >= 99.5)
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
        #expect(gdalJudged > cells.count / 2, "gdal_viewshed judged the cells")
    }

    /// Rough synthetic hills with voids (single posts and a patch), read through GDAL: every
    /// cell says what `aim` says, whether its sightline crosses a void or not. With voids the
    /// sweep walks every level ray of the finest spacing (`Viewshed.radialCount`: 360 at 6 km):
    /// a void could hide between rays wider apart.
    @Test func hillsWithVoidsAgreeWithAim() throws {
        let result = try Self.judgeHills(withVoids: true)
        #expect(result.viewshed.crossedVoid)
        #expect(result.viewshed.radials == 360)
    }

    /// The same hills without voids: the sweep may start from every other ray (the pilot of
    /// `Viewshed.walksFinest` chooses), and every cell still says what `aim` says.
    @Test func hillsWithoutVoidsAgreeWithAim() throws {
        let result = try Self.judgeHills(withVoids: false)
        #expect(!result.viewshed.crossedVoid)
        #expect([180, 360].contains(result.viewshed.radials))
    }

    /// The viewshed over the hills, checked cell by cell against `aim` (which must agree everywhere).
    static func judgeHills(withVoids: Bool) throws -> ViewshedResult {
        let directory = try SharedData.temporaryDirectory("viewshed-voids")
        defer { try? FileManager.default.removeItem(at: directory) }
        let spacing = 1.0 / 1200, north = 46.1, west = 7.9, rows = 241, columns = 241
        var heights = [Float](repeating: 0, count: rows * columns)
        for r in 0..<rows {
            for c in 0..<columns {
                let y = Double(r) * spacing * 111_000, x = Double(c) * spacing * 77_000
                heights[r * columns + c] = Float(900 + 180 * sin(x / 1300) * cos(y / 1700) + 90 * sin((x + y) / 520)
                                                 + 40 * cos(x / 210 - y / 330))
            }
        }
        if withVoids {
            for (r, c) in [(60, 60), (150, 90), (100, 170), (30, 200)] { heights[r * columns + c] = .nan }
            for r in 170..<176 { for c in 150..<158 { heights[r * columns + c] = .nan } }
        }
        _ = try SyntheticTerrain.writeGeoTIFF(north: north, west: west, spacing: spacing, rows: rows, columns: columns,
                                              heights: heights, name: "hills", in: directory)
        let locator = Locator(catalog: try ElevationCatalog(directory: directory.path, rasterReader: .gdal, fillsVoids: false), geoid: Self.flatGeoid)
        // An eye above most of the hills: many sightlines graze them, and some pass over voids.
        let location = Reading.Location(latitude: 46.0, longitude: 8.0, altitude: 1250)
        let result = try locator.viewshed(from: location, settings: .init(range: 6000), jobs: 2)
        let grid = result.viewshed.grid
        var terrain = TerrainSampler(catalog: locator.catalog)
        var checked = 0, visible = 0
        var mismatches: [String] = []
        for r in 0..<grid.rows {
            for c in 0..<grid.columns {
                let value = grid.values[r * grid.columns + c]
                guard value != ViewshedGrid.noData else { continue }
                let aim = locator.aim(AimRequest(observer: Reading(location: location),
                                                 target: .position(latitude: grid.latitude(row: r), longitude: grid.longitude(column: c),
                                                                   elevation: nil, name: nil)), terrain: &terrain)
                guard aim.error == nil else { continue }
                checked += 1
                if aim.visible == true { visible += 1 }
                if aim.visible != (value == ViewshedGrid.visible) { mismatches.append("(\(r), \(c)): aim \(String(describing: aim.visible)), viewshed \(value)") }
            }
        }
        print("hills \(withVoids ? "with" : "without") voids: \(checked) cells, \(visible) visible, \(result.viewshed.exactCells) by their own ray, \(result.viewshed.radials) level rays, \(mismatches.count) differ; warnings \(result.warnings.map(\.code))")
        #expect(checked > 10_000 && visible > 2000 && visible < checked)
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
        return result
    }

    /// At the Säntis's coordinates the 3″ DEM's bilinear surface lies 45 m below the summit
    /// (2 457 m against 2 502 m, swisstopo), so an eye 1.6 m above it stands on a slope and the
    /// slope hides a third of the view: the viewshed says so, as a panorama does; from the
    /// summit's true height it does not.
    @Test func anEyeOnASlopeIsWarnedThatNearGroundHidesTheView() throws {
        let locator = try Self.sharedLocator()
        let onTheSlope = try locator.viewshed(from: Reading.Location(latitude: 47.2493, longitude: 9.3433), settings: .init(range: 5000), jobs: 2)
        let warning = try #require(onTheSlope.warnings.first { $0.code == .nearGroundHidesView })
        #expect(warning.message.contains("give --altitude"))
        let atTheSummit = try locator.viewshed(from: Reading.Location(latitude: 47.2493, longitude: 9.3433, altitude: 2502),
                                               settings: .init(range: 5000), jobs: 2)
        #expect(!atTheSummit.warnings.contains { $0.code == .nearGroundHidesView }, "\(atTheSummit.warnings)")
        #expect(atTheSummit.viewshed.grid.values.filter { $0 == ViewshedGrid.visible }.count
                > onTheSlope.viewshed.grid.values.filter { $0 == ViewshedGrid.visible }.count)
    }
}
