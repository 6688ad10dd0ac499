import ArgumentParser
import Foundation
import TapSeek

/// `tapseek viewshed LAT LON -o OUT.tif`: which cells around a point can be seen from it.
struct ViewshedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "viewshed",
        abstract: "What can be seen from a point: a GeoTIFF of visible cells and a JSON summary.",
        discussion: """
            Writes OUT.tif, a GeoTIFF in EPSG:4326 (band 1, Byte: 1 visible, 0 hidden, 255 no data: no terrain, or \
            beyond --range), one cell per DEM post by default, and prints {"visibleArea": m², "cells", \
            "visibleCells", "warnings"}. Each cell says what `tapseek aim` says of its centre, raised by \
            --target-height: whether the refracted sightline to it meets terrain more than max(30 m, 0.5 % of the \
            distance) short of it. --format geojson prints an RFC 7946 FeatureCollection instead: the observer with \
            the summary, and the visible area as a MultiPolygon. Reverse use: from a summit (--altitude at the summit, \
            or --eye-height) with --target-height 1.6, the cells from which a person can see the summit: the same \
            sightlines, except that refraction bends each by the radius of curvature at its start and the spared \
            stretch lies at its target's end, so grazing ones may differ (docs/guides/viewshed.md). Exit status 0 on success, 1 on bad input or an unwritable file, 2 on bad usage.
            """
    )

    @OptionGroup var point: CoordinateArguments

    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("The GeoTIFF to write.", valueName: "out.tif"))
    var output: String

    @Option(parsing: .unconditional, help: "Eye altitude, metres (default: on the ground at --eye-height); negative below sea level.")
    var altitude: Double?

    @Option(help: "Datum of --altitude: msl (EGM96, iOS) or ellipsoid (WGS84, Android).")
    var altitudeReference: AltitudeReferenceOption = .msl

    @Option(help: "Eye above the ground, metres, when --altitude is absent or below the terrain.")
    var eyeHeight: Double = Reading.Location.defaultEyeHeight

    @Option(parsing: .unconditional, help: "Largest horizontal distance judged, metres (default: the horizon range of the highest terrain, clipped to the DEM).")
    var range: Double?

    @OptionGroup var demOptions: DEMOptions

    @Option(parsing: .unconditional, help: "Refraction coefficient k (the ray bends with curvature k/R; GDAL and GRASS use 1/7).")
    var refraction: Double = MarchSettings.defaultRefraction

    @Option(parsing: .unconditional, help: "Height of the seen points above the terrain, metres.")
    var targetHeight: Double = 0

    @Option(parsing: .unconditional, help: ArgumentHelp("Arc seconds between cell centres (default: the DEM's post spacing at the observer).", valueName: "arcsec"))
    var resolution: Double?

    @Option(help: "Output on stdout: json (the summary) or geojson (an RFC 7946 FeatureCollection with the visible area).")
    var format: LocateOutputFormat = .json

    @Option(help: "Worker threads.")
    var jobs: JobCount = .allCores

    func validate() throws {
        try point.validateCount()
        if let range, !(range > 0 && range <= 2_000_000) {
            throw ValidationError("--range must be within (0, 2000000] metres, got \(range)")
        }
        guard MarchSettings.refractionRange.contains(refraction) else {
            throw ValidationError("--refraction must be within \(MarchSettings.refractionRange), got \(refraction)")
        }
        guard eyeHeight.isFinite, eyeHeight >= 0, eyeHeight <= 10_000 else {
            throw ValidationError("--eye-height must be within 0…10000 metres, got \(eyeHeight)")
        }
        guard targetHeight.isFinite, targetHeight >= 0, targetHeight <= 10_000 else {
            throw ValidationError("--target-height must be within 0…10000 metres, got \(targetHeight)")
        }
        if let resolution, !(resolution > 0 && resolution <= 3600) {
            throw ValidationError("--resolution must be within (0, 3600] arc seconds, got \(resolution)")
        }
        if let altitude, !(altitude.isFinite && altitude >= -1000 && altitude <= 50_000) {
            throw ValidationError("--altitude must be within −1000…50000 metres, got \(altitude)")
        }
        try jobs.validate()
        guard !output.isEmpty else { throw ValidationError("--output must name a file") }
    }

    func run() throws {
        let latitude = try point.latitude(), longitude = try point.longitude()
        let locator = try LocateOptions.locator(demOptions: demOptions, settings: MarchSettings(refraction: refraction),
                                                  placemarks: false,
                                                  area: range.flatMap { VoidFillArea.around(latitude: latitude, longitude: longitude, radius: $0) },
                                                  jobs: jobs.value)
        let location = Reading.Location(latitude: latitude, longitude: longitude, altitude: altitude,
                                        altitudeReference: altitudeReference.reference, eyeHeight: eyeHeight)
        let settings = Viewshed.Settings(range: range, refraction: refraction, targetHeight: targetHeight,
                                         resolution: resolution.map { $0 / 3600 })
        let progress = ViewshedProgress()
        var report: (@Sendable (Int, Int) -> Void)?
        if progress.isTerminal { report = { @Sendable done, total in progress.show(done: done, of: total) } }
        let result: ViewshedResult
        do {
            result = try locator.viewshed(from: location, settings: settings, jobs: jobs.value, progress: report)
        } catch {
            progress.clear()
            throw InputError(error.message)
        }
        progress.clear()
        try GeoTIFFFile.write(result.viewshed.grid, to: output, option: "--output")
        var out = OutputBuffer()
        let summary = ViewshedSummary(result)
        switch format {
        case .json: out.appendJSON(summary)
        case .geojson: Self.writeGeoJSON(result, summary: summary, geoid: locator.geoid, to: &out)
        }
        out.newline()
        out.flush()
    }

    /// An RFC 7946 FeatureCollection: the observer (a Point, ellipsoidal height) with the
    /// summary as its properties, and the visible cells' outlines as one MultiPolygon.
    static func writeGeoJSON(_ r: ViewshedResult, summary: ViewshedSummary, geoid: Geoid, to out: inout OutputBuffer) {
        let o = r.observer
        out.append("{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"geometry\":")
        GeoJSONWriter.writePoint(.init(longitude: o.longitude, latitude: o.latitude,
                                       height: o.altitude + geoid.undulation(latitude: o.latitude, longitude: o.longitude)), to: &out)
        out.append(",\"properties\":{\"role\":\"observer\",")
        out.appendJSONMembers(of: summary)
        out.append("}},{\"type\":\"Feature\",\"geometry\":{\"type\":\"MultiPolygon\",\"coordinates\":[")
        for (i, polygon) in ViewshedOutline.polygons(of: r.viewshed.grid).enumerated() {
            out.append(i == 0 ? "[" : ",[")
            for (j, ring) in polygon.enumerated() {
                out.append(j == 0 ? "[" : ",[")
                for (k, v) in ring.enumerated() {
                    out.append(k == 0 ? "[" : ",[")
                    out.appendFixed(v.longitude, decimals: 7)
                    out.append(",")
                    out.appendFixed(v.latitude, decimals: 7)
                    out.append("]")
                }
                out.append("]")
            }
            out.append("]")
        }
        out.append("]},\"properties\":{\"role\":\"visible\",\"visibleArea\":")
        out.appendFixed(summary.visibleArea.value, decimals: 2)
        out.append("}}]}")
    }
}

/// The summary JSON of `tapseek viewshed`.
struct ViewshedSummary: Encodable {
    var observer: LocateResult.Observer
    var range: FixedDecimal
    var refraction: Double
    var targetHeight: Double
    /// Arc seconds between cell centres, north–south and east–west.
    var resolution: [FixedDecimal]
    var rows: Int
    var columns: Int
    var visibleArea: FixedDecimal
    var cells: Int
    var visibleCells: Int
    /// The sweep's level rays, and the cells judged by a sightline of their own.
    var levelRays: Int
    var ownSightlines: Int
    var warnings: [String]
    var warningCodes: [String]

    init(_ r: ViewshedResult) {
        let v = r.viewshed, g = v.grid
        observer = r.observer
        range = .metres(v.range)
        refraction = v.settings.refraction
        targetHeight = v.settings.targetHeight
        resolution = [.fourPlaces(g.latitudeSpacing * 3600), .fourPlaces(g.longitudeSpacing * 3600)]
        rows = g.rows
        columns = g.columns
        visibleArea = .metres(g.visibleArea)
        cells = g.cells
        visibleCells = g.visibleCells
        levelRays = v.radials
        ownSightlines = v.exactCells
        warnings = r.warnings.map(\.message)
        warningCodes = r.warnings.map(\.code.rawValue)
    }
}

/// The progress line of `tapseek viewshed` on stderr, only when stderr is a terminal.
final class ViewshedProgress: Sendable {
    let isTerminal = isatty(STDERR_FILENO) == 1
    private let shown = Locked(false)

    func show(done: Int, of total: Int) {
        shown.withLock { shown in
            FileHandle.standardError.write(Data("\r\u{1B}[Kviewshed: \(100 * done / max(total, 1)) % of \(total) rows".utf8))
            shown = true
        }
    }

    func clear() {
        shown.withLock { shown in
            if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            shown = false
        }
    }
}
