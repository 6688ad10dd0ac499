import Foundation
import Testing
import TapSeek
import TapSeekTestSupport

/// Panoramas over the real Everest tile against a brute-force skyline, known summits, and
/// themselves under any sharing of work.
@Suite(.enabled(if: SharedData.available(SharedData.dem), "needs ../shared/dem"), .timeLimit(.minutes(10)))
struct PanoramaTests {
    static let kalaPatthar = (27.9957, 86.8285)
    /// Everest's summit, 27°59′17″ N 86°55′31″ E (2020 survey).
    static let everest = (27.98806, 86.92528)

    static func locator() throws -> Locator {
        try #require(SharedData.exists(SharedData.dem), Comment(rawValue: SharedData.missing(SharedData.dem)))
        return Locator(catalog: try ElevationCatalog(directory: SharedData.dem.path, rasterReader: .gdal), geoid: try Geoid())
    }

    /// The skyline at every 10° of azimuth from 10 m above Kala Patthar, out to 30 km, against a
    /// brute force that walks each azimuth's geodesic (PROJ) from 0.5 m out, every d/4000
    /// (≥ 0.25 m), and takes the largest apparent elevation angle from the exact ENU geometry
    /// plus refraction's k·d/(2R): they agree to 0.05°.
    @Test func skylineAnglesAgreeWithABruteForceSkyline() throws {
        let locator = try Self.locator()
        let location = Reading.Location(latitude: Self.kalaPatthar.0, longitude: Self.kalaPatthar.1, eyeHeight: 10)
        let result = try locator.panorama(from: location, settings: Panorama.Settings(azimuthStep: 10, range: 30_000), jobs: 2)
        #expect(result.panorama.skyline.count == 36)
        let o = result.observer
        let n = locator.geoid.undulation(latitude: o.latitude, longitude: o.longitude)
        let frame = LocalFrame(origin: GeodeticPosition(latitude: o.latitude, longitude: o.longitude, height: o.altitude + n))
        let radius = Ellipsoid.wgs84.meanRadius(latitude: o.latitude * .pi / 180)
        var terrain = TerrainSampler(catalog: locator.catalog)
        for point in result.panorama.skyline {
            var best = -Double.infinity
            var d = 0.5
            while d <= 30_000 {
                let line = Geodesic.direct(latitude: o.latitude, longitude: o.longitude, azimuth: point.azimuth, distance: d)
                let lat = line.latitude2, lon = line.longitude2
                if let h = terrain.elevation(latitude: lat, longitude: lon) {
                    let v = frame.enu(of: GeodeticPosition(latitude: lat, longitude: lon,
                                                           height: h + locator.geoid.undulation(latitude: lat, longitude: lon)))
                    let angle = atan2(v.z, (v.x * v.x + v.y * v.y).squareRoot()) + 0.13 * d / (2 * radius)
                    best = max(best, angle * 180 / .pi)
                }
                d += max(0.25, d / 4000)
            }
            let angle = try #require(point.elevationAngle, "azimuth \(point.azimuth)")
            #expect(abs(angle - best) < 0.05, "azimuth \(point.azimuth): engine \(angle)°, brute force \(best)°")
        }
    }

    /// A skyline point where the range cut rising terrain is no summit (issue 38: from the
    /// Säntis with `--range 30000`, 7 of 20 peaks lay on the range's circle, "653 m · 30.0 km"
    /// on the flat land toward Lake Constance). The Säntis summit, 2 504 m; with 5 km the range
    /// cuts slopes all around, yet the Altmann (GeoNames 2661769: 47.23954 N, 9.37156 E,
    /// 2 436 m), 2.6 km away, stays a peak.
    @Test func theRangeLimitIsNoSummitButRealSummitsRemain() throws {
        let locator = try Self.locator()
        let saentis = Reading.Location(latitude: 47.2493, longitude: 9.3433, altitude: 2504)
        let altmann = (latitude: 47.23954, longitude: 9.37156)
        for range in [5000.0, 30_000.0] {
            let panorama = try locator.panorama(from: saentis, settings: Panorama.Settings(range: range), jobs: 2).panorama
            // The range's end lies a few metres short of `range` on the ground (the ray runs
            // above it). Many azimuths end there (else this test means nothing); no peak may.
            let atTheEnd = panorama.skyline.filter { $0.elevationAngle != nil && $0.distance > range - 30 }
            #expect(atTheEnd.count > 100, "range \(range): \(atTheEnd.count) skyline points at the range's end")
            let flagged = panorama.skyline.filter { $0.atRangeLimit }.count
            #expect(flagged >= atTheEnd.count / 2, "range \(range): \(flagged) points flagged as cut by it")
            for peak in panorama.peaks {
                #expect(peak.distance < range - 30, "range \(range): peak at azimuth \(peak.azimuth)°, \(peak.distance) m")
            }
            #expect(panorama.peaks.count >= 5, "range \(range): \(panorama.peaks.count) peaks")
        }
        let near = try locator.panorama(from: saentis, settings: Panorama.Settings(range: 5000), jobs: 2).panorama
        let line = Geodesic.inverse(latitude1: saentis.latitude, longitude1: saentis.longitude, latitude2: altmann.latitude, longitude2: altmann.longitude)
        let peak = try #require(near.peaks.first { abs($0.azimuth - line.azimuth1) < 2 }, "no peak near the Altmann's azimuth \(line.azimuth1)°")
        let offset = Geodesic.inverse(latitude1: peak.latitude, longitude1: peak.longitude, latitude2: altmann.latitude, longitude2: altmann.longitude)
        #expect(offset.distance < 150, "the peak lies \(offset.distance) m from the Altmann's summit")
    }

    /// From Kala Patthar, Everest is a peak of the skyline where the geodesic says it is.
    @Test func everestIsAPeakSeenFromKalaPatthar() throws {
        let locator = try Self.locator()
        let location = Reading.Location(latitude: Self.kalaPatthar.0, longitude: Self.kalaPatthar.1)
        let result = try locator.panorama(from: location, settings: Panorama.Settings(range: 30_000))
        let line = Geodesic.inverse(latitude1: Self.kalaPatthar.0, longitude1: Self.kalaPatthar.1,
                                    latitude2: Self.everest.0, longitude2: Self.everest.1)
        let peak = try #require(result.panorama.peaks.first { abs($0.azimuth - line.azimuth1) < 1 },
                                "no peak near azimuth \(line.azimuth1)")
        #expect(abs(peak.azimuth - line.azimuth1) < 0.3)
        #expect(abs(peak.distance - line.distance) < 200)
        #expect(abs(peak.elevation - 8849) < 30)
        #expect(peak.elevation > 8800)
        #expect(result.panorama.skyline.count == 3600)
        // The tile ends 500 m north of Kala Patthar (28° N): northward the skyline is unsettled;
        // on its slope, near ground hides part of the view.
        #expect(result.warnings.map(\.code) == [.leftDEM, .nearGroundHidesView], "\(result.warnings)")
        let north = try #require(result.panorama.skyline.first)
        #expect(!north.complete)
        #expect(result.panorama.skyline.first { abs($0.azimuth - line.azimuth1) < 0.05 }?.complete == true)
    }

    /// The Säntis's summit (2 505 m) over the one tile N47E009 (47–48° N, 9–10° E, by its
    /// SRTM name): every azimuth's sightline leaves the tile while terrain beyond could still
    /// rise above what the tile shows. Each says so (`complete` false), no peak is taken from
    /// them — none on the tile's border — and a warning counts them. Within 5 km, which the
    /// tile holds all around (its nearest edge is 27.7 km south), every azimuth is settled.
    @Test func panoramaFlagsAzimuthsThatReachTheDEMEdge() throws {
        let locator = try Self.locator()
        let location = Reading.Location(latitude: 47.2493, longitude: 9.3433, altitude: 2505)
        let result = try locator.panorama(from: location, settings: Panorama.Settings(azimuthStep: 0.5), jobs: 2)
        let skyline = result.panorama.skyline
        func onBorder(_ latitude: Double, _ longitude: Double) -> Bool {
            [abs(latitude - 47), abs(latitude - 48), abs(longitude - 9), abs(longitude - 10)].min()! < 1e-4
        }
        let border = skyline.filter { onBorder($0.latitude, $0.longitude) }
        #expect(border.count > 50, "only \(border.count) azimuths end on the border")
        #expect(border.allSatisfy { !$0.complete })
        // From this height no skyline inside one tile rules out the terrain beyond it.
        let incomplete = skyline.filter { !$0.complete }.count
        #expect(incomplete == skyline.count)
        #expect(result.panorama.peaks.isEmpty, "\(result.panorama.peaks)")
        let edge = try #require(result.warnings.first { $0.code == .leftDEM })
        #expect(edge.message.hasPrefix("\(incomplete) of 720 azimuths"), "\(edge.message)")

        let near = try locator.panorama(from: location, settings: Panorama.Settings(azimuthStep: 0.5, range: 5000), jobs: 2)
        #expect(near.panorama.skyline.allSatisfy { $0.complete })
        #expect(!near.warnings.contains { $0.code == .leftDEM })
        #expect(!near.panorama.peaks.isEmpty)
    }

    /// The Säntis summit's own skyline (5 km, all inside the tile) sends a calibration's
    /// profile every angle; with the range open, the same azimuths are unsettled and the
    /// profile has none (NaN, as where no terrain is), so nothing is matched against them.
    @Test func skylineProfileLeavesOutAzimuthsTheDEMDoesNotSettle() throws {
        let locator = try Self.locator()
        let location = Reading.Location(latitude: 47.2493, longitude: 9.3433, altitude: 2505)
        let azimuths = stride(from: 50.0, to: 70, by: 0.5).map { $0 }
        let open = try locator.skyline(from: location, azimuths: azimuths)
        #expect(open.allSatisfy { $0.elevationAngle != nil && !$0.complete })
        #expect(SkylineProfile(points: open, step: 0.5).angles.allSatisfy { $0.isNaN })
        let near = try locator.skyline(from: location, azimuths: azimuths, settings: Panorama.Settings(range: 5000))
        let profile = SkylineProfile(points: near, step: 0.5)
        #expect(zip(profile.angles, near).allSatisfy { $0 == $1.elevationAngle })
    }

    /// From Kala Patthar toward Everest, pitched 30° up: the ray meets nothing, the target is
    /// Everest's skyline point, and a warning says how far above it the ray passed — 30° less
    /// the point's apparent elevation, computed here from the exact ENU geometry plus refraction.
    /// Pitched to the skyline itself (0.3° above it), no such warning.
    @Test func tappingTheSkyWarnsHowFarAboveTheSkylineTheRayPassed() throws {
        let locator = try Self.locator()
        let line = Geodesic.inverse(latitude1: Self.kalaPatthar.0, longitude1: Self.kalaPatthar.1,
                                    latitude2: Self.everest.0, longitude2: Self.everest.1)
        func reading(pitch: Double) -> Reading {
            Reading(location: .init(latitude: Self.kalaPatthar.0, longitude: Self.kalaPatthar.1),
                    orientation: .init(heading: line.azimuth1, pitch: pitch))
        }
        let sky = locator.locate(reading(pitch: 30))
        #expect(sky.status == .horizon)
        let target = try #require(sky.target), o = try #require(sky.observer)
        let eye = GeodeticPosition(latitude: o.latitude, longitude: o.longitude,
                                   height: o.altitude + locator.geoid.undulation(latitude: o.latitude, longitude: o.longitude))
        let v = LocalFrame(origin: eye).enu(of: GeodeticPosition(latitude: target.latitude, longitude: target.longitude,
                                                                 height: target.elevation + locator.geoid.undulation(latitude: target.latitude, longitude: target.longitude)))
        let radius = Ellipsoid.wgs84.meanRadius(latitude: o.latitude * .pi / 180)
        let apparent = (atan2(v.z, (v.x * v.x + v.y * v.y).squareRoot()) + 0.13 * target.distance / (2 * radius)) * 180 / .pi
        let warning = try #require(sky.warnings.first { $0.code == .skyTapped }, "\(sky.warnings)")
        #expect(warning.message.hasPrefix(String(format: "the sightline passes %.1f° above the skyline", 30 - apparent)), "\(warning.message), expected \(30 - apparent)°")
        #expect(30 - apparent > 10)
        let skyline = locator.locate(reading(pitch: apparent + 0.3))
        #expect(skyline.status == .horizon && !skyline.warnings.contains { $0.code == .skyTapped }, "\(skyline.warnings)")
    }

    /// On the Säntis by its coordinates alone the eye stands 1.6 m above the DEM's ground, which
    /// falls short of the summit, and ground a few metres away fills the sky to one side: the
    /// panorama warns, naming --altitude, and its picture is scaled to the far skyline (the near
    /// ground clipped). At the summit's height (2 502 m, Wikipedia, plus the eye) it does not.
    @Test func panoramaWarnsWhenNearGroundHidesTheView() throws {
        let locator = try Self.locator()
        let settings = Panorama.Settings(azimuthStep: 1, range: 20_000, layers: Panorama.Settings.pictureLayers)
        let ground = try locator.panorama(from: .init(latitude: 47.2493, longitude: 9.3433), settings: settings, jobs: 2)
        let near = ground.panorama.skyline.filter { $0.distance < 100 }
        #expect(near.count > 30, "only \(near.count) azimuths end on near ground")
        let warning = try #require(ground.warnings.first { $0.code == .nearGroundHidesView }, "\(ground.warnings)")
        #expect(warning.message.contains("over \(near.count) of 360 azimuths") && warning.message.contains("--altitude"), "\(warning.message)")
        let far = ground.panorama.skyline.filter { $0.distance >= 100 }.compactMap(\.elevationAngle).max() ?? 0
        let top = try #require(near.compactMap(\.elevationAngle).max())
        #expect(top > far + 5)
        let frame = PanoramaPicture(panorama: ground.panorama, title: "t").verticalFrame
        #expect(frame.high <= far + 1.5 && frame.high < top, "frame top \(frame.high)° for a far skyline of \(far)°")
        let summit = try locator.panorama(from: .init(latitude: 47.2493, longitude: 9.3433, altitude: 2504), settings: settings, jobs: 2)
        #expect(!summit.warnings.contains { $0.code == .nearGroundHidesView }, "\(summit.warnings)")
    }

    /// One thread or two, the same panorama to the last bit.
    @Test func panoramaDoesNotDependOnTheJobs() throws {
        let locator = try Self.locator()
        let location = Reading.Location(latitude: 27.9, longitude: 86.85)
        let settings = Panorama.Settings(azimuthStep: 1, range: 20_000, layers: Panorama.Settings.pictureLayers)
        let one = try locator.panorama(from: location, settings: settings, jobs: 1).panorama
        let two = try locator.panorama(from: location, settings: settings, jobs: 2).panorama
        #expect(one.skyline == two.skyline)
        #expect(one.peaks == two.peaks)
        // Each layer's silhouette is at most the whole skyline, and the farther ones are higher.
        for p in one.skyline {
            let layers = p.layers.compactMap { $0 }
            #expect(zip(layers, layers.dropFirst()).allSatisfy { $0 <= $1 + 1e-9 })
            if let top = p.elevationAngle, let last = layers.last { #expect(last <= top + 0.01) }
        }
    }

    /// An observer outside the DEM is refused with the locator's error.
    @Test func observerOutsideTheDEMIsRefused() throws {
        let locator = try Self.locator()
        #expect(throws: LocateResult.Failure.self) {
            try locator.panorama(from: Reading.Location(latitude: 10, longitude: 10), settings: Panorama.Settings(azimuthStep: 10))
        }
    }
}
