import ArgumentParser
import Foundation
import TapSeek

/// `tapseek report [FILE|-] -o REPORT.html`: a field log as one self-contained web page — the
/// relief, observers, sightlines and targets on a map, a table of every input line, the profile
/// of the reading selected. Reads what `batch` reads and locates it the same way.
struct ReportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Locate a log as batch does and write it as one self-contained HTML page.",
        discussion: """
        The page needs no network: its script, style and relief image (drawn from the DEM) are \
        inside it. It shows the observers, their track, sightlines and targets over the relief \
        and the coasts and borders of the geocoder index (pan: drag; zoom: wheel or +/-), one \
        view a place when the readings lie in places far apart, a table of every non-blank input line (errors included) that sorts and \
        filters, and the terrain profile of the reading selected. A summary goes to stderr, and \
        a progress line when stderr is a terminal. Exit status 0 when the page is written, also \
        when some lines are errors.
        """
    )

    @OptionGroup var log: LogOptions

    @Option(name: [.short, .customLong("output")], help: "The HTML file to write.")
    var output: String

    @Option(parsing: .unconditional, help: "Chunks of readings located at once.")
    var jobs: JobCount = .allCores

    @OptionGroup var options: LocateOptions

    @OptionGroup var sampling: UncertaintyOptions

    func validate() throws {
        try jobs.validate()
        guard log.format != .geojson else { throw ValidationError("--format geojson names an output; report writes HTML") }
        guard !output.isEmpty else { throw ValidationError("--output must name a file") }
    }

    func run() async throws {
        // Fail before a long batch, not after it.
        let directory = URL(fileURLWithPath: output).deletingLastPathComponent().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw InputError("--output \(output): no such directory \(directory)")
        }
        if FileManager.default.fileExists(atPath: output, isDirectory: &isDirectory), isDirectory.boolValue {
            throw InputError("--output \(output): is a directory; name the HTML file to write")
        }
        var input = try log.input()
        let locator = try options.locator(recordsProfile: true, jobs: jobs.value)
        let batch = BatchLocator(locator: locator, jobs: jobs.value, uncertainty: sampling.settings)
        let decoder = input.decoder
        let refraction = options.refraction
        var carry = log.carryCalibration ? CalibrationCarry(locator: batch.locator) : nil
        // Profiles shrink past 10 000 lines, when the page's size starts to matter.
        let points = ReportProfilePoints()
        var pipeline = BatchPipeline<BatchChunk, ReportChunk>(jobs: jobs.value) { chunk in
            ReportChunk.make(from: chunk, batch: batch, decoder: decoder, refraction: refraction, profilePoints: points.current)
        }
        var rows = ReportRows(profilePoints: 0)
        var progress = BatchProgress(totalBytes: input.totalBytes)
        let (tally, failure) = try await input.drain(through: &pipeline, chunkSize: batch.chunkSize, carry: &carry,
                                                     decoder: decoder, progress: &progress) { chunk in
            rows.merge(chunk.rows)
            points.seen(rows.count)
        }
        if let failure { throw failure }
        let batchSeconds = progress.elapsed
        let page = ReportPage(title: log.file == "-" ? "stdin" : URL(fileURLWithPath: log.file).lastPathComponent, rows: rows,
                              catalog: locator.catalog, uncertainty: sampling.uncertainty, summary: tally.summary,
                              geocoder: try? Geocoder.default())
        do {
            try page.write(to: output)
        } catch {
            throw InputError("--output \(output): cannot write: \(error.localizedDescription)")
        }
        let pageSeconds = progress.elapsed - batchSeconds
        StandardError.write("tapseek: report: \(BatchProgress.counted(tally.total, "line")) in \(String(format: "%.1f", batchSeconds)) s, page in "
            + "\(String(format: "%.1f", pageSeconds)) s: \(tally.summary); wrote \(output)")
    }
}

/// Terrain heights per profile for the chunks still to come: 64 for the first 10 000 lines,
/// then 24, which keeps 100 000 rows with profiles near 30 MB.
final class ReportProfilePoints: Sendable {
    private let count = Locked(0)
    var current: Int { count.withLock { $0 } < 10_000 ? 64 : 24 }
    func seen(_ rows: Int) { count.withLock { $0 = rows } }
}
