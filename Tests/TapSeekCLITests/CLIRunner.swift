import Foundation

/// Runs the built `tapseek` executable as a user would: arguments, optional stdin, and the
/// captured stdout, stderr and exit status.
///
/// The binary is looked up, in order: `$TAPSEEK_BINARY`; next to the running test executable
/// (SwiftPM puts `tapseek` and the test bundle in the same products directory, whatever the
/// `--scratch-path`); `.build/debug/tapseek` under the package root. `swift test` builds the
/// executable along with the tests.
///
/// ```swift
/// let result = try CLIRunner.run(["polyline", "encode"], stdin: "[[38.5,-120.2]]")
/// #expect(result.status == 0)
/// #expect(result.stdout == "_p~iF~ps|U\n")
/// ```
struct CLIRunner {
    /// What one run produced.
    struct Result: Sendable {
        /// Everything written to stdout, decoded as UTF-8.
        var stdout: String
        /// Everything written to stderr, decoded as UTF-8.
        var stderr: String
        /// The exit status (for a process killed by a signal, the signal number).
        var status: Int32
        /// The raw bytes of stdout, for binary or exact-byte checks.
        var stdoutData: Data

        /// stderr split into its non-empty lines, for checking that an error is one line.
        var stderrLines: [Substring] { stderr.split(separator: "\n", omittingEmptySubsequences: true) }
    }

    /// Failures of the runner itself, never of the program under test.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The package root, two levels above this file's folder.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `tapseek` executable to test.
    static func executable() throws -> URL {
        let fileManager = FileManager.default
        var candidates: [URL] = []
        if let explicit = ProcessInfo.processInfo.environment["TAPSEEK_BINARY"], !explicit.isEmpty {
            candidates.append(URL(fileURLWithPath: explicit))
        }
        if let testExecutable = Bundle.main.executableURL {
            candidates.append(testExecutable.deletingLastPathComponent().appendingPathComponent("tapseek"))
        }
        let argumentZero = URL(fileURLWithPath: CommandLine.arguments[0])
        candidates.append(argumentZero.deletingLastPathComponent().appendingPathComponent("tapseek"))
        candidates.append(packageRoot.appendingPathComponent(".build/debug/tapseek"))
        if let found = candidates.first(where: { fileManager.isExecutableFile(atPath: $0.path) }) {
            return found
        }
        throw Failure(description: "tapseek executable not found; looked at "
            + candidates.map(\.path).joined(separator: ", ") + " (set TAPSEEK_BINARY to override)")
    }

    /// Runs `tapseek arguments…` with `stdin` (empty when nil) and extra `environment`
    /// variables, waiting at most `timeout` seconds before killing it (a hang is a failure).
    /// The default is a hang guard only (10 minutes, as the suites' time limits): a run slowed
    /// down by a busy machine must still pass.
    static func run(
        _ arguments: [String],
        stdin: String? = nil,
        environment: [String: String] = [:],
        currentDirectory: URL? = nil,
        timeout: TimeInterval = 600
    ) throws -> Result {
        try run(arguments, stdinData: Data((stdin ?? "").utf8), environment: environment,
                currentDirectory: currentDirectory, timeout: timeout)
    }

    /// As ``run(_:stdin:environment:currentDirectory:timeout:)``, with stdin given as bytes.
    static func run(
        _ arguments: [String],
        stdinData: Data,
        environment: [String: String] = [:],
        currentDirectory: URL? = nil,
        timeout: TimeInterval = 600
    ) throws -> Result {
        // Files rather than pipes: no deadlock however much the program reads or writes, and no
        // reader threads to coordinate.
        let fileManager = FileManager.default
        let folder = fileManager.temporaryDirectory.appendingPathComponent("tapseek-cli-\(UUID().uuidString)")
        try fileManager.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? fileManager.removeItem(at: folder) }
        let inputURL = folder.appendingPathComponent("stdin")
        let outputURL = folder.appendingPathComponent("stdout")
        let errorURL = folder.appendingPathComponent("stderr")
        try stdinData.write(to: inputURL)
        _ = fileManager.createFile(atPath: outputURL.path, contents: nil)
        _ = fileManager.createFile(atPath: errorURL.path, contents: nil)

        let input = try FileHandle(forReadingFrom: inputURL)
        let output = try FileHandle(forWritingTo: outputURL)
        let errors = try FileHandle(forWritingTo: errorURL)
        defer {
            try? input.close()
            try? output.close()
            try? errors.close()
        }

        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        // No void-fill cache unless a test names one: a developer's `~/.cache/tapseek` (or one
        // in the caller's environment) must not answer for the code under test.
        process.environment = ProcessInfo.processInfo.environment
            .merging(["TAPSEEK_CACHE_DIR": "off"]) { _, new in new }
            .merging(environment) { _, new in new }
        if let currentDirectory { process.currentDirectoryURL = currentDirectory }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors

        let finished = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in finished.signal() }
        try process.run()
        if finished.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            finished.wait()
            throw Failure(description: "tapseek \(arguments.joined(separator: " ")) ran over \(timeout) s and was killed")
        }

        let stdoutData = try Data(contentsOf: outputURL)
        let stderrData = try Data(contentsOf: errorURL)
        return Result(
            stdout: String(decoding: stdoutData, as: UTF8.self),
            stderr: String(decoding: stderrData, as: UTF8.self),
            status: process.terminationStatus,
            stdoutData: stdoutData
        )
    }
}
