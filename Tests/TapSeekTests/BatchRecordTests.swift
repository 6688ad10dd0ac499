import Foundation
import Testing
import TapSeek

/// `BatchRecord`: every input line becomes one record, and a line that gives no reading a
/// `bad-input` failure whose message starts with its line.
@Suite struct BatchRecordTests {
    func failure(_ record: BatchRecord) -> LocateResult.Failure? {
        if case .failure(let f) = record.reading { return f }
        return nil
    }

    @Test func validLineGivesItsReading() throws {
        let line = Line(number: 7, content: .text(#"{"id":"a","location":{"latitude":46.5,"longitude":8}}"#))
        let record = BatchRecord(jsonLine: line)
        #expect(record.line == 7)
        let reading = try record.reading.get()
        #expect(reading.id == "a" && reading.location.latitude == 46.5 && reading.orientation == nil)
    }

    @Test func invalidReadingNamesLineAndField() {
        let line = Line(number: 12, content: .text(#"{"location":{"latitude":146.5,"longitude":8}}"#))
        let f = failure(BatchRecord(jsonLine: line))
        #expect(f?.code == .badInput)
        #expect(f?.message.hasPrefix("line 12: location.latitude") == true, "\(f?.message ?? "")")
    }

    @Test func emptyLineIsAFailure() {
        let f = failure(BatchRecord(jsonLine: Line(number: 3, content: .text(""))))
        #expect(f?.message.hasPrefix("line 3: ") == true && f?.message.contains("empty") == true)
    }

    /// `{"id":"` is 7 bytes, so the lone 0xC3 (a lead byte followed by no continuation) is byte 8.
    @Test func invalidUTF8NamesTheFirstBadByte() {
        let bytes = Array(#"{"id":""#.utf8) + [0xC3, 0x28] + Array(#""}"#.utf8)
        let f = failure(BatchRecord(jsonLine: Line(number: 4, content: .invalidUTF8(bytes))))
        #expect(f?.message == "line 4: not valid UTF-8 at byte 8")
    }

    @Test func overLongLineSaysItsLength() {
        let f = failure(BatchRecord(jsonLine: Line(number: 9, content: .tooLong(byteCount: 10_485_760))))
        #expect(f?.message.hasPrefix("line 9: 10485760 bytes, longer than") == true, "\(f?.message ?? "")")
    }

    @Test func importErrorsKeepTheirLineAndColumn() {
        let withLine = ImportedRecord(line: 5, time: nil,
                                      result: .failure(ImportError(.invalidValue, line: 5, column: "lat", "\"x\" is not a number")))
        #expect(failure(BatchRecord(imported: withLine))?.message == "line 5, column \"lat\": \"x\" is not a number")
        let withoutLine = ImportedRecord(line: 6, time: nil, result: .failure(ImportError(.noLocation, "no fix within 10 s")))
        #expect(failure(BatchRecord(imported: withoutLine))?.message == "line 6: no fix within 10 s")
    }

    @Test func importedRecordTimeFillsAReadingWithoutOne() throws {
        let time = Date(timeIntervalSince1970: 1_700_000_000)
        let record = BatchRecord(imported: ImportedRecord(line: 2, time: time,
                                                          result: .success(Reading(location: .init(latitude: 1, longitude: 2)))))
        #expect(record.time == time && record.line == 2)
    }
}
