import Foundation

/// Reads the CSV of GPSLogger for Android (mendhak): location-only readings, one per fix.
///
/// Columns by name: `time` (ISO 8601 UTC), `lat`, `lon`, `elevation`, `accuracy` (horizontal,
/// metres). `elevation` is the receiver's WGS84 **ellipsoidal** height, unless the user turned on
/// "subtract geoid height", which the CSV does not record; readings say `.ellipsoid`.
/// GPSLogger has no orientation, so every reading has `orientation == nil`. Lines before the
/// header (the published sample starts with a row count) are skipped.
public struct GPSLoggerImporter: ImportedRecordSource {
    private var rows: CSVRows
    private let time: CSVColumn?
    private let latitude: CSVColumn
    private let longitude: CSVColumn
    private let elevation: CSVColumn?
    private let accuracy: CSVColumn?

    /// Whether a header line is GPSLogger's: it has `lat`, `lon` and `time` columns.
    static func isHeader(_ header: CSVHeader) -> Bool {
        header.column("lat") != nil && header.column("lon") != nil && header.column("time") != nil
    }

    /// - Throws: `.unsupportedLog` when no GPSLogger header appears near the top.
    public init(lines: LineReader) throws(ImportError) {
        rows = try CSVRows(lines: lines, expected: "GPSLogger columns time, lat, lon", where: Self.isHeader)
        let h = rows.header
        time = h.column("time")
        latitude = h.column("lat")!
        longitude = h.column("lon")!
        elevation = h.column("elevation")
        accuracy = h.column("accuracy")
    }

    /// The next fix as a location-only reading, or the error record of its line; nil at the end.
    public mutating func next() throws(ImportError) -> ImportedRecord? {
        guard let row = try rows.next() else { return nil }
        switch row {
        case .failure(let error):
            return ImportedRecord(line: error.line ?? 0, time: nil, result: .failure(error))
        case .success(let row):
            do throws(ImportError) {
                let date = try row.date(time)
                let (lat, lon) = try row.coordinate(latitude: latitude, longitude: longitude)
                let location = Reading.Location(
                    latitude: lat, longitude: lon, altitude: try row.number(elevation, within: ReadingDecoder.altitudes, "metres"),
                    altitudeReference: .ellipsoid,
                    horizontalAccuracy: try row.number(accuracy, within: ReadingDecoder.locationAccuracies, "metres",
                                                       isInvalid: { $0 < 0 }))
                return ImportedRecord(line: row.line, time: date, result: .success(Reading(time: date, location: location)))
            } catch {
                return ImportedRecord(line: row.line, time: nil, result: .failure(error))
            }
        }
    }
}

extension CSVRow {
    /// An ISO 8601 date-time with an offset (or `Z`) in `column`; nil when the column is absent
    /// or the field empty.
    /// - Throws: `.invalidValue` when the text is not such a date-time.
    func date(_ column: CSVColumn?) throws(ImportError) -> Date? {
        guard let column else { return nil }
        let field = text(column)
        if field.isEmpty { return nil }
        guard let stamp = LogTimestamp(field), let date = stamp.date else {
            throw ImportError(.invalidValue, line: line, column: column.name,
                              "\(ImportError.quoted(field)) is not a date-time with a UTC offset")
        }
        return date
    }
}
