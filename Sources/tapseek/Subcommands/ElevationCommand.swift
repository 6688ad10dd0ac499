import ArgumentParser
import Foundation
import TapSeek

/// `tapseek elevation LAT LON` and `tapseek elevation --batch`: the offline elevation service.
struct ElevationCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "elevation",
        abstract: "Terrain height (metres above mean sea level) and EGM96 geoid undulation at points.",
        discussion: """
        Prints {"latitude","longitude","elevation","geoidUndulation"}. Where the DEM has a void or \
        no tile, "elevation" is null and "reason" says which. Longitudes outside ±180 wrap.
        With --batch, reads CSV "lat,lon" lines on stdin and writes one JSON line per non-blank input line, \
        in order, each with its "line"; a header on line 1 names the columns (lat/latitude/y and \
        lon/lng/longitude/x, any order, other columns ignored; an unusable header is an error, status 1), \
        and a bad line \
        gives {"line":N,"error":{"code","message"}} and the run goes on.
        """
    )

    @OptionGroup var demOptions: DEMOptions

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
        if batch {
            let service = try ElevationService(catalog: demOptions.openCatalog(jobs: jobs.value), geoid: Geoid())
            try await ElevationBatch(service: service, jobs: jobs.value).run()
            return
        }
        let latitude = try point.latitude()
        let longitude = try point.longitude()
        // One point reads four posts: only the voids reaching near it are filled (on N46E008,
        // the whole tile's fill was four fifths of the command's instructions).
        let service = try ElevationService(catalog: demOptions.openCatalog(area: .around(latitude: latitude, longitude: longitude, radius: 0), jobs: jobs.value),
                                           geoid: Geoid())
        let elevation: ElevationService.PointElevation
        do {
            elevation = try service.elevation(latitude: latitude, longitude: longitude)
        } catch {
            throw InputError(error.message)
        }
        var out = OutputBuffer()
        ElevationRecord.write(elevation, to: &out)
        out.newline()
        out.flush()
    }
}
