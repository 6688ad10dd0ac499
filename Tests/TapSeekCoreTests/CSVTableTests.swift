import Testing

@testable import TapSeekCore

@Suite struct CSVTableTests {
    @Test func quotedFieldsWithSeparatorsAndDoubledQuotes() {
        let fields = CSVHeader.split("a,\"b,c\",\"say \"\"hi\"\"\",,\"\"", separator: UInt8(ascii: ","))
        #expect(fields == ["a", "b,c", "say \"hi\"", "", ""])
        #expect(CSVHeader.split("a,\"open", separator: UInt8(ascii: ",")) == nil)
    }

    @Test func separatorIsDetectedFromTheHeader() {
        #expect(CSVHeader(line: "\"Time (s)\";\"Latitude (°)\"").separator == UInt8(ascii: ";"))
        #expect(CSVHeader(line: "time\tlat\tlon").separator == UInt8(ascii: "\t"))
        #expect(CSVHeader(line: "\"a;b\",c").separator == UInt8(ascii: ","))
    }

    @Test func columnsByNameBaseAndPrefix() {
        let h = CSVHeader(line: "loggingTime(txt), locationTrueHeading(°),\"Height (m)\"")
        #expect(h.column("LOGGINGTIME(TXT)")?.index == 0)
        #expect(h.column(base: "locationTrueHeading")?.name == "locationTrueHeading(°)")
        #expect(h.column(base: "locationTrue") == nil)
        #expect(h.column(prefix: "height")?.index == 2)
    }

    @Test func numbersSentinelsAndErrors() throws {
        let h = CSVHeader(line: "x,y,z,w")
        let row = try h.row("1.5e1,NaN,,abc", line: 7).get()
        let x = h.column("x")!, y = h.column("y")!, z = h.column("z")!, w = h.column("w")!
        #expect(try row.number(x) == 15)
        #expect(try row.number(x, isInvalid: { $0 == 15 }) == nil)
        #expect(try row.number(y) == nil)
        #expect(try row.number(z) == nil)
        #expect(throws: ImportError.self) { try row.number(w) }
        do {
            _ = try row.required(z)
        } catch {
            #expect(error.description == "line 7, column \"z\": is empty")
        }
        if case .failure(let e) = h.row("1,2", line: 9) {
            #expect(e.description == "line 9: 2 fields where the header has 4 (truncated or damaged line?)")
        } else {
            Issue.record("short row accepted")
        }
    }
}
