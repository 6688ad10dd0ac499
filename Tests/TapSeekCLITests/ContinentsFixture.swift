import Foundation
import TapSeekTestSupport

/// A log spread over three continents, each place over a shared tile: 24 readings at
/// Grindelwald (Alps, `N46E008.tif`), 18 at Gorak Shep under Everest (`N27E086.hgt`), 12 at
/// Ruatoria on New Zealand's East Cape (`S38E178.hgt.zip`), in that order.
enum ContinentsFixture {
    struct Place {
        var country: String
        var tile: String
        var latitude: Double, longitude: Double, altitude: Double
        var headings: [Int]
        var pitch: Int
    }

    static let places = [
        Place(country: "CH", tile: "N46E008.tif", latitude: 46.624, longitude: 8.041, altitude: 1034,
              headings: Array(stride(from: 100, to: 292, by: 8)), pitch: 4),
        Place(country: "NP", tile: "N27E086.hgt", latitude: 27.9806, longitude: 86.8289, altitude: 5164,
              headings: Array(stride(from: 0, to: 360, by: 20)), pitch: 5),
        Place(country: "NZ", tile: "S38E178.hgt.zip", latitude: -37.893, longitude: 178.318, altitude: 80,
              headings: Array(stride(from: 240, to: 300, by: 5)), pitch: 2),
    ]

    static var tiles: [URL] { places.map { SharedData.dem.appendingPathComponent($0.tile) } }
    static var available: Bool { tiles.allSatisfy(SharedData.available) }

    /// The log's lines, place by place, a second apart.
    static var lines: [String] {
        var lines: [String] = []
        for place in places {
            for heading in place.headings {
                let n = lines.count
                lines.append("""
                {"time":"2026-07-14T09:\(String(format: "%02d:%02d", n / 60, n % 60))Z",\
                "location":{"latitude":\(place.latitude),"longitude":\(place.longitude),"altitude":\(place.altitude)},\
                "orientation":{"heading":\(heading),"pitch":\(place.pitch)}}
                """)
            }
        }
        return lines
    }

    /// The place a batch record's observer is at (within a degree), by index into ``places``.
    static func place(of record: [String: Any]) -> Int? {
        guard let observer = record["observer"] as? [String: Any], let latitude = observer["latitude"] as? Double,
              let longitude = observer["longitude"] as? Double else { return nil }
        return places.firstIndex { abs($0.latitude - latitude) < 1 && abs($0.longitude - longitude) < 1 }
    }

    /// A directory with the log (`log.jsonl`) and a DEM folder holding the three tiles.
    static func make() throws -> (directory: URL, log: URL, dem: URL) {
        let directory = try SharedData.temporaryDirectory("report-continents")
        let dem = directory.appendingPathComponent("dem")
        try FileManager.default.createDirectory(at: dem, withIntermediateDirectories: true)
        for tile in tiles {
            try FileManager.default.createSymbolicLink(at: dem.appendingPathComponent(tile.lastPathComponent), withDestinationURL: tile)
        }
        let log = directory.appendingPathComponent("log.jsonl")
        try (lines.joined(separator: "\n") + "\n").write(to: log, atomically: true, encoding: .utf8)
        return (directory, log, dem)
    }
}
