import Foundation

/// Reads phyphox's location export (`Location.csv` of the "Location (GPS)" experiment): location-only
/// readings, one per sample.
///
/// Columns by name, units aside: `Time (s)` (experiment time, see ``PhyphoxTimeline``),
/// `Latitude (°)`, `Longitude (°)`, `Height (m)` (about mean sea level: iOS reports it so; on
/// Android phyphox subtracts the EGM84 geoid, which differs from EGM96 by at most a few metres, so
/// readings say `.msl`), `Horizontal Accuracy (m)`, `Vertical Accuracy (°)` (despite the label,
/// metres). Comma, semicolon (decimal comma) and tab exports all read. NaN marks a missing value;
/// a row without a position becomes an error record.
public struct PhyphoxImporter: ImportedRecordSource {
    private var rows: CSVRows
    private let timeline: PhyphoxTimeline?
    private let time: CSVColumn
    private let latitude: CSVColumn
    private let longitude: CSVColumn
    private let height: CSVColumn?
    private let horizontalAccuracy: CSVColumn?
    private let verticalAccuracy: CSVColumn?

    /// Whether a header line is phyphox's location table.
    static func isHeader(_ header: CSVHeader) -> Bool {
        header.column(prefix: "Time (s)") != nil && header.column(prefix: "Latitude") != nil
            && header.column(prefix: "Longitude") != nil
    }

    /// - Parameter timeline: the experiment's `meta/time.csv`; without it records have no time
    ///   (their position is still right, and location-only readings need no date).
    /// - Throws: `.unsupportedLog` when no phyphox location header appears near the top.
    public init(lines: LineReader, timeline: PhyphoxTimeline?) throws(ImportError) {
        rows = try CSVRows(lines: lines, expected: "phyphox columns Time (s), Latitude, Longitude", where: Self.isHeader)
        self.timeline = timeline
        let h = rows.header
        time = h.column(prefix: "Time (s)")!
        latitude = h.column(prefix: "Latitude")!
        longitude = h.column(prefix: "Longitude")!
        height = h.column(prefix: "Height")
        horizontalAccuracy = h.column(prefix: "Horizontal Accuracy")
        verticalAccuracy = h.column(prefix: "Vertical Accuracy")
    }

    /// The next sample as a location-only reading, or the error record of its line; nil at the end.
    public mutating func next() throws(ImportError) -> ImportedRecord? {
        guard let row = try rows.next() else { return nil }
        switch row {
        case .failure(let error):
            return ImportedRecord(line: error.line ?? 0, time: nil, result: .failure(error))
        case .success(let row):
            do throws(ImportError) {
                let t = try row.number(time)
                let date = try timeline.flatMap { tl throws(ImportError) in
                    try row.date(unixSeconds: t.map { tl.unixSeconds(experimentTime: $0) }, column: time)
                }
                let (lat, lon) = try row.coordinate(latitude: latitude, longitude: longitude)
                let location = Reading.Location(
                    latitude: lat, longitude: lon, altitude: try row.number(height, within: ReadingDecoder.altitudes, "metres"),
                    altitudeReference: .msl,
                    horizontalAccuracy: try row.number(horizontalAccuracy, within: ReadingDecoder.locationAccuracies, "metres",
                                                       isInvalid: { $0 < 0 }),
                    verticalAccuracy: try row.number(verticalAccuracy, within: ReadingDecoder.locationAccuracies, "metres",
                                                     isInvalid: { $0 < 0 }))
                return ImportedRecord(line: row.line, time: date, result: .success(Reading(time: date, location: location)))
            } catch {
                return ImportedRecord(line: row.line, time: nil, result: .failure(error))
            }
        }
    }
}
