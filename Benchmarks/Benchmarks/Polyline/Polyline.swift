// Encode and decode throughput of the polyline codec, in MB/s (10⁶ bytes per second) of
// encoded text, on one core. Target: ≥ 200 MB/s each way.
//
// "Encoded MB/s" divides by the benchmark thread's CPU time, not by wall-clock time, so that
// other work on a shared machine (time slices lost to other processes) does not count against
// the codec; the wall-clock metrics are reported beside it.
//
//     cd Benchmarks && swift package benchmark --target Polyline
//
// Two inputs, each about 1 MB of encoded text, deterministic from a fixed seed:
// - a GPS track at precision 5: 50 m steps, so every value is 1–2 characters (the worst case
//   for per-value overhead);
// - points scattered over the globe at precision 6: 6–7 characters per value.

import Benchmark
import TapSeek

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal, encodedMegabytesPerSecond],
        timeUnits: .microseconds,
        maxDuration: .seconds(3),
        maxIterations: 1_000
    )

    for input in [PolylineInput.gpsTrack(), PolylineInput.scatteredPoints()] {
        Benchmark("Polyline decode, \(input.name)") { benchmark throws in
            var decoded = 0
            let start = threadCPUSeconds()
            for _ in benchmark.scaledIterations {
                let path = try Polyline.decode(input.encoded, precision: input.precision)
                decoded &+= path.count
            }
            let seconds = threadCPUSeconds() - start
            blackHole(decoded)
            benchmark.measurement(encodedMegabytesPerSecond, megabytesPerSecond(input.bytes * benchmark.scaledIterations.count, seconds))
        }

        Benchmark("Polyline encode, \(input.name)") { benchmark throws in
            var written = 0
            let start = threadCPUSeconds()
            for _ in benchmark.scaledIterations {
                let text = try Polyline.encode(input.path, precision: input.precision)
                written &+= text.utf8.count
            }
            let seconds = threadCPUSeconds() - start
            blackHole(written)
            benchmark.measurement(encodedMegabytesPerSecond, megabytesPerSecond(input.bytes * benchmark.scaledIterations.count, seconds))
        }
    }
}

/// Millions of bytes of encoded polyline text per second, larger is better.
let encodedMegabytesPerSecond = BenchmarkMetric.custom("Encoded MB/s", polarity: .prefersLarger, useScalingFactor: false)

func megabytesPerSecond(_ bytes: Int, _ seconds: Double) -> Int {
    Int((Double(bytes) / seconds / 1e6).rounded())
}

/// CPU time this thread has used, seconds.
func threadCPUSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) * 1e-9
}

/// A path, its precision and its encoding, built once before measuring.
struct PolylineInput: Sendable {
    let name: String
    let path: [Polyline.Coordinate]
    let precision: PolylinePrecision
    let encoded: String
    var bytes: Int { encoded.utf8.count }

    init(name: String, path: [Polyline.Coordinate], precision: PolylinePrecision) {
        self.path = path
        self.precision = precision
        do {
            encoded = try Polyline.encode(path, precision: precision)
        } catch {
            fatalError("benchmark input does not encode: \(error)")
        }
        self.name = "\(name) (\(encoded.utf8.count / 1000) kB)"
    }

    /// A walk from Grindelwald in steps of up to about 50 m, precision 5.
    static func gpsTrack() -> PolylineInput {
        var random = SplitMix64(seed: 1)
        var latitude = 46.6240
        var longitude = 8.0410
        let path = (0..<250_000).map { _ in
            latitude += random.uniform(-0.00045...0.00045)
            longitude += random.uniform(-0.00065...0.00065)
            return Polyline.Coordinate(latitude: latitude, longitude: longitude)
        }
        return PolylineInput(name: "GPS track, precision 5", path: path, precision: .google)
    }

    /// Independent points anywhere on the globe, precision 6.
    static func scatteredPoints() -> PolylineInput {
        var random = SplitMix64(seed: 2)
        let path = (0..<75_000).map { _ in
            Polyline.Coordinate(latitude: random.uniform(-90...90), longitude: random.uniform(-180...180))
        }
        return PolylineInput(name: "scattered points, precision 6", path: path, precision: .osrm)
    }
}

/// Steele, Lea and Flood's SplitMix64 (2014): a small, fast, reproducible generator, so every
/// run measures the same bytes.
struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in `range`, from the top 53 bits.
    mutating func uniform(_ range: ClosedRange<Double>) -> Double {
        let unit = Double(next() >> 11) / Double(1 << 53)
        return range.lowerBound + unit * (range.upperBound - range.lowerBound)
    }
}
