import Foundation
import PropertyBased
import Testing
@testable import TapSeekCore

@Suite struct ISO8601DateTimeTests {
    /// Instants checked with GNU `date -u -d … +%s`.
    @Test(arguments: [
        ("1970-01-01T00:00:00Z", 0.0),
        ("2026-07-14T09:31:05Z", 1_784_021_465),
        ("2000-02-29T12:00:00Z", 951_825_600),
        ("1969-12-31T23:59:59Z", -1),
        ("2026-07-14t09:31:05z", 1_784_021_465),
        ("2026-07-14 09:31:05Z", 1_784_021_465),
        ("2026-07-14T11:31:05+02:00", 1_784_021_465),
        ("2026-07-14T04:01:05-0530", 1_784_021_465),
        ("2026-07-14T10:31:05+01", 1_784_021_465),
        ("2026-07-14T09:31Z", 1_784_021_460),
        ("2026-07-14T09:31:05.25Z", 1_784_021_465.25),
        ("2026-07-14T09:31:05,5Z", 1_784_021_465.5),
        ("2016-12-31T23:59:60Z", 1_483_228_800),   // a leap second: the next minute's first instant
    ])
    func parsesDateTimesWithAZone(text: String, seconds: Double) {
        #expect(ISO8601DateTime.parse(text)?.timeIntervalSince1970 == seconds)
    }

    @Test func keepsFractionsToTheNanosecond() throws {
        let d = try #require(ISO8601DateTime.parse("2026-07-14T09:31:05.123456789987Z"))
        #expect(abs(d.timeIntervalSince1970 - 1_784_021_465.123456789) < 1e-6)
    }

    @Test(arguments: [
        "2026-07-14T09:31:05", "2026-07-14", "2026-13-01T00:00:00Z", "2026-00-01T00:00:00Z",
        "2026-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-07-14T24:00:00Z", "2026-07-14T09:60:00Z",
        "2026-07-14T09:31:61Z", "2026-07-14T09:31:05Zx", "2026-07-14T09:31:05+24:00", "2026-07-14T09:31:05+02:60",
        "2026-07-14T09:31:05.Z", "26-07-14T09:31:05Z", "2026-7-14T09:31:05Z", "2026/07/14T09:31:05Z",
        "2026-07-14T9:31:05Z", "", "yesterday", "2026-07-14T09:31:05 Z", "2026-07-14T09:31:05+2",
        "２０２６-07-14T09:31:05Z",
    ])
    func rejectsWhatIsNotADateTimeWithAZone(text: String) {
        #expect(ISO8601DateTime.parse(text) == nil)
    }

    @Test func leapYearsFollowTheGregorianRule() {
        #expect(ISO8601DateTime.parse("2024-02-29T00:00:00Z") != nil)
        #expect(ISO8601DateTime.parse("2000-02-29T00:00:00Z") != nil)
        #expect(ISO8601DateTime.parse("2100-02-29T00:00:00Z") == nil)
        #expect(ISO8601DateTime.parse("1900-02-29T00:00:00Z") == nil)
    }

    @Test func formatsInUTCWithMillisecondsOnlyWhenNeeded() {
        #expect(ISO8601DateTime.format(Date(timeIntervalSince1970: 1_784_021_465)) == "2026-07-14T09:31:05Z")
        #expect(ISO8601DateTime.format(Date(timeIntervalSince1970: 1_784_021_465.25)) == "2026-07-14T09:31:05.250Z")
        #expect(ISO8601DateTime.format(Date(timeIntervalSince1970: -0.001)) == "1969-12-31T23:59:59.999Z")
        #expect(ISO8601DateTime.format(Date(timeIntervalSince1970: 1_784_021_465.9996)) == "2026-07-14T09:31:06Z")
    }

    /// Foundation's `ISO8601DateFormatter` is an independent implementation: both must name the
    /// same instants, in both directions.
    @Test func agreesWithFoundationsFormatter() async {
        await propertyCheck(count: 500, input: Gen.int(in: -2_208_988_800 ... 4_102_444_800), Gen.int(in: 0...999)) { seconds, millis in
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            let date = Date(timeIntervalSince1970: Double(seconds) + Double(millis) / 1000)
            let ours = ISO8601DateTime.format(date)
            let theirs = formatter.date(from: ours.contains(".") ? ours : ours.replacingOccurrences(of: "Z", with: ".000Z"))
            #expect(theirs.map { abs($0.timeIntervalSince(date)) < 1e-6 } == true, "\(ours)")
            let parsed = ISO8601DateTime.parse(formatter.string(from: date))
            #expect(parsed.map { abs($0.timeIntervalSince(date)) < 1e-6 } == true)
        }
    }
}
