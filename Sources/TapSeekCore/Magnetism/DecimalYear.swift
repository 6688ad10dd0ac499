import Foundation

/// The year of `date` as a real number, the time argument of the World Magnetic Model: the UTC
/// calendar year plus the elapsed fraction of that year (a leap year has 366 days), so
/// 2025-01-01T00:00:00Z is 2025.0, 2026-07-02T12:00:00Z is 2026.5 and, in a leap year,
/// 2028-07-02T00:00:00Z is 2028.5.
///
/// Resolution: far below a second. (Declination drifts by a few tenths of a degree per year at
/// most away from the magnetic poles, so even a day's error would cost only ~0.001°.)
public func decimalYear(_ date: Date) -> Double {
    UTCCalendar.decimalYear(date)
}
