import Foundation
import PropertyBased
import TapSeekTestSupport
import Testing

@testable import TapSeekCore

@Suite struct LineReaderTests {
    /// All lines of `bytes`, read through a source that hands out at most `readSize` bytes at a time.
    static func lines(_ bytes: [UInt8], chunkSize: Int = LineReader.defaultChunkSize, readSize: Int = .max,
                      maximumLineLength: Int = LineReader.defaultMaximumLineLength) throws -> [Line] {
        var reader = LineReader(source: MemoryByteSource(bytes, maximumReadSize: readSize), chunkSize: chunkSize,
                                maximumLineLength: maximumLineLength)
        var out: [Line] = []
        while let line = try reader.next() { out.append(line) }
        return out
    }

    static func texts(_ lines: [Line]) -> [String?] { lines.map(\.text) }

    @Test func crlfTerminatorsAreStripped() throws {
        let lines = try Self.lines(Array("a,b\r\nc,d\r\n".utf8))
        #expect(Self.texts(lines) == ["a,b", "c,d"])
        #expect(lines.map(\.number) == [1, 2])
    }

    @Test func byteOrderMarkIsDroppedOnTheFirstLineOnly() throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let lines = try Self.lines(bom + Array("time,lat\n".utf8) + bom + Array("x\n".utf8))
        #expect(lines[0].text == "time,lat")
        // Inside the file U+FEFF is ordinary (zero-width no-break space) text, kept as is.
        #expect(lines[1].text == "\u{FEFF}x")
    }

    @Test func emptyLinesAreLinesAndKeepTheNumbering() throws {
        let lines = try Self.lines(Array("a\n\n\r\nb\n".utf8))
        #expect(Self.texts(lines) == ["a", "", "", "b"])
        #expect(lines.map(\.number) == [1, 2, 3, 4])
    }

    @Test func lastLineWithoutNewlineIsReadAndNoPhantomLineFollowsAFinalNewline() throws {
        #expect(Self.texts(try Self.lines(Array("a\nb".utf8))) == ["a", "b"])
        #expect(Self.texts(try Self.lines(Array("a\nb\n".utf8))) == ["a", "b"])
        #expect(try Self.lines([]).isEmpty)
        #expect(Self.texts(try Self.lines(Array("\n".utf8))) == [""])
    }

    @Test func invalidUTF8YieldsTheRawBytesOfThatLineOnly() throws {
        // 0xC3 starts a two-byte sequence; 0x28 '(' cannot continue it. 0xFF never occurs in UTF-8.
        let bytes = Array("ok\n".utf8) + [0x61, 0xC3, 0x28] + Array("\n".utf8) + [0xFF] + Array("\nend".utf8)
        let lines = try Self.lines(bytes)
        #expect(lines.count == 4)
        #expect(lines[0].text == "ok")
        #expect(lines[1].content == .invalidUTF8([0x61, 0xC3, 0x28]))
        #expect(lines[2].content == .invalidUTF8([0xFF]))
        #expect(lines[3].text == "end")
        #expect(ImportError.unusable(lines[1])?.description == "line 2: not valid UTF-8 at byte 2")
    }

    @Test func truncatedMultibyteCharacterAtTheEndIsReportedNotDropped() throws {
        // "é" is C3 A9; a file cut after C3 ends in half a character.
        let lines = try Self.lines(Array("a\nb".utf8) + [0xC3])
        #expect(lines.count == 2)
        #expect(lines[1].content == .invalidUTF8([0x62, 0xC3]))
    }

    @Test func tenMegabyteLineIsReadWhole() throws {
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: 10 << 20)
        let lines = try Self.lines(Array("head\n".utf8) + long + Array("\ntail\n".utf8))
        #expect(lines.count == 3)
        #expect(lines[1].text?.utf8.count == 10 << 20)
        #expect(lines[2].text == "tail")
        #expect(lines[2].number == 3)
    }

    @Test func lineOverTheLimitBecomesOneTooLongLineAndReadingGoesOn() throws {
        // Limit 8 bytes, chunks of 4: the 20-byte line spans five reads and is never held whole.
        let bytes = Array("short\n01234567890123456789\nafter\n0123456789".utf8)
        let lines = try Self.lines(bytes, chunkSize: 4, maximumLineLength: 8)
        #expect(lines.map(\.content) == [.text("short"), .tooLong(byteCount: 20), .text("after"), .tooLong(byteCount: 10)])
        #expect(lines.map(\.number) == [1, 2, 3, 4])
        #expect(ImportError.unusable(lines[1])?.code == .lineTooLong)
    }

    @Test func lineExactlyAtTheLimitIsKept() throws {
        let lines = try Self.lines(Array("12345678\n".utf8), chunkSize: 3, maximumLineLength: 8)
        #expect(lines.map(\.content) == [.text("12345678")])
    }

    @Test func peekDoesNotConsume() throws {
        var reader = LineReader(source: MemoryByteSource(Array("a\nb\nc".utf8)))
        #expect(try reader.peek(2).map(\.text) == ["a", "b"])
        #expect(try reader.peek(5).map(\.text) == ["a", "b", "c"])
        #expect(try reader.next()?.text == "a")
        #expect(try reader.next()?.number == 2)
        #expect(try reader.next()?.text == "c")
        #expect(try reader.next() == nil)
    }

    @Test func readsAFileAndReportsAMissingOne() throws {
        let directory = try SharedData.temporaryDirectory("linereader")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("log.csv")
        try Data("x,y\r\n1,2".utf8).write(to: file)
        var reader = try LineReader(path: file.path)
        #expect(try reader.next()?.text == "x,y")
        #expect(try reader.next()?.text == "1,2")
        #expect(try reader.next() == nil)
        #expect(throws: StreamReadError.self) { try LineReader(path: directory.appendingPathComponent("none").path) }
    }

    /// Random byte strings rich in line breaks, CRs and invalid bytes, read with random chunk and
    /// read sizes, give exactly the lines of a plain split on `\n` (one per input line).
    @Test func anyChunkingGivesTheLinesOfASplitOnNewline() async {
        let alphabet: [UInt8] = [0x0A, 0x0A, 0x0D, 0x61, 0x62, 0xC3, 0xA9, 0xFF, 0xEF, 0xBB, 0xBF]
        let bytes = Gen.int(in: 0...(alphabet.count - 1)).array(of: 0...60).map { $0.map { alphabet[$0] } }
        await propertyCheck(count: 400, input: bytes, Gen.int(in: 1...9), Gen.int(in: 1...9)) { bytes, chunk, readSize in
            var expected = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
            if expected.last == [] { expected.removeLast() }
            for i in expected.indices where expected[i].last == 0x0D { expected[i].removeLast() }
            if let first = expected.first, first.starts(with: [0xEF, 0xBB, 0xBF]) { expected[0].removeFirst(3) }
            let lines = try Self.lines(bytes, chunkSize: chunk, readSize: readSize)
            #expect(lines.count == expected.count)
            for (line, want) in zip(lines, expected) {
                switch line.content {
                case .text(let s): #expect(Array(s.utf8) == want)
                case .invalidUTF8(let raw): #expect(raw == want)
                case .tooLong: Issue.record("no line here reaches the default limit")
                }
            }
            #expect(lines.map(\.number) == Array(stride(from: 1, through: lines.count, by: 1)))
        }
    }
}
