import Foundation
import Testing
import TapSeekTestSupport

/// The command line as a whole: no command, --version, and readings whose keys are misspelt or
/// whose values are absurd (issue 10, items 8 and 12).
struct TopLevelCommandTests {
    @Test func noCommandIsAUsageError() throws {
        let result = try CLIRunner.run([])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("a command is required"))
    }

    @Test func versionIsPrinted() throws {
        let result = try CLIRunner.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.range(of: #"^\d+\.\d+\.\d+\n$"#, options: .regularExpression) != nil, "\(result.stdout)")
    }

    /// A misspelt `headingReference` is located as given (true north) but said in a warning that
    /// names the key meant.
    @Test func misspeltKeysAreWarnedAbout() throws {
        let reading = #"{"location":{"latitude":36.34,"longitude":-84.18,"altitudeRefernce":"ellipsoid"},"orientation":{"heading":196.1,"headingRef":"magnetic","pitch":2.4},"note":"x"}"#
        let result = try CLIRunner.run(["locate"], stdin: reading)
        #expect(result.status == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let warnings = try #require(json["warnings"] as? [String])
        #expect(warnings.first == "ignored unknown fields: location.altitudeRefernce (did you mean location.altitudeReference?), orientation.headingRef (did you mean orientation.headingReference?), note")
    }

    @Test(arguments: [
        (#"{"location":{"latitude":36.34,"longitude":-84.18},"orientation":{"heading":1e300,"pitch":2.4}}"#,
         "tapseek: reading: orientation.heading must be within −3600…3600, got 1e300\n"),
        (#"{"location":{"latitude":36.34,"longitude":-84.18,"altitude":1e7},"orientation":{"heading":196,"pitch":2.4}}"#,
         "tapseek: reading: location.altitude must be within −1000…50000 metres, got 1e7\n"),
    ])
    func absurdValuesAreRefused(reading: String, message: String) throws {
        let result = try CLIRunner.run(["locate"], stdin: reading)
        #expect(result.status == 1)
        #expect(result.stderr == message)
    }
}
