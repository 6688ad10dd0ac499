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
