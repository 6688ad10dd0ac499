import ArgumentParser
import Foundation
import TapSeek

/// `tapseek locate [FILE|-]`: one reading → one result.
struct LocateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "locate",
        abstract: "Locate what one sensor reading (JSON) looks at.",
        discussion: """
            Prints the result JSON (--format geojson: a GeoJSON FeatureCollection of the target, observer, \
            line of sight, ground track and terrain; heights above the WGS84 ellipsoid as RFC 7946 says). \
            --plot draws the terrain under the ray, the ray and the target into a self-contained SVG \
            (for a terrain-unknown error, up to the void). \
            Exit status 0 on a hit or horizon; 1 when the reading cannot be located (its result, status "error" \
            with the code, on stdout), or cannot be read or the plot cannot be written (the reason on stderr, \
            nothing on stdout).
            """
    )

    @Argument(help: "Reading JSON file, or - for stdin.")
    var file: String = "-"

    @OptionGroup var options: LocateOptions

    @Option(help: "Output format: json (the result JSON) or geojson (an RFC 7946 FeatureCollection).")
    var format: LocateOutputFormat = .json

    @Option(help: ArgumentHelp("Also draw the terrain along the sightline into this SVG file.", valueName: "file.svg"))
    var plot: String?

    @OptionGroup var sampling: UncertaintyOptions

    @Option(help: "Worker threads for --uncertainty.")
    var jobs: JobCount = .allCores

    func validate() throws {
        try jobs.validate()
    }

    func run() throws {
        let reading = try Self.readReading(file)
        let locator = try options.locator(recordsProfile: plot != nil || format == .geojson, jobs: jobs.value)
        let result = sampling.settings.map { Self.locate(reading, uncertainty: $0, locator: locator, jobs: jobs.value) } ?? locator.locate(reading)
        // The picture first: if it cannot be written, stdout stays empty.
        if let plot, result.error == nil || result.error?.code == .terrainUnknown { try Self.writePlot(of: result, to: plot) }
        var out = OutputBuffer()
        switch format {
        case .json: out.appendJSON(result)
        case .geojson: GeoJSONWriter.writeFeatureCollection(of: result, geoid: locator.geoid, to: &out)
        }
        out.newline()
        out.flush()
        // A reading that decodes but cannot be located is answered: its result (status "error",
        // with the code) is the answer, said once (before issue 29 its message went to stderr too).
        if result.error != nil { throw AnsweredWithError() }
    }

    /// The reading located with its uncertainty, a progress line of the samples on stderr when
    /// it is a terminal (100 000 samples take minutes).
    static func locate(_ reading: Reading, uncertainty: TargetUncertainty.Settings, locator: Locator, jobs: Int) -> LocateResult {
        let progress = Locked(BatchProgress(totalBytes: uncertainty.samples, counting: "sample"))
        let result = locator.locate(reading, uncertainty: uncertainty, jobs: jobs) { done, _ in
            progress.withLock { $0.update(results: done, bytes: done) }
        }
        progress.withLock { $0.clear() }
        return result
    }

    /// Draws the profile of a located result into an SVG file.
    static func writePlot(of result: LocateResult, to path: String) throws {
        // A sightline into a void kept unknown is drawn up to the void, which shows why.
        let unknown = result.error?.code == .terrainUnknown
        guard let observer = result.observer, result.status == .hit || result.status == .horizon || unknown else {
            throw InputError("--plot \(path): the reading has no sightline to draw (it needs an orientation)")
        }
        let target = result.target.map { ProfilePlot.Position(latitude: $0.latitude, longitude: $0.longitude, height: $0.elevation) }
        var title = "Sightline profile"
        if let id = result.id { title += " of \(id)" }
        if unknown { title += ": terrain unknown in a void of the DEM" }
        if let t = result.target {
            title += result.status == .hit ? ": hit" : ": skyline point"
            title += " at \(String(format: "%.2f", t.distance / 1000)) km, \(String(format: "%.0f", t.elevation)) m"
        }
        var picture = ProfilePlot(observer: .init(latitude: observer.latitude, longitude: observer.longitude, height: observer.altitude),
                                  target: target, targetIsHit: result.status == .hit, samples: result.profile,
                                  refraction: result.sightline?.refraction ?? MarchSettings.defaultRefraction, title: title)
        picture.spread = result.uncertainty.map { ($0.distance.p2_5, $0.distance.p50, $0.distance.p97_5) }
        try SVGFile.write(picture.svg(), to: path, option: "--plot")
    }

    /// The most bytes a single reading or request may have: 16 MiB, beyond any reading (one with
    /// 10 000 skyline pixels is about 300 KB). More is refused without reading it all.
    static let maximumInputBytes = 16 << 20

    /// The reading in a file, or on stdin for `-`; bad JSON is bad input naming the field.
    static func readReading(_ path: String) throws -> Reading {
        let text = try readInput(path)
        do {
            return try ReadingDecoder().decode(text)
        } catch {
            throw InputError("reading: \(error.description)")
        }
    }

    /// A whole small input: a file, or stdin for `-`, at most ``maximumInputBytes``.
    static func readInput(_ path: String) throws -> String {
        let name = path == "-" ? "stdin" : path
        let handle: FileHandle?
        if path == "-" {
            handle = FileHandle.standardInput
        } else {
            guard FileManager.default.fileExists(atPath: path) else { throw InputError("\(path): no such file") }
            handle = FileHandle(forReadingAtPath: path)
        }
        guard let handle else { throw InputError("\(path): cannot be read") }
        var data = Data()
        while true {
            let chunk: Data?
            do { chunk = try handle.read(upToCount: 1 << 20) } catch {
                throw InputError("\(name): cannot be read")
            }
            guard let chunk, !chunk.isEmpty else { break }   // nil or empty: the end
            data.append(chunk)
            if data.count > maximumInputBytes {
                throw InputError("\(name): more than \(maximumInputBytes >> 20) MiB; a reading is one small JSON object")
            }
        }
        return String(decoding: data, as: UTF8.self)
    }
}
