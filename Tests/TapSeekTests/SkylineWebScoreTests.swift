import Foundation
import Testing
import TapSeek
import TapSeekTestSupport

/// The skyline detector on 40 real photographs with hand-traced skylines
/// (`../shared/photos/skyline-web`, see its README), scored by ``SkylineScore``'s rule. Prints
/// one line per photo (`SKYLINE-WEB …`) and the total; fails when fewer photos are right than
/// the detector reached when this floor was set, or when any photo has more than 2 % of its
/// columns wrong beyond the few known ones.
///
///     swift test --filter SkylineWebScoreTests 2>&1 | grep SKYLINE-WEB
@Suite(.enabled(if: SharedData.available(SkylineTraceFile.folder), "needs ../shared/photos/skyline-web"), .timeLimit(.minutes(10)))
struct SkylineWebScoreTests {
    /// Photos right by the rule, at least: 17 before the sky-departure term, 19 with it, 22 with
    /// the sky's line held to the colours it was fitted to, 27 with the line fitted above each
    /// column's first strong edge and nothing below a solid run of terrain taken as sky, 29 with
    /// the sky followed down each column as it drifts (a pale band at the horizon), 30 with only
    /// a step or texture (a second difference) stopping it, 31 with the departure measured against
    /// the sky's own noise, 33 with the line fitted to the upper 35 % of the sky, 34 with
    /// "darker than the sky" judged against the sky's noise too, 35 with the sky no longer followed
    /// down a steep ramp and a sharp step confident against the sky's noise (web_046), 36 with a
    /// cloud's shaded underside, reached from the cloud by a gradual darkening, no departure (web_034).
    static let floor = 36

    @Test func realPhotographsMeetTheScoreFloor() throws {
        try #require(SharedData.exists(SkylineTraceFile.folder), Comment(rawValue: SharedData.missing(SkylineTraceFile.folder)))
        let traces = try SkylineTraceFile.all()
        try #require(traces.count == 40, "expected 40 traced photos, found \(traces.count)")
        var right = 0, confidentlyWrong: [String] = []
        for trace in traces {
            let bytes = [UInt8](try Data(contentsOf: SkylineTraceFile.folder.appendingPathComponent(trace.image)))
            let pixels = try PhotoPixels.decode(bytes, metadata: try PhotoMetadata(bytes: bytes[...]))
            let found = SkylineDetector.detect(in: pixels, fullWidth: trace.width, fullHeight: trace.height)
            let spacing = Double(trace.width) / Double(min(trace.width, SkylineDetector.workingWidth))
            let score = SkylineScore(points: found.points, trace: trace.skylineRow, height: trace.height, spacing: spacing)
            if let dump = ProcessInfo.processInfo.environment["TAPSEEK_SKYLINE_DUMP"] {
                // Where to look at the detections (scripts/skyline-web-overlay.sh draws them).
                let rows = found.points.map { String(format: "[%.1f,%.1f,%.2f]", $0.x, $0.y, $0.confidence) }
                try Data("[\(rows.joined(separator: ","))]".utf8).write(to: URL(fileURLWithPath: dump).appendingPathComponent(trace.image + ".json"))
            }
            if score.isRight { right += 1 }
            if score.wrongFraction > SkylineScore.wrongShare { confidentlyWrong.append(trace.image) }
            print(String(format: "SKYLINE-WEB %@ %@ within %5.1f%% wrong %5.1f%% left-out %5.1f%% coverage %.2f",
                         trace.image, score.isRight ? "right" : "WRONG", 100 * score.withinFraction, 100 * score.wrongFraction,
                         100 * Double(score.leftOut) / Double(max(score.traced, 1)), found.coverage))
        }
        print("SKYLINE-WEB total \(right)/\(traces.count) right; more than 2 % of columns wrong: \(confidentlyWrong.count) (\(confidentlyWrong.joined(separator: " ")))")
        #expect(right >= Self.floor, "\(right) of \(traces.count) photos right, fewer than the floor \(Self.floor)")
    }
}
