import ArgumentParser
import Foundation
import TapSeek

/// `tapseek dem fetch N27E086 … | --bbox S,W,N,E [--source srtm|copernicus]`: downloads SRTM or
/// Copernicus GLO-30 tiles into the DEM directory, verified and resumable; progress on stderr,
/// nothing on stdout.
struct DEMFetchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Download SRTM or Copernicus GLO-30 tiles into the DEM directory (verified, atomic, resumable).",
        discussion: """
        Tiles are named by their south-west corner (N27E086 covers 27–28° N, 86–87° E). Tiles \
        already present and valid are skipped; an interrupted download (NAME.part) is resumed \
        with an HTTP Range request when the server allows it. A stored tile is NAME.hgt (a gzip \
        response is unpacked) or NAME.hgt.zip (a zip holding NAME.hgt), and must be 1201² or \
        3601² posts. A tile the server does not have (HTTP 404) is reported as "no tile \
        (ocean?)" and the run goes on; any other failure is reported, the run goes on, and the \
        exit status is 1, or 3 when every failure was the network's (no network, a host that \
        does not resolve or cannot be reached, a transfer broken off: run again later). A response longer than any tile (25.9 MB), or a gzip that unpacks to \
        more, is stopped there and reported. More than --max-tiles tiles (default \(defaultMaximumTiles)) \
        are fetched only with --yes.

        --source copernicus fetches Copernicus GLO-30 tiles instead (1″ COG GeoTIFFs, heights \
        above EGM2008; names may also be the bucket's, e.g. \
        Copernicus_DSM_COG_10_N46_00_E008_00_DEM). Each is verified by decoding every post and \
        checking that its posts span the tile, and stored under the bucket's name, by which every \
        command knows its heights are above EGM2008. They are converted to EGM96 when an EGM2008 \
        grid is found ($TAPSEEK_EGM2008, or PROJ's us_nga_egm08_25.tif or egm08_25.gtx in its \
        data directories); otherwise they are read as above EGM96, with a warning. A response \
        over 100 MB is not a tile.

        The server comes from --url-template, else $TAPSEEK_TILE_URL, else for srtm AWS Open Data \
        Terrain Tiles (\(TileURLTemplate.skadi)), for copernicus the public Copernicus bucket \
        (\(TileURLTemplate.copernicusGLO30)). Placeholders, for S38W071: {name} S38W071, \
        {lat} S38, {lon} W071, {latitude} -38, {longitude} -71. http, https and file URLs work.
        """
    )

    @Argument(help: "Tile names, e.g. N27E086 S38W071 (with --source copernicus also Copernicus_DSM_COG_10_N46_00_E008_00_DEM).")
    var tiles: [String] = []

    @Option(parsing: .unconditional, help: "Every tile of a box: south,west,north,east in degrees (west > east crosses the antimeridian).")
    var bbox: String?

    @Option(help: "Directory to store tiles in (default: $TAPSEEK_DEM, else dem/ in the first TapSeek data directory: $TAPSEEK_DATA, the installation, XDG data dirs).")
    var dem: String?

    @Option(help: "Tile URL with placeholders (default: $TAPSEEK_TILE_URL, else the source's public bucket).")
    var urlTemplate: String?

    @Option(parsing: .unconditional, help: "Most tiles one run fetches without --yes (a 1″ SRTM tile is up to 25.9 MB, a Copernicus one about 52 MB).")
    var maxTiles: Int = Self.defaultMaximumTiles

    @Flag(help: "Fetch every tile asked for, however many.")
    var yes = false

    @Option(help: "Which tiles: srtm (.hgt, heights above EGM96) or copernicus (GLO-30 COG GeoTIFFs, heights above EGM2008).")
    var source: TileSource = .srtm

    /// 100 tiles of up to 25.9 MB: 2.6 GB, about what a mountain range needs; a continent-sized
    /// box (thousands of tiles, tens of GB) should be asked for on purpose.
    static let defaultMaximumTiles = 100

    func validate() throws {
        guard maxTiles >= 1 else { throw ValidationError("--max-tiles must be at least 1, got \(maxTiles)") }
        let (names, _) = try request()
        if !yes, names.count > maxTiles {
            let gigabytes = String(format: "%.1f", Double(names.count) * Double(source.largestTileBytes) / 1e9)
            throw ValidationError("that is \(names.count) tiles (up to \(gigabytes) GB), more than --max-tiles \(maxTiles): add --yes to fetch them all, or a larger --max-tiles")
        }
    }

    func run() async throws {
        let (names, template) = try request()
        let directory = dem ?? DefaultDEM.directory
        let fetcher = TileFetcher(directory: directory, template: template, source: source)
        let display = FetchProgressDisplay()
        var counts = (stored: 0, present: 0, missing: 0)
        var failures: [String] = []
        var networkFailures = 0
        for tile in names {
            let started = ContinuousClock.now
            do {
                let result = try await fetcher.fetch(tile) { display.show($0) }
                switch result {
                case .present(let file, let bytes):
                    counts.present += 1
                    display.line("\(tile): already present (\(file), \(bytes) bytes)")
                case .stored(let file, let bytes, let transferred, let resumedAt):
                    counts.stored += 1
                    let seconds = (ContinuousClock.now - started).seconds
                    let resumed = resumedAt > 0 ? "resumed at byte \(resumedAt), " : ""
                    display.line("\(tile): stored \(file) (\(bytes) bytes; \(resumed)\(transferred) bytes received in \(String(format: "%.1f", seconds)) s)")
                case .noTile(let url):
                    counts.missing += 1
                    display.line("\(tile): no tile (ocean?): not found at \(url)")
                }
            } catch {
                failures.append(tile.description)
                if error.isNetworkFailure { networkFailures += 1 }
                display.line("tapseek: \(error.description)")
            }
        }
        display.line("tapseek: \(counts.stored) stored, \(counts.present) already present, \(counts.missing) no tile (ocean?), \(failures.count) failed, in \(directory)")
        if !failures.isEmpty {
            let message = "\(failures.count) of \(names.count) tile(s) failed: \(failures.joined(separator: " "))"
            // Only the network to blame: a later run may succeed, and scripts can tell (status 3).
            if networkFailures == failures.count { throw NetworkError(message + "; run again when the network is back") }
            throw InputError(message)
        }
    }

    /// The tiles asked for (names first, then the box's, each once) and the server template.
    private func request() throws -> ([SRTMTileName], TileURLTemplate) {
        guard !tiles.isEmpty || bbox != nil else {
            throw ValidationError("give tile names (e.g. N27E086) or --bbox south,west,north,east")
        }
        do throws(TileFetchError) {
            var names = try tiles.map { (text) throws(TileFetchError) in
                if source == .copernicus, let cell = CopernicusTileName.parse(text), let tile = SRTMTileName(latitude: cell.latitude, longitude: cell.longitude) {
                    return tile
                }
                return try SRTMTileName(parsing: text)
            }
            if let bbox { names += try TileBoundingBox(parsing: bbox).tiles }
            var seen: Set<SRTMTileName> = []
            names = names.filter { seen.insert($0).inserted }
            let environment = ProcessInfo.processInfo.environment["TAPSEEK_TILE_URL"].flatMap { $0.isEmpty ? nil : $0 }
            let template = try TileURLTemplate(urlTemplate ?? environment ?? source.defaultTemplate)
            return (names, template)
        } catch {
            throw ValidationError(error.description)
        }
    }
}

/// Per-tile lines on stderr, plus a live progress line that rewrites itself, but only when
/// stderr is a terminal (a log file gets the per-tile lines alone).
final class FetchProgressDisplay: Sendable {
    private let isTerminal = isatty(STDERR_FILENO) == 1
    /// Whether a live line is on screen and must be cleared before the next full line.
    private let live = Locked(false)

    func show(_ event: TileFetchEvent) {
        switch event {
        case .requesting(let tile, let url, let offset):
            line(offset > 0 ? "\(tile): resuming \(url) at byte \(offset)" : "\(tile): fetching \(url)")
        case .note(let tile, let message):
            line("\(tile): \(message)")
        case .progress(let tile, let bytes, let expected):
            guard isTerminal else { return }
            var text = "\(tile): \(Self.megabytes(bytes))"
            if let expected, expected > 0 {
                text += " of \(Self.megabytes(expected)) (\(bytes * 100 / expected) %)"
            }
            live.withLock { shown in
                FileHandle.standardError.write(Data("\r\u{1B}[K\(text)".utf8))
                shown = true
            }
        }
    }

    func line(_ text: String) {
        live.withLock { shown in
            if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            shown = false
            StandardError.write(text)
        }
    }

    private static func megabytes(_ bytes: Int64) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }
}

private extension Duration {
    var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) * 1e-18
    }
}

extension TileSource: ExpressibleByArgument {}
