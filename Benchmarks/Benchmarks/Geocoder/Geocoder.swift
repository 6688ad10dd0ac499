// Offline reverse geocoding on one core: opening the index, country look-ups and full
// placemarks on points spread uniformly over the world's land (every look-up cold in the
// caches) and along tracks as phone logs give them, on the index that
// scripts/build-geocoder-index.sh builds into data/build/.
//
//     cd Benchmarks && swift package benchmark --target Geocoder
//
// Targets (geocoding issue): index opened in ≤ 20 ms; ≥ 2 million look-ups/s per core.
// `tapseek geocode --batch` (≥ 1 million points/s end to end) is timed from the shell; see the
// report in docs/guides/performance.md ("The geocoder, in detail").

import Benchmark
import Foundation
import TapSeek

/// The project's index, found from this file's place in Benchmarks/Benchmarks/Geocoder.
let indexURL: URL = {
    var url = URL(fileURLWithPath: #filePath)
    for _ in 0..<4 { url.deleteLastPathComponent() }
    return url.appendingPathComponent("data/build/geocoder-index.bin")
}()

/// SplitMix64 (Steele, Lea, Flood 2014): the benchmarks' points are the same on every run.
struct SplitMix64 {
    var state: UInt64

    /// Uniform in [0, 1).
    mutating func nextUnit() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
    }
}

/// Points uniform on the sphere (uniform in sin φ and λ), kept where the geocoder finds a
/// country: the world's land, Antarctica included, weighted by area. Deterministic.
func landPoints(_ count: Int, _ index: GeocoderIndex) -> [(latitude: Double, longitude: Double)] {
    var random = SplitMix64(state: 0x9E37_79B9_7F4A_7C15)
    func next() -> Double { random.nextUnit() }
    var points: [(latitude: Double, longitude: Double)] = []
    points.reserveCapacity(count)
    while points.count < count {
        let latitude = asin(2 * next() - 1) * 180 / .pi, longitude = 360 * next() - 180
        if (try? index.isoCountryCode(latitude: latitude, longitude: longitude)) ?? nil != nil {
            points.append((latitude, longitude))
        }
    }
    return points
}

/// Points as phone logs give them: 1 000 tracks of 1 000 fixes each, 50 m apart on a random
/// walk that turns by up to 30° a step, each track starting at one of `starts`. Deterministic.
func trackPoints(starts: [(latitude: Double, longitude: Double)]) -> [(latitude: Double, longitude: Double)] {
    var random = SplitMix64(state: 0x2545_F491_4F6C_DD1D)
    func next() -> Double { random.nextUnit() }
    var points: [(latitude: Double, longitude: Double)] = []
    points.reserveCapacity(1_000_000)
    for start in starts.prefix(1000) {
        var (latitude, longitude) = start
        var heading = 2 * .pi * next()
        for _ in 0..<1000 {
            points.append((latitude, longitude))
            heading += (next() - 0.5) * .pi / 3
            latitude = min(max(latitude + 50 * cos(heading) / 111_320, -90), 90)
            longitude += 50 * sin(heading) / (111_320 * max(cos(latitude * .pi / 180), 0.01))
        }
    }
    return points
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .peakMemoryResident],
        timeUnits: .milliseconds,
        maxDuration: .seconds(5),
        maxIterations: 50
    )
    guard let geocoder = try? Geocoder(contentsOf: indexURL) else {
        fatalError("benchmarks need \(indexURL.path): run scripts/build-geocoder-index.sh")
    }
    let points = landPoints(1_000_000, geocoder.index)
    let tracks = trackPoints(starts: points)

    Benchmark("Open the index (memory-mapped)", configuration: .init(timeUnits: .microseconds)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try Geocoder(contentsOf: indexURL).index.countryCodes.count)
        }
    }

    // Place search (forward geocoding) on scripts/build-search-index.sh's index: open it, and
    // answer queries exactly spelt, transliterated, mistyped, multi-word and absurd, each
    // with its full ranking, on one core.
    let searchURL = indexURL.deletingLastPathComponent().appendingPathComponent("search-index.bin")
    Benchmark("Place search: open the index (memory-mapped)", configuration: .init(timeUnits: .microseconds)) { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try PlaceIndex(contentsOf: searchURL).keyCount)
        }
    }
    let queries = ["Zürich", "zuerich", "Zurch", "Grindelwlad", "Lauterbrunen", "new york", "sao paulo", "Saint-Gervais-les-Bains",
                   "München", "Kathmandu", "Katmandu", "Appenzel", "Bern", "Springfield", "xqzzvwk", "Freiburg im Breisgau", "Apenzel", "Lautrbrunen"]
    let queriesPerSecond = BenchmarkMetric.custom("queries/s", polarity: .prefersLarger, useScalingFactor: false)
    Benchmark("Place search: 18 queries (exact, transliterated, mistyped, multi-word, absurd), warm",
              configuration: .init(metrics: [.wallClock, queriesPerSecond], timeUnits: .microseconds, maxIterations: 200)) { benchmark in
        let index = try PlaceIndex(contentsOf: searchURL)
        for q in queries { blackHole(index.search(q).count) }
        var found = 0
        let elapsed = ContinuousClock().measure {
            for _ in benchmark.scaledIterations {
                for q in queries { found &+= index.search(q, options: .init(limit: 5, near: (47, 8))).count }
            }
        }
        blackHole(found)
        benchmark.measurement(queriesPerSecond, rate(queries.count * benchmark.scaledIterations.count, elapsed))
    }

    lookUpBenchmark("Country look-ups, 1 M land points", points, maxIterations: 50) { latitude, longitude in
        (try? geocoder.index.isoCountryCode(latitude: latitude, longitude: longitude)) ?? nil != nil ? 1 : 0
    }
    lookUpBenchmark("Placemark references (country, zone, region, locality; no strings), 1 M land points", points) { latitude, longitude in
        Int((try? geocoder.index.reference(latitude: latitude, longitude: longitude))?.place ?? 0)
    }
    // The bulk path (`tapseek geocode --batch`'s): the names' UTF-8 borrowed from the index, no
    // String made.
    lookUpBenchmark("Placemarks with borrowed names (GeocoderIndex.withUTF8), 1 M land points", points) { latitude, longitude in
        guard let reference = try? geocoder.index.reference(latitude: latitude, longitude: longitude) else { return 0 }
        return geocoder.index.withUTF8(reference) { ($0.locality?.count ?? 0) &+ ($0.country?.count ?? 0) }
    }
    for (name, points) in [("1 M land points", points), ("1 000 tracks of 1 000 fixes 50 m apart", tracks)] {
        lookUpBenchmark("Placemarks (country, region, locality), \(name)", points) { latitude, longitude in
            (try? geocoder.placemark(latitude: latitude, longitude: longitude))?.locality?.utf8.count ?? 0
        }
    }
}

/// A benchmark of one look-up per point, reported in look-ups per second. `lookUp` returns a
/// number drawn from its answer, summed so that the look-ups cannot be optimised away.
func lookUpBenchmark(_ name: String, _ points: [(latitude: Double, longitude: Double)], maxIterations: Int = 10,
                     _ lookUp: @escaping @Sendable (Double, Double) -> Int) {
    Benchmark(name, configuration: .init(metrics: [.wallClock, lookupsPerSecond], maxIterations: maxIterations)) { benchmark in
        var sum = 0
        let elapsed = ContinuousClock().measure {
            for _ in benchmark.scaledIterations {
                for p in points { sum &+= lookUp(p.latitude, p.longitude) }
            }
        }
        blackHole(sum)
        benchmark.measurement(lookupsPerSecond, rate(points.count * benchmark.scaledIterations.count, elapsed))
    }
}

let lookupsPerSecond = BenchmarkMetric.custom("Look-ups/s", polarity: .prefersLarger, useScalingFactor: false)

func rate(_ count: Int, _ elapsed: Duration) -> Int {
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    return Int((Double(count) / seconds).rounded())
}
