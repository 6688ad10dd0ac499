import Foundation
import Testing

@testable import TapSeekCore

/// ``JSONText/fixed(_:decimals:_:)`` writes its digits through ``JSONText/writeFixed(_:decimals:to:)``
/// (rounding by truncation and remainder, digits two at a time): checked byte for byte against
/// the formatting it replaced, `rounded()` and one digit at a time, kept here as the reference.
@Suite struct FixedDecimalTextTests {
    /// The formatting before issue 30's batch speed-up, as it was.
    static func reference(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "null" }
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (value * scale).rounded()
        guard abs(scaled) < 9e15 else { return String(value) }
        var n = Int64(scaled)
        let negative = n < 0
        if negative { n = -n }
        var places = decimals
        while places > 0, n % 10 == 0, n != 0 { n /= 10; places -= 1 }
        if n == 0 { places = 0 }
        var reversed: [Character] = []
        repeat {
            reversed.append(Character(String(n % 10)))
            n /= 10
        } while n > 0 || reversed.count <= places
        var text = negative ? "-" : ""
        for i in stride(from: reversed.count - 1, through: 0, by: -1) {
            if i == places - 1 { text += "." }
            text.append(reversed[i])
        }
        return text
    }

    static func written(_ value: Double, decimals: Int) -> String {
        var bytes: [UInt8] = []
        JSONText.fixed(value, decimals: decimals) { bytes.append(contentsOf: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func edgeValuesAreWrittenAsBefore() {
        let values: [Double] = [0, -0.0, 0.5, -0.5, 1.5, 2.5, -2.5, 0.49999999999999994, -0.49999999999999994, 0.005, 0.015,
                                1e-10, -1e-10, 4e-10, 5e-10, -5e-10, 8840, -28.73, 27.988333333, 86.925, 99.995, 100,
                                9e15, -9e15, 8.999999999999999e15, 4.5e15, 1e300, -1e300, 5e-324, .nan, .infinity, -.infinity,
                                Double(Int64.max), 123456789.123456789, 1234567.0000001]
        for value in values {
            for decimals in 0...9 {
                #expect(Self.written(value, decimals: decimals) == Self.reference(value, decimals: decimals), "\(value) to \(decimals)")
            }
        }
    }

    /// Random values of every magnitude from 10⁻¹² to 10¹⁸, and values on and beside the halves
    /// of the last place, to every number of places.
    @Test func randomValuesAreWrittenAsBefore() {
        var generator = SplitMix(seed: 0x5EED_F1C5)
        for _ in 0..<200_000 {
            let decimals = Int(generator.next() % 10)
            let magnitude = Double(Int(generator.next() % 31)) - 12
            var value = Double(generator.next() >> 11) / Double(1 << 53) * pow(10, magnitude)
            if generator.next() % 2 == 0 { value = -value }
            switch generator.next() % 4 {
            case 0:
                // A half of the last place, and its neighbours.
                let scale = pow(10, Double(decimals))
                value = ((value * scale).rounded(.down) + 0.5) / scale
                if generator.next() % 2 == 0 { value = value.nextUp } else if generator.next() % 2 == 0 { value = value.nextDown }
            default: break
            }
            #expect(Self.written(value, decimals: decimals) == Self.reference(value, decimals: decimals), "\(value) to \(decimals)")
        }
    }

    /// Random decimal texts, some with trailing or leading zeros, signs or many digits: whenever
    /// ``JSONText/isFixedDecimal(_:of:decimals:)`` lets a text be copied, it is exactly what
    /// formatting its number writes; and the usual 6-decimal coordinates are copied.
    @Test func copiedTextIsAlwaysWhatFormattingWrites() {
        var generator = SplitMix(seed: 0xEC40)
        var typical = 0, typicalCopied = 0
        for _ in 0..<200_000 {
            let decimals = Int(generator.next() % 10)
            var text = generator.next() % 3 == 0 ? "-" : ""
            let integerDigits = Int(generator.next() % 5)
            for _ in 0..<integerDigits { text += String(generator.next() % 10) }
            let fractionDigits = Int(generator.next() % 14)
            if fractionDigits > 0 || generator.next() % 4 == 0 { text += "." }
            for _ in 0..<fractionDigits { text += String(generator.next() % 12 % 10) }
            guard let value = Double(text) else { continue }
            let copied = Array(text.utf8).withUnsafeBufferPointer { JSONText.isFixedDecimal($0, of: value, decimals: decimals) }
            if copied { #expect(text == Self.written(value, decimals: decimals), "\(text) to \(decimals)") }
            if decimals == 9, fractionDigits == 6, integerDigits == 2, text.last != "0", text.dropFirst(text.hasPrefix("-") ? 1 : 0).first != "0" {
                typical += 1
                if copied { typicalCopied += 1 }
            }
        }
        #expect(typical > 100 && typicalCopied == typical)
    }

    /// ``JSONText/writeCentimetres(_:to:)``, the heights' writer of `elevation --batch`: byte
    /// for byte the reference's 2 places, on the edge values and on random heights and halves
    /// of a centimetre (nil only where the reference writes `null` or an exponent-free
    /// `String(value)` beyond 9·10¹⁵ centimetres).
    @Test func centimetresAreWrittenAsTwoPlaces() {
        func centimetres(_ value: Double) -> String? {
            var scratch = [UInt8](repeating: 0, count: JSONText.fixedCapacity)
            guard let n = scratch.withUnsafeMutableBytes({ JSONText.writeCentimetres(value, to: $0.baseAddress!) }) else { return nil }
            return String(decoding: scratch[..<n], as: UTF8.self)
        }
        var values: [Double] = [0, -0.0, 0.005, -0.005, 0.015, 0.004999999999999999, 99.995, 100, 8848.86, -430.5, -0.01, 0.1,
                                9e13, -9e13, 8.9999e13, 1e300, .nan, .infinity, -.infinity]
        var generator = SplitMix(seed: 0xCE17)
        for _ in 0..<200_000 {
            var value = Double(generator.next() >> 11) / Double(1 << 53) * pow(10, Double(Int(generator.next() % 9)) - 3)
            if generator.next() % 2 == 0 { value = -value }
            if generator.next() % 3 == 0 { value = ((value * 100).rounded(.down) + 0.5) / 100 }
            values.append(value)
        }
        for value in values {
            let reference = Self.reference(value, decimals: 2)
            if let text = centimetres(value) {
                #expect(text == reference, "\(value)")
            } else {
                #expect(!value.isFinite || abs(value * 100) >= 9e15, "\(value)")
            }
        }
    }

    /// ``JSONText/writeDigits(_:to:)`` (line numbers, a height's metres) writes what `String`
    /// writes for every count of digits, 1 to 20, at each power of ten and either side of it,
    /// and on random values.
    @Test func digitsAreWhatStringWrites() {
        var values: [UInt64] = [0, 1, 9, 99, 100, UInt64.max, UInt64.max - 1]
        var power: UInt64 = 1
        for _ in 0..<19 {
            power *= 10
            values += [power - 1, power, power + 1]
        }
        var generator = SplitMix(seed: 0xD161)
        for _ in 0..<100_000 { values.append(generator.next() >> (generator.next() % 64)) }
        for value in values {
            var scratch = [UInt8](repeating: 0, count: 24)
            let n = scratch.withUnsafeMutableBytes { JSONText.writeDigits(value, to: $0.baseAddress!) }
            #expect(String(decoding: scratch[..<n], as: UTF8.self) == String(value), "\(value)")
        }
    }

    /// ``CoordinateLine/parsePlainLine(_:)`` says to which places each number's text is what
    /// formatting writes: checked against the formatting itself, for every place 0…9, on
    /// random plain texts with and without leading and trailing zeros, signs and points.
    @Test func thePlainReadersPlacesAreWhereFormattingWritesTheText() {
        var generator = SplitMix(seed: 0x9A25E)
        var checked = 0, typicalEchoed = 0
        for _ in 0..<50_000 {
            var text = generator.next() % 3 == 0 ? "-" : ""
            let integerDigits = 1 + Int(generator.next() % 5)
            for _ in 0..<integerDigits { text += String(generator.next() % 12 % 10) }
            let fractionDigits = Int(generator.next() % 11)
            if fractionDigits > 0 { text += "." }
            for _ in 0..<fractionDigits { text += String(generator.next() % 12 % 10) }
            guard let parsed = Array("\(text),\(text)".utf8).withUnsafeBufferPointer({ CoordinateLine.parsePlainLine($0) }) else {
                Issue.record("\(text) not read as plain")
                continue
            }
            #expect(parsed.latitude == Double(text)! && parsed.latitudeDecimals == parsed.longitudeDecimals)
            for decimals in 0...9 {
                let formatted = Self.written(parsed.latitude, decimals: decimals)
                #expect(parsed.latitudeDecimals.contains(decimals) == (formatted == text), "\(text) to \(decimals)")
                checked += 1
            }
            if fractionDigits == 6, integerDigits == 2, parsed.latitudeDecimals.contains(9) { typicalEchoed += 1 }
        }
        #expect(checked == 50_000 * 10 && typicalEchoed > 100)
    }

    @Test func otherSpellingsAreFormattedInstead() {
        for (text, decimals) in [("27.50", 9), ("+27.5", 9), ("027.5", 9), ("27.", 9), (".5", 9), ("2.75e1", 9), ("-0", 9),
                                 ("0.0", 9), ("27.1234567891", 9), ("27.123", 2), ("1234567.123456789", 9)] {
            let value = Double(text)!
            #expect(!Array(text.utf8).withUnsafeBufferPointer { JSONText.isFixedDecimal($0, of: value, decimals: decimals) }, "\(text)")
        }
        // A text is copied only for the number it reads as: a wrapped longitude is formatted.
        #expect(!Array("-190.5".utf8).withUnsafeBufferPointer { JSONText.isFixedDecimal($0, of: 169.5, decimals: 9) })
    }
}

/// A small seeded generator (SplitMix64), so that failures repeat.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
