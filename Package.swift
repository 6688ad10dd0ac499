// swift-tools-version:6.1
import PackageDescription

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
        .target(name: "TapSeekCore", swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        // GDAL turns files into plain Swift values (elevation grids, the geoid grid).
        .target(name: "TapSeekGDAL", dependencies: ["TapSeekCore"]),
        // Karney's geodesics through PROJ's geodesic.h: the independent truth the tests hold
        // TapSeekCore's pure-Swift geodesics to.
        .target(name: "TapSeekGeodesic", dependencies: ["CProj"]),
        // The public library: TapSeekCore re-exported, with GDAL, tile fetching, the geocoder's and
        // place search's data files.
        .target(name: "TapSeek", dependencies: ["TapSeekCore", "TapSeekGDAL"]),
        .executableTarget(
            name: "tapseek",
            dependencies: ["TapSeek", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            // The report page's script and style, compiled into the executable as bytes
            // (`PackageResources`): a static build has no resource bundle beside it.
            resources: [.embedInCode("Report/Resources/report.js"), .embedInCode("Report/Resources/report.css")]
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
