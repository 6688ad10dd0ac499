import ArgumentParser
import Dispatch
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
    /// With `reading` (latitude, longitude), the DEM tile there is read while the geoid loads
    /// on another thread: two independent reads of a few million posts each that a command
    /// needing both at once (`viewshed`) would otherwise wait for one after the other. `jobs`
    /// (the command's `--jobs`; nil: all cores) bounds the threads that read: with 1, the geoid
    /// is read first and a compressed tile's blocks one after another, on the calling thread.
    static func locator(demOptions: DEMOptions, settings: MarchSettings, placemarks: Bool = true, featureNames: Bool? = nil,
                        reading point: (latitude: Double, longitude: Double)? = nil, area: VoidFillArea? = nil,
                        jobs: Int? = nil) throws -> Locator {
        let loaded = Locked<Result<Geoid, TerrainFileError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        @Sendable func load() {
            let geoid: Result<Geoid, TerrainFileError>
            // Sightlines read the geoid's steepest gradient: kept beside the void-fill patches.
            do { geoid = .success(try Geoid().keepingSteepestGradient(in: VoidFillCache()?.directory)) } catch { geoid = .failure(error) }
            loaded.withLock { $0 = geoid }
        }
        let alongside = point != nil && jobs != 1
        if alongside {
            DispatchQueue.global().async {
                load()
                done.signal()
            }
        } else {
            load()
        }
        let catalog = try demOptions.openCatalog(area: area, jobs: jobs)
        if let point {
            var terrain = TerrainSampler(catalog: catalog)
            _ = terrain.sample(latitude: point.latitude, longitude: point.longitude)
        }
        if alongside { done.wait() }
        let geoid: Geoid
        switch loaded.withLock({ $0 }) {
        case .success(let g): geoid = g
        case .failure(let error): throw InputError("cannot read the EGM96 geoid: \(error.description) (install Debian's proj-data)")
        case nil: preconditionFailure("the geoid was loaded above")
        }
        return Locator(catalog: catalog, geoid: geoid, settings: settings, placemarks: placemarks ? Placemarks.lookup() : nil,
                       names: (featureNames ?? placemarks) ? Placemarks.names() : nil)
    }
}
