import Foundation
import Testing
import TapSeekCore
import TapSeekTestSupport

/// ``GzipMember`` against files made by other programs: GNU gzip (which stores the file name)
/// and Python's `gzip` module with a comment and an extra field written by hand.
struct GzipMemberTests {
    /// Bytes that compress in every way DEFLATE has: runs, text, noise.
    static let original: [UInt8] = {
        var generator = SplitMix64(seed: 7)
        var bytes = [UInt8](repeating: 0, count: 70_000)
        bytes += Array(String(repeating: "Säntis 2502 m, Altmann 2436 m. ", count: 2000).utf8)
        bytes += (0..<50_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        return bytes
    }()

    /// What `command` (its last argument the original's file) writes to stdout.
    static func gzip(_ command: [String], label: String) throws -> [UInt8] {
        let directory = try SharedData.temporaryDirectory(label)
        defer { try? FileManager.default.removeItem(at: directory) }
        let plain = directory.appendingPathComponent("N47E009.hgt"), packed = directory.appendingPathComponent("N47E009.hgt.gz")
        try Data(original).write(to: plain)
        try SharedData.run("sh", ["-c", "\"$@\" > \"$0\"", packed.path] + command + [plain.path])
        return [UInt8](try Data(contentsOf: packed))
    }

    @Test(arguments: [["gzip", "-c", "-9"], ["gzip", "-c", "-1", "-n"]])
    func unpacksWhatGNUGzipWrites(_ command: [String]) throws {
        let packed = try Self.gzip(command, label: "gzip")
        #expect(try GzipMember.unpack(packed, name: "t.gz", limit: 1 << 30) == Self.original)
    }

    @Test func headerWithExtraFieldNameAndCommentIsSkipped() throws {
        // Python writes a plain header; the flags, extra field and comment are spliced in here.
        let script = "import gzip,sys; sys.stdout.buffer.write(gzip.compress(open(sys.argv[1],'rb').read(), mtime=0))"
        var packed = try Self.gzip(["python3", "-c", script], label: "python-gzip")
        packed[3] |= 0x04 | 0x10
        packed.insert(contentsOf: [3, 0, 0xAA, 0xBB, 0xCC] + Array("a comment".utf8) + [0], at: 10)
        #expect(try GzipMember.unpack(packed, name: "t.gz", limit: 1 << 30) == Self.original)
    }

    @Test func damageAndBombsAreRefusedWithTheirReason() throws {
        let packed = try Self.gzip(["gzip", "-c"], label: "gzip-damage")
        var badCRC = packed
        badCRC[badCRC.count - 8] ^= 1
        #expect(throws: StreamReadError(message: "t.gz: damaged gzip data (CRC or length does not match its trailer)")) {
            try GzipMember.unpack(badCRC, name: "t.gz", limit: 1 << 30)
        }
        #expect(throws: StreamReadError(message: "t.gz: gzip data unpacks to more than 100000 bytes")) {
            try GzipMember.unpack(packed, name: "t.gz", limit: 100_000)
        }
        #expect(throws: StreamReadError(message: "t.gz: not gzip data")) {
            try GzipMember.unpack(Array("PK\u{3}\u{4} not gzip at all".utf8), name: "t.gz", limit: 1 << 30)
        }
        // Cut short anywhere: an error, never a crash or a short answer.
        for cut in stride(from: 0, to: packed.count, by: 997) {
            #expect(throws: StreamReadError.self) { try GzipMember.unpack(Array(packed[0..<cut]), name: "t.gz", limit: 1 << 30) }
        }
    }
}
