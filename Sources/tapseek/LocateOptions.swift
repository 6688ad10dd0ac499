import ArgumentParser
import TapSeek

/// Options of the commands that march sightlines.
struct LocateOptions: ParsableArguments {
    @OptionGroup var demOptions: DEMOptions

    @Option(parsing: .unconditional, help: "Refraction coefficient k (the ray bends with curvature k/R; GDAL and GRASS use 1/7).")
    var refraction: Double = MarchSettings.defaultRefraction

    @Option(parsing: .unconditional, help: "Distance between the terrain samples of the profile (--plot, GeoJSON), metres; the march itself is exact.")
    var step: Double = MarchSettings.defaultStep

    @Option(parsing: .unconditional, help: ArgumentHelp("Largest ground distance of the DEM's skyline that a calibration (or `skyline`) matches, metres (default: the horizon range of the highest terrain). Only azimuths whose skyline the DEM settles are matched; with a DEM smaller than the range few are: a smaller range states that farther terrain does not show.", valueName: "m"))
    var skylineRange: Double?

    func validate() throws {
        if let skylineRange, !MarchSettings.skylineRangeLimits.contains(skylineRange) {
            throw ValidationError("--skyline-range must be within \(MarchSettings.skylineRangeLimits) metres, got \(skylineRange)")
        }
        guard MarchSettings.refractionRange.contains(refraction) else {
            throw ValidationError("--refraction must be within \(MarchSettings.refractionRange), got \(refraction)")
        }
        guard MarchSettings.stepRange.contains(step) else {
            throw ValidationError("--step must be within \(MarchSettings.stepRange) metres, got \(step)")
        }
    }

    func locator(recordsProfile: Bool = false) throws -> Locator {
        try Self.locator(demOptions: demOptions, settings: MarchSettings(refraction: refraction, step: step, recordsProfile: recordsProfile,
                                                                         skylineRange: skylineRange))
    }

    /// A locator over the DEM with the EGM96 geoid and, when the index is built, placemarks.
    static func locator(demOptions: DEMOptions, settings: MarchSettings) throws -> Locator {
        let geoid: Geoid
        do { geoid = try Geoid() } catch { throw InputError("cannot read the EGM96 geoid: \(error.description) (install Debian's proj-data)") }
        return Locator(catalog: try demOptions.openCatalog(), geoid: geoid, settings: settings, placemarks: Placemarks.lookup())
    }
}
