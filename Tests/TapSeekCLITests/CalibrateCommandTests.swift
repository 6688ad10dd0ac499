import Foundation
import Testing
import TapSeekTestSupport

/// `tapseek skyline`, `tapseek calibrate`, and calibrations applied by `locate` and carried over
/// by `batch`, as a user runs them on the real Säntis tile.
@Suite(.enabled(if: SharedData.available(SharedData.dem), "needs ../shared/dem"), .timeLimit(.minutes(10)))
struct CalibrateCommandTests {
    static func run(_ arguments: [String], stdin: String? = nil) throws -> CLIRunner.Result {
        try #require(SharedData.exists(SharedData.dem), Comment(rawValue: SharedData.missing(SharedData.dem)))
        return try CLIRunner.run(arguments + ["--dem", SharedData.dem.path], stdin: stdin)
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// From Appenzell toward the Säntis, the true orientation; the tap lies on the mountain.
    static func reading(heading: Double = 222, skyline: String? = nil, extra: String = "") -> String {
        var text = """
            {"location":{"latitude":47.3306,"longitude":9.4086,"altitude":790},\
            "orientation":{"heading":\(heading),"pitch":7,"roll":1},\
            "camera":{"horizontalFOV":63.7,"imageWidth":4032,"imageHeight":3024},"tap":{"x":2150,"y":1500}
            """
        if let skyline { text += ",\"skyline\":\(skyline)" }
        return text + extra + "}"
    }

    /// The skyline's pixels as `tapseek skyline` draws them under the true orientation.
    static func trueSkyline(points: Int = 60) throws -> String {
        let result = try run(["skyline", "-", "--points", String(points)], stdin: reading())
        #expect(result.status == 0, "\(result.stderr)")
        let pixels = try #require(try json(result.stdout)["skyline"] as? [[String: Double]])
        #expect(pixels.count == points)
        #expect(pixels.allSatisfy { ($0["x"] ?? -1) >= 0 && ($0["x"] ?? 5000) <= 4032 && ($0["y"] ?? -1) >= 0 && ($0["y"] ?? 5000) <= 3024 })
        let data = try JSONSerialization.data(withJSONObject: pixels)
        return String(decoding: data, as: UTF8.self)
    }

    /// From the Säntis's summit (2 505 m) looking east, every sightline leaves the tile before
    /// the skyline is settled: `skyline` draws no pixel on the tile's edge and says why.
    @Test func skylineDrawsNothingWhereTheDEMDoesNotSettleIt() throws {
        let reading = """
            {"location":{"latitude":47.2493,"longitude":9.3433,"altitude":2505},"orientation":{"heading":62,"pitch":0},\
            "camera":{"horizontalFOV":63.7,"imageWidth":4032,"imageHeight":3024}}
            """
        let result = try Self.run(["skyline", "-"], stdin: reading)
        #expect(result.status == 0, "\(result.stderr)")
        let out = try Self.json(result.stdout)
        #expect((out["skyline"] as? [Any])?.isEmpty == true, "\(result.stdout.prefix(300))")
        let warnings = try #require(out["warnings"] as? [String])
        #expect(warnings.count == 1 && warnings[0].contains("ends before it settles the skyline"), "\(warnings)")
    }

    /// The README's worked example on the default DEM (dem/jacksboro.tif, which ends 20 km south
    /// of the observer): the compass is 10° off (186.1° for the 196.1° of
    /// examples/cross-mountain.json). Over the horizon range the DEM settles no traced azimuth
    /// and the calibration is refused, saying so; stating that nothing beyond 20 km shows, it
    /// finds the 10°.
    @Test func calibrationOnASmallDEMNeedsASkylineRangeItHolds() throws {
        let example = CLIRunner.packageRoot.appendingPathComponent("examples/calibrate-cross-mountain.json").path
        let dem = CLIRunner.packageRoot.appendingPathComponent("dem").path
        let open = try CLIRunner.run(["calibrate", example, "--dem", dem])
        #expect(open.status == 1 && open.stdout.isEmpty)
        #expect(open.stderr.contains("40 of 40 skyline points look where the DEM does not settle the skyline"), "\(open.stderr)")
        let held = try CLIRunner.run(["calibrate", example, "--dem", dem, "--skyline-range", "20000"])
        #expect(held.status == 0, "\(held.stderr)")
        let correction = try #require(try Self.json(held.stdout)["correction"] as? [String: Double])
        #expect(abs((correction["heading"] ?? 0) - 10) < 0.1, "\(held.stdout)")
        let usage = try CLIRunner.run(["calibrate", example, "--dem", dem, "--skyline-range", "0"])
        #expect(usage.status == 2 && usage.stderr.contains("--skyline-range"), "\(usage.stderr)")
    }

    /// The README's example trace moved 1, 2, 3 and 5 km in eight directions (its skyline then
    /// belongs to another place): each is refused, or finds the true 10° compass error —
    /// never another heading with confidence. Unmoved, it still finds the 10°.
    @Test func aTraceFromAFewKilometresAwayIsNeverConfidentlyWrong() throws {
        let example = CLIRunner.packageRoot.appendingPathComponent("examples/calibrate-cross-mountain.json")
        let dem = CLIRunner.packageRoot.appendingPathComponent("dem").path
        var reading = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: example)) as? [String: Any])
        let location = try #require(reading["location"] as? [String: Any])
        let latitude = try #require(location["latitude"] as? Double), longitude = try #require(location["longitude"] as? Double)
        var refused = 0
        for kilometres in [0.0, 1, 2, 3, 5] {
            for direction in stride(from: 0.0, to: 360, by: kilometres == 0 ? 360 : 45) {
                var moved = location
                let a = direction * .pi / 180
                moved["latitude"] = latitude + kilometres * 1000 * cos(a) / 111_195
                moved["longitude"] = longitude + kilometres * 1000 * sin(a) / (111_195 * cos(latitude * .pi / 180))
                reading["location"] = moved
                let input = String(decoding: try JSONSerialization.data(withJSONObject: reading), as: UTF8.self)
                let result = try CLIRunner.run(["calibrate", "-", "--dem", dem, "--skyline-range", "20000"], stdin: input)
                if kilometres == 0 { #expect(result.status == 0, "\(result.stderr)") }
                guard result.status == 0 else {
                    #expect(result.status == 1 && result.stderr.contains("calibrate: "), "\(result.stderr)")
                    refused += 1
                    continue
                }
                let correction = try #require(try Self.json(result.stdout)["correction"] as? [String: Double])
                #expect(abs((correction["heading"] ?? 0) - 10) < 1, "\(kilometres) km toward \(direction)°: \(result.stdout)")
            }
        }
        #expect(refused >= 28, "only \(refused) of 32 moved traces refused")
    }

    /// `--points N` spreads the pixels across the whole image: the first and last of the full
    /// trace are kept, and one point is the middle one.
    @Test func skylinePointsSpanTheImage() throws {
        let all = try #require(try Self.json(try Self.run(["skyline", "-", "--points", "100000"], stdin: Self.reading()).stdout)["skyline"] as? [[String: Double]])
        let five = try #require(try Self.json(try Self.run(["skyline", "-", "--points", "5"], stdin: Self.reading()).stdout)["skyline"] as? [[String: Double]])
        #expect(five.count == 5 && five.first?["x"] == all.first?["x"] && five.last?["x"] == all.last?["x"], "\(five)")
        let one = try #require(try Self.json(try Self.run(["skyline", "-", "--points", "1"], stdin: Self.reading()).stdout)["skyline"] as? [[String: Double]])
        #expect(one.count == 1 && one.first?["x"] == all[all.count / 2]["x"], "\(one)")
    }

    @Test func calibrateFindsATenDegreeCompassError() throws {
        let skyline = try Self.trueSkyline()
        let result = try Self.run(["calibrate"], stdin: Self.reading(heading: 232, skyline: skyline))
        #expect(result.status == 0, "\(result.stderr)")
        let answer = try Self.json(result.stdout)
        let orientation = try #require(answer["orientation"] as? [String: Double])
        let correction = try #require(answer["correction"] as? [String: Double])
        #expect(abs((orientation["heading"] ?? 0) - 222) < 0.2)
        #expect(abs((orientation["pitch"] ?? 0) - 7) < 0.1)
        #expect(abs((correction["heading"] ?? 0) + 10) < 0.2)
        #expect((answer["residual"] as? Double ?? 1) < 0.1)
        // The trace's end pixels lie at the last azimuths whose skyline the tile settles; read
        // between samples, the one beyond may be unsettled (NaN): one may go unmatched.
        #expect((answer["matched"] as? Int ?? 0) >= 59 && answer["points"] as? Int == 60)
        #expect((answer["warnings"] as? [String])?.isEmpty == true)

        // locate applies it: the tap lands where the true orientation puts it.
        let truth = try Self.json(try Self.run(["locate"], stdin: Self.reading()).stdout)
        let located = try Self.run(["locate"], stdin: Self.reading(heading: 232, skyline: skyline))
        #expect(located.status == 0, "\(located.stderr)")
        let calibrated = try Self.json(located.stdout)
        #expect(((calibrated["calibration"] as? [String: Any])?["matched"] as? Int ?? 0) >= 59)
        let t = try #require(truth["target"] as? [String: Double]), c = try #require(calibrated["target"] as? [String: Double])
        #expect(abs(t["latitude"]! - c["latitude"]!) < 2e-4 && abs(t["longitude"]! - c["longitude"]!) < 2e-4, "\(t) vs \(c)")
    }

    /// In a batch, the calibration of line 1 corrects line 2 (same compass error, no trace) and
    /// line 4, a broken line 3 still gives its error record; --no-carry-calibration turns it off.
    @Test func batchCarriesACalibrationToTheFollowingReadings() throws {
        let skyline = try Self.trueSkyline(points: 40)
        let input = [Self.reading(heading: 232, skyline: skyline), Self.reading(heading: 232), "{broken", Self.reading(heading: 232)]
            .joined(separator: "\n") + "\n"
        let carried = try Self.run(["batch", "--jobs", "2"], stdin: input)
        #expect(carried.status == 0, "\(carried.stderr)")
        let lines = carried.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 4)
        let records = try lines.map(Self.json)
        let own = try #require(records[0]["calibration"] as? [String: Any])
        #expect(own["carriedFrom"] == nil)
        let second = try #require(records[1]["calibration"] as? [String: Any])
        #expect(second["carriedFrom"] as? Int == 1)
        #expect((records[3]["calibration"] as? [String: Any])?["carriedFrom"] as? Int == 1)
        #expect(records[2]["status"] as? String == "error")
        let truth = try Self.json(try Self.run(["locate"], stdin: Self.reading()).stdout)
        #expect(records[1]["target"] as? [String: Double] != nil)
        let t = try #require(truth["target"] as? [String: Double]), c = try #require(records[1]["target"] as? [String: Double])
        #expect(abs(t["latitude"]! - c["latitude"]!) < 2e-4 && abs(t["longitude"]! - c["longitude"]!) < 2e-4)

        let plain = try Self.run(["batch", "--no-carry-calibration"], stdin: input)
        let off = try plain.stdout.split(separator: "\n").map { try Self.json(String($0)) }
        #expect(off.count == 4)
        #expect(off[0]["calibration"] != nil && off[1]["calibration"] == nil && off[3]["calibration"] == nil)
    }

    @Test(arguments: [
        ("", "calibrate: skyline and landmarks are both empty: nothing to calibrate against"),
        (",\"skyline\":[{\"x\":10,\"y\":10}]", "calibrate: a skyline trace needs at least 3 points, got 1"),
        (",\"skyline\":[{\"x\":10,\"y\":10},{\"x\":5000,\"y\":10}]", "reading: skyline[1].x must be within 0…4032 (camera.imageWidth), got 5000"),
        (",\"skyline\":[{\"x\":10,\"y\":NaN}]", "reading: invalid JSON at column"),
        (",\"skyline\":{\"x\":10}", "reading: skyline must be an array, got {\"x\":10}"),
        (",\"skyline\":[{\"x\":10}]", "reading: skyline[0].y is missing"),
        (",\"landmarks\":[{\"x\":10,\"y\":10,\"latitude\":47.25}]", "reading: landmarks[0].longitude is missing"),
    ])
    func hostileTracesGiveOneLineErrors(extra: String, message: String) throws {
        let result = try Self.run(["calibrate"], stdin: Self.reading(extra: extra))
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.hasPrefix("tapseek: \(message)"), "\(result.stderr)")
    }

    /// The sky traced as if it were a skyline (a straight line high above the mountains), and
    /// usage errors.
    @Test func aTraceThatFitsNowhereIsRefused() throws {
        let sky = (0..<30).map { "{\"x\":\(100 + $0 * 120),\"y\":200}" }.joined(separator: ",")
        let result = try Self.run(["calibrate"], stdin: Self.reading(skyline: "[\(sky)]"))
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.contains("calibrate: "), "\(result.stderr)")
        #expect(result.stderr.contains("nowhere") || result.stderr.contains("ill-determined") || result.stderr.contains("edge"),
                "\(result.stderr)")
        let usage = try Self.run(["calibrate", "--heading-range", "0"], stdin: Self.reading())
        #expect(usage.status == 2)
        let noCamera = try Self.run(["skyline"], stdin: #"{"location":{"latitude":47.33,"longitude":9.41},"orientation":{"heading":222,"pitch":7}}"#)
        #expect(noCamera.status == 1)
        #expect(noCamera.stderr == "tapseek: reading: camera is missing; the skyline's pixels need it\n")
    }
}
