import Foundation
import TapSeekTestSupport

/// Synthetic terrain with a wide void across the sightlines: a plain at 500 m, no data for
/// 16 km from 46.15° to 46.30° N, then a ridge rising northward 10 m in 100 m from 46.35° N;
/// observers at 46.10° N look north over the void and hit the ridge.
enum VoidFixture {
    static let north = 46.5, west = 8.0, spacing = 1.0 / 400, size = 201
    static let voidBand = 46.15...46.30, ridgeFoot = 46.35

    static func height(latitude: Double) -> Float {
        if voidBand.contains(latitude) { return .nan }
        return latitude < ridgeFoot ? 500 : Float(500 + (latitude - ridgeFoot) * 111_195 * 0.1)
    }

    static var lines: [String] {
        [8.20, 8.25, 8.30].map { longitude in
            #"{"location":{"latitude":46.10,"longitude":\#(longitude),"altitude":900},"orientation":{"heading":0,"pitch":0}}"#
        }
    }

    /// A directory with the log and the tile (GDAL writes it).
    static func make() throws -> (directory: URL, log: URL, dem: URL) {
        let directory = try SharedData.temporaryDirectory("report-void")
        let dem = directory.appendingPathComponent("dem")
        try FileManager.default.createDirectory(at: dem, withIntermediateDirectories: true)
        var heights: [Float] = []
        for row in 0..<size {
            heights += Array(repeating: height(latitude: north - Double(row) * spacing), count: size)
        }
        _ = try SyntheticTerrain.writeGeoTIFF(north: north, west: west, spacing: spacing, rows: size, columns: size,
                                              heights: heights, name: "void", in: dem)
        let log = directory.appendingPathComponent("log.jsonl")
        try (lines.joined(separator: "\n") + "\n").write(to: log, atomically: true, encoding: .utf8)
        return (directory, log, dem)
    }
}
