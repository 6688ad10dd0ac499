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

    func locator(recordsProfile: Bool = false, jobs: Int? = nil) throws -> Locator {
        try Self.locator(demOptions: demOptions, settings: MarchSettings(refraction: refraction, step: step, recordsProfile: recordsProfile,
                                                                         skylineRange: skylineRange), jobs: jobs)
    }

    /// A locator over the DEM with the EGM96 geoid and, when the index is built and
    /// `placemarks` asks for them, placemarks (loading the geocoder's index costs a command
    /// that names no place, such as `viewshed`, 14 M instructions of its start). `featureNames`
    /// (by default as `placemarks`) loads the places index that names summits: a panorama
    /// names its peaks with it but gives no placemark, so it opens no geocoder.
    ///
    /// `jobs` (the command's `--jobs`; nil: all cores) bounds the threads that decode a
    /// compressed tile's blocks. The geoid is read in place (``Geoid/init(gtxContentsOf:)``),
    /// a few kilobytes, so it loads on the calling thread.
    static func locator(demOptions: DEMOptions, settings: MarchSettings, placemarks: Bool = true, featureNames: Bool? = nil,
                        area: VoidFillArea? = nil, jobs: Int? = nil) throws -> Locator {
        let catalog = try demOptions.openCatalog(area: area, jobs: jobs)
        let geoid: Geoid
        do {
            // Sightlines read the geoid's steepest gradient: kept beside the void-fill patches.
            geoid = try Geoid().keepingSteepestGradient(in: VoidFillCache()?.directory)
        } catch {
            throw InputError("cannot read the EGM96 geoid: \(error.description) (install Debian's proj-data)")
        }
        return Locator(catalog: catalog, geoid: geoid, settings: settings, placemarks: placemarks ? Placemarks.lookup() : nil,
                       names: (featureNames ?? placemarks) ? Placemarks.names() : nil)
    }
}
