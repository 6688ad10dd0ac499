import Foundation
import Testing
import TapSeekTestSupport

/// `tapseek locate` run as a user runs it: a reading file or stdin in, one result JSON out;
/// exit 0 on a hit or horizon, 1 with one line on stderr for a reading that cannot be located,
/// 2 for bad usage.
@Suite struct LocateCommandTests {
    /// The interface's example reading: Grindelwald, looking up at the Eiger.
    static let eiger = """
        {"id":"eiger","time":"2026-07-14T09:31:05Z",
         "location":{"latitude":46.6240,"longitude":8.0410,"altitude":1034.0,"altitudeReference":"msl"},
         "orientation":{"heading":208.0,"headingReference":"true","pitch":26.0,"roll":0.0},
         "camera":{"horizontalFOV":63.7,"zoom":1.0,"imageWidth":4032,"imageHeight":3024},"tap":{"x":2016,"y":1512}}
        """

    static func object(_ text: String) throws -> [String: Any] {
        let json = try JSONSerialization.jsonObject(with: Data(text.utf8))
        return try #require(json as? [String: Any], "not a JSON object: \(text)")
    }

    @Suite struct Usage {
        @Test(arguments: [
            (["--step", "0"], "--step"),
            (["--step", "5000"], "--step"),
            (["--refraction", "1"], "--refraction"),
            (["--refraction", "abc"], "--refraction"),
            (["a.json", "b.json"], "Unexpected argument"),
        ])
        func badOptionsExitTwo(arguments: [String], message: String) throws {
            let result = try CLIRunner.run(["locate"] + arguments + ["--dem", SharedData.dem.path], stdin: LocateCommandTests.eiger)
            #expect(result.status == 2, "stderr: \(result.stderr)")
            #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }

    @Suite(.enabled(if: SharedData.available(SharedData.dem), "needs ../shared/dem"))
    struct WithTerrain {
        func locate(_ reading: String, _ extra: [String] = []) throws -> CLIRunner.Result {
            try #require(SharedData.exists(SharedData.dem), Comment(rawValue: SharedData.missing(SharedData.dem)))
            return try CLIRunner.run(["locate", "-", "--dem", SharedData.dem.path] + extra, stdin: reading)
        }

        @Test func exampleReadingHitsTheEiger() throws {
            let result = try locate(LocateCommandTests.eiger)
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(result.stdout.hasSuffix("}\n") && result.stdout.split(separator: "\n").count == 1)
            let json = try LocateCommandTests.object(result.stdout)
            #expect(json["id"] as? String == "eiger")
            #expect(json["status"] as? String == "hit")
            let target = try #require(json["target"] as? [String: Double])
            // The Eiger's summit (46.5775 N 8.0050 E, 3933 m in this DEM): the optical axis
            // lands within a few posts of it.
            let lat = try #require(target["latitude"]), lon = try #require(target["longitude"])
            #expect(abs(lat - 46.5775) < 0.003 && abs(lon - 8.0050) < 0.004, "target \(lat), \(lon)")
            #expect(try #require(target["elevation"]) > 3500)
            let sightline = try #require(json["sightline"] as? [String: Double])
            #expect(sightline["azimuth"] == 208 && sightline["elevationAngle"] == 26 && sightline["refraction"] == 0.13)
        }

        /// Issue 10, defect 7: an option value starting with `-` was refused as "Missing value".
        @Test func negativeRefractionIsAValueNotAnOption() throws {
            let result = try locate(LocateCommandTests.eiger, ["--refraction", "-0.5"])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            let sightline = try #require(try LocateCommandTests.object(result.stdout)["sightline"] as? [String: Double])
            #expect(sightline["refraction"] == -0.5)
        }

        @Test func readingFileAndStdinGiveTheSameResult() throws {
            let directory = try SharedData.temporaryDirectory("locate")
            defer { try? FileManager.default.removeItem(at: directory) }
            let file = directory.appendingPathComponent("reading.json")
            try LocateCommandTests.eiger.write(to: file, atomically: true, encoding: .utf8)
            let fromFile = try CLIRunner.run(["locate", file.path, "--dem", SharedData.dem.path])
            let fromStdin = try locate(LocateCommandTests.eiger)
            #expect(fromFile.status == 0 && fromFile.stdout == fromStdin.stdout)
        }

        @Test func refractionAndStepOptionsAreUsed() throws {
            let result = try locate(LocateCommandTests.eiger, ["--refraction", "0.0", "--step", "2.5"])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            let json = try LocateCommandTests.object(result.stdout)
            #expect((json["sightline"] as? [String: Double])?["refraction"] == 0)
            #expect(json["status"] as? String == "hit")
        }

        @Test func lookingIntoTheSkyIsAHorizonNotAnError() throws {
            let reading = #"{"location":{"latitude":46.6240,"longitude":8.0410},"orientation":{"heading":208,"pitch":60}}"#
            let result = try locate(reading)
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(try LocateCommandTests.object(result.stdout)["status"] as? String == "horizon")
        }

        /// Each problem with a reading: exit 1, one line on stderr naming the field, nothing
        /// on stdout (the reading could not even be read).
        @Test(arguments: [
            (#"{"orientation":{"heading":208,"pitch":26}}"#, "location is missing"),
            (#"{"location":{"longitude":8.041},"orientation":{"heading":208,"pitch":26}}"#, "location.latitude is missing"),
            (#"{"location":{"latitude":46.624,"longitude":8.041},"orientation":{"pitch":26}}"#, "orientation.heading is missing"),
            (#"{"location":{"latitude":46.624,"longitude":8.041},"orientation":{"heading":208}}"#, "orientation.pitch is missing"),
            (#"{"location":{"latitude":46.624,"longitude":8.041}}"#, "orientation is missing"),
            (#"{"location":{"latitude":96.624,"longitude":8.041},"orientation":{"heading":208,"pitch":26}}"#, "location.latitude must be within"),
            (#"{"location":{"latitude":46.624,"longitude":8.041},"orientation":{"heading":208,"pitch":123}}"#, "orientation.pitch must be within"),
            (#"{"location":{"latitude":46.624,"longitude":8.041},"orientation":{"heading":"NaN","pitch":26}}"#, "orientation.heading must be"),
            (#"{"location":{"latitude":46.624,"longitude":8.041},"orientation":{"heading":208,"pitch":1e999}}"#, "orientation.pitch must be a finite number"),
            (#"{"location":{"latitude":"46.624","longitude":8.041},"orientation":{"heading":208,"pitch":26}}"#, "location.latitude must be"),
            (#"{"location":{"latitude":46.624,"longitude":8.041,"altitudeReference":"geoid"},"orientation":{"heading":208,"pitch":26}}"#, "location.altitudeReference must be"),
            (#"{"location":{"latitude":46.624,"longitude":8.041},"orientation":{"heading":208,"pitch":26},"camera":{"horizontalFOV":63.7,"imageWidth":4032,"imageHeight":3024},"tap":{"x":5000,"y":10}}"#, "tap.x must be within"),
            (#"{"location":{"latitude":46.624,"longitude":8.041},"orientation":{"heading":208,"pitch":26},"camera":{"horizontalFOV":0,"imageWidth":4032,"imageHeight":3024}}"#, "camera.horizontalFOV"),
            (#"{"location":{"latitude":46.624,"longitude":8.041},"orientation":{"heading":208,"pitch":26,"headingReference":"magnetic"}}"#, "time is missing"),
            (#"[1,2,3]"#, "must be a JSON object"),
            ("", "empty input"),
            (#"{"location":{"latitude":46.624,"longitude":8.041},"orientation":{"heading":208,"pitch":26}"#, "unexpected end of input"),
        ])
        func badReadingsExitOneWithOneLineNamingTheField(reading: String, message: String) throws {
            let result = try locate(reading)
            #expect(result.status == 1, "stderr: \(result.stderr)")
            #expect(result.stderrLines.count == 1, "stderr: \(result.stderr)")
            #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }

        /// Readings that decode but cannot be located: exit 1 with the error result (status
        /// "error", the code, no target) on stdout, said once: nothing on stderr (before issue 29
        /// the message went to stderr as well). In batch it is the line's record.
        @Test(arguments: [
            (#"{"location":{"latitude":10.5,"longitude":-150.2},"orientation":{"heading":0,"pitch":0}}"#, "outside the DEM", "outside-dem"),
            (#"{"location":{"latitude":46.5367,"longitude":8.1258},"orientation":{"heading":300,"pitch":-5}}"#, "void", "void-observer"),
            (#"{"time":"2031-03-01T00:00:00Z","location":{"latitude":46.624,"longitude":8.041},"orientation":{"heading":205,"headingReference":"magnetic","pitch":26}}"#,
             "outside the validity", "magnetic-model"),
        ])
        func unlocatableReadingsAreTheirErrorResultAlone(reading: String, message: String, code: String) throws {
            // Voids kept unknown: Finsteraarhorn's summit is one.
            let result = try locate(reading, ["--no-fill-voids"])
            #expect(result.status == 1, "stderr: \(result.stderr)")
            #expect(result.stderr.isEmpty, "stderr: \(result.stderr)")
            let json = try LocateCommandTests.object(result.stdout)
            #expect(json["status"] as? String == "error" && json["target"] == nil)
            let error = try #require(json["error"] as? [String: String])
            #expect(error["code"] == code && error["message"]?.contains(message) == true, "\(error)")
            let batch = try CLIRunner.run(["batch", "-", "--dem", SharedData.dem.path, "--no-fill-voids"], stdin: reading)
            let record = try LocateCommandTests.object(batch.stdout)
            #expect(record["status"] as? String == "error" && record["target"] == nil)
            #expect((record["error"] as? [String: String])?["code"] == code)
        }

        @Test func observerOverAVoidWithAnAltitudeIsLocatedWithAWarning() throws {
            let reading = #"{"location":{"latitude":46.5367,"longitude":8.1258,"altitude":4275},"orientation":{"heading":60,"pitch":-10}}"#
            let result = try locate(reading, ["--no-fill-voids"])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            let json = try LocateCommandTests.object(result.stdout)
            #expect(json["status"] as? String == "hit")
            let warnings = try #require(json["warnings"] as? [String])
            #expect(warnings.contains { $0.contains("void") })
            #expect((json["warningCodes"] as? [String])?.contains("observer-over-void") == true)
            let elevation = try #require((json["target"] as? [String: Double])?["elevation"])
            #expect(elevation > 1000, "never a hit at sea level: \(elevation) m")
        }

        @Test func missingFileAndMissingDEMExitOne() throws {
            let noFile = try CLIRunner.run(["locate", "/nonexistent/reading.json", "--dem", SharedData.dem.path])
            #expect(noFile.status == 1 && noFile.stderrLines.count == 1 && noFile.stderr.contains("no such file"))
            let noDEM = try CLIRunner.run(["locate", "-", "--dem", "/nonexistent/dem"], stdin: LocateCommandTests.eiger)
            #expect(noDEM.status == 1 && noDEM.stderrLines.count == 1 && noDEM.stderr.contains("does not exist"))
        }
    }
}
