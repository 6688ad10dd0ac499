import Foundation

/// Proleptic Gregorian calendar arithmetic in UTC, without Foundation's `Calendar` (which is
/// slow on Linux and needs a time-zone database): the reading decoder parses millions of
/// timestamps and the magnetic model needs decimal years. Leap seconds are not counted, as in
/// POSIX time and `Date`.
enum UTCCalendar {
    static let secondsPerDay = 86_400.0

    /// Days in the 400-year Gregorian cycle.
    private static let daysPer400Years = 146_097
    /// Days from 0000-03-01 (the start of the cycle used below) to 1970-01-01.
    private static let daysFromCycleStartToUnixEpoch = 719_468

    static func isLeapYear(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    static func daysInMonth(_ month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 of a valid civil date (month 1…12, day 1…days in month).
    ///
    /// Counts years from March so that the leap day falls at the end of the counting year; then
    /// the day of that year follows from the month by the linear rule (153·m + 2) / 5, which
    /// reproduces the 31/30 pattern from March to February.
    static func daysSinceUnixEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthFromMarch = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * daysPer400Years + dayOfEra - daysFromCycleStartToUnixEpoch
    }

    /// The civil date of a day counted from 1970-01-01; the inverse of ``daysSinceUnixEpoch``.
    static func civilDate(daysSinceUnixEpoch days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + daysFromCycleStartToUnixEpoch
        let era = (z >= 0 ? z : z - daysPer400Years + 1) / daysPer400Years
        let dayOfEra = z - era * daysPer400Years
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthFromMarch = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
        let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    /// The year as a real number: the calendar year plus the fraction of it elapsed at `date`
    /// (UTC), counting a 366-day year in leap years. 2025-01-01T00:00:00Z → 2025.0.
    static func decimalYear(_ date: Date) -> Double {
        let t = date.timeIntervalSince1970
        let dayNumber = Int((t / secondsPerDay).rounded(.down))
        let year = civilDate(daysSinceUnixEpoch: dayNumber).year
        let start = Double(daysSinceUnixEpoch(year: year, month: 1, day: 1)) * secondsPerDay
        let length = (isLeapYear(year) ? 366.0 : 365.0) * secondsPerDay
        return Double(year) + (t - start) / length
    }
}
