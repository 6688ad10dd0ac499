import ArgumentParser
import TapSeek

/// `--location LAT,LON[,ALT]` of `batch` and `report`: where a log was recorded, for logs
/// without positions (a Sensor Logger export without `Location.csv`). Every reading takes it,
/// replacing the log's own position.
enum FixedLocation {
    static let help = ArgumentHelp(
        "Where the log was recorded, LAT,LON[,ALT] (degrees; ALT metres above mean sea level, else the observer stands on the terrain): every reading's position, replacing the log's own; for logs without positions.",
        valueName: "lat,lon[,alt]")

    /// The position `text` gives.
    /// - Throws: `ValidationError` (status 2) naming `--location` and what is wrong.
    static func parse(_ text: String) throws -> Reading.Location {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        func fail(_ why: String) -> ValidationError {
            ValidationError("--location must be LAT,LON or LAT,LON,ALT (degrees, metres above mean sea level): \(why), got \"\(text)\"")
        }
        guard parts.count == 2 || parts.count == 3 else { throw fail("\(parts.count) value(s)") }
        guard let latitude = Double(parts[0]), latitude.isFinite, abs(latitude) <= 90 else { throw fail("latitude must be within −90…90") }
        guard let longitude = Double(parts[1]), longitude.isFinite, abs(longitude) <= 180 else {
            throw fail("longitude must be within −180…180")
        }
        var altitude: Double?
        if parts.count == 3 {
            guard let a = Double(parts[2]), a.isFinite, (-1000...50_000).contains(a) else { throw fail("altitude must be within −1000…50000 metres") }
            altitude = a
        }
        return Reading.Location(latitude: latitude, longitude: longitude, altitude: altitude)
    }
}
