import ArgumentParser
import Foundation
import TapSeek

/// `tapseek panorama LAT LON`: the 360° skyline of an observer.
struct PanoramaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "panorama",
        abstract: "The 360° skyline seen from a point: elevation angle and touching point at every azimuth, and its peaks.",
        discussion: """
            Prints the panorama JSON (--format geojson: an RFC 7946 FeatureCollection of the observer, the skyline's \
            touching points and the peaks; heights above the WGS84 ellipsoid). --svg draws the panorama: the \
            silhouette shaded by depth, compass labels every 10°, the peaks labelled. Negative coordinates work as \
            plain arguments (tapseek panorama -38.6 178.1). Exit status 0 on success, 1 when the observer cannot be \
            placed or the picture cannot be written, 2 on bad usage.
            """
    )

    @OptionGroup var point: CoordinateArguments

    @Option(parsing: .unconditional, help: "Eye altitude, metres (default: on the ground at --eye-height); negative below sea level.")
    var altitude: Double?

    @Option(help: "Datum of --altitude: msl (EGM96, iOS) or ellipsoid (WGS84, Android).")
    var altitudeReference: AltitudeReferenceOption = .msl

    @Option(help: "Eye above the ground, metres, when --altitude is absent or below the terrain.")
    var eyeHeight: Double = Reading.Location.defaultEyeHeight

    @Option(help: "Degrees between azimuths.")
    var azimuthStep: Double = Panorama.Settings.defaultAzimuthStep

    @Option(help: "Largest ground distance considered, metres (default: the horizon range of the highest terrain).")
    var range: Double?

    @OptionGroup var demOptions: DEMOptions

    @Option(parsing: .unconditional, help: "Refraction coefficient k (the ray bends with curvature k/R; GDAL and GRASS use 1/7).")
    var refraction: Double = MarchSettings.defaultRefraction

    @Option(help: "Output format: json (the panorama JSON) or geojson (an RFC 7946 FeatureCollection).")
    var format: LocateOutputFormat = .json

    @Option(help: ArgumentHelp("Also draw the panorama into this SVG file.", valueName: "file.svg"))
    var svg: String?

    @Option(help: "Worker threads.")
    var jobs: JobCount = .allCores

    /// The azimuth steps allowed, degrees: 3.6 million rays at the finest.
    static let azimuthStepRange = 0.0001...90.0

    func validate() throws {
        try point.validateCount()
        guard Self.azimuthStepRange.contains(azimuthStep) else {
            throw ValidationError("--azimuth-step must be within \(Self.azimuthStepRange) degrees, got \(azimuthStep)")
        }
        if let range, !(range > 0 && range <= 2_000_000) {
            throw ValidationError("--range must be within (0, 2000000] metres, got \(range)")
        }
        guard MarchSettings.refractionRange.contains(refraction) else {
            throw ValidationError("--refraction must be within \(MarchSettings.refractionRange), got \(refraction)")
        }
        guard eyeHeight.isFinite, eyeHeight >= 0 else { throw ValidationError("--eye-height must be a finite number ≥ 0, got \(eyeHeight)") }
        if let altitude, !altitude.isFinite { throw ValidationError("--altitude must be a finite number, got \(altitude)") }
        try jobs.validate()
    }

    func run() throws {
        let latitude = try point.latitude(), longitude = try point.longitude()
        // Peaks are named from the places index; a panorama carries no placemark, so the
        // geocoder's index is not opened (14 M instructions, a twentieth of the command).
        let locator = try LocateOptions.locator(demOptions: demOptions, settings: MarchSettings(refraction: refraction),
                                                placemarks: false, featureNames: true,
                                                area: range.flatMap { VoidFillArea.around(latitude: latitude, longitude: longitude, radius: $0) },
                                                jobs: jobs.value)
        let location = Reading.Location(latitude: latitude, longitude: longitude, altitude: altitude,
                                        altitudeReference: altitudeReference.reference, eyeHeight: eyeHeight)
        let settings = Panorama.Settings(azimuthStep: azimuthStep, range: range, refraction: refraction,
                                         layers: svg == nil ? [] : Panorama.Settings.pictureLayers)
        let result: PanoramaResult
        do {
            result = try locator.panorama(from: location, settings: settings, jobs: jobs.value)
        } catch {
            throw InputError(error.message)
        }
        if let svg { try Self.writePicture(of: result, to: svg) }
        var out = OutputBuffer()
        switch format {
        case .json: out.appendJSON(result)
        case .geojson: PanoramaWriter.writeGeoJSON(result, geoid: locator.geoid, to: &out)
        }
        out.newline()
        out.flush()
    }

    static func writePicture(of result: PanoramaResult, to path: String) throws {
        let o = result.observer
        // The range searched is the horizon range; say how far the DEM let the search go.
        let unsettled = result.panorama.skyline.filter { !$0.complete }.count
        let reach = unsettled == 0 ? String(format: "range %.0f km", result.panorama.range / 1000)
            : String(format: "range %.0f km; the DEM ends first on %d of %d azimuths", result.panorama.range / 1000, unsettled,
                     result.panorama.skyline.count)
        let title = String(format: "Panorama from %.5f°, %.5f°, %.0f m", o.latitude, o.longitude, o.altitude) + " (\(reach))"
        try SVGFile.write(PanoramaPicture(panorama: result.panorama, title: title).svg(), to: path, option: "--svg")
    }
}
