import Foundation
import Testing

@testable import TapSeekCore

/// The locator's warnings write their numbers
/// (``Locator/oneDecimal(_:)``, its own rounding of the exact value) instead of Foundation's
/// `String(format:)`: the same text.
@Suite struct WarningNumberTests {
    @Test func oneDecimalIsWhatStringFormatWrites() {
        var generator = SplitMix(seed: 0x0DEC)
        var values: [Double] = [0, -0.0, 0.05, 0.15, 0.25, -0.05, 12.35, 1e20, -1e20, 1e70, .nan, .infinity, -.infinity, 5e-324]
        for _ in 0..<20_000 {
            let magnitude = Double(Int(generator.next() % 14)) - 4
            let value = Double(generator.next() >> 11) / Double(1 << 53) * pow(10, magnitude)
            values.append(generator.next() % 2 == 0 ? value : -value)
        }
        // Halves of the last place and their neighbours, where the rounding of the exact
        // value and of its product by 10 part.
        for k in -3000...3000 {
            let half = (Double(k) + 0.5) / 10
            values += [half, half.nextUp, half.nextDown, Double(k) / 10 + 0.05]
        }
        for value in values { #expect(Locator.oneDecimal(value) == String(format: "%.1f", value), "\(value)") }
    }
}
