import Foundation

/// Opens a log of any importable ``LogFormat`` as a stream of ``ImportedRecord``s: the input side
/// of `tapseek batch`. JSON Lines are not imported here: their lines go to ``ReadingDecoder``.
public enum LogImport {
    /// Opens the log at `path`: a file, or a Sensor Logger / phyphox export folder or zip.
    /// - Parameter location: the position of every record, replacing the log's own (a log
    ///   recorded at a known spot; a Sensor Logger export then needs no `Location.csv`).
    /// - Throws: `.unsupportedLog` when the path does not hold that format (or is JSON Lines),
    ///   `.unreadable` when it cannot be read.
    public static func open(path: String, format: LogFormat, location: Reading.Location? = nil) throws(ImportError) -> any ImportedRecordSource {
        relocated(try open(path: path, format: format, fixedLocation: location), to: location)
    }

    /// Opens a single stream (a file or standard input) of a single-file format; `location` as
    /// for ``open(path:format:location:)``.
    public static func open(lines: LineReader, format: LogFormat, phyphoxTimeline: PhyphoxTimeline? = nil,
                            location: Reading.Location?) throws(ImportError) -> any ImportedRecordSource {
        relocated(try open(lines: lines, format: format, phyphoxTimeline: phyphoxTimeline), to: location)
    }

    private static func relocated(_ records: some ImportedRecordSource, to location: Reading.Location?) -> any ImportedRecordSource {
        guard let location else { return records }
        return RelocatedRecords(base: records, location: location)
    }

    private static func open(path: String, format: LogFormat, fixedLocation: Reading.Location?) throws(ImportError) -> any ImportedRecordSource {
        if let members = try members(path: path) {
            switch format {
            case .sensorlogger:
                return try SensorLoggerImporter(members: members, fixedLocation: fixedLocation)
            case .phyphox:
                guard let location = members.member(named: "Location.csv") else {
                    throw ImportError(.unsupportedLog, "\(path): phyphox export has no Location.csv")
                }
                let timeline = try members.member(named: "time.csv", in: "meta")
                    .map { name throws(ImportError) in try PhyphoxTimeline(lines: members.lines(of: name)) }
                return try PhyphoxImporter(lines: members.lines(of: location), timeline: timeline)
            default:
                throw ImportError(.unsupportedLog, "\(path) is a folder or archive; only Sensor Logger and phyphox exports come so")
            }
        }
        let lines: LineReader
        do { lines = try LineReader(path: path) } catch { throw ImportError(error) }
        var timeline: PhyphoxTimeline?
        if format == .phyphox {
            // A location CSV taken out of its export still finds the export's clock beside it.
            let meta = (path as NSString).deletingLastPathComponent + "/meta/time.csv"
            if FileManager.default.fileExists(atPath: meta) {
                let metaLines: LineReader
                do { metaLines = try LineReader(path: meta) } catch { throw ImportError(error) }
                timeline = try PhyphoxTimeline(lines: metaLines)
            }
        }
        return try open(lines: lines, format: format, phyphoxTimeline: timeline)
    }

    /// Opens a single stream (a file or standard input) of a single-file format.
    /// - Parameter phyphoxTimeline: the phyphox experiment's clock, when known.
    /// - Throws: `.unsupportedLog` for JSON Lines, and for a Sensor Logger stream that is not a
    ///   `Location.csv` (an `Orientation.csv` alone has no positions).
    public static func open(lines: LineReader, format: LogFormat,
                            phyphoxTimeline: PhyphoxTimeline? = nil) throws(ImportError) -> any ImportedRecordSource {
        switch format {
        case .jsonl:
            throw ImportError(.unsupportedLog, "JSON Lines are decoded line by line with ReadingDecoder, not imported")
        case .sensorlog:
            return try SensorLogImporter(lines: lines)
        case .gpslogger:
            return try GPSLoggerImporter(lines: lines)
        case .phyphox:
            return try PhyphoxImporter(lines: lines, timeline: phyphoxTimeline)
        case .sensorlogger:
            do {
                return try SensorLoggerImporter(orientation: nil, location: lines, platform: nil)
            } catch {
                throw ImportError(.unsupportedLog,
                                  "a single Sensor Logger file must be its Location.csv; pass the export folder to use Orientation.csv (\(error.message))")
            }
        }
    }

    /// The members of an export folder or zip archive, or nil when `path` is a plain file.
    static func members(path: String) throws(ImportError) -> (any LogMembers)? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ImportError(.unreadable, "\(path): no such file or directory")
        }
        if isDirectory.boolValue { return try DirectoryMembers(path: path) }
        return ZipMembers.isZip(path: path) ? try ZipMembers(path: path) : nil
    }
}
