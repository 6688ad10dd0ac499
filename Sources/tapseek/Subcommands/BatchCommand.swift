import ArgumentParser
import Foundation
import TapSeek

/// `tapseek batch [FILE|-]`: many readings or a phone log → JSON Lines of results, one per input
/// record, in input order, on all cores.
struct BatchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Locate every reading of a JSON Lines file or a phone-app log, on all cores.",
        discussion: """
        Writes one result JSON line per input record, in input order, each with its "line"; blank \
        lines are no records and get none. A line that cannot be read becomes an error record {"line":N,"status":"error","error":{"code":"bad-input",\
        "message":"line N: …"}} and the run goes on. Readings without orientation (GPSLogger, \
        phyphox) give location-only records (status "location"). A summary by status goes to \
        stderr, and a progress line when stderr is a terminal. Exit status 0 even when some \
        records are errors; 1 when the input cannot be opened or read.
        """
    )

    @Argument(help: "JSON Lines file, phone log file, Sensor Logger or phyphox export folder or zip; - for stdin.")
    var file: String = "-"

    @Option(help: "Input format; auto recognises JSON Lines, the phone apps' CSV headers and export folders.")
    var format: BatchFormat = .auto

    @Option(help: "Output: json (one result JSON per line) or geojson (a GeoJSON Text Sequence, RFC 8142: per reading one record of RS, a Feature and LF; the Feature is the target as a 3-D Point with the result's fields, its line and id as properties, null geometry for an error; --format geojson is shorthand for this).")
    var output: LocateOutputFormat = .json

    @Flag(help: "With --output geojson: each reading's Feature is its sightline (a 3-D LineString from the eye to the target) instead of the target Point.")
    var geojsonSightlines = false

    @Option(parsing: .unconditional, help: "Chunks of readings located at once.")
    var jobs: JobCount = .allCores

    @Option(parsing: .unconditional, help: "Keep a reading only after this many seconds since the last one kept (or --min-move).")
    var every: Double?

    @Option(name: .customLong("min-move"), parsing: .unconditional, help: "Keep a reading only after a move of this many metres from the last one kept (or --every).")
    var minMove: Double?

    @Flag(help: "JSON Lines whose every line is its line number, a tab and the reading (N<TAB>{…}): results and messages name line N. For tools that split a log over many processes and merge the results (scripts/spark_batch.py).")
    var numbered = false

    @Flag(inversion: .prefixedNo, help: "Carry the calibration of a reading with skyline or landmarks over to the readings after it, until the next such reading.")
    var carryCalibration = true

    @Option(parsing: .unconditional, help: FixedLocation.help)
    var location: String?

    @OptionGroup var options: LocateOptions

    @OptionGroup var sampling: UncertaintyOptions

    func validate() throws {
        try jobs.validate()
        if let location { _ = try FixedLocation.parse(location) }
        if geojsonSightlines, output != .geojson, format != .geojson {
            throw ValidationError("--geojson-sightlines shapes GeoJSON output: add --output geojson")
        }
        if numbered, ![.auto, .jsonl, .geojson].contains(format) {
            throw ValidationError("--numbered reads JSON Lines only, not --format \(format.rawValue)")
        }
        do throws(ImportError) {
            _ = try thinning.validated()
        } catch {
            throw ValidationError("\(error.column ?? "") \(error.message)")
        }
    }

    private var thinning: Thinning { Thinning(every: every, minMove: minMove) }

    func run() async throws {
        let geoJSON: GeoJSONWriter.SequenceGeometry? = output == .geojson || format == .geojson
            ? (geojsonSightlines ? .sightline : .target) : nil
        var input = try BatchInput(path: file, format: format == .geojson ? .auto : format, thinning: thinning, numbered: numbered,
                                   location: try location.map { try FixedLocation.parse($0) })
        let batch = BatchLocator(locator: try options.locator(), jobs: jobs.value, uncertainty: sampling.settings)
        let decoder = input.decoder
        var carry = carryCalibration ? CalibrationCarry(locator: batch.locator) : nil
        var pipeline = BatchPipeline<BatchChunk, BatchChunkOutput>(jobs: jobs.value) { chunk in
            BatchChunkOutput.make(from: chunk, batch: batch, decoder: decoder, geoJSON: geoJSON)
        }
        var tally = BatchTally()
        var progress = BatchProgress(totalBytes: input.totalBytes)
        var bytesDone = 0
        var failure: InputError?
        var inputEnded = false
        while true {
            if !inputEnded {
                inputEnded = try input.fill(&pipeline, chunkSize: batch.chunkSize, carry: &carry, decoder: decoder, failure: &failure)
            }
            guard var output = await pipeline.next() else { break }
            output.json.flush()
            tally.merge(output.tally)
            bytesDone += output.inputBytes
            progress.update(results: tally.total, bytes: bytesDone)
        }
        progress.clear()
        let seconds = progress.elapsed
        let rate = seconds > 0 ? " (\(Int((Double(tally.total) / seconds).rounded()))/s)" : ""
        StandardError.write("tapseek: batch: \(BatchProgress.counted(tally.total, "result")) in \(String(format: "%.1f", seconds)) s\(rate): \(tally.summary)")
        if let failure { throw failure }
    }
}
