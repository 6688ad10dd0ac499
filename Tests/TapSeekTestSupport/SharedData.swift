import Foundation

/// The team's shared real data beside the project (`../shared`), for tests and benchmarks.
///
/// Tests that need it call ``require(_:)``: on a developer machine without the data they are
/// skipped with a reason, but under CI (`CI=true`) missing data is a failure, never a skip.
public enum SharedData {
    /// The project's root, derived from this file's place in `Tests/TapSeekTestSupport/`.
    public static let projectRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url
    }()

    /// `../shared` beside the project.
    public static let root = projectRoot.deletingLastPathComponent().appendingPathComponent("shared")
    /// Real SRTM-family tiles.
    public static let dem = root.appendingPathComponent("dem")
    /// A real GeoNames country dump (Switzerland), `CH.txt`.
    public static let gazetteer = root.appendingPathComponent("gazetteer/CH.txt")
    /// Real phone-app exports.
    public static let sensorLogs = root.appendingPathComponent("sensorlogs")

    /// Whether the tests run under CI, where missing shared data must fail.
    public static var isCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// Whether a shared file or folder exists.
    public static func exists(_ url: URL) -> Bool { FileManager.default.fileExists(atPath: url.path) }

    /// The message for a missing data set; tests `#require` the data with it.
    public static func missing(_ url: URL) -> String { "shared data missing: \(url.path)" }

    /// Whether a test that needs `url` should run: true when present; false (skip) when absent
    /// outside CI. Under CI an absent file makes this true so that the test runs and fails.
    public static func available(_ url: URL) -> Bool { exists(url) || isCI }

    /// A fresh temporary directory, removed by the caller, and in any case when the test process
    /// exits: a suite's fixture made once for all its tests (a places index, a Copernicus tile of
    /// 50 MB) has no caller to remove it, and every run of the tests left one behind.
    public static func temporaryDirectory(_ label: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tapseek-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        TemporaryDirectories.shared.removeAtExit(url)
        return url
    }

    /// Runs a command-line tool (e.g. `gdal_translate`) and throws with its stderr when it fails.
    public static func run(_ tool: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ToolFailure(description: "\(tool) failed: \(String(decoding: message, as: UTF8.self))")
        }
    }

    /// Writes a 1 201 × 1 201-post tile (3″) into `folder` as four GeoTIFF quarters that do not
    /// overlap: the seams fall between posts 600 and 601, in no single file.
    public static func writeQuarters(of source: URL, to folder: URL) throws {
        for (name, window) in [("nw", [0, 0, 601, 601]), ("ne", [601, 0, 600, 601]),
                               ("sw", [0, 601, 601, 600]), ("se", [601, 601, 600, 600])] {
            try run("gdal_translate", ["-q", "-of", "GTiff", "-srcwin"] + window.map(String.init)
                + [source.path, folder.appendingPathComponent("\(name).tif").path])
        }
    }

    /// Runs a tool with `input` on its stdin and returns its stdout.
    public static func capture(_ tool: String, _ arguments: [String], input: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let data = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    public struct ToolFailure: Error, CustomStringConvertible {
        public let description: String
    }
}

/// The temporary directories the tests made, removed when the process exits.
private final class TemporaryDirectories: @unchecked Sendable {
    static let shared: TemporaryDirectories = {
        atexit { TemporaryDirectories.shared.removeAll() }
        return TemporaryDirectories()
    }()

    private let lock = NSLock()
    private var made: [URL] = []

    func removeAtExit(_ url: URL) {
        lock.lock()
        made.append(url)
        lock.unlock()
    }

    private func removeAll() {
        lock.lock()
        let urls = made
        made = []
        lock.unlock()
        for url in urls { try? FileManager.default.removeItem(at: url) }
    }
}
