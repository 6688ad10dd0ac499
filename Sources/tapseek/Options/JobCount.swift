import ArgumentParser
import Foundation

/// A `--jobs` value: threads, chunks or photos worked on at once, all cores by default.
///
/// Its own type so that help says "(default: all cores)": an `Int` defaulting to the processor
/// count is shown as this machine's number, after help text that already named the default
/// ("… (default: all cores). (default: 2)", issue 29).
struct JobCount: ExpressibleByArgument, Sendable {
    var value: Int

    init(_ value: Int) { self.value = value }

    init?(argument: String) {
        guard let value = Int(argument) else { return nil }
        self.value = value
    }

    /// One per active processor, counted once: the argument parser makes a command's default
    /// values several times over, and each count reads the cgroup's CPU quota and set (138 000
    /// instructions and six system calls).
    static let allCores = JobCount(ProcessInfo.processInfo.activeProcessorCount)

    var defaultValueDescription: String { "all cores" }

    /// Bad usage (status 2) below one.
    func validate() throws {
        guard value >= 1 else { throw ValidationError("--jobs must be at least 1, got \(value)") }
    }
}
