import Foundation

/// One sightline over the terrain: a straight line in ECEF from the observer, bent toward the
/// Earth by refraction, followed until it meets the bilinear DEM surface.
///
/// The hit is exact on that surface: the ray is walked cell by cell, and in each cell the ray's
/// height and the terrain along its track are quadratics whose first crossing is solved in
/// closed form (to rounding, well under 1 mm; the ray's own model is good to 0.2 mm, see
/// ``RayPath``). Whole blocks of cells are skipped where the grid's ``MaximumPyramid`` proves
/// the ray above them, so no crest is ever stepped over, however thin. Voids are unknown
/// terrain: the walk goes on through them, never hits at 0 m, and says that it crossed one.
///
/// The march ends at a hit, when the ray is above the highest terrain and climbing, when its
/// ground track leaves the data, or at the horizon range √(2R′h_o) + √(2R′H_max),
/// R′ = R/(1 − k). Without a hit the answer is the skyline along the ray's azimuth.
public struct SightlineMarch {
    /// How a march ended.
    public enum Outcome: Sendable, Hashable {
        /// The ray met the terrain.
        case hit
        /// Nothing was hit; the target is the skyline point of highest apparent elevation.
        case horizon
        /// The ray saw no known terrain at all.
        case noTerrain
        /// The ray may meet the terrain inside a void, where its height is unknown: it left
        /// the void below the terrain, or it met no known terrain but passed through a void
        /// lower than the highest known post of the void's grid (the DEM may end inside the
        /// void). ``Result/unknownStretch`` says where; there is no target.
        case terrainUnknown
    }

    /// One terrain sample under the ray, for profiles.
    public struct ProfileSample: Sendable, Hashable {
        /// Straight-line distance from the observer, metres.
        public var slantDistance: Double
        /// Ground position, degrees.
        public var latitude: Double
        public var longitude: Double
        /// Terrain height, metres above mean sea level; nil in a void.
        public var terrain: Double?
        /// Height of the (refracted) ray, metres above mean sea level.
        public var ray: Double

        init(slantDistance: Double, latitude: Double, longitude: Double, terrain: Double?, ray: Double) {
            self.slantDistance = slantDistance
            self.latitude = latitude
            self.longitude = longitude
            self.terrain = terrain
            self.ray = ray
        }
    }

    /// What a march found: the hit or skyline point, how far the ray went and over what.
    public struct Result: Sendable {
        public var outcome: Outcome
        /// The hit or skyline point: degrees, and metres above mean sea level.
        public var latitude: Double = .nan
        public var longitude: Double = .nan
        public var elevation: Double = .nan
        /// Straight-line distance from the observer's eye to the target, metres. Refraction
        /// bends the ray below that chord, so it is shorter than ``marchedDistance`` by about
        /// the refraction drop times sin e (0.3 m for a 17° ray at 10 km).
        public var slantRange: Double = .nan
        /// Whether the ray passed over a void before reaching its target.
        public var crossedVoid = false
        /// For ``Outcome/terrainUnknown``: the ground distances from the observer between which
        /// the ray crossed the void where it may meet the terrain, metres.
        public var unknownStretch: ClosedRange<Double>?
        /// How far the answer rests on terrain filled across voids (``ElevationGrid/filled``);
        /// nil when it does not (see ``FilledTerrain``).
        public var filledTerrain: FilledTerrain?
        /// How far the march went along the ray, metres.
        public var marchedDistance = 0.0
        /// Ground distance from the observer at which the ray's track left the terrain data
        /// without meeting the terrain, metres; nil when it did not.
        public var leftData: Double?
        /// The ground track from the observer to the end of the march (every 500 m and the end).
        public var track: [Polyline.Coordinate] = []
        /// Terrain under the ray every ``MarchSettings/step``, when ``MarchSettings/recordsProfile`` is set.
        public var profile: [ProfileSample] = []

        init(outcome: Outcome) { self.outcome = outcome }
    }

    /// Highest terrain on Earth, metres above mean sea level (Everest, 8 849 m, 2020 survey).
    public static let highestTerrain = 8849.0
    /// Lowest land on Earth (Dead Sea shore, about −430 m): the floor of the horizon range.
    static let lowestTerrain = -430.0
    /// Highest undulation of EGM96 anywhere, metres (+85.4 m, conventions: −107 … +85): bounds
    /// how high unseen terrain can appear.
    static let highestUndulation = 86.0
    /// How far the skyline search seeds its best point with samples, metres: far enough for the
    /// ridges that usually form a skyline, near enough to cost little.
    static let seedRange = 50_000.0
    /// How far a sightline's skyline search seeds on past ``seedRange`` while the level ray stays
    /// over data (``SkylineSearch/seed(along:every:upTo:fartherOverData:over:)``), metres.
    /// From 7 000 m over the Everest tile the skyline of the benchmark's readings lies 45–60 km
    /// out, at the tile's edge, which seeds up to 50 km never reached: the walk then raised its
    /// best point cell after cell up to there, and looked into most blocks before. Seeded out
    /// to the edge, it skips them (callgrind, the benchmark's readings: 87 400 → 52 000
    /// instructions a skyline search, its walk 70 600 → 33 700). A seed costs about 350
    /// instructions, and these add one every 2 km of data, 50 at most. (Seeds every 1.5 km
    /// saved another 1 800 instructions a reading but are not a superset of the 2 km ones,
    /// which a skyline past a corner gap takes its point from.)
    static let seedRangeOverData = 150_000.0
    /// Spacing of the points of the ground track, metres.
    static let trackSpacing = 500.0

    var path: RayPath
    let settings: MarchSettings
    /// Azimuth of the skyline search when the ray is vertical, degrees.
    let verticalAzimuth: Double?

    /// - Parameters:
    ///   - observer: the eye, height above the WGS84 ellipsoid.
    ///   - direction: unit vector of the sightline in the observer's East-North-Up frame.
    ///   - verticalAzimuth: the azimuth (degrees) along which to look for the skyline when the
    ///     ray points straight up or down (a camera's heading); otherwise the ray's own.
    public init(observer: GeodeticPosition, direction: Vector3, geoid: Geoid, settings: MarchSettings,
                verticalAzimuth: Double? = nil) {
        path = RayPath(eye: observer, direction: direction, geoid: geoid, refraction: settings.refraction,
                       longitudeByArctangent: true)
        self.settings = settings
        self.verticalAzimuth = verticalAzimuth
    }

    /// Marches the ray.
    ///
    /// - Parameters:
    ///   - terrain: heights above mean sea level, as grids.
    ///   - maximumTerrain: the highest terrain the ray can meet, metres above mean sea level
    ///     (an unknown one, NaN, is the highest mountain on Earth).
    public mutating func run<T: TerrainGrids>(over terrain: inout T, maximumTerrain: Double) -> Result {
        let maximumTerrain = maximumTerrain.isFinite ? maximumTerrain : Self.highestTerrain
        let eye = path.frame.origin
        let observerMSL = eye.height - path.undulation(latitude: eye.latitude, longitude: eye.longitude)
        let horizonRange = Self.horizonRange(observer: observerMSL, highest: maximumTerrain,
                                             radius: path.radius, refraction: settings.refraction)
        // Slant distance covering the horizon range even for a steep ray, capped for safety.
        let maximumSlant = min(horizonRange / max(path.horizontalFraction, 0.05), 2_000_000)

        var hit = FirstHit(maximumTerrain: maximumTerrain)
        // Whether a grid with filled posts lay under the ray: only then is the track looked at
        // for filled terrain.
        var sawFilled = false
        let end = path.walk(from: 0, to: maximumSlant, visitor: &hit, keepsGrid: T.answersLastGridFirst) {
            Self.grid(of: &terrain, $0, $1, markingFilled: &sawFilled, $2)
        }
        var result = Result(outcome: .noTerrain)
        result.crossedVoid = hit.crossedVoid
        if case .leftData(let s) = end, hit.hit == nil, hit.unknownCrossing == nil,
           let start = voidAtEdge(leaving: s, run: hit.voidRun, &terrain) {
            hit.unknownCrossing = (start, s)
        }
        if hit.hit == nil, hit.unknownCrossing == nil, let low = hit.lowVoid {
            // No hit, but the ray passed through a void lower than terrain around it reaches:
            // neither "the sky" nor a skyline point can be said.
            hit.unknownCrossing = low
        }
        if let crossing = hit.unknownCrossing {
            result.outcome = .terrainUnknown
            result.marchedDistance = crossing.end
            let start = voidEntry(before: crossing.start, &terrain)
            result.unknownStretch = (start * path.horizontalFraction)...(crossing.end * path.horizontalFraction)
        } else if let s = hit.hit {
            result.outcome = .hit
            result.marchedDistance = s
            let p = path.point(at: s)
            let undulation = path.undulation(latitude: p.latitude, longitude: p.longitude)
            result.latitude = p.latitude
            result.longitude = normalizedLongitude(p.longitude)
            result.elevation = hit.elevation
            result.slantRange = slantRange(toLatitude: p.latitude, longitude: p.longitude, height: result.elevation + undulation)
        } else {
            switch end {
            case .leftData(let s):
                result.marchedDistance = s
                result.leftData = s * path.horizontalFraction
            case .finished(let s): result.marchedDistance = s
            case .stopped: break
            }
            sawFilled = skyline(range: horizonRange, maximumTerrain: maximumTerrain, over: &terrain, into: &result) || sawFilled
        }
        if sawFilled, settings.reportsFilledTerrain, result.outcome == .hit || result.outcome == .horizon {
            result.filledTerrain = filledTerrain(of: result, &terrain)
        }
        if settings.recordsTrack { result.track = track(to: result.marchedDistance) }
        if settings.recordsProfile { result.profile = profile(to: result.marchedDistance, &terrain) }
        return result
    }

    /// Where the DEM ends inside a void that the ray may have met the terrain in: the ray's track
    /// leaves the data at slant distance `s` (metres) over a void, and over it (back to where the
    /// ray entered it, `run`) the ray was below the highest known post of the grid, the height a
    /// void may hide. The slant distance where the ray entered the void; nil otherwise.
    private mutating func voidAtEdge<T: TerrainGrids>(leaving s: Double, run: (start: Double, end: Double, lowest: Double)?,
                                                      _ terrain: inout T) -> Double? {
        let inside = max(s - 0.5, 0)
        let p = path.point(at: inside)
        guard let grid = terrain.grid(containing: p.latitude, longitude: p.longitude),
              case .void = grid.sample(latitude: p.latitude, longitude: p.longitude + grid.longitudeShift(toward: p.longitude)) else { return nil }
        let ray = p.height - path.undulation(latitude: p.latitude, longitude: p.longitude)
        let lowest = min(ray, run?.lowest ?? .infinity)
        guard lowest < Double(grid.maximumHeight) else { return nil }
        return run?.start ?? inside
    }

    /// Where the ray entered the void it is over at slant distance `s` (metres): the walk skips
    /// blocks of a void once it knows the ray crossed one, so its own record may start late.
    /// Stepped back every ``voidEntryStep`` while the ground below is void.
    private mutating func voidEntry<T: TerrainGrids>(before s: Double, _ terrain: inout T) -> Double {
        var entry = s
        while entry > Self.voidEntryStep {
            let p = path.point(at: entry - Self.voidEntryStep)
            guard case .void = terrain.sample(latitude: p.latitude, longitude: p.longitude) else { break }
            entry -= Self.voidEntryStep
        }
        return entry
    }

    /// Steps of ``voidEntry(before:_:)``, metres of slant distance: a sixth of a 1″ post.
    static let voidEntryStep = 5.0

    /// A walk's look-up of the grid holding a point (``TerrainGrids/withGrid(containing:longitude:_:)``),
    /// noting in `sawFilled` whether the grid has filled posts: only then is the track looked at
    /// for filled terrain.
    private static func grid<T: TerrainGrids>(of terrain: inout T, _ latitude: Double, _ longitude: Double, markingFilled sawFilled: inout Bool,
                                              _ walk: (ElevationGrid) -> RayPath.WalkEnd) -> RayPath.WalkEnd? {
        terrain.withGrid(containing: latitude, longitude: longitude) { grid in
            if grid.filled != nil { sawFilled = true }
            return walk(grid)
        }
    }

    /// The skyline along the ray's azimuth, out to `range` metres of ground. True when a grid
    /// with filled posts lay under it.
    @discardableResult
    private mutating func skyline<T: TerrainGrids>(range: Double, maximumTerrain: Double, over terrain: inout T,
                                                    into result: inout Result) -> Bool {
        let d = path.enuDirection
        var horizontal = Vector3(d.x, d.y, 0)
        if horizontal.length < 1e-9 {
            guard let azimuth = verticalAzimuth else { return false }
            horizontal = ViewDirection(azimuth: azimuth, elevation: 0).enu
        }
        // The sightline's frame is the eye's: made again, it cost a tenth of the seeds.
        var level = RayPath(eye: path.frame.origin, direction: horizontal, geoid: path.geoid, refraction: settings.refraction,
                            segmentLength: RayPath.skylineSegment, frame: path.frame, longitudeByArctangent: true)
        let fresh = SkylineSearch(eye: path.frame.origin.height, curvature: (1 - settings.refraction) / (2 * level.radius),
                                  maximumTerrain: maximumTerrain, highestUndulation: Self.highestUndulation)
        var search = fresh
        search.seed(along: &level, every: SkylineSearch.seedSpacing, upTo: min(range, Self.seedRange),
                    fartherOverData: min(range, Self.seedRangeOverData), over: &terrain)
        var sawFilled = false
        let walked = level.walk(from: 0, to: range, visitor: &search, keepsGrid: T.answersLastGridFirst) {
            Self.grid(of: &terrain, $0, $1, markingFilled: &sawFilled, $2)
        }
        if search.distance > Self.seedRange, case .leftData(let end) = walked, search.distance > end {
            // The best point is a seed past the data's first gap, which the samples stepped over
            // (two tiles meeting at a corner) and the walk does not cross: searched again with
            // the seeds up to ``seedRange`` alone, as though the farther ones had not been taken.
            search = fresh
            search.seed(along: &level, every: SkylineSearch.seedSpacing, upTo: min(range, Self.seedRange), over: &terrain)
            sawFilled = false
            _ = level.walk(from: 0, to: range, visitor: &search, keepsGrid: T.answersLastGridFirst) {
                Self.grid(of: &terrain, $0, $1, markingFilled: &sawFilled, $2)
            }
        }
        result.crossedVoid = result.crossedVoid || search.crossedVoid
        guard search.tangent > -.infinity else { return sawFilled }
        let p = level.point(at: search.distance)
        let undulation = path.undulation(latitude: p.latitude, longitude: p.longitude)
        result.outcome = .horizon
        result.latitude = p.latitude
        result.longitude = normalizedLongitude(p.longitude)
        result.elevation = search.elevation
        result.slantRange = slantRange(toLatitude: p.latitude, longitude: p.longitude, height: result.elevation + undulation)
        return sawFilled
    }

    /// How far a hit or skyline point rests on filled terrain: whether the target's cell has a
    /// filled post, and the ground metres of the sightline, up to the target (a hit) or its end
    /// (a skyline), over filled cells with the ray less than ``FilledTerrain/clearance`` above
    /// them, sampled every ``FilledTerrain/spacing``. nil when neither.
    private mutating func filledTerrain<T: TerrainGrids>(of result: Result, _ terrain: inout T) -> FilledTerrain? {
        let onTarget = terrain.restsOnFilledPost(latitude: result.latitude, longitude: result.longitude)
        var over = 0.0
        let step = FilledTerrain.spacing
        var s = step / 2
        while s < result.marchedDistance {
            let p = path.point(at: s)
            if terrain.restsOnFilledPost(latitude: p.latitude, longitude: p.longitude),
               let h = terrain.elevation(latitude: p.latitude, longitude: p.longitude) {
                let ray = p.height - path.undulation(latitude: p.latitude, longitude: p.longitude)
                if ray - h < FilledTerrain.clearance { over += step * path.horizontalFraction }
            }
            s += step
        }
        guard onTarget || over > 0 else { return nil }
        return FilledTerrain(targetOnFilled: onTarget, groundDistance: over)
    }

    /// √(2R′h_o) + √(2R′H_max), R′ = R/(1 − k), heights above the lowest land: how far terrain
    /// of height `highest` can be seen from `observer` (both metres above mean sea level).
    static func horizonRange(observer: Double, highest: Double, radius: Double, refraction: Double) -> Double {
        let rPrime = radius / (1 - refraction)
        let ho = max(observer - lowestTerrain, 1), hmax = max(highest - lowestTerrain, 1)
        return (2 * rPrime * ho).squareRoot() + (2 * rPrime * hmax).squareRoot()
    }

    /// Straight-line distance from the eye to a point (degrees, metres above the ellipsoid).
    private func slantRange(toLatitude latitude: Double, longitude: Double, height: Double) -> Double {
        let target = Ellipsoid.wgs84.ecef(GeodeticPosition(latitude: latitude, longitude: longitude, height: height))
        return (target - path.frame.originECEF).length
    }

    /// The ground track from the observer to slant distance `s`: every ``trackSpacing`` and its end.
    private mutating func track(to s: Double) -> [Polyline.Coordinate] {
        let origin = path.frame.origin
        let between = path.groundTrackCount(every: Self.trackSpacing, below: s)
        var end: Polyline.Coordinate?
        if s > 0 {
            let p = path.point(at: s)
            end = .init(latitude: p.latitude, longitude: normalizedLongitude(p.longitude))
        }
        // The whole track written in place into one array of its size (grown point by point it
        // was copied seven times for 50 km; appended one by one, each point paid the array's
        // checks): the same points as before, to the bit.
        let count = 1 + between + (end == nil ? 0 : 1)
        return [Polyline.Coordinate](unsafeUninitializedCapacity: count) { buffer, initialized in
            let out = buffer.baseAddress!
            out.initialize(to: .init(latitude: origin.latitude, longitude: normalizedLongitude(origin.longitude)))
            path.writeGroundTrack(every: Self.trackSpacing, count: between, to: out + 1)
            if let end { (out + 1 + between).initialize(to: end) }
            initialized = count
        }
    }

    /// The terrain under the ray every ``MarchSettings/step`` metres up to slant distance `s`
    /// (metres), whatever the ray meets: for drawing the whole line to a hidden target.
    public mutating func terrainProfile<T: TerrainGrids>(to s: Double, over terrain: inout T) -> [ProfileSample] {
        profile(to: s, &terrain)
    }

    /// The terrain under the ray every ``MarchSettings/step`` metres up to slant distance `s`.
    private mutating func profile<T: TerrainGrids>(to s: Double, _ terrain: inout T) -> [ProfileSample] {
        var samples: [ProfileSample] = []
        var i = 1
        while Double(i) * settings.step <= s {
            let d = Double(i) * settings.step
            let p = path.point(at: d)
            let undulation = path.undulation(latitude: p.latitude, longitude: p.longitude)
            samples.append(ProfileSample(slantDistance: d, latitude: p.latitude, longitude: normalizedLongitude(p.longitude),
                                         terrain: terrain.elevation(latitude: p.latitude, longitude: p.longitude),
                                         ray: p.height - undulation))
            i += 1
        }
        return samples
    }
}
