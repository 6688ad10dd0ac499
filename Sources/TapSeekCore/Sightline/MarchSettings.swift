/// How a sightline is marched over the terrain.
public struct MarchSettings: Sendable, Hashable {
    /// Refraction coefficient k: the ray bends toward the Earth with curvature k/R.
    /// 0.13 is the usual value (ArcGIS default, Deuschle's panoramas); GDAL and GRASS use 1/7.
    public var refraction: Double
    /// Distance between the terrain samples of a recorded profile, metres. The march itself
    /// is exact and does not step.
    public var step: Double
    /// Whether to keep the terrain profile under the ray (for plots).
    public var recordsProfile: Bool
    /// Whether to keep the ray's ground track (for maps); sampled sightlines need only their end.
    public var recordsTrack = true
    /// Whether to say how far the answer rests on terrain filled across voids
    /// (``SightlineMarch/Result/filledTerrain``); sampled sightlines need only their end.
    public var reportsFilledTerrain = true
    /// Largest ground distance of the DEM's skyline that a calibration, or the skyline drawn into
    /// an image, takes into account, metres; nil: the horizon range of the highest terrain (see
    /// ``Panorama/Settings/range``). An azimuth is matched only where its skyline is settled
    /// (``Panorama/Point/complete``), which a DEM smaller than this range rarely does: a smaller
    /// range is the statement that terrain farther away does not show.
    public var skylineRange: Double?

    /// The usual refraction coefficient.
    public static let defaultRefraction = 0.13
    /// The usual step, metres.
    public static let defaultStep = 10.0
    /// The allowed step range, metres: below 0.1 m a profile grows too long for no gain, above
    /// 1 km it shows no valleys.
    public static let stepRange = 0.1...1000.0
    /// The allowed refraction range: k = 1 would make the ray follow the Earth.
    public static let refractionRange = -1.0...0.99

    /// The allowed skyline ranges, metres (as a panorama's `--range`).
    public static let skylineRangeLimits = 1.0...2_000_000.0

    public init(refraction: Double = MarchSettings.defaultRefraction, step: Double = MarchSettings.defaultStep,
                recordsProfile: Bool = false, skylineRange: Double? = nil) {
        self.refraction = refraction
        self.step = step
        self.recordsProfile = recordsProfile
        self.skylineRange = skylineRange
    }
}
