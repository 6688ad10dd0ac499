import ArgumentParser
import Foundation

/// `LAT LON` as two plain positional arguments, negative values included
/// (`tapseek elevation -38.6 178.1`), for any command that takes a point.
///
/// swift-argument-parser reads `-38.6` as a bundle of short flags; capturing the positionals
/// with `.allUnrecognized` keeps them as text, so a southern latitude or a western longitude
/// needs no quoting and no `--`. A `--` the user puts before them anyway is ignored.
/// Options whose value may start with `-` (`--bbox -38,177,-37,179`, `--refraction -0.5`,
/// `--altitude -420`) are declared with `@Option(parsing: .unconditional)` instead.
///
/// One argument `LAT,LON` (`tapseek elevation 47.2493,9.3433`) is taken as the two, as `--near`
/// and `--location` take them.
///
/// Use it with `@OptionGroup var point: CoordinateArguments`; `point.given` says whether any
/// value was given (for commands with a `--batch` mode), `point.validateCount()` checks for
/// exactly two, and `point.latitude()`/`point.longitude()` read them (bad input, status 1).
struct CoordinateArguments: ParsableArguments {
    @Argument(parsing: .allUnrecognized, help: "LAT LON (or LAT,LON) in WGS84 degrees (negative values need no quoting).")
    var arguments: [String] = []

    /// The positional values, without a `--` separator; a lone `LAT,LON` split at its comma.
    var values: [String] {
        let given = arguments.filter { $0 != "--" }
        guard given.count == 1, given[0].contains(",") else { return given }
        return given[0].split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// Whether any positional value was given.
    var given: Bool { !values.isEmpty }

    /// Bad usage (status 2) unless exactly LAT and LON were given.
    func validateCount() throws {
        guard values.count == 2 else {
            throw ValidationError("expected LAT LON, got \(values.count) value(s)" + unknownOption)
        }
    }

    /// The latitude as given, in degrees (range checks are the caller's).
    func latitude() throws -> Double { try Self.number(values[0], name: "latitude") }

    /// The longitude as given, in degrees (range checks are the caller's).
    func longitude() throws -> Double { try Self.number(values[1], name: "longitude") }

    /// A command-line number; anything `Double` cannot read is bad input naming the field.
    static func number(_ text: String, name: String) throws -> Double {
        guard let value = Double(text) else { throw InputError("\(name) must be a number, got \"\(text)\"") }
        return value
    }

    /// `.allUnrecognized` also swallows misspelt options: name one, if any, in the usage error.
    private var unknownOption: String {
        guard let option = values.first(where: { $0.hasPrefix("-") && Double($0) == nil }) else { return "" }
        return " (unknown option \(option)?)"
    }
}
