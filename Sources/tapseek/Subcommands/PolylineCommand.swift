import ArgumentParser
import Foundation
import TapSeek

/// `tapseek polyline decode|encode`: Google encoded polylines to and from JSON `[[lat,lon],…]`.
struct PolylineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "polyline",
        abstract: "Google encoded polylines: decode to JSON [[lat,lon],…] or encode that JSON.",
        subcommands: [Decode.self, Encode.self]
    )

    /// `tapseek polyline decode [--precision N] STRING`.
    struct Decode: ParsableCommand {
        // Named here as the parser would name it from the type: without a name it calls
        // String(describing:) on the type, whose casts cost every command's start 3 M instructions.
        static let configuration = CommandConfiguration(
            commandName: "decode",
            abstract: "Decode a polyline to JSON [[lat,lon],…] (degrees) on stdout.",
            discussion: """
            Each number is printed as the exact decimal the polyline stores (at most N decimals). \
            Give - as STRING to read the polyline from stdin (one trailing newline is ignored), \
            for polylines longer than a command line allows.
            """
        )

        @Option(parsing: .unconditional, help: "Decimal digits of a degree (0–15): 5 is Google's, 6 OSRM's polyline6.")
        var precision: PolylinePrecision = .google

        @Argument(help: "The encoded polyline, or - to read it from stdin.")
        var polyline: String

        func run() throws {
            let text = polyline == "-" ? Self.withoutTrailingNewline(try readStandardInput()) : Array(polyline.utf8)[...]
            let path: [Polyline.Coordinate]
            do {
                path = try Polyline.decode(utf8: text, precision: precision)
            } catch {
                throw InputError(error.description)
            }
            var out = OutputBuffer()
            out.append("[")
            for (index, coordinate) in path.enumerated() {
                out.append(index == 0 ? "[" : ",[")
                Self.appendDecimal(coordinate.latitude, precision: precision, to: &out)
                out.append(",")
                Self.appendDecimal(coordinate.longitude, precision: precision, to: &out)
                out.append("]")
            }
            out.append("]")
            out.newline()
            out.flush()
        }

        /// A piped-in polyline usually ends with a newline that is not part of it.
        static func withoutTrailingNewline(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
            var trimmed = bytes[...]
            if trimmed.last == UInt8(ascii: "\n") { trimmed.removeLast() }
            if trimmed.last == UInt8(ascii: "\r") { trimmed.removeLast() }
            return trimmed
        }

        /// Writes a decoded coordinate as the decimal the polyline holds: `units / 10^digits`
        /// with trailing zeros dropped (`38.5`, `-120.95`, `0`). The units come back exactly by
        /// rounding below ``Polyline/exactUnits`` (every coordinate through 13 digits); beyond,
        /// at 14 and 15 digits, this is the `Double`'s value at that precision, which may differ
        /// from the stored decimal in its last digits.
        static func appendDecimal(_ degrees: Double, precision: PolylinePrecision, to out: inout OutputBuffer) {
            var scale: Int64 = 1
            for _ in 0..<precision.digits { scale *= 10 }
            let units = Int64((degrees * Double(scale)).rounded())
            if units < 0 { out.append("-") }
            let magnitude = units.magnitude
            out.append(String(magnitude / UInt64(scale)))
            var fraction = magnitude % UInt64(scale)
            guard fraction != 0 else { return }
            var places = precision.digits
            while fraction % 10 == 0 {
                fraction /= 10
                places -= 1
            }
            let digits = String(fraction)
            out.append(".")
            out.append(String(repeating: "0", count: places - digits.count))
            out.append(digits)
        }
    }

    /// `tapseek polyline encode [--precision N]`, JSON `[[lat,lon],…]` on stdin.
    struct Encode: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "encode",
            abstract: "Encode JSON [[lat,lon],…] (degrees) read from stdin; prints the polyline.",
            discussion: "Values are rounded half away from zero to N decimals, as Google's encoder does."
        )

        @Option(parsing: .unconditional, help: "Decimal digits of a degree (0–15): 5 is Google's, 6 OSRM's polyline6.")
        var precision: PolylinePrecision = .google

        func run() throws {
            let path = try Self.parse(Data(try readStandardInput()))
            let encoded: String
            do {
                encoded = try Polyline.encode(path, precision: precision)
            } catch {
                throw InputError(error.description)
            }
            var out = OutputBuffer()
            out.append(encoded)
            out.newline()
            out.flush()
        }

        /// Parses `[[lat, lon], …]`, naming the first element that is not a pair of numbers.
        static func parse(_ json: Data) throws -> [Polyline.Coordinate] {
            let rows: [[Double]]
            do {
                rows = try JSONDecoder().decode([[Double]].self, from: json)
            } catch let DecodingError.dataCorrupted(context) where context.codingPath.isEmpty {
                throw InputError("polyline input: not valid JSON; expected [[lat,lon],…]")
            } catch let error as DecodingError {
                throw InputError("polyline input: \(Self.describe(error))")
            }
            for (index, row) in rows.enumerated() where row.count != 2 {
                throw InputError("polyline input: element \(index) has \(row.count) number(s); expected [lat,lon]")
            }
            return rows.map { Polyline.Coordinate(latitude: $0[0], longitude: $0[1]) }
        }

        private static func describe(_ error: DecodingError) -> String {
            let path: [CodingKey]
            switch error {
            case .typeMismatch(_, let context), .valueNotFound(_, let context),
                 .keyNotFound(_, let context), .dataCorrupted(let context):
                path = context.codingPath
            @unknown default:
                path = []
            }
            guard let element = path.first?.intValue else {
                return "expected a JSON array [[lat,lon],…]"
            }
            return "element \(element) is not a [lat,lon] pair of numbers"
        }
    }
}

extension PolylinePrecision: ExpressibleByArgument {
    /// `--precision N`: an integer number of digits within ``PolylinePrecision/supportedDigits``;
    /// anything else is a usage error.
    public init?(argument: String) {
        guard let digits = Int(argument) else { return nil }
        self.init(digits: digits)
    }
}

/// All of stdin, read in blocks until end of file.
private func readStandardInput() throws -> [UInt8] {
    var bytes: [UInt8] = []
    var block = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = block.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
        if count > 0 {
            bytes.append(contentsOf: block[..<count])
        } else if count == 0 {
            return bytes
        } else if errno != EINTR {
            throw InputError("polyline: cannot read stdin: \(String(cString: strerror(errno)))")
        }
    }
}
