import Foundation
import PropertyBased
import Testing
@testable import TapSeekCore

@Suite struct UTCCalendarTests {
    /// Foundation's Gregorian calendar in UTC is the independent reference.
    static func foundationCivilDate(days: Int) -> (Int, Int, Int) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let c = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: Double(days) * 86_400))
        return (c.year!, c.month!, c.day!)
    }

    @Test func civilDatesAgreeWithFoundationAndRoundTrip() async {
        // 1600-01-01 … 2400-12-31, both sides of the epoch and several 400-year cycles.
        await propertyCheck(count: 1000, input: Gen.int(in: -135_140 ... 157_099)) { days in
            let ours = UTCCalendar.civilDate(daysSinceUnixEpoch: days)
            let theirs = Self.foundationCivilDate(days: days)
            #expect(ours.year == theirs.0 && ours.month == theirs.1 && ours.day == theirs.2, "day \(days)")
            #expect(UTCCalendar.daysSinceUnixEpoch(year: ours.year, month: ours.month, day: ours.day) == days)
        }
    }

    @Test func knownDays() {
        #expect(UTCCalendar.daysSinceUnixEpoch(year: 1970, month: 1, day: 1) == 0)
        #expect(UTCCalendar.daysSinceUnixEpoch(year: 2000, month: 3, day: 1) == 11_017)
        #expect(UTCCalendar.daysSinceUnixEpoch(year: 1969, month: 12, day: 31) == -1)
        #expect(UTCCalendar.civilDate(daysSinceUnixEpoch: 11_016) == (2000, 2, 29))
    }

    @Test func decimalYearsCountTheElapsedFractionOfTheYear() throws {
        func year(_ text: String) throws -> Double { decimalYear(try #require(ISO8601DateTime.parse(text))) }
        #expect(try year("2025-01-01T00:00:00Z") == 2025.0)
        #expect(try year("2026-07-02T12:00:00Z") == 2026.5)           // 182.5 of 365 days
        #expect(try year("2028-07-02T00:00:00Z") == 2028.5)           // 183 of 366 days
        #expect(abs(try year("2029-12-31T23:59:59Z") - (2030 - 1 / (365 * 86_400.0))) < 1e-12)
        #expect(try year("2030-01-01T00:00:00Z") == 2030.0)
    }
}
