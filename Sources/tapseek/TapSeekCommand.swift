import ArgumentParser
import Foundation
import TapSeek

@main
struct TapSeekCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tapseek",
        abstract: "What is that, over there? Offline sightlines over real elevation data.",
        version: TapSeekCommand.version,
        subcommands: [
            LocateCommand.self,
            CalibrateCommand.self,
            PhotoCommand.self,
            AimCommand.self,
            SearchCommand.self,
            SkylineCommand.self,
            BatchCommand.self,
            ReportCommand.self,
            PanoramaCommand.self,
            ViewshedCommand.self,
            ElevationCommand.self,
            DEMCommand.self,
            PolylineCommand.self,
            GeocodeCommand.self,
            PlacesCommand.self,
        ]
    )

    /// The release, printed by `tapseek --version`.
    static let version = "0.5.0"

    /// `tapseek` alone names no command: a usage error (exit 2), not a success.
    func run() async throws {
        throw ValidationError("a command is required, such as `tapseek locate reading.json`; see `tapseek --help`")
    }

    /// Runs the command and maps failures onto the interface's exit codes: 1 for bad input
    /// (one line on stderr), 2 for bad usage, 3 for a network failure, 0 otherwise.
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch is AnsweredWithError {
            Foundation.exit(1)
        } catch let error as InputError {
            StandardError.write("tapseek: \(error.message)")
            Foundation.exit(1)
        } catch let error as NetworkError {
            StandardError.write("tapseek: \(error.message)")
            Foundation.exit(NetworkError.exitStatus)
        } catch let error as CatalogError {
            StandardError.write("tapseek: \(error.description)")
            Foundation.exit(1)
        } catch let error as GDALError {
            StandardError.write("tapseek: \(error.description)")
            Foundation.exit(1)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                // --help and --version print to stdout and succeed.
                print(fullMessage(for: error))
                Foundation.exit(0)
            }
            StandardError.write(fullMessage(for: error))
            Foundation.exit(code == .validationFailure ? 2 : code.rawValue)
        }
    }
}

/// A request that was read but cannot be answered, whose error record (with its code and
/// message) is already on stdout: exit status 1 and nothing more on stderr.
struct AnsweredWithError: Error {}

/// Bad input data (as opposed to bad usage): exit status 1 with this one-line message.
struct InputError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// The network failed (no connection, a host that does not resolve, a transfer broken off):
/// exit status 3 with this one-line message. Running again later may succeed.
struct NetworkError: Error {
    /// The exit status of a network failure (README, *Exit status*).
    static let exitStatus: Int32 = 3
    let message: String
    init(_ message: String) { self.message = message }
}

/// Diagnostics and progress go to stderr; stdout carries only results.
enum StandardError {
    static func write(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
