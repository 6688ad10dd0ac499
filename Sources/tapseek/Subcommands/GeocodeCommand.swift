import ArgumentParser
import Foundation
import TapSeek

/// `tapseek geocode LAT LON` and `tapseek geocode --batch`: offline reverse geocoding.
struct GeocodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geocode",
        abstract: "Country, first-level region, nearest town and time zone at points, offline.",
        discussion: """
        Prints {"latitude","longitude", then the placemark's keys: "isoCountryCode","country",\
        "administrativeArea","subAdministrativeArea","locality","localityDistance" (metres),\
        "timeZone" (IANA), "alsoClaimedBy" (other countries' ISO codes, in disputed areas)}; \
        absent keys are unknown (in international waters only "timeZone" is given). \
        Longitudes outside ±180 wrap into [-180, 180) and are printed wrapped. \
        With --batch, reads CSV "lat,lon" lines on stdin and writes one JSON line per non-blank input \
        line, in order, each with its "line" (the input line's number); a header on line 1 names the \
        columns (lat/latitude/y and lon/lng/longitude/x, any order, other columns ignored; an \
        unusable header is an error, status 1), and a bad line gives \
        {"line":N,"error":{"code","message"}} and the run goes on. \
        The index comes from --index, else $TAPSEEK_GEOCODER, else geocoder-index.bin in the first \
        TapSeek data directory ($TAPSEEK_DATA, the installation, XDG data dirs; \
        scripts/build-geocoder-index.sh builds it).
        """
    )

    @Option(help: "The geocoder index file (default: $TAPSEEK_GEOCODER, else geocoder-index.bin in the first TapSeek data directory).")
    var index: String?

    @Flag(help: "Read CSV lat,lon lines from stdin; write one JSON line per non-blank input line.")
    var batch = false

    @Option(parsing: .unconditional, help: "Worker threads for --batch.")
    var jobs: JobCount = .allCores

    @OptionGroup var point: CoordinateArguments

    func validate() throws {
        try jobs.validate()
        if batch, point.given { throw ValidationError("--batch reads stdin; give no LAT LON") }
        if !batch { try point.validateCount() }
    }

    func run() async throws {
        let geocoder: Geocoder
        do {
            geocoder = try Geocoder(contentsOf: index.map { URL(fileURLWithPath: $0) } ?? Geocoder.defaultURL())
        } catch {
            throw InputError(error.message)
        }
        if batch {
            try await GeocodeBatch(index: geocoder.index, jobs: jobs.value).run()
            return
        }
        let latitude = try point.latitude()
        let longitude = try point.longitude()
        var out = OutputBuffer()
        do throws(CoordinateError) {
            let p = try CoordinateError.validated(latitude: latitude, longitude: longitude)
            let reference = try geocoder.index.reference(latitude: p.latitude, longitude: p.longitude)
            GeocodeRecord.write(latitude: p.latitude, longitude: p.longitude, reference, in: geocoder.index, to: &out)
        } catch {
            throw InputError(error.message)
        }
        out.newline()
        out.flush()
    }
}

/// The batch loop: stdin cut into blocks of lines, looked up on all cores, written in order.
struct GeocodeBatch {
    let index: GeocoderIndex
    let jobs: Int

    func run() async throws {
        let columns = BatchColumns()
        // The state: the columns, and whether they are plain lat,lon (the fast reader's).
        try await ParallelLines(jobs: jobs, header: columns.readHeader,
                                makeState: { (columns.current, columns.current == .latitudeLongitude) }) { [index] state, line, number, out in
            switch state.1 ? CoordinateLine.parseKeepingText(line) : CoordinateLine.parseKeepingText(line, columns: state.0) {
            case .success(let p):
                do throws(CoordinateError) {
                    let checked = try CoordinateError.validated(latitude: p.latitude, longitude: p.longitude)
                    let reference = try index.reference(latitude: checked.latitude, longitude: checked.longitude)
                    // The numbers' text as read, to copy where it is what formatting them would
                    // give; not a longitude that validation wrapped.
                    let texts = (latitude: UnsafeBufferPointer(rebasing: line[p.latitudeText]),
                                 longitude: checked.longitude == p.longitude ? UnsafeBufferPointer(rebasing: line[p.longitudeText]) : nil)
                    GeocodeRecord.write(line: number, latitude: checked.latitude, longitude: checked.longitude, readFrom: texts,
                                        reference, in: index, to: &out)
                } catch {
                    LineErrorRecord.write(line: number, message: error.message, to: &out)
                }
            case .failure(let error):
                LineErrorRecord.write(line: number, message: error.message, to: &out)
            }
        }.run()
    }
}

/// One placemark as a JSON object, keys in CLPlacemark's names, unknown keys left out. Names are
/// copied as UTF-8 straight from the index (no `String` per record) into one ``RecordBytes``.
enum GeocodeRecord {
    /// The keys, numbers and punctuation of a record: under 300 bytes (two shortest doubles and
    /// one fixed-point number of at most 32 bytes each, keys of 150), with room to spare.
    private static let fixedPart = 512

    /// `readFrom` holds the coordinates' text as read, if any: copied where it is what
    /// formatting them would write (``JSONText/isShortestDecimal(_:of:)``).
    /// `line`: the input line's number, first in every batch record (nil for a single point).
    static func write(line: Int? = nil, latitude: Double, longitude: Double,
                      readFrom texts: (latitude: UnsafeBufferPointer<UInt8>?, longitude: UnsafeBufferPointer<UInt8>?) = (nil, nil),
                      _ reference: PlacemarkReference, in index: GeocoderIndex, to out: inout OutputBuffer) {
        index.withUTF8(reference) { names in
            // A name escaped for JSON takes at most 6 bytes per byte; a claim adds its quotes and comma.
            var nameBytes = (names.isoCountryCode?.count ?? 0) + (names.country?.count ?? 0)
                + (names.administrativeArea?.count ?? 0) + (names.subAdministrativeArea?.count ?? 0)
                + (names.locality?.count ?? 0) + (names.timeZone?.count ?? 0)
            for code in names.alsoClaimedBy { nameBytes += code.count + 1 }
            RecordBytes.append(to: &out, capacity: fixedPart + 6 * nameBytes) { record in
                record.appendRecordStart(line: line)
                record.append("\"latitude\":")
                record.appendShortest(latitude, readFrom: texts.latitude)
                record.append(",\"longitude\":")
                record.appendShortest(longitude, readFrom: texts.longitude)
                field(",\"isoCountryCode\":", names.isoCountryCode, &record)
                field(",\"country\":", names.country, &record)
                field(",\"administrativeArea\":", names.administrativeArea, &record)
                field(",\"subAdministrativeArea\":", names.subAdministrativeArea, &record)
                field(",\"locality\":", names.locality, &record)
                if let d = names.localityDistance {
                    record.append(",\"localityDistance\":")
                    record.appendFixed(d, decimals: 0)
                }
                field(",\"timeZone\":", names.timeZone, &record)
                if !names.alsoClaimedBy.isEmpty {
                    record.append(",\"alsoClaimedBy\":[")
                    for (k, code) in names.alsoClaimedBy.enumerated() {
                        if k > 0 { record.append(byte: UInt8(ascii: ",")) }
                        field("", code, &record)
                    }
                    record.append(byte: UInt8(ascii: "]"))
                }
                record.append(byte: UInt8(ascii: "}"))
            }
        }
    }

    /// Appends `key` (with its comma and colon) and the value as a JSON string.
    @inline(__always) private static func field(_ key: StaticString, _ value: UnsafeRawBufferPointer?, _ record: inout RecordBytes) {
        guard let value else { return }
        record.append(key)
        // Names rarely hold a quote, a backslash or a control character; copy them whole unless so.
        if needsEscaping(value) {
            record.appendJSONString(String(decoding: value, as: UTF8.self))
        } else {
            record.append(byte: UInt8(ascii: "\""))
            record.append(value)
            record.append(byte: UInt8(ascii: "\""))
        }
    }

    /// Whether JSON needs any of these bytes escaped (a quote, a backslash, a control character).
    @inline(__always) private static func needsEscaping(_ value: UnsafeRawBufferPointer) -> Bool {
        guard let base = value.baseAddress else { return false }
        for i in 0..<value.count {
            let byte = base.load(fromByteOffset: i, as: UInt8.self)
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return true }
        }
        return false
    }
}
