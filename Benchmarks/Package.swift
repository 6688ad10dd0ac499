// swift-tools-version:6.1
// Benchmarks for TapSeek, kept out of the main manifest so that the library's users and CI never
// build the benchmark dependencies. Run from this folder:
//
//     swift package benchmark                      # every target
//     swift package benchmark --target Polyline    # one target
//
// Each target lives in Benchmarks/<Name>/ (where ordo-one's plugin looks for it) and is added
// with `benchmarkTarget(_:)` below.
import PackageDescription

let package = Package(
    name: "TapSeekBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        // The MallocInterposer trait alone: the package's other default trait (RuntimeInterposer)
        // needs swift-runtime-interposer, which these machines do not have.
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
        .package(name: "TapSeek", path: ".."),
    ],
    targets: [
        benchmarkTarget("Polyline"),
        benchmarkTarget("Terrain"),
        benchmarkTarget("Geocoder"),
    ]
)

/// An executable benchmark target named `name`, with sources in Benchmarks/`name`.
func benchmarkTarget(_ name: String) -> Target {
    .executableTarget(
        name: name,
        dependencies: [
            .product(name: "Benchmark", package: "benchmark"),
            .product(name: "TapSeek", package: "TapSeek"),
        ],
        path: "Benchmarks/\(name)",
        plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    )
}
