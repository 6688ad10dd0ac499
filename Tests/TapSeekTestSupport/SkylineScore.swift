import Foundation
import TapSeekCore

/// A detected skyline scored against a hand-traced one, by the rule of
/// `../shared/photos/README.md`: a traced column is **within** when the detected skyline in that
/// column lies within max(3 px, 1 % of the image height) of the trace, **wrong** when it lies
/// more than 5 % of the height off; a column the detector left out is neither. A photo is
/// **right** when at least 90 % of its traced columns are within and at most 2 % are wrong.
public struct SkylineScore: Sendable {
    public var traced = 0
    public var within = 0
    public var wrong = 0
    public var leftOut = 0

    public static let withinShare = 0.9
    public static let wrongShare = 0.02

    /// Scores `points` (full-size pixels, x at column centres) against `trace` (row of the traced
    /// skyline per column, nil where untraced) of an image `height` pixels high. A column's
    /// detected row is read between the two points around its centre when they are at most two
    /// columns of the detector apart (`spacing` pixels each); else the column was left out.
    public init(points: [SkylineDetector.Point], trace: [Int?], height: Int, spacing: Double) {
        let tight = max(3, 0.01 * Double(height)), loose = 0.05 * Double(height)
        let sorted = points.sorted { $0.x < $1.x }
        var k = 0
        for (x, row) in trace.enumerated() {
            guard let row else { continue }
            traced += 1
            let centre = Double(x) + 0.5
            while k + 1 < sorted.count, sorted[k + 1].x <= centre { k += 1 }
            var detected: Double?
            if !sorted.isEmpty {
                let a = sorted[k]
                if a.x <= centre, k + 1 < sorted.count {
                    let b = sorted[k + 1]
                    if b.x - a.x <= 2 * spacing + 1e-9 {
                        detected = a.y + (b.y - a.y) * (centre - a.x) / max(b.x - a.x, 1e-9)
                    }
                } else if abs(a.x - centre) <= spacing {
                    detected = a.y
                }
                if detected == nil, abs(a.x - centre) <= spacing / 2 + 1e-9 { detected = a.y }
            }
            // The trace marks the row of the skyline's pixel: its centre is half a row down.
            guard let y = detected else {
                leftOut += 1
                continue
            }
            let error = abs(y - (Double(row) + 0.5))
            if error <= tight { within += 1 } else if error > loose { wrong += 1 }
        }
    }

    public var withinFraction: Double { traced == 0 ? 0 : Double(within) / Double(traced) }
    public var wrongFraction: Double { traced == 0 ? 0 : Double(wrong) / Double(traced) }
    public var isRight: Bool { traced > 0 && withinFraction >= Self.withinShare && wrongFraction <= Self.wrongShare }
}

/// The hand-traced skyline of one photo of `../shared/photos/skyline-web` (`web_NNN_skyline.json`).
public struct SkylineTraceFile: Decodable, Sendable {
    public var image: String
    public var width: Int
    public var height: Int
    public var skylineRow: [Int?]

    enum CodingKeys: String, CodingKey {
        case image, width, height
        case skylineRow = "skyline_row"
    }

    public static let folder = SharedData.root.appendingPathComponent("photos/skyline-web")

    /// Every trace of the folder, in name order.
    public static func all() throws -> [SkylineTraceFile] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix("_skyline.json") }.sorted()
        return try names.map { try JSONDecoder().decode(SkylineTraceFile.self, from: Data(contentsOf: folder.appendingPathComponent($0))) }
    }
}
