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
        With --batch, reads CSV "lat,lon" lines on stdin and writes one JSON line per input line, in order.
        """
    )

    @OptionGroup var demOptions: DEMOptions

    @Flag(help: "Read CSV lat,lon lines from stdin; write one JSON line per input line.")
    var batch = false

    @Option(help: "Worker threads for --batch (default: all cores).")
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Argument(parsing: .allUnrecognized, help: "LAT LON in WGS84 degrees.")
    var coordinates: [String] = []

    func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1, got \(jobs)") }
        if batch, !coordinates.isEmpty { throw ValidationError("--batch reads stdin; give no LAT LON") }
        if !batch, coordinates.count != 2 {
            throw ValidationError("expected LAT LON, got \(coordinates.count) value(s)")
        }
    }

    func run() async throws {
        let service = try ElevationService(catalog: demOptions.openCatalog(), geoid: Geoid())
        if batch {
            try await ElevationBatch(service: service, jobs: jobs).run()
            return
        }
        let latitude = try Self.number(coordinates[0], name: "latitude")
        let longitude = try Self.number(coordinates[1], name: "longitude")
        let point: ElevationService.PointElevation
        do {
            point = try service.elevation(latitude: latitude, longitude: longitude)
        } catch {
            throw InputError(error.message)
        }
        var out = OutputBuffer()
        ElevationRecord.write(point, to: &out)
        out.newline()
        out.flush()
    }

    static func number(_ text: String, name: String) throws -> Double {
        guard let value = Double(text) else { throw InputError("\(name) must be a number, got \"\(text)\"") }
        return value
    }
}
