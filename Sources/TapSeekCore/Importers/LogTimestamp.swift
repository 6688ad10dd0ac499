import Foundation

/// A date-time string as sensor apps write them: `2017-08-13T08:52:26.000Z` (GPSLogger),
/// `2018-04-08 10:31:37.097` (SensorLog's local `loggingTime`, no offset), `… -0500`, `…+02:00`.
///
/// Parsed by hand rather than with `DateFormatter`/`ISO8601DateFormatter`, which are slow on
/// Linux and need a locale; logs hold millions of rows.
struct LogTimestamp: Sendable, Hashable {
    /// Seconds since 1970-01-01 of the written wall-clock time read as if it were UTC.
    var wallClockSeconds: Double
    /// The written offset from UTC in seconds (east positive), when the string has one.
    var utcOffset: Double?

    /// The instant, when the offset is known.
    var date: Date? {
        utcOffset.map { Date(timeIntervalSince1970: wallClockSeconds - $0) }
    }

    /// Parses `YYYY-MM-DD[T| ]hh:mm[:ss[.fraction]][Z|±hh[:mm]|±hhmm]`, blanks allowed before the
    /// offset; nil when the text does not match or a field is out of range.
    init?(_ text: Substring) {
        var s = Scanner(Array(text.utf8))
        guard let year = s.digits(4), s.skip("-"), let month = s.digits(2), s.skip("-"), let day = s.digits(2),
              s.skip("T") || s.skip("t") || s.skip(" "),
              let hour = s.digits(2), s.skip(":"), let minute = s.digits(2)
        else { return nil }
        var second = 0.0
        if s.skip(":") {
            guard let whole = s.digits(2) else { return nil }
            second = Double(whole)
            if s.skip(".") || s.skip(",") {
                var scale = 0.1
                var any = false
                while let d = s.digits(1) {
                    second += Double(d) * scale
                    scale /= 10
                    any = true
                }
                guard any else { return nil }
            }
        }
        guard (1...12).contains(month), (1...UTCCalendar.daysInMonth(month, year: year)).contains(day),
              hour <= 24, minute <= 59, second < 61 else { return nil }
        let days = UTCCalendar.daysSinceUnixEpoch(year: year, month: month, day: day)
        wallClockSeconds = Double(days) * UTCCalendar.secondsPerDay + Double(hour * 3600 + minute * 60) + second
        while s.skip(" ") {}
        if s.atEnd {
            utcOffset = nil
            return
        }
        if s.skip("Z") || s.skip("z") {
            utcOffset = 0
        } else {
            let sign: Double
            if s.skip("+") { sign = 1 } else if s.skip("-") { sign = -1 } else { return nil }
            guard let hours = s.digits(2), hours <= 18 else { return nil }
            _ = s.skip(":")
            let minutes = s.digits(2) ?? 0
            guard minutes <= 59 else { return nil }
            utcOffset = sign * Double(hours * 3600 + minutes * 60)
        }
        guard s.atEnd else { return nil }
    }

    /// A cursor over ASCII bytes.
    private struct Scanner {
        let bytes: [UInt8]
        var i = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }
        var atEnd: Bool { i == bytes.count }

        mutating func skip(_ c: Unicode.Scalar) -> Bool {
            guard i < bytes.count, bytes[i] == UInt8(ascii: c) else { return false }
            i += 1
            return true
        }

        /// Exactly `count` decimal digits as a number.
        mutating func digits(_ count: Int) -> Int? {
            guard i + count <= bytes.count else { return nil }
            var value = 0
            for k in i..<(i + count) {
                let b = bytes[k]
                guard b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(b - UInt8(ascii: "0"))
            }
            i += count
            return value
        }
    }
}
