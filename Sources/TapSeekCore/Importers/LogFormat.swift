import Foundation

/// The kinds of input `tapseek batch --format` accepts, and their recognition (`--format auto`).
public enum LogFormat: String, Sendable, Hashable, CaseIterable {
    /// Reading JSON objects, one per line (decoded by ``ReadingDecoder``, not by an importer).
    case jsonl
    /// SensorLog (iOS) wide CSV.
    case sensorlog
    /// Sensor Logger export: a folder or zip of per-sensor CSVs, or its `Location.csv` alone.
    case sensorlogger
    /// phyphox location export: a folder or zip with `meta/time.csv`, or its location CSV alone.
    case phyphox
    /// GPSLogger for Android CSV.
    case gpslogger

    /// Lines examined for a header: the tolerated leading lines plus the header itself.
    static let detectionLines = CSVHeader.maximumLeadingLines + 1

    /// Recognises a stream from its first lines, leaving them unread for the importer:
    /// JSON Lines when the first non-blank character is `{`, else the first line that is one of
    /// the known CSV headers (after up to 16 leading lines of anything).
    /// - Throws: `.unsupportedLog` when nothing matches, `.unreadable` when reading fails.
    public static func detect(_ lines: inout LineReader) throws(ImportError) -> LogFormat {
        let head: [Line]
        do { head = try lines.peek(detectionLines) } catch { throw ImportError(error) }
        var sawText = false
        for line in head {
            guard let text = line.text else { continue }
            let trimmed = text.trimmingASCIISpaces
            if trimmed.isEmpty { continue }
            if !sawText, trimmed.hasPrefix("{") { return .jsonl }
            sawText = true
            if let format = csvFormat(header: CSVHeader(line: text)) { return format }
        }
        throw ImportError(.unsupportedLog,
                          "unrecognised log: no JSON object and no SensorLog, Sensor Logger, phyphox or GPSLogger header in the first \(detectionLines) lines")
    }

    /// Recognises a multi-file export by its members: phyphox has `meta/time.csv`; Sensor Logger
    /// has `Location.csv` or `Orientation.csv`.
    public static func detect(members: some LogMembers) -> LogFormat? {
        if members.member(named: "time.csv", in: "meta") != nil { return .phyphox }
        if members.member(named: "Location.csv") != nil || members.member(named: "Orientation.csv") != nil {
            return .sensorlogger
        }
        return nil
    }

    /// Recognises the log at `path`: a directory or zip by its members, a single file by its header.
    /// - Throws: `.unsupportedLog` when unrecognised, `.unreadable` when it cannot be read.
    public static func detect(path: String) throws(ImportError) -> LogFormat {
        if let members = try LogImport.members(path: path) {
            guard let format = detect(members: members) else {
                throw ImportError(.unsupportedLog, "\(path): neither a Sensor Logger nor a phyphox export (no Location.csv, Orientation.csv or meta/time.csv)")
            }
            return format
        }
        var lines: LineReader
        do { lines = try LineReader(path: path) } catch { throw ImportError(error) }
        return try detect(&lines)
    }

    static func csvFormat(header: CSVHeader) -> LogFormat? {
        if SensorLogImporter.isHeader(header) { return .sensorlog }
        if GPSLoggerImporter.isHeader(header) { return .gpslogger }
        if PhyphoxImporter.isHeader(header) { return .phyphox }
        if SensorLoggerImporter.LocationRows.isHeader(header) || header.column("seconds_elapsed") != nil {
            return .sensorlogger
        }
        return nil
    }
}
