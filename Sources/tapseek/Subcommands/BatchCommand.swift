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

    @OptionGroup var log: LogOptions

    @Option(help: "Output: json (one result JSON per line) or geojson (a GeoJSON Text Sequence, RFC 8142: per reading one record of RS, a Feature and LF; the Feature is the target as a 3-D Point with the result's fields, its line and id as properties, null geometry for an error; --format geojson is shorthand for this).")
    var output: LocateOutputFormat = .json

    @Flag(help: "With --output geojson: each reading's Feature is its sightline (a 3-D LineString from the eye to the target) instead of the target Point.")
    var geojsonSightlines = false

    @Option(parsing: .unconditional, help: "Chunks of readings located at once.")
    var jobs: JobCount = .allCores

    @Flag(help: "JSON Lines whose every line is its line number, a tab and the reading (N<TAB>{…}): results and messages name line N. For tools that split a log over many processes and merge the results (scripts/spark_batch.py).")
    var numbered = false

    @OptionGroup var options: LocateOptions

    @OptionGroup var sampling: UncertaintyOptions

    func validate() throws {
        try jobs.validate()
        if geojsonSightlines, output != .geojson, log.format != .geojson {
            throw ValidationError("--geojson-sightlines shapes GeoJSON output: add --output geojson")
        }
        if numbered, ![.auto, .jsonl, .geojson].contains(log.format) {
            throw ValidationError("--numbered reads JSON Lines only, not --format \(log.format.rawValue)")
        }
    }

    func run() async throws {
        let geoJSON: GeoJSONWriter.SequenceGeometry? = output == .geojson || log.format == .geojson
            ? (geojsonSightlines ? .sightline : .target) : nil
        var input = try log.input(format: log.format == .geojson ? .auto : nil, numbered: numbered)
        let batch = BatchLocator(locator: try options.locator(jobs: jobs.value), jobs: jobs.value, uncertainty: sampling.settings)
        let decoder = input.decoder
        var carry = log.carryCalibration ? CalibrationCarry(locator: batch.locator) : nil
        var pipeline = BatchPipeline<BatchChunk, BatchChunkOutput>(jobs: jobs.value) { chunk in
            BatchChunkOutput.make(from: chunk, batch: batch, decoder: decoder, geoJSON: geoJSON)
        }
        var progress = BatchProgress(totalBytes: input.totalBytes)
        let (tally, failure) = try await input.drain(through: &pipeline, chunkSize: batch.chunkSize, carry: &carry,
                                                     decoder: decoder, progress: &progress) { $0.json.flush() }
        let seconds = progress.elapsed
        let rate = seconds > 0 ? " (\(Int((Double(tally.total) / seconds).rounded()))/s)" : ""
        StandardError.write("tapseek: batch: \(BatchProgress.counted(tally.total, "result")) in \(String(format: "%.1f", seconds)) s\(rate): \(tally.summary)")
        if let failure { throw failure }
    }
}
