import Foundation
import Testing
import TapSeek
import TapSeekTestSupport

/// The photo issue's accuracy table, as a benchmark (`scripts/bench-photo.sh`; runs only when
/// `TAPSEEK_PHOTO_BENCHMARK` gives the number of scenes per tile): photos rendered from random
/// observers on the real tiles, each turned toward a view where it has one
/// (``view(from:heading:locator:)``), with a compass 3–20° off, pitch and roll unknown. Each is
/// answered with the compass and without it, and clear, foggy and clouded versions are tallied
/// (and, with a compass, haze that fades far ridges into the sky over dark near forest, snow on
/// the crests against a pale sky, and rocks in front),
/// apart for views the tile settles, views beyond it and views of a hillside close by. A second
/// clear photo with the compass is taken from each observer toward a skyline 1–2 km away, where
/// there is one ("near"). Prints a table; asserts only that no calibrated answer is more than
/// 1° wrong (the issue's hard rule).
@Suite(.enabled(if: ProcessInfo.processInfo.environment["TAPSEEK_PHOTO_BENCHMARK"] != nil, "set TAPSEEK_PHOTO_BENCHMARK=N to run"))
struct PhotoAccuracyBenchmark {
    static let tiles = [("N27E086.hgt", 27.0, 86.0), ("N47E009.hgt", 47.0, 9.0), ("N46E008.tif", 46.0, 8.0), ("N42E001.hgt.zip", 42.0, 1.0)]
    /// Metres above which the "snow" kind whitens the skyline's crests, per tile: chosen so
    /// that the tile's higher crests are white and its lower ones are not.
    static let snowLine = ["N27E086.hgt": 5500.0, "N47E009.hgt": 2000, "N46E008.tif": 2800, "N42E001.hgt.zip": 2600]

    struct Tally {
        var photos = 0, calibrated = 0, withinTargets = 0, wrong = 0, tapsWithin = 0, taps = 0
        var row: String {
            String(format: "%5d %10d (%3.0f%%) %14d (%3.0f%%) %10d %8d/%d", photos, calibrated, 100 * Double(calibrated) / Double(max(photos, 1)),
                   withinTargets, 100 * Double(withinTargets) / Double(max(photos, 1)), wrong, tapsWithin, taps)
        }
    }

    @Test func accuracyTable() throws {
        let perTile = Int(ProcessInfo.processInfo.environment["TAPSEEK_PHOTO_BENCHMARK"] ?? "") ?? 10
        let locator = try PhotoFitTests.locator()
        let camera = PhotoFitTests.camera
        var random = SplitMix64(seed: 2026)
        var tallies: [String: Tally] = [:]
        // Calibrated answers whose error lies within 1, 2, 3 σ of their own covariance: the
        // heading alone (a Gaussian: 68/95/99.7 %) and all three angles (χ² with 3 degrees of
        // freedom: 20/74/97 %); the worst heading error; the imprecise ones apart.
        var sigmas = (count: 0, heading: [0, 0, 0], all: [0, 0, 0], imprecise: 0, worst: 0.0)
        // TAPSEEK_PHOTO_KIND limits the photos to kinds starting so ("clear, compass, settled"),
        // with the same scenes as a whole run.
        let only = ProcessInfo.processInfo.environment["TAPSEEK_PHOTO_KIND"]
        // The harder kinds (issue 37) draw their noise from a generator of their own, so that the
        // first four kinds keep the scenes and noise of the tables before them.
        let kinds = ["clear, compass", "clear, no compass", "clouds, compass", "fog, compass",
                     "haze and forest, compass", "snow, compass", "foreground, compass"]
        var hardRandom = SplitMix64(seed: 37)
        // The issue's near skylines (1–2 km away, settled): a second photo from the same observer,
        // turned to the first such view, clear with a compass; its noise from a third generator.
        var nearRandom = SplitMix64(seed: 12)
        for (tile, south, west) in Self.tiles {
            for _ in 0..<perTile {
                let location = Reading.Location(latitude: south + 0.15 + 0.7 * random.nextUnit(), longitude: west + 0.15 + 0.7 * random.nextUnit())
                let pitch = 12 * random.nextUnit(), roll = 8 * random.nextUnit() - 4
                let error = (3 + 17 * random.nextUnit()) * (random.nextUnit() < 0.5 ? -1 : 1)
                // The photographer turns toward a view: of twelve headings 30° apart (from a random
                // one), the first the tile settles and whose skyline is not a hillside close by.
                let first = 360 * random.nextUnit()
                let views = (0..<12).compactMap { k -> (heading: Double, view: String)? in
                    let heading = normalizedAzimuth(first + 30 * Double(k))
                    return Self.view(from: location, heading: heading, locator: locator).map { (heading, $0) }
                }
                guard let chosen = views.first(where: { $0.view == ", settled" }) ?? views.first else { continue }
                var photos = kinds.map { (kind: $0 + chosen.view, heading: chosen.heading) }
                if let near = views.first(where: { $0.view == ", skyline 1–2 km" }) {
                    photos.append((kind: "near, compass" + near.view, heading: near.heading))
                }
                for (kind, heading) in photos {
                    let truth = CameraOrientation(heading: heading, pitch: pitch, roll: roll)
                    var renderer = PhotoRenderer(location: location, orientation: truth, camera: camera)
                    renderer.seed = kinds.prefix(4).contains(where: kind.hasPrefix) ? random.next()
                                  : kind.hasPrefix("near") ? nearRandom.next() : hardRandom.next()
                    if kind.hasPrefix("clouds") {
                        renderer.clouds = [.init(azimuth: truth.heading + 30 * random.nextUnit() - 15, elevation: truth.pitch, width: 8, height: 5)]
                    }
                    if kind.hasPrefix("fog") { renderer.fog = 0.995 }
                    if kind.hasPrefix("haze") {
                        // Far ridges nearly the sky's colour, near ones dark forest with the
                        // strongest edge of the picture.
                        renderer.hazeToSky = 12_000
                        renderer.forestWithin = 5_000
                    }
                    if kind.hasPrefix("snow") { renderer.snow = (line: Self.snowLine[tile] ?? 3000, depth: 1.5) }
                    if kind.hasPrefix("foreground") { renderer.foreground = 0.3 }
                    guard only.map(kind.hasPrefix) ?? true, let image = try? renderer.render(locator: locator) else { continue }
                    var metadata = try PhotoMetadata(bytes: PhotoFixtures.minimalJPEG(width: 800, height: 600)[...])
                    metadata.latitude = location.latitude
                    metadata.longitude = location.longitude
                    metadata.horizontalFOV = camera.horizontalFOV
                    if kind.contains(", compass") {
                        metadata.heading = normalizedAzimuth(truth.heading + error)
                        metadata.headingReference = .true
                        metadata.headingSource = .exif
                    }
                    let tap = Reading.Pixel(x: 400, y: 330)
                    let result = locator.photo(metadata, pixels: image, taps: [tap], jobs: 2)
                    var t = tallies["\(tile) \(kind)"] ?? Tally()
                    t.photos += 1
                    if let c = result.calibration {
                        t.calibrated += 1
                        let dh = abs(remainder(c.heading - truth.heading, 360)), dp = abs(c.pitch - truth.pitch), dr = abs(c.roll - truth.roll)
                        if dh < 0.2, dp < 0.2, dr < 0.5 { t.withinTargets += 1 } else if kind.hasSuffix("settled") {
                            print("OFF \(tile) \(kind) at \(location.latitude),\(location.longitude): truth \(truth.heading) \(truth.pitch) \(truth.roll), got \(c.heading) \(c.pitch) \(c.roll)")
                            try Self.dump(image, result: result, truth: truth, location: location, locator: locator, name: "\(tile) \(kind) \(location.latitude)")
                        }
                        if let v = c.covariance, let inverse = Self.inverse(v) {
                            let e = [remainder(c.heading - truth.heading, 360), c.pitch - truth.pitch, c.roll - truth.roll]
                            var q = 0.0
                            for i in 0..<3 { for j in 0..<3 { q += e[i] * inverse[i][j] * e[j] } }
                            let z = abs(e[0]) / v[0][0].squareRoot()
                            sigmas.count += 1
                            for k in 0..<3 where z <= Double(k + 1) { sigmas.heading[k] += 1 }
                            for k in 0..<3 where q <= Double((k + 1) * (k + 1)) { sigmas.all[k] += 1 }
                            if result.warnings.contains(where: { $0.code == .calibrationImprecise }) { sigmas.imprecise += 1 }
                            sigmas.worst = max(sigmas.worst, dh)
                            if q > 9 {
                                print("BEYOND-3-SIGMA \(tile) \(kind): " + String(format: "error %.4f %.4f %.4f°, σ %.4f %.4f %.4f°, Mahalanobis %.1f",
                                             e[0], e[1], e[2], v[0][0].squareRoot(), v[1][1].squareRoot(), v[2][2].squareRoot(), q.squareRoot()))
                            }
                        }
                        if dh > 1 || dp > 1 {
                            t.wrong += 1
                            print("WRONG \(tile) \(kind) at \(location.latitude),\(location.longitude): truth \(truth.heading) \(truth.pitch) \(truth.roll), got \(c.heading) \(c.pitch) \(c.roll)")
                        }
                        var truthReading = Reading(location: location, orientation: .init(heading: truth.heading, pitch: truth.pitch, roll: truth.roll),
                                                   camera: .init(horizontalFOV: camera.horizontalFOV, imageWidth: 800, imageHeight: 600), tap: tap)
                        truthReading.id = "truth"
                        if let target = result.taps.first?.target, let expected = locator.locate(truthReading).target, result.taps.first?.status == .hit {
                            t.taps += 1
                            let miss = Geodesic.inverse(latitude1: target.latitude, longitude1: target.longitude,
                                                        latitude2: expected.latitude, longitude2: expected.longitude).distance
                            if miss <= max(50, 0.01 * expected.distance) { t.tapsWithin += 1 }
                        }
                    }
                    if result.calibration == nil, kind.hasSuffix("settled") || kind.hasPrefix("near") {
                        try Self.dump(image, result: result, truth: truth, location: location, locator: locator, name: "\(tile) \(kind) \(location.latitude)")
                        print("REFUSED \(tile) \(kind) at \(location.latitude),\(location.longitude) heading \(truth.heading) pitch \(truth.pitch) roll \(truth.roll): "
                              + Self.skylineError(result, truth: truth, location: location, locator: locator) + " | "
                              + result.warnings.map(\.message).joined(separator: "; "))
                    }
                    tallies["\(tile) \(kind)"] = t
                }
            }
        }
        print("PHOTO-ACCURACY tile / kind                          photos calibrated        within 0.2/0.2/0.5°  wrong>1° taps within")
        var totals: [String: Tally] = [:]
        for key in tallies.keys.sorted() {
            print("PHOTO-ACCURACY " + key.padding(toLength: 50, withPad: " ", startingAt: 0) + tallies[key]!.row)
            let kind = String(key.drop { $0 != " " }.dropFirst())
            var total = totals[kind] ?? Tally()
            let t = tallies[key]!
            total.photos += t.photos; total.calibrated += t.calibrated; total.withinTargets += t.withinTargets
            total.wrong += t.wrong; total.taps += t.taps; total.tapsWithin += t.tapsWithin
            totals[kind] = total
        }
        for kind in totals.keys.sorted() { print("PHOTO-ACCURACY all: " + kind.padding(toLength: 45, withPad: " ", startingAt: 0) + totals[kind]!.row) }
        let share = { (n: Int) in String(format: "%.0f%%", 100 * Double(n) / Double(max(sigmas.count, 1))) }
        print("PHOTO-COVARIANCE \(sigmas.count) calibrated (\(sigmas.imprecise) imprecise), worst heading error \(String(format: "%.3f", sigmas.worst))°")
        print("PHOTO-COVARIANCE heading within 1/2/3 σ: \(sigmas.heading.map(share).joined(separator: " / ")) (Gaussian 68 / 95 / 99.7 %)")
        print("PHOTO-COVARIANCE 3-D within 1/2/3 σ:    \(sigmas.all.map(share).joined(separator: " / ")) (Gaussian 20 / 74 / 97 %)")
        #expect(totals.values.allSatisfy { $0.wrong == 0 }, "a calibrated answer more than 1° wrong")
    }
}

extension PhotoAccuracyBenchmark {
    /// The inverse of a 3 × 3 matrix; nil when singular.
    static func inverse(_ m: [[Double]]) -> [[Double]]? {
        let det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
            + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
        guard det != 0, det.isFinite else { return nil }
        return (0..<3).map { i in
            (0..<3).map { j in
                // Cofactor of (j, i) over the determinant.
                let r = [0, 1, 2].filter { $0 != j }, c = [0, 1, 2].filter { $0 != i }
                let minor = m[r[0]][c[0]] * m[r[1]][c[1]] - m[r[0]][c[1]] * m[r[1]][c[0]]
                return ((i + j) % 2 == 0 ? 1 : -1) * minor / det
            }
        }
    }

    /// What a photo toward `heading` shows: ", beyond the tile" when the tile does not settle the
    /// DEM's skyline across the view (fewer than 80 % of its azimuths complete: terrain beyond
    /// could rise above it, and a refusal is right); otherwise, by the median distance of the
    /// skyline, ", settled" beyond 2 km, ", skyline 1–2 km" (the issue's near skylines: an
    /// answer with an honest covariance is wanted) and ", hillside within 1 km" (the DEM's ±6 m
    /// alone put it 0.35° or more off: a refusal is often right).
    static func view(from location: Reading.Location, heading: Double, locator: Locator) -> String? {
        let across = stride(from: heading - 34, through: heading + 34, by: 2).map { $0 }
        guard let points = try? locator.skyline(from: location, azimuths: across) else { return nil }
        let distances = points.filter { $0.elevationAngle != nil }.map(\.distance).sorted()
        guard !distances.isEmpty, Double(points.filter(\.complete).count) >= 0.8 * Double(points.count) else { return ", beyond the tile" }
        let median = distances[distances.count / 2]
        return median < 1000 ? ", hillside within 1 km" : median < 2000 ? ", skyline 1–2 km" : ", settled"
    }

    /// How far the detected skyline lies from the DEM's under the true orientation: the share of
    /// points within 0.1°, and the median and 90th percentile of the misses, degrees.
    /// With `TAPSEEK_PHOTO_DUMP=DIR`, writes the photo to DIR as a PPM with the true skyline
    /// (blue), the detected one (red) and the white crests' tops (green) drawn over it.
    static func dump(_ image: PixelImage, result: PhotoResult, truth: CameraOrientation, location: Reading.Location,
                     locator: Locator, name: String) throws {
        guard let directory = ProcessInfo.processInfo.environment["TAPSEEK_PHOTO_DUMP"] else { return }
        var rgb = image.rgb
        func mark(_ x: Double, _ y: Double, _ colour: [UInt8]) {
            let column = Int(x), row = Int(y.rounded())
            guard column >= 0, column < image.width, row >= 0, row < image.height else { return }
            rgb.replaceSubrange((row * image.width + column) * 3..<(row * image.width + column) * 3 + 3, with: colour)
        }
        let camera = PhotoFitTests.camera
        let azimuths = (0..<image.width).map { ViewDirection(enu: truth.direction(ofPixelX: Double($0) + 0.5, y: camera.imageHeight / 2, camera: camera)).azimuth }
        for (x, point) in zip(0..., try locator.skyline(from: location, azimuths: azimuths)) {
            guard let elevation = point.elevationAngle,
                  let p = truth.pixel(of: ViewDirection(azimuth: azimuths[x], elevation: elevation).enu, camera: camera) else { continue }
            mark(p.x, p.y, [0, 0, 255])
        }
        for p in result.skyline?.points ?? [] { mark(p.x, p.y, [255, 0, 0]) }
        for p in SkylineDetector.detect(in: image, fullWidth: image.width, fullHeight: image.height).crestTops { mark(p.x, p.y, [0, 200, 0]) }
        let header = Array("P6\n\(image.width) \(image.height)\n255\n".utf8)
        let file = name.replacingOccurrences(of: " ", with: "_").replacingOccurrences(of: ",", with: "") + ".ppm"
        try Data(header + rgb).write(to: URL(fileURLWithPath: directory).appendingPathComponent(file))
    }

    static func skylineError(_ result: PhotoResult, truth: CameraOrientation, location: Reading.Location, locator: Locator) -> String {
        guard let points = result.skyline?.points, !points.isEmpty else { return "no skyline" }
        let views = points.map { ViewDirection(enu: truth.direction(ofPixelX: $0.x, y: $0.y, camera: PhotoFitTests.camera)) }
        guard let dem = try? locator.skyline(from: location, azimuths: views.map(\.azimuth)) else { return "no DEM skyline" }
        let misses = zip(views, dem).compactMap { v, d in d.elevationAngle.map { abs(v.elevation - $0) } }.sorted()
        guard !misses.isEmpty else { return "no DEM skyline" }
        let within = Double(misses.filter { $0 <= 0.1 }.count) / Double(misses.count)
        let distances = dem.map(\.distance).filter(\.isFinite).sorted()
        return String(format: "%d points, %.0f%% within 0.1°, median %.2f°, p90 %.2f°, skyline %.1f–%.1f km away", misses.count, 100 * within,
                      misses[misses.count / 2], misses[misses.count * 9 / 10],
                      (distances.first ?? .nan) / 1000, (distances.last ?? .nan) / 1000)
    }
}

/// Photos the scripts write: the benchmark's and README's example, each run only when its
/// environment variable names where to write it.
struct PhotoFixtureWriters {
    /// The photo `scripts/bench-photo.sh` times: Kala Patthar toward Everest, 1 008 × 756, written
    /// where `TAPSEEK_PHOTO_FIXTURE` says (the script scales it up and writes its EXIF).
    @Test(.enabled(if: ProcessInfo.processInfo.environment["TAPSEEK_PHOTO_FIXTURE"] != nil))
    func writesTheBenchmarkPhoto() throws {
        let path = try #require(ProcessInfo.processInfo.environment["TAPSEEK_PHOTO_FIXTURE"])
        let scene = PhotoFitTests.clear[0]
        let camera = PinholeCamera(horizontalFOV: FieldOfView.horizontal(focalLengthIn35mmFilm: 26, width: 1008, height: 756),
                                   imageWidth: 1008, imageHeight: 756)
        let image = try PhotoRenderer(location: scene.location, orientation: scene.truth, camera: camera).render(locator: try PhotoFitTests.locator())
        try Data(try PhotoPixels.jpeg(image, quality: 92)).write(to: URL(fileURLWithPath: path))
    }

    /// README's worked example, `examples/cumberland.jpg` (`scripts/make-example-photo.sh` writes
    /// its EXIF): the default DEM seen from a hillside north-east of Jacksboro, Tennessee, looking
    /// south-west along the Cumberland ridges, terrain drawn out to 20 km, written where
    /// `TAPSEEK_EXAMPLE_PHOTO` says.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["TAPSEEK_EXAMPLE_PHOTO"] != nil))
    func writesTheExamplePhoto() throws {
        let path = try #require(ProcessInfo.processInfo.environment["TAPSEEK_EXAMPLE_PHOTO"])
        let dem = SharedData.projectRoot.appendingPathComponent("dem")
        let locator = Locator(catalog: try ElevationCatalog(directory: dem.path, rasterReader: .gdal), geoid: try Geoid())
        let camera = PinholeCamera(horizontalFOV: FieldOfView.horizontal(focalLengthIn35mmFilm: 26, width: 1008, height: 756),
                                   imageWidth: 1008, imageHeight: 756)
        var renderer = PhotoRenderer(location: .init(latitude: 36.38, longitude: -84.12), orientation: CameraOrientation(heading: 240, pitch: 4, roll: 0.6),
                                     camera: camera)
        renderer.range = 20_000
        try Data(try PhotoPixels.jpeg(try renderer.render(locator: locator), quality: 88)).write(to: URL(fileURLWithPath: path))
    }
}
