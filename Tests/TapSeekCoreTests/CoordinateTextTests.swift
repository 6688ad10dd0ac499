import Foundation
import Testing

@testable import TapSeekCore

/// Batch writers copy a coordinate's text as read when ``JSONText/isShortestDecimal(_:of:)``
/// says it is what `Double.description` would write: checked here against `description` itself.
@Suite struct CoordinateTextTests {
    /// Parses `line` and answers for its latitude text.
    private func latitudeEcho(_ line: String) throws -> (echoed: Bool, text: String, value: Double) {
        var bytes = Array(line.utf8)
        return try bytes.withUnsafeMutableBufferPointer { b in
            let line = UnsafeBufferPointer(b)
            let p = try CoordinateLine.parseKeepingText(line).get()
            let text = UnsafeBufferPointer(rebasing: line[p.latitudeText])
            return (JSONText.isShortestDecimal(text, of: p.latitude), String(decoding: text, as: UTF8.self), p.latitude)
        }
    }

    @Test func textRangesAreTheNumbersWithoutBlanks() throws {
        var bytes = Array(" 46.5775 ,\t8.005 \r".utf8)
        try bytes.withUnsafeMutableBufferPointer { b in
            let line = UnsafeBufferPointer(b)
            let p = try CoordinateLine.parseKeepingText(line).get()
            #expect(String(decoding: UnsafeBufferPointer(rebasing: line[p.latitudeText]), as: UTF8.self) == "46.5775")
            #expect(String(decoding: UnsafeBufferPointer(rebasing: line[p.longitudeText]), as: UTF8.self) == "8.005")
            #expect(p.latitude == 46.5775 && p.longitude == 8.005)
        }
    }

    @Test func plainShortestDecimalsAreEchoed() throws {
        for text in ["46.5775", "-8.005", "0.0", "-0.0", "47.0", "180.0", "0.0001", "-0.000123456", "179.999999999999", "100.5"] {
            let r = try latitudeEcho("\(text),0")
            #expect(r.echoed, "\(text)")
            #expect(r.value.description == text)
        }
    }

    @Test func otherSpellingsAreFormattedInstead() throws {
        // Trailing zeros, a plus, leading zeros, no point or no digit after it, exponents, 16 or
        // more significant digits, and magnitudes Swift writes with an exponent.
        for text in ["46.50", "+46.5", "046.5", "46", "46.", ".5", "4.65e1", "46.57750000000001", "0.1000000000000001",
                     "0.00001", "-0.00009", "1.0000000000000002"] {
            let r = try latitudeEcho("\(text),0")
            #expect(!r.echoed, "\(text)")
        }
    }

    /// Random coordinates of 0 to 17 decimals, some with trailing zeros: whenever the text is
    /// echoed it is exactly `description`, and the usual 5- to 7-decimal fixes are echoed.
    @Test func echoedTextIsAlwaysWhatDescriptionWrites() throws {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        var echoed = 0, typical = 0, typicalEchoed = 0
        for _ in 0..<200_000 {
            let decimals = Int(next() % 18)
            var text = next() % 2 == 0 ? "-" : ""
            text += String(next() % 181)
            if decimals > 0 || next() % 2 == 0 {
                text += "."
                for _ in 0..<max(decimals, 1) { text += String(next() % 10) }
            }
            let r = try latitudeEcho("\(text),0")
            if r.echoed {
                echoed += 1
                #expect(r.value.description == r.text, "\(text)")
            }
            if (5...7).contains(decimals), !text.hasSuffix("0") {
                typical += 1
                if r.echoed { typicalEchoed += 1 }
            }
        }
        #expect(echoed > 50_000)
        #expect(typicalEchoed == typical)
    }
}
