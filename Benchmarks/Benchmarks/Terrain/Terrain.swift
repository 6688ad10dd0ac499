// Terrain throughput on one core: warm bilinear height look-ups, tile loading, and 30 km
// sightlines over warm tiles, on the real tiles in ../shared/dem.
//
//     cd Benchmarks && swift package benchmark --target Terrain
//
// Targets (foundation and sightline issues): ≥ 20 million warm look-ups/s; a 3″ tile loaded in
// ≤ 20 ms and a 1″ tile in ≤ 150 ms; ≥ 10 000 sightlines/s for 30 km at 10 m steps.

import Benchmark
import Foundation
import TapSeek

/// `../shared/dem` beside the project, found from this file's place in Benchmarks/Benchmarks/Terrain.
let sharedDEM: String = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<5 { url.deleteLastPathComponent() }
    return url.appendingPathComponent("shared/dem").path
}()

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .peakMemoryResident],
        timeUnits: .milliseconds,
        maxDuration: .seconds(5),
        maxIterations: 50
    )
    guard let catalog = try? ElevationCatalog(directory: sharedDEM, rasterReader: .gdal), let geoid = try? Geoid() else {
        fatalError("benchmarks need \(sharedDEM) and /usr/share/proj/egm96_15.gtx")
    }

    Benchmark("Warm bilinear look-ups, 1 M points on N47E009",
              configuration: .init(metrics: [.wallClock, lookupsPerSecond])) { benchmark in
        var sampler = TerrainSampler(catalog: catalog)
        var generator = SystemRandomNumberGenerator()
        let points = (0..<1_000_000).map { _ in
            (47 + Double.random(in: 0..<1, using: &generator), 9 + Double.random(in: 0..<1, using: &generator))
        }
        _ = sampler.elevation(latitude: 47.5, longitude: 9.5)
        var sum = 0.0
        let elapsed = ContinuousClock().measure {
            for _ in benchmark.scaledIterations {
                for p in points { sum += sampler.elevation(latitude: p.0, longitude: p.1) ?? 0 }
            }
        }
        blackHole(sum)
        benchmark.measurement(lookupsPerSecond, rate(points.count * benchmark.scaledIterations.count, elapsed))
    }

    // N46E008.tif: 7.2 % voids, filled on load (the default) or kept (--no-fill-voids).
    for (name, file, fills) in [("3″ HGT tile (N47E009.hgt)", "N47E009.hgt", true), ("1″ zipped HGT tile (S38E178.hgt.zip)", "S38E178.hgt.zip", true),
                                ("3″ GeoTIFF with voids, filled (N46E008.tif)", "N46E008.tif", true),
                                ("3″ GeoTIFF with voids, unfilled (N46E008.tif)", "N46E008.tif", false)] {
        Benchmark("Load \(name)") { benchmark in
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tapseek-bench-\(file)")
            try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let link = directory.appendingPathComponent(file)
            if !FileManager.default.fileExists(atPath: link.path) {
                try? FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: sharedDEM + "/" + file)
            }
            for _ in benchmark.scaledIterations {
                let fresh = try ElevationCatalog(directory: directory.path, rasterReader: .gdal, fillsVoids: fills)
                blackHole(fresh.grid(tile: 0)?.maximumHeight)
            }
        }
    }

    Benchmark("Sightlines over warm tiles (Everest), per 30 km of ray",
              configuration: .init(metrics: [.wallClock, sightlinesPerSecond, metresPerSecond], maxIterations: 20)) { benchmark in
        let locator = Locator(catalog: catalog, geoid: geoid)
        var terrain = TerrainSampler(catalog: catalog)
        // An eye at 7 000 m over the Everest tile looking 3–18° down in every direction: the
        // rays run 5–120 km (50 km on average) before they meet the terrain or leave the tile.
        var readings: [Reading] = []
        for i in 0..<400 {
            let heading = 80 + Double(i % 40) * 2
            let pitch = -3 - Double(i % 7) * 0.6
            readings.append(Reading(location: .init(latitude: 27.5, longitude: 86.5, altitude: 7000),
                                    orientation: .init(heading: heading, pitch: pitch)))
        }
        _ = locator.locate(readings[0], terrain: &terrain)
        var marched = 0.0
        let elapsed = ContinuousClock().measure {
            for _ in benchmark.scaledIterations {
                for r in readings { marched += locator.locate(r, terrain: &terrain).target?.slantRange ?? 0 }
            }
        }
        blackHole(marched)
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        benchmark.measurement(metresPerSecond, Int((marched / seconds).rounded()))
        benchmark.measurement(sightlinesPerSecond, Int((marched / 30_000 / seconds).rounded()))
    }
    // The 360° skyline from Kala Patthar, 3 600 rays of 30 km, on one thread, tiles warm.
    Benchmark("Panorama, 3 600 rays of 30 km (Kala Patthar), one thread",
              configuration: .init(metrics: [.wallClock, .throughput], maxIterations: 50)) { benchmark in
        let locator = Locator(catalog: catalog, geoid: geoid)
        let location = Reading.Location(latitude: 27.9957, longitude: 86.8285)
        let settings = Panorama.Settings(range: 30_000)
        _ = try locator.panorama(from: location, settings: settings, jobs: 1)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try locator.panorama(from: location, settings: settings, jobs: 1).panorama.peaks.count)
        }
    }

    // The uncertainty of one 30 km reading over the Everest tile: 1 000 sampled sightlines, the
    // regions and quantiles, on one thread.
    Benchmark("Uncertainty, 1 000 samples of a 30 km reading, one thread",
              configuration: .init(metrics: [.wallClock], maxIterations: 50)) { benchmark in
        let locator = Locator(catalog: catalog, geoid: geoid)
        let reading = Reading(location: .init(latitude: 27.9675, longitude: 86.88),
                              orientation: .init(heading: 242.965, pitch: -4.4487))
        _ = locator.locate(reading, uncertainty: .init(samples: 1000), jobs: 1)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(locator.locate(reading, uncertainty: .init(samples: 1000), jobs: 1).uncertainty?.hitShare)
        }
    }

    // One calibration: a 100-pixel skyline trace from Kala Patthar toward Everest (the DEM's own
    // skyline under the true orientation), the reading's heading 15° off, pitch 2°, roll 3°; the
    // skyline profile over the ±33° search and the fit, on one thread, tiles warm.
    Benchmark("Calibration from a 100-pixel skyline trace (Kala Patthar), one thread",
              configuration: .init(metrics: [.wallClock], maxIterations: 50)) { benchmark in
        let locator = Locator(catalog: catalog, geoid: geoid)
        let camera = Reading.CameraSettings(horizontalFOV: 63.7, imageWidth: 4032, imageHeight: 3024)
        var reading = Reading(location: .init(latitude: 27.9957, longitude: 86.8285, altitude: 5650),
                              orientation: .init(heading: 80, pitch: 8, roll: -2), camera: camera)
        let pixels = try locator.skylinePixels(of: reading, jobs: 1)
        reading.skyline = (0..<100).map { pixels[$0 * pixels.count / 100] }
        reading.orientation = .init(heading: 95, pitch: 10, roll: 1)
        _ = try locator.calibrate(reading, jobs: 1)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try locator.calibrate(reading, jobs: 1).heading)
        }
    }

    // Aims at 1 000 terrain points 20 km away all round (their elevation the DEM's): direction,
    // distances, visibility with the first obstruction, one thread. From 9 000 m above Kala
    // Patthar 111 of them are in sight (walked to their end) and the others hidden by ridges on
    // the way; from the ground most are hidden within a few hundred metres.
    let aimsPerSecond = BenchmarkMetric.custom("aims/s", polarity: .prefersLarger, useScalingFactor: false)
    Benchmark("Aim at 20 km targets (Kala Patthar), one thread",
              configuration: .init(metrics: [.wallClock, aimsPerSecond], maxIterations: 30)) { benchmark in
        let locator = Locator(catalog: catalog, geoid: geoid)
        var terrain = TerrainSampler(catalog: catalog)
        let observer = Reading(location: .init(latitude: 27.9957, longitude: 86.8285, altitude: 9000))
        let requests = (0..<1000).map { i -> AimRequest in
            let line = Geodesic.direct(latitude: 27.9957, longitude: 86.8285, azimuth: Double(i) * 0.36, distance: 20_000)
            return AimRequest(observer: observer, target: .position(latitude: line.latitude2, longitude: line.longitude2,
                                                                   elevation: nil, name: nil))
        }
        var visible = 0
        for r in requests where locator.aim(r, terrain: &terrain).visible == true { visible += 1 }
        benchmark.startMeasurement()
        let start = ContinuousClock.now
        for _ in benchmark.scaledIterations {
            for r in requests { blackHole(locator.aim(r, terrain: &terrain).visible) }
        }
        let seconds = (ContinuousClock.now - start) / .seconds(1)
        benchmark.measurement(aimsPerSecond, Int(Double(requests.count * benchmark.scaledIterations.count) / seconds))
        blackHole(visible)
    }

    // The maximum pyramid of a 3″ tile, built once per loaded tile.
    Benchmark("Maximum pyramid of a 3″ tile (1201 × 1201)", configuration: .init(metrics: [.wallClock])) { benchmark in
        guard let grid = catalog.grid(tile: catalog.tiles.firstIndex { $0.path.hasSuffix("N47E009.hgt") } ?? 0) else {
            fatalError("N47E009.hgt cannot be read")
        }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(ElevationGrid(north: grid.north, west: grid.west, latitudeSpacing: grid.latitudeSpacing,
                                    longitudeSpacing: grid.longitudeSpacing, rows: grid.rows, columns: grid.columns,
                                    heights: grid.heights).pyramid.levels)
        }
    }
}

let lookupsPerSecond = BenchmarkMetric.custom("Look-ups/s", polarity: .prefersLarger, useScalingFactor: false)
/// Sightlines of 30 km per second: metres of ray marched per second over 30 000.
let sightlinesPerSecond = BenchmarkMetric.custom("30 km sightlines/s", polarity: .prefersLarger, useScalingFactor: false)
let metresPerSecond = BenchmarkMetric.custom("Metres of ray/s", polarity: .prefersLarger, useScalingFactor: false)

func rate(_ count: Int, _ elapsed: Duration) -> Int {
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    return Int((Double(count) / seconds).rounded())
}
