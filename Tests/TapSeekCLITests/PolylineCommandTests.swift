import Foundation
import Testing

/// `tapseek polyline …` run end to end as a built executable.
@Suite struct PolylineCommandTests {
    // Google's documented example,
    // https://developers.google.com/maps/documentation/utilities/polylinealgorithm
    static let googleExample = "_p~iF~ps|U_ulLnnqC_mqNvxq`@"
    static let googleExampleJSON = "[[38.5,-120.2],[40.7,-120.95],[43.252,-126.453]]"
    // The same points as OSRM's / Mapbox's polyline6.
    static let polyline6Example = "_izlhA~rlgdF_{geC~ywl@_kwzCn`{nI"

    @Test func decodePrintsGoogleExampleAsJSON() throws {
        let result = try CLIRunner.run(["polyline", "decode", Self.googleExample])
        #expect(result.status == 0)
        #expect(result.stdout == Self.googleExampleJSON + "\n")
        #expect(result.stderr.isEmpty)
    }

    @Test func encodeReadsJSONFromStdin() throws {
        let result = try CLIRunner.run(["polyline", "encode"], stdin: Self.googleExampleJSON)
        #expect(result.status == 0)
        #expect(result.stdout == Self.googleExample + "\n")
        #expect(result.stderr.isEmpty)
    }

    @Test func precisionSixBothWays() throws {
        let decoded = try CLIRunner.run(["polyline", "decode", "--precision", "6", Self.polyline6Example])
        #expect(decoded.status == 0)
        #expect(decoded.stdout == Self.googleExampleJSON + "\n")
        let encoded = try CLIRunner.run(["polyline", "encode", "--precision", "6"], stdin: Self.googleExampleJSON)
        #expect(encoded.status == 0)
        #expect(encoded.stdout == Self.polyline6Example + "\n")
    }

    @Test func decodeReadsStdinWhenGivenDash() throws {
        let result = try CLIRunner.run(["polyline", "decode", "-"], stdin: Self.googleExample + "\n")
        #expect(result.status == 0)
        #expect(result.stdout == Self.googleExampleJSON + "\n")
    }

    @Test func emptyPolylineIsEmptyArray() throws {
        let decoded = try CLIRunner.run(["polyline", "decode", ""])
        #expect(decoded.status == 0)
        #expect(decoded.stdout == "[]\n")
        let encoded = try CLIRunner.run(["polyline", "encode"], stdin: "[]")
        #expect(encoded.status == 0)
        #expect(encoded.stdout == "\n")
    }

    /// Small and negative values print as plain decimals, not in exponent form.
    @Test func decodePrintsExactDecimals() throws {
        let encoded = try CLIRunner.run(["polyline", "encode"], stdin: "[[0.00001,-0.00001],[0,0],[-90,180]]")
        #expect(encoded.status == 0)
        let decoded = try CLIRunner.run(["polyline", "decode", encoded.stdout.trimmingCharacters(in: .newlines)])
        #expect(decoded.stdout == "[[0.00001,-0.00001],[0,0],[-90,180]]\n")
    }

    /// A longer path through decode and encode comes back to the very same string.
    @Test func decodeThenEncodeReproducesTheString() throws {
        let points = (0..<500).map { step -> String in
            let t = Double(step)
            return "[\(46.5 + 0.001 * t),\(8.0 - 0.0013 * t + (step % 7 == 0 ? 0.5 : 0))]"
        }
        let json = "[" + points.joined(separator: ",") + "]"
        let encoded = try CLIRunner.run(["polyline", "encode", "--precision", "6"], stdin: json)
        #expect(encoded.status == 0)
        let text = encoded.stdout.trimmingCharacters(in: .newlines)
        let decoded = try CLIRunner.run(["polyline", "decode", "--precision", "6", text])
        #expect(decoded.status == 0)
        let again = try CLIRunner.run(["polyline", "encode", "--precision", "6"], stdin: decoded.stdout)
        #expect(again.stdout == encoded.stdout)
    }

    // MARK: Bad input: exit 1, one line on stderr naming where

    @Test func invalidCharacterFailsWithItsOffset() throws {
        let result = try CLIRunner.run(["polyline", "decode", "_p~i F~ps|U"])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.contains("offset 4"))
    }

    @Test func truncatedPolylineFails() throws {
        let result = try CLIRunner.run(["polyline", "decode", "_p~iF~ps"])
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.contains("truncated value at offset 5"))
    }

    @Test func danglingLatitudeFails() throws {
        let result = try CLIRunner.run(["polyline", "decode", "_p~iF"])
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.contains("latitude at offset 0 has no longitude"))
    }

    @Test func invalidJSONFails() throws {
        let result = try CLIRunner.run(["polyline", "encode"], stdin: "[[38.5,-120.2]")
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.contains("not valid JSON"))
    }

    @Test func elementThatIsNotAPairFailsByIndex() throws {
        let wrongCount = try CLIRunner.run(["polyline", "encode"], stdin: "[[1,2],[3,4,5]]")
        #expect(wrongCount.status == 1)
        #expect(wrongCount.stderr.contains("element 1"))
        let wrongType = try CLIRunner.run(["polyline", "encode"], stdin: "[[1,2],[3,4],[\"a\",6]]")
        #expect(wrongType.status == 1)
        #expect(wrongType.stderrLines.count == 1)
        #expect(wrongType.stderr.contains("element 2"))
    }

    @Test func unencodableValueFailsByIndex() throws {
        let result = try CLIRunner.run(["polyline", "encode", "--precision", "12"], stdin: "[[0,0],[0,1e300]]")
        #expect(result.status == 1)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.contains("coordinate 1: longitude"))
    }

    /// Latitude 430 used to encode; now it fails naming the point and the value.
    @Test func latitudeBeyondThePoleFailsByIndex() throws {
        let result = try CLIRunner.run(["polyline", "encode"], stdin: "[[0,0],[430,8]]")
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("coordinate 1: latitude 430.0 is outside −90…90 degrees"))
    }

    /// 15 digits (accepted since the range check bounds the units) both ways at the poles.
    @Test func precisionFifteenBothWays() throws {
        let encoded = try CLIRunner.run(["polyline", "encode", "--precision", "15"], stdin: "[[90,-180],[-1.5,0.25]]")
        #expect(encoded.status == 0)
        let decoded = try CLIRunner.run(["polyline", "decode", "--precision", "15",
                                         encoded.stdout.trimmingCharacters(in: .whitespacesAndNewlines)])
        #expect(decoded.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[[90,-180],[-1.5,0.25]]")
    }

    // MARK: Bad usage: exit 2

    @Test func unsupportedPrecisionIsAUsageError() throws {
        for value in ["16", "-1", "five"] {
            let result = try CLIRunner.run(["polyline", "decode", "--precision", value, "??"])
            #expect(result.status == 2, "--precision \(value)")
            #expect(result.stdout.isEmpty)
        }
    }

    @Test func missingPolylineIsAUsageError() throws {
        let result = try CLIRunner.run(["polyline", "decode"])
        #expect(result.status == 2)
    }

    @Test func unknownSubcommandIsAUsageError() throws {
        let result = try CLIRunner.run(["polyline", "squash"])
        #expect(result.status == 2)
    }
}
