import Foundation
import Testing
import TapSeekTestSupport

/// The command line as a whole: no command, --version, readings whose keys are misspelt or whose
/// values are absurd, and inputs far larger than any reading or line (issue 10, items 6, 8, 12).
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

    /// Every `--jobs` says its default once, as "all cores": before issue 29 help read
    /// "(default: all cores). (default: 2)", the second from this machine's core count.
    @Test(arguments: ["aim", "batch", "calibrate", "elevation", "geocode", "locate", "panorama", "photo", "report", "skyline", "viewshed"])
    func jobsHelpSaysItsDefaultOnce(command: String) throws {
        let help = try CLIRunner.run(["help", command])
        #expect(help.status == 0)
        // The option's paragraph: its line and the indented lines that continue it.
        let lines = help.stdout.split(separator: "\n")
        let start = try #require(lines.firstIndex { $0.hasPrefix("  --jobs <jobs>") }, "\(help.stdout)")
        let paragraph = ([lines[start]] + lines[(start + 1)...].prefix { $0.hasPrefix("          ") }).joined(separator: " ")
            .replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
        #expect(paragraph.components(separatedBy: "(default:").count == 2, "\(paragraph)")
        #expect(paragraph.contains("(default: all cores)"), "\(paragraph)")
    }

    /// No argument or option says its default twice, in its words and again in the parser's
    /// (before issue 29: "- for stdin (default). (default: -)").
    @Test(arguments: ["aim", "batch", "calibrate", "elevation", "geocode", "locate", "panorama", "photo", "report", "skyline",
                      "viewshed", "search", "dem info", "dem fetch", "polyline decode", "polyline encode"])
    func helpNeverSaysADefaultTwice(command: String) throws {
        let help = try CLIRunner.run(["help"] + command.split(separator: " ").map(String.init))
        #expect(help.status == 0)
        let text = help.stdout.replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
        #expect(text.range(of: #"\(default[^)]*\)\.? \(default"#, options: .regularExpression) == nil, "\(help.stdout)")
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
        #expect(json["warningCodes"] as? [String] == ["unknown-field"])
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

    /// `locate -` stops reading at 16 MiB instead of holding whatever arrives.
    @Test func anOversizedReadingIsRefused() throws {
        let result = try CLIRunner.run(["locate"], stdinData: Data(count: 20 << 20))
        #expect(result.status == 1)
        #expect(result.stderr == "tapseek: stdin: more than 16 MiB; a reading is one small JSON object\n")
    }

    /// A 40 MB line among good ones becomes its own error record, and the lines around it are
    /// answered: the reader scans each byte once and drops the long line as it streams by.
    @Test func aHugeLineInABatchServiceIsOneErrorRecord() throws {
        try #require(SharedData.exists(SharedData.dem) || !SharedData.isCI, Comment(rawValue: SharedData.missing(SharedData.dem)))
        guard SharedData.exists(SharedData.dem) else { return }
        var input = Data("46.5,8\n".utf8)
        input.append(Data(repeating: UInt8(ascii: "1"), count: 40_000_000))
        input.append(Data("\n47,9\n".utf8))
        let result = try CLIRunner.run(["elevation", "--batch", "--dem", SharedData.dem.path], stdinData: input)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[1] == #"{"line":2,"error":{"code":"bad-input","message":"line 2: longer than the 1048576-byte limit of a line"}}"#)
        #expect(lines[0].contains("\"elevation\"") && lines[2].contains("\"elevation\""))
    }

    /// A reading's time keeps its milliseconds in the result.
    @Test func fractionalSecondsSurvive() throws {
        let reading = #"{"time":"2026-07-14T15:20:00.250Z","location":{"latitude":36.34,"longitude":-84.18},"orientation":{"heading":196.1,"pitch":2.4}}"#
        let result = try CLIRunner.run(["locate"], stdin: reading)
        #expect(result.stdout.hasPrefix(#"{"time":"2026-07-14T15:20:00.250Z","#), "\(result.stdout.prefix(80))")
    }
}
