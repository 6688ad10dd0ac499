import Foundation

/// ISO 8601 / RFC 3339 date-times in UTC or with a UTC offset, the `time` of a reading:
/// `2026-07-14T09:31:05Z`, `2026-07-14T09:31:05.250+02:00`.
///
/// Parsing is strict about the shape and the calendar (month 1–12, a day that exists in that
/// month, hour 0–23, minute 0–59, second 0–60) and requires a zone designator, because a
/// date-time without one names no instant. Accepted variations: `t` or a space for `T`, `z` for
/// `Z`, seconds omitted, any number of fraction digits, offsets `±hh:mm`, `±hhmm` or `±hh`.
/// A leap second `:60` counts as the first instant of the next minute (POSIX time has none).
/// Hand-written instead of `ISO8601DateFormatter`, which is slow, not `Sendable`, and lenient in
/// ways a data contract should not be.
public enum ISO8601DateTime {
    /// The instant a date-time names, or nil if `text` is not one.
    public static func parse(_ text: String) -> Date? {
        var copy = text
        return copy.withUTF8 { parse(utf8: $0) }
    }

    /// The instant named by UTF-8 text, or nil if it is not an ISO 8601 date-time with a zone,
    /// or names an instant outside the UTC years 0000–9999 that ``format(_:)`` writes.
    public static func parse(utf8 s: UnsafeBufferPointer<UInt8>) -> Date? {
        var i = 0
        func number(_ width: Int) -> Int? {
            guard i + width <= s.count else { return nil }
            var v = 0
            for k in i..<(i + width) {
                let b = s[k]
                guard b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") else { return nil }
                v = v * 10 + Int(b - UInt8(ascii: "0"))
            }
            i += width
            return v
        }
        func take(_ c: UInt8) -> Bool {
            guard i < s.count, s[i] == c else { return false }
            i += 1
            return true
        }

        guard let year = number(4), take(UInt8(ascii: "-")), let month = number(2), take(UInt8(ascii: "-")),
              let day = number(2), (1...12).contains(month), day >= 1,
              day <= UTCCalendar.daysInMonth(month, year: year) else { return nil }
        guard take(UInt8(ascii: "T")) || take(UInt8(ascii: "t")) || take(UInt8(ascii: " ")) else { return nil }
        guard let hour = number(2), take(UInt8(ascii: ":")), let minute = number(2),
              hour <= 23, minute <= 59 else { return nil }
        var seconds = 0.0
        if take(UInt8(ascii: ":")) {
            guard let whole = number(2), whole <= 60 else { return nil }
            seconds = Double(whole)
            if take(UInt8(ascii: ".")) || take(UInt8(ascii: ",")) {
                // Nanoseconds are as fine as `Date` resolves; further digits are read and dropped.
                var fraction = 0, digits = 0, divisor = 1
                while i < s.count, s[i] >= UInt8(ascii: "0"), s[i] <= UInt8(ascii: "9") {
                    if digits < 9 {
                        fraction = fraction * 10 + Int(s[i] - UInt8(ascii: "0"))
                        divisor *= 10
                    }
                    digits += 1
                    i += 1
                }
                guard digits > 0 else { return nil }
                seconds += Double(fraction) / Double(divisor)
            }
        }
        var offsetMinutes = 0
        if take(UInt8(ascii: "Z")) || take(UInt8(ascii: "z")) {
            offsetMinutes = 0
        } else if i < s.count, s[i] == UInt8(ascii: "+") || s[i] == UInt8(ascii: "-") {
            let sign = s[i] == UInt8(ascii: "-") ? -1 : 1
            i += 1
            guard let oh = number(2), oh <= 23 else { return nil }
            var om = 0
            if i < s.count {
                _ = take(UInt8(ascii: ":"))
                guard let m = number(2), m <= 59 else { return nil }
                om = m
            }
            offsetMinutes = sign * (oh * 60 + om)
        } else {
            return nil
        }
        guard i == s.count else { return nil }

        let days = UTCCalendar.daysSinceUnixEpoch(year: year, month: month, day: day)
        let local = Double(days) * UTCCalendar.secondsPerDay + Double(hour * 3600 + minute * 60) + seconds
        let instant = local - Double(offsetMinutes * 60)
        // A zone offset can carry 0000-01-01 or 9999-12-31 out of the years `format` writes.
        guard writableSeconds.contains(instant) else { return nil }
        return Date(timeIntervalSince1970: instant)
    }

    /// Seconds since 1970 of the instants ``format(_:)`` can write: 0000-01-01T00:00:00Z up to
    /// 9999-12-31T23:59:59.999Z. ``parse(utf8:)`` and the importers refuse times outside.
    public static let writableSeconds: ClosedRange<Double> =
        Double(UTCCalendar.daysSinceUnixEpoch(year: 0, month: 1, day: 1)) * UTCCalendar.secondsPerDay
        ... Double(UTCCalendar.daysSinceUnixEpoch(year: 10_000, month: 1, day: 1)) * UTCCalendar.secondsPerDay - 0.001

    /// `date` as `YYYY-MM-DDThh:mm:ssZ` in UTC, with milliseconds (`.sssZ`) when it is not a
    /// whole second. Rounds to the millisecond; years 0000–9999.
    public static func format(_ date: Date) -> String {
        let totalMilliseconds = (date.timeIntervalSince1970 * 1000).rounded()
        let dayNumber = Int((totalMilliseconds / 86_400_000).rounded(.down))
        let ms = Int(totalMilliseconds - Double(dayNumber) * 86_400_000)
        let (year, month, day) = UTCCalendar.civilDate(daysSinceUnixEpoch: dayNumber)
        let hour = ms / 3_600_000, minute = ms / 60_000 % 60, second = ms / 1000 % 60, fraction = ms % 1000
        var text = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", year, month, day, hour, minute, second)
        if fraction != 0 { text += String(format: ".%03d", fraction) }
        return text + "Z"
    }
}
