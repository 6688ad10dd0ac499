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
    /// The plain line's reader (``CoordinateLine/parsePlainLine(_:)``) takes exactly the lines
    /// `-?D+(.D+)?,-?D+(.D+)?` with at most 15 digits a number, and reads each as `Double(_:)`
    /// does: random lines of 0–40 bytes, mostly near that form, with stray bytes (blanks, signs,
    /// exponents, `:` and `/` beside the digits, bytes above 0x7F, NUL) anywhere.
    @Test func thePlainReaderTakesExactlyThePlainLines() {
        func isPlainNumber(_ s: Substring) -> Bool {
            var t = s
            if t.first == "-" { t = t.dropFirst() }
            let parts = t.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count <= 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { ("0"..."9").contains($0) } }) else { return false }
            return parts.reduce(0) { $0 + $1.count } <= 15
        }
        var generator = SplitMix(seed: 0x5A_12)
        let odd: [UInt8] = Array(" +e:/\r.-,".utf8) + [0xCA, 0xFF, 0x00, 0x39 + 1, 0x30 - 1]
        var taken = 0
        for _ in 0..<300_000 {
            var bytes: [UInt8] = []
            for part in 0..<2 {
                if part == 1 { bytes.append(UInt8(ascii: ",")) }
                if generator.next() % 3 == 0 { bytes.append(UInt8(ascii: "-")) }
                for _ in 0..<(Int(generator.next() % 9)) { bytes.append(UInt8(ascii: "0") + UInt8(generator.next() % 10)) }
                if generator.next() % 4 != 0 {
                    bytes.append(UInt8(ascii: "."))
                    for _ in 0..<(Int(generator.next() % 13)) { bytes.append(UInt8(ascii: "0") + UInt8(generator.next() % 10)) }
                }
            }
            if generator.next() % 4 == 0, !bytes.isEmpty {
                bytes[Int(generator.next() % UInt64(bytes.count))] = odd[Int(generator.next() % UInt64(odd.count))]
            }
            let text = String(decoding: bytes, as: UTF8.self)
            let fields = text.split(separator: ",", omittingEmptySubsequences: false)
            let plain = !bytes.contains { $0 >= 0x80 } && fields.count == 2 && fields.allSatisfy(isPlainNumber)
            let read = bytes.withUnsafeBufferPointer { CoordinateLine.parsePlainLine($0) }
            #expect((read != nil) == plain, "\(bytes)")
            guard plain, let read else { continue }
            taken += 1
            let comma = bytes.firstIndex(of: UInt8(ascii: ","))!
            #expect(read.latitude.bitPattern == Double(fields[0])!.bitPattern && read.longitude.bitPattern == Double(fields[1])!.bitPattern, "\(text)")
            #expect(read.latitudeText == 0..<comma && read.longitudeText == (comma + 1)..<bytes.count, "\(text)")
        }
        #expect(taken > 50_000)
    }
}
