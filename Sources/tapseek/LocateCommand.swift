import ArgumentParser
import Foundation
import TapSeek

/// `tapseek locate [FILE|-]`: one reading → one result.
struct LocateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "locate",
        abstract: "Locate what one sensor reading (JSON) looks at.",
        discussion: "Prints the result JSON. Exit status 0 on a hit or horizon, 1 when the reading cannot be located."
    )

    @Argument(help: "Reading JSON file, or - for stdin (default).")
    var file: String = "-"

    @OptionGroup var options: LocateOptions

    func run() throws {
        let text = try Self.readInput(file)
        let reading: Reading
        do {
            reading = try ReadingDecoder().decode(text)
        } catch {
            throw InputError("reading: \(error.description)")
        }
        let result = try options.locator().locate(reading)
        var out = OutputBuffer()
        ResultJSON.write(result, to: &out)
        out.newline()
        out.flush()
        if let error = result.error { throw InputError(error.message) }
    }

    /// A whole small input: a file, or stdin for `-`.
    static func readInput(_ path: String) throws -> String {
        let data: Data?
        if path == "-" {
            data = try? FileHandle.standardInput.readToEnd() ?? Data()
        } else {
            guard FileManager.default.fileExists(atPath: path) else { throw InputError("\(path): no such file") }
            data = FileManager.default.contents(atPath: path)
        }
        guard let data else { throw InputError("\(path): cannot be read") }
        return String(decoding: data, as: UTF8.self)
    }
}
