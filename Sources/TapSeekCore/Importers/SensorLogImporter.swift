import Foundation

/// Reads the wide CSV of SensorLog for iOS (Bernd Thomas): one reading per row, joining the
/// row's CoreLocation fix, CLHeading and CoreMotion attitude (SensorLog writes the latest value
/// of every sensor on each row, so no time join is needed).
///
/// Columns are found by name without their unit suffix (`locationLatitude(WGS84)` →
/// `locationLatitude`), since they vary with app version and user choice:
/// - Position: `locationLatitude`, `locationLongitude`, `locationAltitude` (CoreLocation's
///   `altitude`: mean sea level → `.msl`), `locationHorizontalAccuracy`, `locationVerticalAccuracy`.
///   A negative horizontal accuracy marks the fix invalid (an error record); a negative vertical
///   accuracy, the altitude (then left out).
/// - Time: `loggingTime` is local wall-clock time without an offset; the offset is taken, once,
///   from the first row that also has a UTC `…Timestamp_since1970` value, rounded to 15 minutes
///   (time zones are whole quarter hours; a sensor sample is never that stale). A `loggingTime`
///   that carries its own offset is used as written.
/// - Attitude: `motionQuaternionX…W`, else `motionYaw/Pitch/Roll`, in the frame named by
///   `motionAttitudeReferenceFrame` (see ``DeviceAttitude/coreMotion(quaternion:)``).
///   `XTrueNorthZVertical` gives true headings, `XMagneticNorthZVertical` magnetic ones.
///   `XArbitrary…` frames have an arbitrary north, fixed by CLHeading: since CLHeading measures
///   along the device's top edge, camera azimuth = heading + az(−z) − az(+y). The offset
///   heading − az(+y) is measured on rows whose top edge is within
///   ``maximumTopEdgeElevation`` of horizontal and carried forward to rows where it is not (it
///   describes the frame, which stays put), so a camera held upright still gets a heading.
///   `locationTrueHeading` is used when valid, else `locationMagneticHeading` (`.magnetic`).
///   A magnetic heading on a row without a time is an error record, as in reading JSON.
/// - A row holds the latest sample of each sensor, so its CLHeading and attitude may be up to one
///   logging period apart (0.1 s at SensorLog's usual 10 Hz): a phone turning fast costs that
///   much turn in heading.
/// - −9999 is "no value" in every column; −1 (any negative) in accuracies, headings and
///   timestamps, as CoreLocation marks invalid values.
///
/// A log without attitude columns yields location-only readings; so do rows in an
/// `XArbitrary…` frame when the log has no heading columns at all.
public struct SensorLogImporter: ImportedRecordSource {
    /// The steepest top edge, degrees above or below the horizon, on which CLHeading's top-edge
    /// azimuth is trusted: past it the azimuth of +y is ill-conditioned (error ∝ 1/cos elevation)
    /// and the reading reported by iOS for near-vertical phones is undocumented.
    public static let maximumTopEdgeElevation = 60.0
    /// Time zones are whole quarter hours (UTC−12 … UTC+14).
    static let timeZoneGranularity = 900.0
    /// SensorLog's "no value" for every column.
    static let missingSentinel = -9999.0

    private var rows: CSVRows
    private let columns: Columns
    private var utcOffset: Double?
    private var northOffset: NorthOffset?

    /// How far the arbitrary attitude frame's x axis is turned from north, as last measured.
    private struct NorthOffset {
        var degrees: Double
        var reference: Reading.HeadingReference
        var frame: String
    }

    private struct Columns {
        var loggingTime, locationTimestamp, headingTimestamp: CSVColumn?
        var latitude, longitude: CSVColumn
        var altitude, horizontalAccuracy, verticalAccuracy: CSVColumn?
        var trueHeading, magneticHeading, headingAccuracy: CSVColumn?
        var quaternion: (x: CSVColumn, y: CSVColumn, z: CSVColumn, w: CSVColumn)?
        var euler: (yaw: CSVColumn, pitch: CSVColumn, roll: CSVColumn)?
        var frame: CSVColumn?

        init(_ h: CSVHeader) {
            loggingTime = h.column(base: "loggingTime")
            locationTimestamp = h.column(base: "locationTimestamp_since1970")
            headingTimestamp = h.column(base: "locationHeadingTimestamp_since1970")
            latitude = h.column(base: "locationLatitude")!
            longitude = h.column(base: "locationLongitude")!
            altitude = h.column(base: "locationAltitude")
            horizontalAccuracy = h.column(base: "locationHorizontalAccuracy")
            verticalAccuracy = h.column(base: "locationVerticalAccuracy")
            trueHeading = h.column(base: "locationTrueHeading")
            magneticHeading = h.column(base: "locationMagneticHeading")
            headingAccuracy = h.column(base: "locationHeadingAccuracy")
            if let x = h.column(base: "motionQuaternionX"), let y = h.column(base: "motionQuaternionY"),
               let z = h.column(base: "motionQuaternionZ"), let w = h.column(base: "motionQuaternionW") {
                quaternion = (x, y, z, w)
            }
            if let yaw = h.column(base: "motionYaw"), let pitch = h.column(base: "motionPitch"),
               let roll = h.column(base: "motionRoll") {
                euler = (yaw, pitch, roll)
            }
            frame = h.column(base: "motionAttitudeReferenceFrame")
        }
    }

    /// Whether a header line is SensorLog's.
    static func isHeader(_ header: CSVHeader) -> Bool {
        header.column(base: "locationLatitude") != nil && header.column(base: "locationLongitude") != nil
    }

    /// - Throws: `.unsupportedLog` when no SensorLog header appears near the top.
    public init(lines: LineReader) throws(ImportError) {
        rows = try CSVRows(lines: lines, expected: "SensorLog columns locationLatitude, locationLongitude",
                           where: Self.isHeader)
        columns = Columns(rows.header)
    }

    /// The next row as a reading, or the error record of its line; nil at the end.
    public mutating func next() throws(ImportError) -> ImportedRecord? {
        guard let row = try rows.next() else { return nil }
        switch row {
        case .failure(let error):
            return ImportedRecord(line: error.line ?? 0, time: nil, result: .failure(error))
        case .success(let row):
            var date: Date?
            do throws(ImportError) {
                date = try time(of: row)
                let reading = Reading(time: date, location: try location(of: row), orientation: try orientation(of: row))
                if reading.orientation?.headingReference == .magnetic, date == nil {
                    // As the reading decoder requires: without a time there is no declination.
                    throw ImportError(.missingValue, line: row.line,
                                      "no time on this row, and its heading is magnetic: a time is needed to turn it to true north")
                }
                return ImportedRecord(line: row.line, time: date, result: .success(reading))
            } catch {
                return ImportedRecord(line: row.line, time: date, result: .failure(error))
            }
        }
    }

    private static func isMissing(_ v: Double) -> Bool { v == missingSentinel }
    private static func isInvalidOrNegative(_ v: Double) -> Bool { v < 0 }

    private mutating func time(of row: CSVRow) throws(ImportError) -> Date? {
        let c = columns
        let stamps = [try row.number(c.locationTimestamp, isInvalid: Self.isInvalidOrNegative),
                      try row.number(c.headingTimestamp, isInvalid: Self.isInvalidOrNegative)].compactMap { $0 }
        guard let column = c.loggingTime, !row.text(column).isEmpty else {
            guard let stampColumn = c.locationTimestamp ?? c.headingTimestamp else { return nil }
            return try row.date(unixSeconds: stamps.max(), column: stampColumn)
        }
        guard let wall = LogTimestamp(row.text(column)) else {
            throw ImportError(.invalidValue, line: row.line, column: column.name,
                              "\(ImportError.quoted(row.text(column))) is not a date-time")
        }
        if let date = wall.date { return try row.date(unixSeconds: date.timeIntervalSince1970, column: column) }
        if utcOffset == nil, let latest = stamps.max() {
            utcOffset = ((wall.wallClockSeconds - latest) / Self.timeZoneGranularity).rounded() * Self.timeZoneGranularity
        }
        return try row.date(unixSeconds: utcOffset.map { wall.wallClockSeconds - $0 }, column: column)
    }

    private func location(of row: CSVRow) throws(ImportError) -> Reading.Location {
        let c = columns
        let horizontal = try row.number(c.horizontalAccuracy, within: -.infinity...ReadingDecoder.locationAccuracies.upperBound,
                                        "metres", isInvalid: Self.isMissing)
        if let horizontal, horizontal < 0, let column = c.horizontalAccuracy {
            throw ImportError(.missingValue, line: row.line, column: column.name,
                              "negative: CoreLocation marks the position invalid")
        }
        let (lat, lon) = try row.coordinate(latitude: c.latitude, longitude: c.longitude, isInvalid: Self.isMissing)
        let vertical = try row.number(c.verticalAccuracy, within: -.infinity...ReadingDecoder.locationAccuracies.upperBound,
                                      "metres", isInvalid: Self.isMissing)
        let altitudeValid = vertical.map { $0 >= 0 } ?? true
        let altitude = altitudeValid ? try row.number(c.altitude, within: ReadingDecoder.altitudes, "metres", isInvalid: Self.isMissing) : nil
        return Reading.Location(latitude: lat, longitude: lon, altitude: altitude, altitudeReference: .msl,
                                horizontalAccuracy: horizontal, verticalAccuracy: altitudeValid ? vertical : nil)
    }

    private mutating func orientation(of row: CSVRow) throws(ImportError) -> Reading.Orientation? {
        let c = columns
        var attitude: DeviceAttitude
        if let q = c.quaternion {
            let raw = Quaternion(x: try row.required(q.x, isInvalid: Self.isMissing), y: try row.required(q.y, isInvalid: Self.isMissing),
                                 z: try row.required(q.z, isInvalid: Self.isMissing), w: try row.required(q.w, isInvalid: Self.isMissing))
            guard let unit = raw.normalized else {
                throw ImportError(.invalidValue, line: row.line, column: q.w.name,
                                  "quaternion length \(raw.norm) is not 1: not a rotation")
            }
            attitude = .coreMotion(quaternion: unit)
        } else if let e = c.euler {
            attitude = .coreMotion(yaw: try row.required(e.yaw, isInvalid: Self.isMissing),
                                   pitch: try row.required(e.pitch, isInvalid: Self.isMissing),
                                   roll: try row.required(e.roll, isInvalid: Self.isMissing))
        } else {
            return nil
        }
        let frame = c.frame.map { String(row.text($0)) } ?? ""
        let headingAccuracy = try row.number(c.headingAccuracy, within: ReadingDecoder.angularAccuracies, "degrees",
                                             isInvalid: Self.isInvalidOrNegative)
        let reference: Reading.HeadingReference
        switch frame.lowercased() {
        case "xtruenorthzvertical":
            reference = .true
        case "xmagneticnorthzvertical":
            reference = .magnetic
        default:
            guard c.trueHeading != nil || c.magneticHeading != nil else { return nil }
            let offset = try measureNorthOffset(row, attitude: attitude, frame: frame)
            attitude = attitude.rotatedAboutUp(clockwiseDegrees: offset.degrees)
            reference = offset.reference
        }
        let angles = attitude.cameraAngles
        return Reading.Orientation(heading: angles.heading, headingReference: reference, pitch: angles.pitch,
                                   roll: angles.roll, headingAccuracy: headingAccuracy)
    }

    /// The turn from the arbitrary frame to north: CLHeading − az(+y) on this row when usable,
    /// else the last one measured in the same frame.
    private mutating func measureNorthOffset(_ row: CSVRow, attitude: DeviceAttitude,
                                             frame: String) throws(ImportError) -> NorthOffset {
        let c = columns
        var compass: (Double, Reading.HeadingReference)?
        if let h = try row.number(c.trueHeading, isInvalid: Self.isInvalidOrNegative) {
            compass = (h, .true)
        } else if let h = try row.number(c.magneticHeading, isInvalid: Self.isInvalidOrNegative) {
            compass = (h, .magnetic)
        }
        let topEdgeElevation = degrees(asin(max(-1, min(1, attitude.yAxis.z))))
        if let (heading, reference) = compass, abs(topEdgeElevation) <= Self.maximumTopEdgeElevation {
            let topEdge = DeviceAttitude.azimuth(of: attitude.yAxis).degrees
            northOffset = NorthOffset(degrees: heading - topEdge, reference: reference, frame: frame)
        }
        guard let offset = northOffset, offset.frame == frame else {
            let column = (c.trueHeading ?? c.magneticHeading)!
            let why = compass == nil
                ? "no valid compass heading"
                : "the device's top edge is \(Int(topEdgeElevation.rounded()))° from horizontal, too steep for CLHeading"
            throw ImportError(.missingValue, line: row.line, column: column.name,
                              "\(why), and none measured earlier, to orient the \(frame.isEmpty ? "arbitrary" : frame) attitude frame")
        }
        return offset
    }
}
