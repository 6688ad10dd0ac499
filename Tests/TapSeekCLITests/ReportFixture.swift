import Foundation
import TapSeekTestSupport

/// A field log over the real Eiger tile (shared `N46E008.tif`) for `tapseek report` tests:
/// observers at Grindelwald and Brienz sweeping the compass at two pitches (hits near
/// and far, skyline points), with a broken line, a reading outside every tile and a reading
/// without orientation among them. No shared phone log lies over a shared tile (they were
/// recorded in Texas, North Carolina, Finland and Norway), so the readings are made here.
enum ReportFixture {
    static let tile = SharedData.dem.appendingPathComponent("N46E008.tif")

    /// Observers: Grindelwald, and Brienz 14 km north, across the Faulhorn range (another
    /// placemark to filter by).
    static let observers: [(latitude: Double, longitude: Double, altitude: Double)] = [
        (46.6240, 8.0410, 1034), (46.7540, 8.0380, 570),
    ]

    /// The line the README's screenshot selects: a hit from Brienz.
    static let screenshotLine = 62

    /// The log's lines, in order.
    static var lines: [String] {
        var lines: [String] = []
        for (o, observer) in observers.enumerated() {
            for heading in stride(from: 100, to: 300, by: 8) {
                for pitch in [3, 12] {
                    let n = lines.count
                    lines.append("""
                    {"id":"o\(o)-\(heading)-\(pitch)","time":"2026-07-14T09:\(String(format: "%02d:%02d", n / 60, n % 60))Z",\
                    "location":{"latitude":\(observer.latitude),"longitude":\(observer.longitude),"altitude":\(observer.altitude)},\
                    "orientation":{"heading":\(heading),"pitch":\(pitch)}}
                    """)
                }
            }
        }
        lines.insert(#"{"broken"#, at: 5)
        lines.insert(#"{"location":{"latitude":10,"longitude":10},"orientation":{"heading":0,"pitch":0}}"#, at: 9)
        lines.insert(#"{"location":{"latitude":46.63,"longitude":8.05}}"#, at: 12)
        return lines
    }

    /// A directory with the log (`log.jsonl`) and a DEM folder (`dem/`) holding the tile alone.
    static func make() throws -> (directory: URL, log: URL, dem: URL) {
        let directory = try SharedData.temporaryDirectory("report")
        let dem = directory.appendingPathComponent("dem")
        try FileManager.default.createDirectory(at: dem, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: dem.appendingPathComponent(tile.lastPathComponent), withDestinationURL: tile)
        let log = directory.appendingPathComponent("log.jsonl")
        try (lines.joined(separator: "\n") + "\n").write(to: log, atomically: true, encoding: .utf8)
        return (directory, log, dem)
    }

    /// The rows of a written page's data block (arrays as ReportRows.swift lays them out).
    static func rows(ofPage page: URL) throws -> [[Any]] {
        guard let rows = try data(ofPage: page)["rows"] as? [[Any]] else { throw CLIRunner.Failure(description: "no rows in the data block") }
        return rows
    }

    /// A written page's data block.
    static func data(ofPage page: URL) throws -> [String: Any] {
        let html = try String(contentsOf: page, encoding: .utf8)
        let start = try requireRange(html, "<script type=\"application/json\" id=\"report-data\">")
        let rest = html[start.upperBound...]
        let end = try requireRange(String(rest), "</script>")
        let json = String(rest)[..<end.lowerBound]
        guard let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else {
            throw CLIRunner.Failure(description: "the data block is not a JSON object")
        }
        return object
    }

    private static func requireRange(_ text: String, _ part: String) throws -> Range<String.Index> {
        guard let range = text.range(of: part) else { throw CLIRunner.Failure(description: "page lacks \(part)") }
        return range
    }

    /// `tapseek batch`'s records for the same log: the independent account of each line.
    static func batch(_ log: URL, dem: URL) throws -> [[String: Any]] {
        let result = try CLIRunner.run(["batch", log.path, "--dem", dem.path], environment: ["GDAL_PAM_ENABLED": "NO"])
        guard result.status == 0 else { throw CLIRunner.Failure(description: "batch failed: \(result.stderr)") }
        return try result.stdout.split(separator: "\n").map {
            guard let object = try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] else {
                throw CLIRunner.Failure(description: "not a JSON object: \($0)")
            }
            return object
        }
    }
}
