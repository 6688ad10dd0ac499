import Foundation
import Testing

@testable import TapSeekCore

/// ``CoordinateLine``'s number reader takes plain decimals of up to 15 significant digits itself
/// and hands everything else to `Double(_:)`: either way the number must be `Double(_:)`'s, and
/// a text `Double(_:)` refuses must be refused.
@Suite struct CoordinateLineTests {
    static func number(_ text: String) -> Double? {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { CoordinateLine.number(UnsafeBufferPointer($0), 0..<$0.count) }
    }

    static func same(_ a: Double?, _ b: Double?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case let (x?, y?): x.bitPattern == y.bitPattern || (x.isNaN && y.isNaN)
        default: false
        }
    }

    @Test func spellingsReadAsDoubleReadsThem() {
        for text in ["0", "-0", "-0.0", "+5", "5.", ".5", "-.5", "0.05", "007.25", "46.5775", "-179.999999999999",
                     "123456789012345", "1234567890123456", "0.000000000000000000000001", "1.0000000000000000000000",
                     "4.65e1", "1E-3", "nan", "inf", "-infinity", "", "-", "+", ".", "1.2.3", "1,2", "12a", "0x1p3",
                     "99999999999999999999", "0.1000000000000001", "1.00000000000000000000000000001"] {
            #expect(Self.same(Self.number(text), Double(text)), "\(text)")
        }
    }

    /// Random decimals of 1 to 20 digits with the point anywhere (or none), signed or not.
    @Test func randomDecimalsReadAsDoubleReadsThem() {
        var generator = SplitMix(seed: 0xC0_0121)
        for _ in 0..<200_000 {
            let digits = 1 + Int(generator.next() % 20)
            var text = ""
            switch generator.next() % 3 {
            case 0: text = "-"
            case 1: if generator.next() % 4 == 0 { text = "+" }
            default: break
            }
            let point = Int(generator.next() % UInt64(digits + 2)) - 1
            for i in 0..<digits {
                if i == point { text += "." }
                // Zeros often, for leading and trailing ones.
                let d = generator.next() % 14
                text += String(d >= 10 ? 0 : d)
            }
            if point == digits { text += "." }
            #expect(Self.same(Self.number(text), Double(text)), "\(text)")
        }
    }
}
