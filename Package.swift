// swift-tools-version:6.1
import Foundation
import PackageDescription

/// Release builds for the processor they are built on, when it is an x86-64 one with the
/// x86-64-v3 features (AVX2, FMA, BMI1 and 2, F16C, LZCNT, MOVBE: Intel since Haswell, 2013, AMD
/// since Excavator, 2015). The compiler then rounds with one instruction where it called `floor`
/// and `ceil`, and vectorises wider: a 30 km viewshed takes 5–11 % less time
/// (docs/guides/performance.md, "Fifteenth round"). Answers keep every bit: Swift never fuses a
/// multiply and an add unless the code asks (`addingProduct`, exactly rounded either way), and
/// the instructions are IEEE 754's. Such a binary stops with SIGILL on an older processor:
/// `TAPSEEK_PORTABLE=1 swift build …` builds one for any x86-64.
let hostProcessor: [SwiftSetting] = {
    #if os(Linux) && arch(x86_64)
    guard ProcessInfo.processInfo.environment["TAPSEEK_PORTABLE"] == nil,
          let cpuinfo = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
          let flags = cpuinfo.split(separator: "\n").first(where: { $0.hasPrefix("flags") }) else { return [] }
    let has = Set(flags.split(separator: " ").map(String.init))
    guard ["avx2", "fma", "bmi1", "bmi2", "f16c", "abm", "movbe"].allSatisfy(has.contains) else { return [] }
    return [.unsafeFlags(["-target-cpu", "haswell"], .when(configuration: .release))]
    #else
    return []
    #endif
}()

let package = Package(
    name: "TapSeek",
    // Built and tested on Linux here; the Apple platforms are expected to build (README, Platforms).
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        // Locates end to end on SRTM tiles without any C library: for apps (iOS, watchOS) and
        // servers that want no GDAL. examples/core-only builds against it alone.
        .library(name: "TapSeekCore", targets: ["TapSeekCore"]),
        // TapSeekCore plus GDAL's raster formats, tile download, the geocoder and place search.
        .library(name: "TapSeek", targets: ["TapSeek"]),
        .executable(name: "tapseek", targets: ["tapseek"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        // `swift package generate-documentation --target TapSeekCore` (README, Documentation).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // PROJ's geodesics behind a shim header found through pkg-config (the tests' reference).
        // GDAL is not linked: TapSeekGDAL's GDALLibrary loads libgdal when a raster first needs it.
        .systemLibrary(name: "CProj", pkgConfig: "proj", providers: [.apt(["libproj-dev"])]),

        // Pure Swift, no C library: geodesy, terrain grids and SRTM/GTX files, the DEM catalog,
        // camera, sightline march, locator, panorama, uncertainty, calibration, aim, result JSON,
        // polyline, magnetism, geocoding lookup, readings and importers.
        // Optimised in debug builds too: the tests run hundreds of `tapseek` processes and march
        // millions of sightlines, ten times slower unoptimised; the test targets keep -Onone.
        .target(name: "TapSeekCore", swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))] + hostProcessor),
        // GDAL turns files into plain Swift values (elevation grids, the geoid grid).
        .target(name: "TapSeekGDAL", dependencies: ["TapSeekCore"], swiftSettings: hostProcessor),
        // Karney's geodesics through PROJ's geodesic.h: the independent truth the tests hold
        // TapSeekCore's pure-Swift geodesics to.
        .target(name: "TapSeekGeodesic", dependencies: ["CProj"]),
        // The public library: TapSeekCore re-exported, with GDAL, tile fetching, the geocoder's and
        // place search's data files.
        .target(name: "TapSeek", dependencies: ["TapSeekCore", "TapSeekGDAL"], swiftSettings: hostProcessor),
        .executableTarget(
            name: "tapseek",
            dependencies: ["TapSeek", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            // The report page's script and style, compiled into the executable as bytes
            // (`PackageResources`): a static build has no resource bundle beside it.
            resources: [.embedInCode("Report/Resources/report.js"), .embedInCode("Report/Resources/report.css")],
            swiftSettings: hostProcessor
        ),

        // Locating the shared test data and building fixtures; used by every test target.
        .target(name: "TapSeekTestSupport", dependencies: ["TapSeekCore"], path: "Tests/TapSeekTestSupport"),
        .testTarget(
            name: "TapSeekCoreTests",
            dependencies: ["TapSeekCore", "TapSeekTestSupport", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "TapSeekGDALTests",
            dependencies: ["TapSeekGDAL", "TapSeekGeodesic", "TapSeekTestSupport", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(name: "TapSeekTests", dependencies: ["TapSeek", "TapSeekTestSupport"]),
        .testTarget(name: "TapSeekCLITests", dependencies: ["TapSeek", "TapSeekTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
