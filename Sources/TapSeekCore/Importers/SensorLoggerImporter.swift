import Foundation

/// Reads a Sensor Logger export (Kelvin Choi's app, iOS and Android): one CSV per sensor,
/// joined by time.
///
/// - `Orientation.csv` drives: one record per row, its line the row's line. Attitude from the
///   quaternion `qx qy qz qw`, else `yaw pitch roll` (radians); columns by name, since iOS and
///   Android order them differently. The frames differ too (`Metadata.csv`'s `platform` says
///   which): Android's quaternion maps device → ENU with **magnetic** north, its angles are
///   `getOrientation()`'s (``DeviceAttitude/android(azimuth:pitch:roll:)``), headings `.magnetic`;
///   iOS writes raw CoreMotion values in the true-north frame
///   (``DeviceAttitude/coreMotion(quaternion:)``), headings `.true`.
/// - `Location.csv` gives the position at each orientation sample's time: interpolated linearly
///   between the fixes around it, or the nearest fix before the first or after the last one, if
///   that fix is at most ``maximumFixDistance`` seconds away; otherwise the record is a
///   `.noLocation` error. Location rows that cannot be read are left out of the join.
///   Altitude: `altitudeAboveMeanSeaLevel` (`.msl`) when present, else `altitude` (WGS84
///   ellipsoid, `.ellipsoid`).
/// - Without `Orientation.csv`, `Location.csv` drives: location-only records.
/// - With a fixed location (`batch --location`, a log recorded at a known spot), every record
///   takes it and `Location.csv` is not needed.
/// - `time` is UTC epoch nanoseconds in every file.
///
/// Memory stays bounded: both files stream, and only the two fixes around the current time are kept.
public struct SensorLoggerImporter: ImportedRecordSource {
    /// The phone platform, which fixes the attitude frame.
    public enum Platform: String, Sendable, Hashable, CaseIterable {
        case ios
        case android
    }

    /// 10 s: phones deliver fixes every second or so while moving; a fix much older than this
    /// no longer says where a walking user (1.4 m/s) or a car is.
    public static let defaultMaximumFixDistance = 10.0

    /// The farthest, in seconds, a record may be from the fix whose position it takes.
    public let maximumFixDistance: Double
    private var orientation: OrientationRows?
    /// Nil only with a fixed location.
    private var locations: LocationRows?
    /// The position of every record, when given.
    private let fixedLocation: Reading.Location?
    private var previousFix: Fix?
    private var upcomingFix: Fix?
    private var started = false

    /// Opens an export folder or archive: `Location.csv`, `Orientation.csv`, `Metadata.csv`.
    /// - Parameter fixedLocation: the position of every record (then `Location.csv` is ignored
    ///   and may be missing).
    /// - Throws: `.unsupportedLog` when `Location.csv` is missing and no fixed location is given
    ///   (a reading needs a position), or `Orientation.csv` is there but `Metadata.csv` does not
    ///   name the platform.
    public init(members: some LogMembers, maximumFixDistance: Double = defaultMaximumFixDistance,
                fixedLocation: Reading.Location? = nil) throws(ImportError) {
        let location = fixedLocation == nil ? members.member(named: "Location.csv") : nil
        if location == nil, fixedLocation == nil {
            throw ImportError(.unsupportedLog, "Sensor Logger export has no Location.csv: a reading needs a position (for a log recorded at a known spot, give --location LAT,LON[,ALT])")
        }
        var platform: Platform?
        if let metadata = members.member(named: "Metadata.csv") {
            platform = try Self.platform(metadata: members.lines(of: metadata))
        }
        let orientation = try members.member(named: "Orientation.csv").map { name throws(ImportError) in try members.lines(of: name) }
        try self.init(orientation: orientation, location: try location.map { name throws(ImportError) in try members.lines(of: name) },
                      platform: platform, maximumFixDistance: maximumFixDistance, fixedLocation: fixedLocation)
    }

    /// Joins an `Orientation.csv` stream (optional) with a `Location.csv` stream, or gives every
    /// orientation sample `fixedLocation`.
    /// - Throws: `.unsupportedLog` when a header is not Sensor Logger's, orientation is given
    ///   without a platform, or neither a location stream nor a fixed location is given, or
    ///   neither stream.
    public init(orientation: LineReader?, location: LineReader?, platform: Platform?,
                maximumFixDistance: Double = defaultMaximumFixDistance, fixedLocation: Reading.Location? = nil) throws(ImportError) {
        self.maximumFixDistance = maximumFixDistance
        self.fixedLocation = fixedLocation
        guard location != nil || (fixedLocation != nil && orientation != nil) else {
            throw ImportError(.unsupportedLog, fixedLocation == nil
                ? "Sensor Logger export has no Location.csv: a reading needs a position"
                : "Sensor Logger export has neither Orientation.csv nor Location.csv: no reading to take")
        }
        locations = try location.map { lines throws(ImportError) in try LocationRows(lines: lines) }
        if let orientation {
            guard let platform else {
                throw ImportError(.unsupportedLog,
                                  "Sensor Logger Metadata.csv with a platform column is needed to tell iOS from Android attitude frames")
            }
            self.orientation = try OrientationRows(lines: orientation, platform: platform)
        }
    }

    /// The `platform` of `Metadata.csv` (`ios` or `android`).
    static func platform(metadata: LineReader) throws(ImportError) -> Platform {
        var rows = try CSVRows(lines: metadata, expected: "Sensor Logger metadata column platform") { $0.column("platform") != nil }
        let column = rows.header.column("platform")!
        guard let first = try rows.next(), case .success(let row) = first else {
            throw ImportError(.unsupportedLog, "Sensor Logger Metadata.csv has no data row")
        }
        guard let platform = Platform(rawValue: row.text(column).lowercased()) else {
            throw ImportError(.unsupportedLog, line: row.line, column: column.name,
                              "\(ImportError.quoted(row.text(column))) is neither ios nor android")
        }
        return platform
    }

    /// The next record of the driving file (Orientation.csv, else Location.csv); nil at the end.
    public mutating func next() throws(ImportError) -> ImportedRecord? {
        guard var orientation else {
            // Location.csv drives (it is there: see init).
            guard var rows = locations else { return nil }
            let record = try rows.nextRecord()
            locations = rows
            return record.map { $0.relocated(to: fixedLocation) }
        }
        let row = try orientation.next()
        self.orientation = orientation
        guard let row else { return nil }
        switch row {
        case .failure(let error):
            return ImportedRecord(line: error.line ?? 0, time: nil, result: .failure(error))
        case .success(let sample):
            let date = Date(timeIntervalSince1970: sample.time)
            do throws(ImportError) {
                let location = try self.location(at: sample.time, line: sample.line)
                let reading = Reading(time: date, location: location, orientation: sample.orientation)
                return ImportedRecord(line: sample.line, time: date, result: .success(reading))
            } catch {
                return ImportedRecord(line: sample.line, time: date, result: .failure(error))
            }
        }
    }

    /// The position at `t` (UNIX seconds) from the fixes around it, reading Location rows forward.
    private mutating func location(at t: Double, line: Int) throws(ImportError) -> Reading.Location {
        if let fixedLocation { return fixedLocation }
        guard var rows = locations else { throw ImportError(.noLocation, line: line, "no Location.csv") }
        defer { locations = rows }
        if !started {
            upcomingFix = try rows.nextFix()
            started = true
        }
        while let upcoming = upcomingFix, upcoming.time <= t {
            previousFix = upcoming
            upcomingFix = try rows.nextFix()
        }
        if let a = previousFix, let b = upcomingFix, a.time <= t, t <= b.time,
           min(t - a.time, b.time - t) <= maximumFixDistance {
            return Fix.interpolate(a, b, at: t)
        }
        let nearest = [previousFix, upcomingFix].compactMap { $0 }.min { abs($0.time - t) < abs($1.time - t) }
        guard let nearest else {
            throw ImportError(.noLocation, line: line, "Location.csv has no usable fix")
        }
        let gap = abs(nearest.time - t)
        guard gap <= maximumFixDistance else {
            throw ImportError(.noLocation, line: line,
                              "no Location.csv fix within \(maximumFixDistance) s of this sample (nearest \((gap * 10).rounded() / 10) s away)")
        }
        return nearest.location
    }

    /// A position fix at a time (UNIX seconds).
    struct Fix {
        var time: Double
        var location: Reading.Location

        /// Linear interpolation between fixes `a` and `b` at `t` (a.time ≤ t ≤ b.time); the
        /// longitude difference is taken the short way round, across the antimeridian if need be.
        /// Over a second or so between fixes, straight lines in degrees are metre-accurate.
        static func interpolate(_ a: Fix, _ b: Fix, at t: Double) -> Reading.Location {
            let span = b.time - a.time
            let f = span > 0 ? (t - a.time) / span : 0
            func mix(_ x: Double?, _ y: Double?) -> Double? {
                guard let x, let y else { return f < 0.5 ? x : y }
                return x + (y - x) * f
            }
            let near = f < 0.5 ? a.location : b.location
            let dLon = normalizedLongitude(b.location.longitude - a.location.longitude)
            var location = near
            location.latitude = a.location.latitude + (b.location.latitude - a.location.latitude) * f
            location.longitude = normalizedLongitude(a.location.longitude + dLon * f)
            if a.location.altitudeReference == b.location.altitudeReference {
                location.altitude = mix(a.location.altitude, b.location.altitude)
            }
            location.horizontalAccuracy = mix(a.location.horizontalAccuracy, b.location.horizontalAccuracy)
            location.verticalAccuracy = mix(a.location.verticalAccuracy, b.location.verticalAccuracy)
            return location
        }
    }

    /// One orientation row read.
    struct Sample {
        var line: Int
        var time: Double
        var orientation: Reading.Orientation
    }

    /// The rows of `Orientation.csv`.
    struct OrientationRows {
        private var rows: CSVRows
        let platform: Platform
        private let time: CSVColumn
        private let quaternion: (x: CSVColumn, y: CSVColumn, z: CSVColumn, w: CSVColumn)?
        private let euler: (yaw: CSVColumn, pitch: CSVColumn, roll: CSVColumn)?

        init(lines: LineReader, platform: Platform) throws(ImportError) {
            rows = try CSVRows(lines: lines, expected: "Sensor Logger orientation columns time and qx qy qz qw or yaw pitch roll") { h in
                h.column("time") != nil
                    && ((h.column("qx") != nil && h.column("qy") != nil && h.column("qz") != nil && h.column("qw") != nil)
                        || (h.column("yaw") != nil && h.column("pitch") != nil && h.column("roll") != nil))
            }
            self.platform = platform
            let h = rows.header
            time = h.column("time")!
            if let x = h.column("qx"), let y = h.column("qy"), let z = h.column("qz"), let w = h.column("qw") {
                quaternion = (x, y, z, w)
            } else {
                quaternion = nil
            }
            if let yaw = h.column("yaw"), let pitch = h.column("pitch"), let roll = h.column("roll") {
                euler = (yaw, pitch, roll)
            } else {
                euler = nil
            }
        }

        mutating func next() throws(ImportError) -> Result<Sample, ImportError>? {
            guard let row = try rows.next() else { return nil }
            return row.flatMap { row in
                Result { () throws(ImportError) in try sample(row) }
            }
        }

        private func sample(_ row: CSVRow) throws(ImportError) -> Sample {
            let t = try row.required(time) / 1e9
            _ = try row.date(unixSeconds: t, column: time)
            let attitude: DeviceAttitude
            if let q = quaternion {
                let raw = Quaternion(x: try row.required(q.x), y: try row.required(q.y), z: try row.required(q.z), w: try row.required(q.w))
                guard let unit = raw.normalized else {
                    throw ImportError(.invalidValue, line: row.line, column: q.w.name, "quaternion length \(raw.norm) is not 1: not a rotation")
                }
                attitude = platform == .android ? DeviceAttitude(deviceToENU: unit) : .coreMotion(quaternion: unit)
            } else {
                let e = euler!
                let yaw = try row.required(e.yaw), pitch = try row.required(e.pitch), roll = try row.required(e.roll)
                attitude = platform == .android
                    ? .android(azimuth: yaw, pitch: pitch, roll: roll)
                    : .coreMotion(yaw: yaw, pitch: pitch, roll: roll)
            }
            let angles = attitude.cameraAngles
            let orientation = Reading.Orientation(heading: angles.heading, headingReference: platform == .android ? .magnetic : .true,
                                                  pitch: angles.pitch, roll: angles.roll)
            return Sample(line: row.line, time: t, orientation: orientation)
        }
    }

    /// The rows of `Location.csv`.
    struct LocationRows {
        private var rows: CSVRows
        private let time, latitude, longitude: CSVColumn
        private let mslAltitude, ellipsoidAltitude, horizontalAccuracy, verticalAccuracy: CSVColumn?
        private var lastTime = -Double.infinity

        /// Whether a header is Sensor Logger's `Location.csv`.
        static func isHeader(_ h: CSVHeader) -> Bool {
            h.column("time") != nil && h.column("latitude") != nil && h.column("longitude") != nil
        }

        init(lines: LineReader) throws(ImportError) {
            rows = try CSVRows(lines: lines, expected: "Sensor Logger location columns time, latitude, longitude", where: Self.isHeader)
            let h = rows.header
            time = h.column("time")!
            latitude = h.column("latitude")!
            longitude = h.column("longitude")!
            mslAltitude = h.column("altitudeAboveMeanSeaLevel")
            ellipsoidAltitude = h.column("altitude")
            horizontalAccuracy = h.column("horizontalAccuracy")
            verticalAccuracy = h.column("verticalAccuracy")
        }

        /// The next readable fix in time order, skipping rows that cannot be read or go back in time.
        mutating func nextFix() throws(ImportError) -> Fix? {
            while let row = try rows.next() {
                guard case .success(let row) = row, let fix = try? fix(row), fix.time >= lastTime else { continue }
                lastTime = fix.time
                return fix
            }
            return nil
        }

        /// The next row as a location-only record (when Location.csv drives).
        mutating func nextRecord() throws(ImportError) -> ImportedRecord? {
            guard let row = try rows.next() else { return nil }
            switch row {
            case .failure(let error):
                return ImportedRecord(line: error.line ?? 0, time: nil, result: .failure(error))
            case .success(let row):
                do throws(ImportError) {
                    let fix = try fix(row)
                    let date = Date(timeIntervalSince1970: fix.time)
                    return ImportedRecord(line: row.line, time: date, result: .success(Reading(time: date, location: fix.location)))
                } catch {
                    return ImportedRecord(line: row.line, time: nil, result: .failure(error))
                }
            }
        }

        private func fix(_ row: CSVRow) throws(ImportError) -> Fix {
            let t = try row.required(time) / 1e9
            _ = try row.date(unixSeconds: t, column: time)
            let (lat, lon) = try row.coordinate(latitude: latitude, longitude: longitude)
            var altitude = try row.number(mslAltitude, within: ReadingDecoder.altitudes, "metres")
            var reference = Reading.AltitudeReference.msl
            if altitude == nil {
                altitude = try row.number(ellipsoidAltitude, within: ReadingDecoder.altitudes, "metres")
                reference = .ellipsoid
            }
            let accuracies = ReadingDecoder.locationAccuracies
            let location = Reading.Location(latitude: lat, longitude: lon, altitude: altitude, altitudeReference: reference,
                                            horizontalAccuracy: try row.number(horizontalAccuracy, within: accuracies, "metres",
                                                                               isInvalid: { $0 < 0 }),
                                            verticalAccuracy: try row.number(verticalAccuracy, within: accuracies, "metres",
                                                                             isInvalid: { $0 < 0 }))
            return Fix(time: t, location: location)
        }
    }
}
