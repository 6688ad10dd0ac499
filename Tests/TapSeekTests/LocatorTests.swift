import Foundation
import Testing
import TapSeek
import TapSeekTestSupport

/// The locator end to end: readings in, results out, over terrain read through GDAL — synthetic
/// tiles whose answers are known in closed form, and the real SRTM tiles of ../shared/dem.
struct LocatorTests {
    typealias Truth = SyntheticTerrain.Truth

    /// A geoid of constant undulation, so that level terrain is level on the ellipsoid too.
    static func constantGeoid(_ n: Float) -> Geoid {
        Geoid(grid: ElevationGrid(north: 90, west: -180, latitudeSpacing: 180, longitudeSpacing: 360,
                                  rows: 2, columns: 2, heights: [n, n, n, n]))
    }

    /// Writes a synthetic tile through GDAL (ASCII grid → GeoTIFF) and opens a catalog on it.
    static func catalog(north: Double, west: Double, spacing: Double, rows: Int, columns: Int,
                        in directory: URL, height: (Double, Double) -> Double) throws -> ElevationCatalog {
        var heights = [Float](repeating: 0, count: rows * columns)
        for r in 0..<rows {
            for c in 0..<columns {
                heights[r * columns + c] = Float(height(north - Double(r) * spacing, west + Double(c) * spacing))
            }
        }
        _ = try SyntheticTerrain.writeGeoTIFF(north: north, west: west, spacing: spacing, rows: rows, columns: columns,
                                              heights: heights, name: "synthetic", in: directory)
        return try ElevationCatalog(directory: directory.path, rasterReader: .gdal)
    }

    static func reading(latitude: Double, longitude: Double, altitude: Double? = nil,
                        reference: Reading.AltitudeReference = .msl, heading: Double, pitch: Double) -> Reading {
        Reading(location: .init(latitude: latitude, longitude: longitude, altitude: altitude, altitudeReference: reference),
                orientation: .init(heading: heading, pitch: pitch))
    }

    // MARK: - Synthetic terrain through GDAL

    /// A level plateau 1 500 m above mean sea level with N = 47.3 m: the hit lies where the ray
    /// meets the raised ellipsoid, to < 0.5 m along the ray, whichever datum the altitude is in.
    @Test(arguments: [(0.0, -1.0), (208.0, -0.7), (95.0, -4.0)])
    func plateauThroughGDALMatchesTheRaisedEllipsoid(heading: Double, pitch: Double) throws {
        let directory = try SharedData.temporaryDirectory("plateau")
        defer { try? FileManager.default.removeItem(at: directory) }
        let latitude = 46.6, longitude = 8.0, plateau = 1500.0, n: Float = 47.3
        let catalog = try Self.catalog(north: 46.9, west: 7.55, spacing: 0.005, rows: 121, columns: 181, in: directory) { _, _ in plateau }
        let locator = Locator(catalog: catalog, geoid: Self.constantGeoid(n))
        let eyeMSL = plateau + 250
        let expected = try #require(Truth.plateauSlantDistance(latitude: latitude, longitude: longitude,
                                                               eyeHeight: eyeMSL + Double(n), azimuth: heading, elevation: pitch,
                                                               plateau: plateau + Double(n), refraction: MarchSettings.defaultRefraction))
        for (altitude, reference) in [(eyeMSL, Reading.AltitudeReference.msl), (eyeMSL + Double(n), .ellipsoid)] {
            let result = locator.locate(Self.reading(latitude: latitude, longitude: longitude, altitude: altitude,
                                                     reference: reference, heading: heading, pitch: pitch))
            #expect(result.status == .hit)
            let target = try #require(result.target)
            #expect(abs(target.slantRange - expected) < 0.5, "slant range \(target.slantRange) m, closed form \(expected) m")
            #expect(abs(target.elevation - plateau) < 1e-3)
            #expect(result.observer?.altitude == eyeMSL)
            #expect(result.warnings.isEmpty)
        }
    }

    /// A one-post wall (100 m high, 4.4 m thick at its foot) in a GeoTIFF: the locator measures
    /// the tile's slope (≈ 45) and hits the wall's face 0.5 m under its crest. A march trusting
    /// the SRTM default bound of 10 would step over it.
    @Test func thinWallThroughGDALIsHitOnItsFace() throws {
        let directory = try SharedData.temporaryDirectory("wall")
        defer { try? FileManager.default.removeItem(at: directory) }
        let latitude = 46.0, longitude = 7.5, spacing = 0.00002, base = 500.0, crest = 600.0
        let north = latitude + 450 * spacing, wallLatitude = north - 100 * spacing
        let catalog = try Self.catalog(north: north, west: longitude - 0.001, spacing: spacing, rows: 600, columns: 101,
                                       in: directory) { lat, _ in abs(lat - wallLatitude) < spacing / 2 ? crest : base }
        let locator = Locator(catalog: catalog, geoid: Self.constantGeoid(0))
        let d = (wallLatitude - latitude) * Truth.meridianRadius(latitude) * .pi / 180
        let r = Truth.meanRadius(latitude), eye = base + 1.6
        let pitch = (atan((crest - 0.5 - eye) / d) - d * (1 - MarchSettings.defaultRefraction) / (2 * r)) * 180 / .pi
        let result = locator.locate(Self.reading(latitude: latitude, longitude: longitude, heading: 0, pitch: pitch))
        #expect(result.status == .hit)
        let target = try #require(result.target)
        #expect(target.latitude <= wallLatitude + 1e-9 && target.latitude > wallLatitude - spacing)
        #expect(abs(target.elevation - (crest - 0.5)) < 0.3)
    }

    /// Standing 2 km from the edge of a plateau and looking level: status horizon, the target
    /// on the edge, at the plateau's height.
    @Test func plateauEdgeThroughGDALIsTheHorizon() throws {
        let directory = try SharedData.temporaryDirectory("edge")
        defer { try? FileManager.default.removeItem(at: directory) }
        let latitude = 46.0, longitude = 7.5, spacing = 0.0005
        let edge = latitude + 2000 / Truth.meridianRadius(latitude) * 180 / .pi
        let catalog = try Self.catalog(north: latitude + 0.2, west: longitude - 0.01, spacing: spacing, rows: 421, columns: 41,
                                       in: directory) { lat, _ in lat <= edge ? 1500 : 200 }
        let locator = Locator(catalog: catalog, geoid: Self.constantGeoid(30))
        let result = locator.locate(Self.reading(latitude: latitude, longitude: longitude, heading: 0, pitch: 0))
        #expect(result.status == .horizon)
        let target = try #require(result.target)
        // The plateau's last row of posts, 1 944 m out; the skyline is sampled every 10 m.
        let lastRow = ((edge - latitude) / spacing).rounded(.down) * spacing * Truth.meridianRadius(latitude) * .pi / 180
        #expect(target.distance <= lastRow + 0.01 && target.distance > lastRow - 10, "skyline \(target.distance) m, edge row \(lastRow) m")
        #expect(target.elevation == 1500)
    }

    // MARK: - Real terrain: summits and slopes around the Eiger, Säntis and Everest

    /// One post of the shared 3″ tiles, metres north–south: the finest detail the DEM resolves.
    static let postSpacing = 3.0 / 3600 * .pi / 180 * 6_367_000

    struct Sight: Sendable, CustomTestStringConvertible {
        var name: String
        var observer: (latitude: Double, longitude: Double)
        var target: (latitude: Double, longitude: Double)
        /// A summit is aimed at 2 m under its top, so that the ray meets its near face rather
        /// than grazing the very top (a ray aimed exactly at a peak is tangent to the terrain).
        var summit: Bool
        /// Whether the aimed point can be seen (checked independently by the dense profile).
        var visible: Bool
        var testDescription: String { name }

        /// A point on the slope facing the observer: 30 % of the way from a summit toward them.
        static func flank(of summit: (Double, Double), from observer: (Double, Double)) -> (latitude: Double, longitude: Double) {
            (summit.0 + 0.3 * (observer.0 - summit.0), summit.1 + 0.3 * (observer.1 - summit.1))
        }
    }

    // Places, WGS84 degrees (Swiss and Nepali topographic maps, rounded to 1e-4°). Summits whose
    // top is a DEM void (the Eiger's, the Wetterhorn's) are aimed at on their
    // flanks instead, and no sightline crosses a void (where a ray can go under unknown ground
    // and meet the terrain only at the void's far edge).
    static let grindelwald = (46.6240, 8.0410), first = (46.6594, 8.0544)
    static let eiger = (46.5775, 8.0050), wetterhorn = (46.6375, 8.1150)
    static let schwarzhorn = (46.6690, 8.0790)
    static let wasserauen = (47.2840, 9.4300), schwaegalp = (47.2556, 9.3167), appenzell = (47.3306, 9.4086)
    static let saentis = (47.2492, 9.3433), hoherKasten = (47.2840, 9.4860)
    static let kalaPatthar = (27.9957, 86.8285), gokyoRi = (27.9617, 86.6833), pheriche = (27.8950, 86.8190)
    static let tengboche = (27.8361, 86.7644)
    static let dingboche = (27.8920, 86.8310), lobuche = (27.9480, 86.8100), chhukung = (27.9040, 86.8710)
    static let everest = (27.9883, 86.9250), amaDablam = (27.8608, 86.8617)

    static let sights: [Sight] = [
        Sight(name: "Eiger north-east flank from Grindelwald", observer: grindelwald,
              target: Sight.flank(of: eiger, from: grindelwald), summit: false, visible: true),
        Sight(name: "Schwarzhorn summit from Grindelwald", observer: grindelwald, target: schwarzhorn, summit: true, visible: true),
        Sight(name: "Wetterhorn flank from First", observer: first, target: Sight.flank(of: wetterhorn, from: first),
              summit: false, visible: true),
        Sight(name: "Säntis summit from Wasserauen", observer: wasserauen, target: saentis, summit: true, visible: true),
        Sight(name: "Säntis north face from Schwägalp", observer: schwaegalp, target: Sight.flank(of: saentis, from: schwaegalp),
              summit: false, visible: true),
        Sight(name: "Säntis summit from Schwägalp, behind its shoulder", observer: schwaegalp, target: saentis,
              summit: true, visible: false),
        Sight(name: "Hoher Kasten summit from Appenzell", observer: appenzell, target: hoherKasten, summit: true, visible: true),
        Sight(name: "Everest summit from Kala Patthar", observer: kalaPatthar, target: everest, summit: true, visible: true),
        Sight(name: "Everest summit from Gokyo Ri, 24 km", observer: gokyoRi, target: everest, summit: true, visible: true),
        Sight(name: "Ama Dablam summit from Tengboche", observer: tengboche, target: amaDablam, summit: true, visible: true),
        Sight(name: "Ama Dablam west flank from Pheriche", observer: pheriche, target: Sight.flank(of: amaDablam, from: pheriche),
              summit: false, visible: true),
        Sight(name: "Everest summit from Dingboche, behind the Lhotse–Nuptse wall", observer: dingboche, target: everest,
              summit: true, visible: false),
        Sight(name: "Everest summit from Lobuche, behind Nuptse", observer: lobuche, target: everest, summit: true, visible: false),
        Sight(name: "Everest summit from Chhukung, behind Lhotse", observer: chhukung, target: everest, summit: true, visible: false),
    ]

    /// The line of sight from an eye to a point, checked independently of the march: the
    /// straight line in ECEF, its height lowered by k·d²/(2R), sampled every 0.5 m against the
    /// bilinear DEM surface.
    struct Profile {
        let frame: LocalFrame
        let direction: Vector3
        let radius: Double, k: Double, horizontal: Double
        let geoid: Geoid

        /// Height of the ray above mean sea level at slant distance s, and its ground point.
        func ray(at s: Double) -> (latitude: Double, longitude: Double, msl: Double) {
            let p = Ellipsoid.wgs84.geodetic(frame.originECEF + s * direction)
            let d = s * horizontal
            return (p.latitude, p.longitude, p.height - k * d * d / (2 * radius) - geoid.undulation(latitude: p.latitude, longitude: p.longitude))
        }

        /// The first slant distance where the ray is at or under the terrain, up to `limit`.
        func firstCrossing(_ terrain: inout TerrainSampler, upTo limit: Double) -> Double? {
            var s = 0.5
            while s <= limit {
                let p = ray(at: s)
                if let h = terrain.elevation(latitude: p.latitude, longitude: p.longitude), p.msl <= h { return s }
                s += 0.5
            }
            return nil
        }
    }

    /// Aims from the ground (eye 1.6 m up) at a point of the DEM: the direction of the ENU vector
    /// between them, its elevation raised by the refraction lift k·d/(2R).
    static func aim(_ sight: Sight, geoid: Geoid, terrain: inout TerrainSampler, k: Double)
        throws -> (reading: Reading, profile: Profile, targetSlant: Double, targetGround: Double) {
        let o = sight.observer, t = sight.target
        let groundSample = terrain.elevation(latitude: o.latitude, longitude: o.longitude)
        let targetSample = terrain.elevation(latitude: t.latitude, longitude: t.longitude)
        let ground = try #require(groundSample, "no terrain under \(sight.name)")
        let targetHeight = try #require(targetSample, "no terrain at the target of \(sight.name)")
        let eye = GeodeticPosition(latitude: o.latitude, longitude: o.longitude,
                                   height: ground + Reading.Location.defaultEyeHeight + geoid.undulation(latitude: o.latitude, longitude: o.longitude))
        let frame = LocalFrame(origin: eye)
        let aimed = targetHeight - (sight.summit ? 2 : 0)
        let v = frame.enu(of: GeodeticPosition(latitude: t.latitude, longitude: t.longitude,
                                               height: aimed + geoid.undulation(latitude: t.latitude, longitude: t.longitude)))
        let d = (v.x * v.x + v.y * v.y).squareRoot()
        let radius = Truth.meanRadius(o.latitude)
        let azimuth = atan2(v.x, v.y) * 180 / .pi
        let elevation = (atan2(v.z, d) + k * d / (2 * radius)) * 180 / .pi
        let direction = ViewDirection(azimuth: azimuth, elevation: elevation).enu
        let profile = Profile(frame: frame, direction: frame.ecefVector(fromENU: direction), radius: radius, k: k,
                              horizontal: cos(elevation * .pi / 180), geoid: geoid)
        let reading = Reading(location: .init(latitude: o.latitude, longitude: o.longitude),
                              orientation: .init(heading: azimuth, pitch: elevation))
        return (reading, profile, v.length, targetHeight)
    }

    @Suite(.enabled(if: SharedData.available(SharedData.dem), "needs ../shared/dem"))
    struct RealTerrain {
        static let geoidPath = "/usr/share/proj/egm96_15.gtx"

        static func locator() throws -> Locator {
            try #require(SharedData.exists(SharedData.dem), Comment(rawValue: SharedData.missing(SharedData.dem)))
            return Locator(catalog: try ElevationCatalog(directory: SharedData.dem.path, rasterReader: .gdal), geoid: try Geoid(contentsOf: geoidPath))
        }

        /// A skyline across a corner gap: from 5 736 m over N47E009 looking west-south-west, the
        /// level ray leaves the tile 58 km out through its west edge into no data (N47E008 is
        /// not there), and its 2 km seeds step over the gap onto N46E008, where terrain 114 km
        /// out appears higher still. The walk stops at the gap, so the skyline is the edge's
        /// point, as before the seeds went on past 50 km; a seed it never reached must not be.
        @Test func skylineSeedsPastACornerGapAreNotTheAnswer() throws {
            let locator = try Self.locator()
            let reading = Reading(location: .init(latitude: 47.25435, longitude: 9.67953, altitude: 5735.9),
                                  orientation: .init(heading: 241.72, pitch: -1.53))
            let result = locator.locate(reading)
            #expect(result.status == .horizon)
            let target = try #require(result.target)
            #expect(abs(target.latitude - 47.005056457) < 1e-8 && abs(target.longitude - 9.0075) < 1e-8,
                    "skyline at \(target.latitude), \(target.longitude)")
            #expect(abs(target.elevation - 2848.645) < 0.001)
        }

        /// Visible points are hit within one post spacing (the DEM resolves nothing finer; in
        /// fact within a metre, since the aim is exact); hidden ones are hit nearer, on a ridge
        /// that rises above the line of sight. Either way the hit is the first crossing of the
        /// dense independent profile, to 2 m.
        @Test(arguments: LocatorTests.sights)
        func aimedPointIsHitOrItsBlockingRidgeIs(sight: Sight) throws {
            let locator = try Self.locator()
            var terrain = TerrainSampler(catalog: locator.catalog)
            let k = locator.settings.refraction
            let aim = try LocatorTests.aim(sight, geoid: locator.geoid, terrain: &terrain, k: k)
            let result = locator.locate(aim.reading)
            #expect(result.status == .hit, "\(result.error?.message ?? "")")
            #expect(result.warnings.isEmpty, "\(result.warnings)")
            let target = try #require(result.target)
            let firstCrossing = aim.profile.firstCrossing(&terrain, upTo: aim.targetSlant + 300)
            let crossing = try #require(firstCrossing, "the dense profile meets no terrain")
            let blocked = crossing < aim.targetSlant - LocatorTests.postSpacing
            #expect(blocked == !sight.visible, "dense profile: first crossing \(crossing) m, aimed point \(aim.targetSlant) m")
            // Where along the line of sight the hit lies: refraction lowers the ray without moving
            // it sideways, so its horizontal distance in the eye's frame divided by cos e.
            // (`slantRange` is the straight distance to the target, shorter by drop·sin e.)
            let hit = aim.profile.frame.enu(of: GeodeticPosition(latitude: target.latitude, longitude: target.longitude,
                                                                 height: target.elevation + locator.geoid.undulation(latitude: target.latitude, longitude: target.longitude)))
            let along = (hit.x * hit.x + hit.y * hit.y).squareRoot() / aim.profile.horizontal
            #expect(abs(along - crossing) < 2, "hit \(along) m along the line, dense profile \(crossing) m")
            let miss = Geodesic.inverse(latitude1: target.latitude, longitude1: target.longitude,
                                        latitude2: sight.target.latitude, longitude2: sight.target.longitude).distance
            if sight.visible {
                #expect(miss < LocatorTests.postSpacing, "hit \(miss) m from the aimed point")
                #expect(abs(target.elevation - aim.targetGround) < LocatorTests.postSpacing)
            } else {
                #expect(along < aim.targetSlant - LocatorTests.postSpacing)
                // The blocking terrain stands on the line of sight to the aimed point (to the
                // centimetre the crossing is bracketed to, times the slope there).
                let line = aim.profile.ray(at: along)
                let groundSample = terrain.elevation(latitude: line.latitude, longitude: line.longitude)
                let ground = try #require(groundSample)
                #expect(ground >= line.msl - 0.1, "terrain \(ground) m under a line of sight at \(line.msl) m")
            }
        }

        // MARK: Magnetic versus true

        static let eigerReading = Reading(time: ISO8601DateTime.parse("2026-07-14T09:31:05Z"),
                                          location: .init(latitude: 46.6240, longitude: 8.0410, altitude: 1034),
                                          orientation: .init(heading: 208, pitch: 26))

        @Test(arguments: ["2025-01-01T00:00:00Z", "2026-07-14T09:31:05Z", "2029-12-31T12:00:00Z"])
        func magneticHeadingGivesTheSameTargetAsTrue(time: String) throws {
            let locator = try Self.locator()
            var reading = Self.eigerReading
            reading.time = try #require(ISO8601DateTime.parse(time))
            let truly = locator.locate(reading)
            let observer = try #require(truly.observer)
            let declination = try MagneticModel.wmm2025.declination(latitude: observer.latitude, longitude: observer.longitude,
                                                                     height: observer.altitude, date: try #require(reading.time))
            // Switzerland in 2025–2030: about 3° east, so the two headings really differ.
            #expect(declination > 2 && declination < 5)
            var magnetic = reading
            magnetic.orientation = .init(heading: 208 - declination, headingReference: .magnetic, pitch: 26)
            let magnetically = locator.locate(magnetic)
            #expect(truly.status == .hit && magnetically.status == .hit)
            let a = try #require(truly.target), b = try #require(magnetically.target)
            #expect(abs(a.latitude - b.latitude) < 1e-9 && abs(a.longitude - b.longitude) < 1e-9)
            #expect(abs(a.slantRange - b.slantRange) < 0.01)
            #expect(abs((magnetically.sightline?.azimuth ?? 0) - 208) < 1e-9)
        }

        @Test(arguments: ["2019-12-31T23:59:59Z", "2030-01-02T00:00:00Z", "1999-06-01T00:00:00Z"])
        func magneticHeadingOutsideTheModelsYearsIsRefused(time: String) throws {
            let locator = try Self.locator()
            var reading = Self.eigerReading
            reading.time = try #require(ISO8601DateTime.parse(time))
            reading.orientation = .init(heading: 205, headingReference: .magnetic, pitch: 26)
            let result = locator.locate(reading)
            #expect(result.status == .error && result.target == nil)
            #expect(result.error?.code == .magneticModel)
            #expect(result.error?.message.contains("outside the validity of") == true, "\(result.error?.message ?? "")")
        }

        @Test func magneticHeadingWithoutTimeIsRefused() throws {
            var reading = Self.eigerReading
            reading.time = nil
            reading.orientation = .init(heading: 205, headingReference: .magnetic, pitch: 26)
            let result = try Self.locator().locate(reading)
            #expect(result.status == .error && result.error?.message.contains("time is required") == true)
        }

        // MARK: Tap geometry

        /// Tapping the Eiger's summit at the image centre, at corners, rolled, zoomed: every
        /// reading whose orientation puts that pixel on the summit gives the same target.
        @Test func tapsOnOneTargetAtAnyPixelRollAndZoomAgree() throws {
            let locator = try Self.locator()
            var terrain = TerrainSampler(catalog: locator.catalog)
            let sight = LocatorTests.sights[0]
            let aim = try LocatorTests.aim(sight, geoid: locator.geoid, terrain: &terrain, k: locator.settings.refraction)
            let axis = locator.locate(aim.reading)
            let expected = try #require(axis.target)
            let direction = ViewDirection(azimuth: aim.reading.orientation!.heading, elevation: aim.reading.orientation!.pitch).enu
            var tried = 0
            for zoom in [1.0, 2.5, 10] {
                let settings = Reading.CameraSettings(horizontalFOV: 63.7, zoom: zoom, imageWidth: 4032, imageHeight: 3024)
                let camera = PinholeCamera(settings)
                for (x, y) in [(2016.0, 1512.0), (0, 0), (4032, 3024), (300, 2700), (3900, 150)] {
                    for roll in [0.0, 17, -90, 175] {
                        guard let orientation = CameraOrientation.aiming(pixelX: x, y: y, of: camera, roll: roll, at: direction) else { continue }
                        tried += 1
                        let reading = Reading(location: aim.reading.location,
                                              orientation: .init(heading: orientation.heading, pitch: orientation.pitch, roll: roll),
                                              camera: settings, tap: .init(x: x, y: y))
                        let result = locator.locate(reading)
                        let target = try #require(result.target, "zoom \(zoom), pixel (\(x), \(y)), roll \(roll)")
                        #expect(result.status == .hit)
                        #expect(abs(target.slantRange - expected.slantRange) < 0.05, "zoom \(zoom), pixel (\(x), \(y)), roll \(roll)")
                        #expect(abs(target.latitude - expected.latitude) < 1e-6 && abs(target.longitude - expected.longitude) < 1e-6)
                        #expect(abs((result.sightline?.azimuth ?? 0) - (axis.sightline?.azimuth ?? 1)) < 1e-7)
                        #expect(abs((result.sightline?.elevationAngle ?? 0) - (axis.sightline?.elevationAngle ?? 1)) < 1e-7)
                    }
                }
            }
            #expect(tried >= 40)
        }

        // MARK: Observer placement, voids, edges

        @Test func altitudeBelowTheTerrainRaisesTheObserverWithAWarning() throws {
            let result = try Self.locator().locate(LocatorTests.reading(latitude: 46.6240, longitude: 8.0410, altitude: 900,
                                                                         heading: 208, pitch: 26))
            let observer = try #require(result.observer)
            let ground = try #require(observer.groundElevation)
            #expect(abs(observer.altitude - (ground + 1.6)) < 1e-9)
            #expect(result.warnings.contains { $0.code == .observerRaised && $0.message.contains("below the terrain") })
            #expect(result.status == .hit)
        }

        /// Finsteraarhorn's summit is a void in N46E008: with no altitude the reading cannot be
        /// placed; with one it is placed, warned about, and never hits at sea level.
        @Test func observerOverAVoidIsRefusedOrWarnedNeverAtSeaLevel() throws {
            // Voids kept unknown; filled (the default) the summit has a height.
            let locator = Locator(catalog: try ElevationCatalog(directory: SharedData.dem.path, rasterReader: .gdal, fillsVoids: false),
                                  geoid: try Geoid(contentsOf: Self.geoidPath))
            let refused = locator.locate(LocatorTests.reading(latitude: 46.5367, longitude: 8.1258, heading: 300, pitch: -5))
            #expect(refused.status == .error && refused.error?.code == .voidObserver)
            let placed = locator.locate(LocatorTests.reading(latitude: 46.5367, longitude: 8.1258, altitude: 4275,
                                                             heading: 60, pitch: -10))
            #expect(placed.status == .hit)
            #expect(placed.observer?.groundElevation == nil)
            #expect(placed.warnings.contains { $0.code == .observerOverVoid && $0.message.contains("void") })
            let target = try #require(placed.target)
            #expect(target.elevation > 1000, "hit at \(target.elevation) m")
        }

        @Test func observerOutsideTheDEMIsRefused() throws {
            let result = try Self.locator().locate(LocatorTests.reading(latitude: 10.5, longitude: -150.2, heading: 0, pitch: 0))
            #expect(result.status == .error && result.error?.code == .outsideDEM)
            #expect(result.error?.message.contains("outside the DEM") == true)
        }

        /// Looking straight up from Grindelwald: no hit; the skyline along the (undefined)
        /// azimuth is still a terrain point, never the observer's own spot.
        @Test func rayIntoTheSkyGivesAHorizonOnTerrain() throws {
            let result = try Self.locator().locate(LocatorTests.reading(latitude: 46.6240, longitude: 8.0410, heading: 208, pitch: 60))
            #expect(result.status == .horizon)
            let target = try #require(result.target)
            // Along 208° the Eiger stands ~6 km away and appears higher than anything nearer.
            #expect(target.elevation > 3000, "skyline at \(target.elevation) m, \(target.distance) m away")
        }

        /// Straight up, the skyline is looked for along the camera's heading: the result's
        /// azimuth is the heading and the skyline point lies along it (the Eiger again).
        @Test func verticalRayTakesItsAzimuthFromTheHeading() throws {
            let result = try Self.locator().locate(LocatorTests.reading(latitude: 46.6240, longitude: 8.0410, heading: 208, pitch: 90))
            #expect(result.status == .horizon)
            #expect(result.sightline?.azimuth == 208)
            let target = try #require(result.target)
            let line = Geodesic.inverse(latitude1: 46.6240, longitude1: 8.0410, latitude2: target.latitude, longitude2: target.longitude)
            #expect(abs(normalizedAzimuth(line.azimuth1) - 208) < 0.5 && target.elevation > 3000)
            // Straight down, the ray meets the ground under the observer.
            let down = try Self.locator().locate(LocatorTests.reading(latitude: 46.6240, longitude: 8.0410, heading: 208, pitch: -90))
            #expect(down.status == .hit && (down.target?.distance ?? .infinity) < 0.01 && down.sightline?.azimuth == 208)
        }

        /// A ray rising north from 7 000 m out of the Everest tile (no tile beyond 28° N) leaves
        /// the data without meeting terrain: the result says where, and is a horizon only
        /// because the skyline along that azimuth lies inside the tile.
        @Test func rayLeavingTheDEMSaysWhere() throws {
            let result = try Self.locator().locate(LocatorTests.reading(latitude: 27.95, longitude: 86.6, altitude: 7000, heading: 0, pitch: 2))
            #expect(result.status == .horizon)
            let warning = try #require(result.warnings.first { $0.code == .leftDEM }, "\(result.warnings)").message
            // 27.95° → 28° N is 5.5 km of ground.
            let metres = try #require(warning.split(separator: " ").compactMap { Double($0) }.first)
            #expect(abs(metres - 5540) < 60, "\(warning)")
            #expect((result.target?.latitude ?? 99) <= 28 + 1e-9)
        }

        // MARK: Bad input through the library

        static func base() -> Reading {
            Reading(location: .init(latitude: 46.6240, longitude: 8.0410), orientation: .init(heading: 208, pitch: 26),
                    camera: .init(horizontalFOV: 63.7, imageWidth: 4032, imageHeight: 3024), tap: .init(x: 2016, y: 1512))
        }

        /// One spoiled field: the case's name is the start of the error message expected.
        static func spoil(_ reading: inout Reading, _ case: Int) -> String {
            switch `case` {
            case 0: reading.location.latitude = .nan; return "location.latitude"
            case 1: reading.location.latitude = 91; return "location.latitude"
            case 2: reading.location.longitude = .infinity; return "location.longitude"
            case 3: reading.location.altitude = .nan; return "location.altitude"
            case 4: reading.location.eyeHeight = -1; return "location.eyeHeight"
            case 5: reading.orientation?.heading = .nan; return "orientation.heading"
            case 6: reading.orientation?.pitch = 95; return "orientation.pitch"
            case 7: reading.orientation?.pitch = .nan; return "orientation.pitch"
            case 8: reading.orientation?.roll = -.infinity; return "orientation.roll"
            case 9: reading.camera?.horizontalFOV = 0; return "camera.horizontalFOV"
            case 10: reading.camera?.horizontalFOV = .nan; return "camera.horizontalFOV"
            case 11: reading.camera?.zoom = 0.5; return "camera.zoom"
            case 12: reading.camera?.imageWidth = 0; return "camera.imageWidth"
            case 13: reading.tap?.x = 5000; return "tap.x"
            case 14: reading.tap?.y = .nan; return "tap.y"
            default: reading.camera = nil; return "tap needs camera"
            }
        }

        @Test(arguments: 0...15)
        func badFieldsGiveAnErrorNamingThem(case number: Int) throws {
            var reading = Self.base()
            let field = Self.spoil(&reading, number)
            let result = try Self.locator().locate(reading)
            #expect(result.status == .error && result.target == nil)
            #expect(result.error?.code == .badInput)
            let message = result.error?.message ?? ""
            #expect(message.hasPrefix(field), "\(message)")
            #expect(!message.contains("\n"))
        }
    }
}
