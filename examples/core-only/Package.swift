// swift-tools-version:6.1
// An app that uses TapSeekCore alone: no GDAL, no PROJ, nothing but Swift and Foundation.
import PackageDescription

let package = Package(
    name: "core-locate",
    platforms: [.macOS(.v13), .iOS(.v16)],
    dependencies: [.package(name: "TapSeek", path: "../..")],
    targets: [
        .executableTarget(name: "core-locate", dependencies: [.product(name: "TapSeekCore", package: "TapSeek")]),
    ],
    swiftLanguageModes: [.v6]
)
