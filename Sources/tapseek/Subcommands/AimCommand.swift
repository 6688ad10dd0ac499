import ArgumentParser
import Foundation
import TapSeek

/// `tapseek aim [FILE|-]`: where to look for a known place from an observer, and whether it can
/// be seen.
struct AimCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "aim",
        abstract: "Where to look for a known place, and whether terrain hides it.",
        discussion: """
            Reads {"location":{…},"orientation"?:{…},"camera"?:{…},"target":{"latitude","longitude","elevation"?}} \
            (or "target":{"name":"Grindelwald"}: the place of exactly that name nearest the observer, within 500 km, \
            from the imported gazetteer (tapseek places import: summits first, then passes, glaciers, lakes, \
            huts and hotels last; then the nearest), else the place search's localities) and prints {"target","azimuth",\
            "elevationAngle","distance","slantRange","visible","blockedBy"?,"pixel"?,"observer","warnings"}: the \
            apparent (refracted) direction of the target, whether the sightline meets terrain more than \
            max(30 m, 0.5 % of the slant range) short of it and where, and with an orientation and a camera \
            the pixel where it appears. With --batch, JSON Lines in (FILE or stdin) and one JSON line out per \
            non-blank input line, in order, each with its "line"; a bad line gives its error record and the run \
            goes on. Exit status 1 when a single request cannot be answered (its error record on stdout) or \
            read (the reason on stderr).
            """
    )

    @Argument(help: "Request JSON (JSON Lines with --batch), or - for stdin.")
    var file: String = "-"

    @Flag(help: "JSON Lines in, one JSON line out per input line.")
    var batch = false

    @OptionGroup var options: LocateOptions

    @Option(help: "Output format: json, or geojson (a FeatureCollection of the observer, target, sightline and blocking terrain).")
    var format: LocateOutputFormat = .json

    @Option(help: ArgumentHelp("Also draw the terrain along the sightline into this SVG file.", valueName: "file.svg"))
    var plot: String?

    @Option(parsing: .unconditional, help: "Worker threads for --batch.")
    var jobs: JobCount = .allCores

    func validate() throws {
        try jobs.validate()
        if batch, plot != nil { throw ValidationError("--plot draws one request; it cannot be used with --batch") }
        if batch, format == .geojson { throw ValidationError("--format geojson draws one request; it cannot be used with --batch") }
    }

    func run() async throws {
        let locator = try options.locator(recordsProfile: plot != nil, jobs: jobs.value)
        let resolve = PlaceSearchOption.resolver(catalog: locator.catalog)
        if batch {
            let descriptor = try Self.open(file)
            defer { if descriptor != STDIN_FILENO { close(descriptor) } }
            try await ParallelLines(jobs: jobs.value, descriptor: descriptor, makeState: { TerrainSampler(catalog: locator.catalog) }) {
                (terrain: inout TerrainSampler, line: UnsafeBufferPointer<UInt8>, number: Int, out: inout OutputBuffer) in
                var result: AimResult
                let text = String(decoding: line, as: UTF8.self)
                do throws(ReadingError) {
                    result = locator.aim(try AimRequest.decode(text), terrain: &terrain, resolve: resolve)
                } catch {
                    result = AimResult()
                    result.error = .badInput(line: number, error.description)
                }
                result.line = number
                out.appendJSON(result)
            }.run()
            return
        }
        let request: AimRequest
        do {
            request = try AimRequest.decode(try LocateCommand.readInput(file))
        } catch let error as ReadingError {
            throw InputError("request: \(error.description)")
        }
        let result = locator.aim(request, resolve: resolve)
        if let plot, result.error == nil { try Self.writePlot(of: result, request: request, locator: locator, to: plot) }
        var out = OutputBuffer()
        switch format {
        case .json: out.appendJSON(result)
        case .geojson: AimWriter.writeFeatureCollection(of: result, geoid: locator.geoid, to: &out)
        }
        out.newline()
        out.flush()
        // As locate: the error record is the answer, said once.
        if result.error != nil { throw AnsweredWithError() }
    }

    /// The terrain under the sightline to the target, all the way to it (past the terrain in
    /// the way, when hidden): the aimed ray's profile to the target's slant range; the target
    /// marked, and when hidden the blocking terrain crossed and the target "target (hidden)".
    static func writePlot(of result: AimResult, request: AimRequest, locator: Locator, to path: String) throws {
        guard let target = result.target, let observer = result.observer else { return }
        let n = locator.geoid.undulation(latitude: observer.latitude, longitude: observer.longitude)
        let eye = GeodeticPosition(latitude: observer.latitude, longitude: observer.longitude, height: observer.altitude + n)
        var march = SightlineMarch(observer: eye, direction: ViewDirection(azimuth: result.azimuth, elevation: result.elevationAngle).enu,
                                   geoid: locator.geoid, settings: locator.settings)
        var terrain = TerrainSampler(catalog: locator.catalog)
        let samples = march.terrainProfile(to: result.slantRange, over: &terrain)
        let name = target.name.map { " \($0)" } ?? " the target"
        var title = "Sightline to\(name) at \(String(format: "%.2f", result.distance / 1000)) km: "
        switch result.visible {
        case true?: title += "visible"
        case false?: title += "hidden by terrain \(String(format: "%.2f", (result.blockedBy?.distance ?? 0) / 1000)) km away"
        case nil: title += "off the DEM, visibility unknown"
        }
        // A target of unknown elevation was aimed at on the ellipsoid: its height above sea level there.
        let height = target.elevation ?? -locator.geoid.undulation(latitude: target.latitude, longitude: target.longitude)
        var picture = ProfilePlot(observer: .init(latitude: observer.latitude, longitude: observer.longitude, height: observer.altitude),
                                  target: .init(latitude: target.latitude, longitude: target.longitude, height: height),
                                  targetIsHit: true, samples: samples, refraction: locator.settings.refraction, title: title)
        if result.visible == false, let b = result.blockedBy {
            picture.blockedBy = .init(latitude: b.latitude, longitude: b.longitude, height: b.elevation)
        }
        try SVGFile.write(picture.svg(), to: path, option: "--plot")
    }

    /// A file's descriptor, or stdin's for `-`.
    static func open(_ path: String) throws -> Int32 {
        guard path != "-" else { return STDIN_FILENO }
        let fd = Foundation.open(path, O_RDONLY)
        guard fd >= 0 else { throw InputError("\(path): \(String(cString: strerror(errno)))") }
        return fd
    }
}

/// How `aim` resolves a target's name: the imported gazetteer first (summits before passes,
/// glaciers, lakes and, last, huts and hotels of the name; then the nearest), then the place
/// search's localities, each when its index is there.
enum PlaceSearchOption {
    static func resolver(catalog: ElevationCatalog) -> (@Sendable (String, Double, Double) -> AimRequest.NameLookup)? {
        let search = try? PlaceSearch.default()
        let gazetteer = (try? GazetteerFiles.load()) ?? nil
        guard search != nil || gazetteer != nil else { return nil }
        return { name, latitude, longitude in
            if let gazetteer, let match = gazetteer.feature(named: name, near: latitude, longitude, within: AimRequest.nameSearchRadius) {
                let f = match.feature
                // The DEM's height at the feature's point, as for any place; where the DEM has
                // none there (a void on a steep summit), GeoNames' elevation.
                var terrain = TerrainSampler(catalog: catalog)
                var elevation: Double?
                if case .height = terrain.sample(latitude: f.latitude, longitude: f.longitude) {} else { elevation = f.elevation }
                return .found(.position(latitude: f.latitude, longitude: f.longitude, elevation: elevation, name: f.name))
            }
            if let search { return search.target(named: name, near: latitude, longitude) }
            let offered = gazetteer?.search(name, limit: 3, near: (latitude, longitude)) ?? []
            return .notFound(candidates: offered.map {
                AimRequest.Candidate(name: $0.feature.name, isoCountryCode: $0.feature.isoCountryCode, distance: $0.distance ?? .nan)
            })
        }
    }
}
