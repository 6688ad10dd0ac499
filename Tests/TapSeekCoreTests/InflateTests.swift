import Foundation
import Testing

@testable import TapSeekCore

/// Raw DEFLATE streams made by zlib 1.2 (Python's `zlib.compressobj(level, DEFLATED, -15, 9,
/// strategy)`), decoded here and compared with the plain text they were made from.
@Suite struct InflateTests {
    static func inflate(_ bytes: [UInt8], readSize: Int = .max, outputChunk: Int = 1 << 16) throws -> [UInt8] {
        var source = InflateSource(compressed: MemoryByteSource(bytes, maximumReadSize: readSize), name: "test")
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: outputChunk)
        while true {
            let n = try chunk.withUnsafeMutableBytes { raw throws(StreamReadError) in try source.read(into: raw) }
            if n == 0 { return out }
            out.append(contentsOf: chunk[0..<n])
        }
    }

    static let hello = Array("hello hello hello hello\n".utf8)

    @Test func fixedHuffmanBlock() throws {
        // strategy Z_FIXED: one final block of type 1, with back-references into "hello ".
        let fixed: [UInt8] = [0xCB, 0x48, 0xCD, 0xC9, 0xC9, 0x57, 0xC8, 0x40, 0x27, 0xB9, 0x00]
        #expect(try Self.inflate(fixed) == Self.hello)
        #expect(try Self.inflate(fixed, readSize: 1, outputChunk: 3) == Self.hello)
    }

    @Test func storedBlock() throws {
        // level 0: a stored block, LEN 0x0018 = 24 and NLEN its complement.
        let stored: [UInt8] = [0x01, 0x18, 0x00, 0xE7, 0xFF] + Self.hello
        #expect(try Self.inflate(stored) == Self.hello)
    }

    /// level 9 on 900 bytes of Sensor Logger-like rows: a dynamic-Huffman block (first byte 0x9D:
    /// BFINAL 1, BTYPE 2).
    @Test func dynamicHuffmanBlock() throws {
        let dynamic: [UInt8] = [
            0x9D, 0xD2, 0xCD, 0x0E, 0x82, 0x30, 0x10, 0x04, 0xE0, 0xBB, 0xCF, 0xB2, 0x90, 0x6E, 0x7F, 0x76, 0xDB, 0xA7, 0x31, 0x04,
            0x9A, 0x48, 0x82, 0x42, 0x85, 0x04, 0xF0, 0xE9, 0x45, 0x3C, 0xB4, 0x1E, 0xDD, 0xCB, 0x4C, 0x32, 0x87, 0xEF, 0x34, 0x4B,
            0x7F, 0x8F, 0x30, 0xC7, 0x76, 0x7C, 0x74, 0xF3, 0x35, 0x0E, 0xCD, 0x34, 0xC7, 0x0E, 0xD2, 0x0B, 0xD2, 0x0E, 0x69, 0x83,
            0xB4, 0xC2, 0x73, 0x1C, 0x06, 0x98, 0xFA, 0xA5, 0xBD, 0xC1, 0xDE, 0xAC, 0x17, 0x64, 0xC5, 0x44, 0x86, 0x35, 0x1A, 0xA5,
            0x14, 0xF9, 0x23, 0x40, 0xD5, 0xDF, 0x0C, 0xD6, 0x1D, 0x69, 0x50, 0x7F, 0x16, 0x7B, 0xEE, 0x5E, 0x43, 0x75, 0x94, 0x39,
            0x8B, 0x2C, 0x42, 0xA5, 0xEB, 0xC0, 0xFC, 0xC3, 0x60, 0xC1, 0xB0, 0x9C, 0xD1, 0x99, 0x41, 0x2B, 0x67, 0x4C, 0x66, 0x34,
            0xCA, 0x19, 0x5B, 0x30, 0x5E, 0xCE, 0xB8, 0xCC, 0x18, 0x27, 0x67, 0x28, 0x33, 0x56, 0xCB, 0x19, 0x2E, 0x98, 0x20, 0x67,
            0x7C, 0x66, 0x1C, 0xC9, 0x99, 0x90, 0x19, 0x32, 0x62, 0x06, 0x8B, 0x17, 0xB3, 0xFC, 0xC5, 0x58, 0xBC, 0x98, 0xFF, 0x7C,
            0xF1, 0x1B,
        ]
        var text = "time,seconds_elapsed,qz,qy,qx,qw,roll,pitch,yaw\n"
        for i in 0..<12 {
            let row = String(format: "17076637213%02d068000,0.%03d,0.945,0.312,0.040,0.082,-0.032,-0.641,-2.977\n", i, i * 7 % 1000)
            text += row
        }
        #expect(try Self.inflate(dynamic) == Array(text.utf8))
        #expect(try Self.inflate(dynamic, readSize: 7, outputChunk: 5) == Array(text.utf8))
    }

    @Test func truncatedAndCorruptStreamsFailWithAReason() {
        let fixed: [UInt8] = [0xCB, 0x48, 0xCD, 0xC9, 0xC9, 0x57, 0xC8, 0x40, 0x27, 0xB9, 0x00]
        #expect(throws: StreamReadError.self) { try Self.inflate(Array(fixed.prefix(6))) }
        // Block type 3 is reserved.
        #expect(throws: StreamReadError.self) { try Self.inflate([0x07]) }
        // Stored block whose NLEN is not the complement of LEN.
        #expect(throws: StreamReadError.self) { try Self.inflate([0x01, 0x18, 0x00, 0x00, 0x00]) }
    }

    /// Published check value: CRC-32 of "The quick brown fox jumps over the lazy dog" is 0x414FA339.
    @Test func crc32CheckValue() {
        var crc = CRC32()
        Array("The quick brown fox jumps over the lazy dog".utf8).withUnsafeBytes { crc.update($0) }
        #expect(crc.value == 0x414F_A339)
    }
}
