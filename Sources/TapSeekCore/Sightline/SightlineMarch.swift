import Foundation

/// The march of one sightline over the terrain: a straight line in ECEF from the observer,
/// bent toward the Earth by refraction, sampled every `step` metres until it meets the terrain.
///
/// Heights are compared above mean sea level: the ray's ellipsoidal height minus the geoid
/// undulation against the DEM. No crest is skipped, however thin: each step is checked against
/// the terrain's steepest slope and subdivided until it is proven clear or the first crossing
/// is found, which is then bracketed to 1 cm along the ray. Voids are unknown terrain: the
/// march goes on through them and never hits at 0 m.
///
/// The march ends at a hit, when the ray is above the highest terrain and climbing, when it
/// leaves the data, or at the horizon range √(2R′h_o) + √(2R′H_max), R′ = R/(1 − k).
///
/// Accuracy: between exactly computed knots 500 m apart the ray's position is interpolated
/// (height with the line's parabolic bow, < 0.1 mm; latitude and longitude linearly, which
/// strays from the great circle by up to 500²·tan φ/(8R): 5 mm at 46°, 9 mm at 60°);
/// hits are found to 1 cm along the ray on the bilinear DEM surface.
public struct SightlineMarch {
    /// How a march ended.
    public enum Outcome: Sendable, Hashable {
        /// The ray met the terrain.
        case hit
        /// Nothing was hit; the target is the skyline point of highest apparent elevation.
        case horizon
        /// The ray saw no known terrain at all.
        case noTerrain
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

        @usableFromInline init(slantDistance: Double, latitude: Double, longitude: Double, terrain: Double?, ray: Double) {
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
        /// How far the march went along the ray, metres.
        public var marchedDistance = 0.0
        /// The ground track from the observer to the end of the march (every 500 m and the end).
        public var track: [(latitude: Double, longitude: Double)] = []
        /// Terrain under the ray at every step, when ``MarchSettings/recordsProfile`` is set.
        public var profile: [ProfileSample] = []

        @usableFromInline init(outcome: Outcome) { self.outcome = outcome }
    }

    /// Highest terrain on Earth, metres above mean sea level (Everest, 8 849 m, 2020 survey).
    @usableFromInline static let highestTerrain = 8849.0
    /// Lowest land on Earth (Dead Sea shore, about −430 m): the floor of the horizon range.
    @usableFromInline static let lowestTerrain = -430.0
    /// Spacing of exactly computed points along the ray, metres: each costs a geodetic
    /// conversion and a geoid look-up, 50 steps' worth of sampling.
    @usableFromInline static let knotSpacing = 500.0
    /// Bisection stops when the crossing is bracketed this tightly, metres.
    @usableFromInline static let refinementTolerance = 0.01

    @usableFromInline let frame: LocalFrame
    /// Unit direction of the ray in ECEF axes and in the observer's ENU frame.
    @usableFromInline let direction: Vector3
    @usableFromInline let enuDirection: Vector3
    @usableFromInline let settings: MarchSettings
    @usableFromInline let geoid: Geoid
    /// Mean radius of curvature at the observer, metres.
    @usableFromInline let radius: Double
    /// cos of the ray's elevation: refraction acts over the horizontal part of the path.
    @usableFromInline let horizontalFraction: Double
    /// How far the line's height sags below the chord between two knots at mid-span, ×4:
    /// cos²e·L²/(2R) for knots L apart (≈ 2 cm for level rays).
    @usableFromInline let knotBow: Double
    /// Steepest rise of the terrain per metre of ray over the current step.
    @usableFromInline var slopeBound = 0.0
    /// Ellipsoidal height of the ray at the previous step, to know when it climbs.
    @usableFromInline var previousEllipsoidalRay = -Double.infinity

    /// Knots along the ray: geodetic position of the straight line and the geoid there.
    @usableFromInline var knots: [(latitude: Double, longitude: Double, height: Double, undulation: Double)] = []

    /// - Parameters:
    ///   - observer: the eye, height above the WGS84 ellipsoid.
    ///   - direction: unit vector of the sightline in the observer's East-North-Up frame.
    public init(observer: GeodeticPosition, direction: Vector3, geoid: Geoid, settings: MarchSettings) {
        frame = LocalFrame(origin: observer)
        let d = direction.normalized
        enuDirection = d
        self.direction = frame.ecefVector(fromENU: d)
        self.settings = settings
        self.geoid = geoid
        radius = Ellipsoid.wgs84.meanRadius(latitude: radians(observer.latitude))
        horizontalFraction = (d.x * d.x + d.y * d.y).squareRoot()
        knotBow = horizontalFraction * horizontalFraction * Self.knotSpacing * Self.knotSpacing / (2 * radius)
    }

    /// Position of the ray at slant distance `s`: ground point in degrees, ray height and geoid
    /// undulation in metres (ray height above the ellipsoid, refraction applied).
    @inlinable mutating func point(at s: Double) -> (latitude: Double, longitude: Double, ray: Double, undulation: Double) {
        let j = Int(s / Self.knotSpacing)
        while knots.count < j + 2 { appendKnot() }
        let a = knots[j], b = knots[j + 1]
        let t = (s - Double(j) * Self.knotSpacing) / Self.knotSpacing
        let d = s * horizontalFraction
        let drop = settings.refraction * d * d / (2 * radius)
        // The straight line's height bows below its chord between knots like a parabola of
        // curvature cos²e/R; adding the bow back leaves < 0.1 mm (the curvature's change).
        return (a.latitude + (b.latitude - a.latitude) * t,
                a.longitude + (b.longitude - a.longitude) * t,
                a.height + (b.height - a.height) * t - knotBow * t * (1 - t) - drop,
                a.undulation + (b.undulation - a.undulation) * t)
    }

    @usableFromInline mutating func appendKnot() {
        let s = Double(knots.count) * Self.knotSpacing
        let p = Ellipsoid.wgs84.geodetic(frame.originECEF + s * direction)
        var longitude = p.longitude
        // Keep longitudes continuous across the antimeridian so that interpolation works.
        if let last = knots.last {
            while longitude - last.longitude > 180 { longitude -= 360 }
            while longitude - last.longitude < -180 { longitude += 360 }
        }
        knots.append((p.latitude, longitude, p.height, geoid.undulation(latitude: p.latitude, longitude: p.longitude)))
    }

    /// One sample of the march: the ray's height above mean sea level and its margin over the
    /// terrain (+∞ where the terrain is unknown: a void, or no tile).
    @usableFromInline struct Sample {
        @usableFromInline var s: Double
        @usableFromInline var ray: Double
        @usableFromInline var margin: Double
        @inlinable init(s: Double, ray: Double, margin: Double) {
            self.s = s
            self.ray = ray
            self.margin = margin
        }
    }

    /// The ray and the terrain at slant distance `s`.
    @inlinable mutating func sample<E: ElevationSource>(at s: Double, _ terrain: inout E) -> Sample {
        let p = point(at: s)
        let ray = p.ray - p.undulation
        if case .height(let h) = terrain.sample(latitude: p.latitude, longitude: p.longitude) {
            return Sample(s: s, ray: ray, margin: ray - h)
        }
        return Sample(s: s, ray: ray, margin: .infinity)
    }

    /// Marches the ray.
    ///
    /// No crossing is ever skipped, however thin the ridge: between two samples the terrain can
    /// rise at most `maximumSlope` metres per metre of ground, so each step is checked against
    /// that Lipschitz bound (see ``isClear(_:_:)``) and subdivided until every piece is proven
    /// clear or a crossing is found; the first crossing is then bracketed to 1 cm along the ray.
    ///
    /// Without a hit, the skyline (the point of highest apparent elevation along the azimuth,
    /// out to the horizon range) is sampled every step: it lies within half a step of the true
    /// crest, and a feature thinner than the step can be missed there (never by a hit).
    ///
    /// - Parameters:
    ///   - terrain: heights above mean sea level.
    ///   - maximumTerrain: the highest terrain the ray can meet, metres above mean sea level.
    ///   - maximumSlope: the steepest terrain slope the ray can meet, metres per metre of ground
    ///     (``ElevationGrid/steepestSlope()`` of the grids involved). The default suits SRTM
    ///     3″ and 1″ data; a steeper source (a synthetic wall, a lidar DEM) must give its own,
    ///     or thin features may be skipped.
    @inlinable public mutating func run<E: ElevationSource>(over terrain: inout E, maximumTerrain: Double,
                                                           maximumSlope: Double = SightlineMarch.defaultMaximumSlope) -> Result {
        var slopes = UniformSlope(maximumSlope)
        return run(over: &terrain, slopes: &slopes, maximumTerrain: maximumTerrain)
    }

    /// Marches the ray with a slope bound that may vary along the way (per tile, say), asked
    /// once per step; otherwise as ``run(over:maximumTerrain:maximumSlope:)``.
    @inlinable public mutating func run<E: ElevationSource, B: SlopeBound>(over terrain: inout E, slopes: inout B,
                                                                          maximumTerrain: Double) -> Result {
        let step = settings.step
        // An unknown ceiling (a source that is all void) is the highest mountain on Earth.
        let maximumTerrain = maximumTerrain.isFinite ? maximumTerrain : Self.highestTerrain
        let observerMSL = frame.origin.height - geoid.undulation(latitude: frame.origin.latitude, longitude: frame.origin.longitude)
        let rPrime = radius / (1 - settings.refraction)
        let ho = max(observerMSL - Self.lowestTerrain, 1), hmax = max(maximumTerrain - Self.lowestTerrain, 1)
        let horizonRange = (2 * rPrime * ho).squareRoot() + (2 * rPrime * hmax).squareRoot()
        // Slant distance covering the horizon range even for a steep ray, capped for safety.
        let maximumSlant = min(horizonRange / max(horizontalFraction, 0.05), 2_000_000)

        var result = Result(outcome: .noTerrain)
        var best = Skyline()
        // The ground under the eye: a crest within the first step is checked like any other.
        var previous = sample(at: 0, &terrain)
        var previousPoint = (latitude: frame.origin.latitude, longitude: frame.origin.longitude)
        // The ray starts at the eye: a ray that descends from above the highest terrain is not
        // climbing at its first step.
        previousEllipsoidalRay = frame.origin.height
        var sawVoid = false
        var s = 0.0
        var i = 0
        while s <= maximumSlant {
            i += 1
            s = Double(i) * step
            let p = point(at: s)
            let ray = p.ray - p.undulation
            let terrainSample = terrain.sample(latitude: p.latitude, longitude: p.longitude)
            if settings.recordsProfile {
                result.profile.append(ProfileSample(slantDistance: s, latitude: p.latitude, longitude: normalizedLongitude(p.longitude),
                                                    terrain: terrainSample.height, ray: ray))
            }
            let h: Double
            switch terrainSample {
            case .outside:
                result.marchedDistance = s
                return finish(result, best: best, sawVoid: sawVoid)
            case .void:
                sawVoid = true
                previous = Sample(s: s, ray: ray, margin: .infinity)
                previousPoint = (p.latitude, p.longitude)
                continue
            case .height(let height):
                h = height
            }
            let here = Sample(s: s, ray: ray, margin: ray - h)
            let slope = slopes.maximumSlope(fromLatitude: previousPoint.latitude, longitude: previousPoint.longitude,
                                            toLatitude: p.latitude, longitude: p.longitude)
            previousPoint = (p.latitude, p.longitude)
            // The ray's ground track advances at most `horizontalFraction` metres per metre of ray
            // (less when above the ellipsoid, by R/(R + h)); the margin covers the Dead Sea's
            // −430 m (R/(R − 430) = 1.00007) and the linear interpolation between knots.
            slopeBound = min(max(slope, 0), Self.steepestBoundedSlope) * horizontalFraction * Self.slopeSafety
            if here.margin <= 0 || !isClear(previous, here),
               let crossing = firstCrossing(after: previous, upTo: here, &terrain) {
                result.outcome = .hit
                result.crossedVoid = sawVoid
                result.marchedDistance = crossing
                return hitResult(result, at: crossing, &terrain)
            }
            previous = here
            best.consider(terrain: h, latitude: p.latitude, longitude: p.longitude, undulation: p.undulation,
                          groundDistance: s * horizontalFraction, eye: frame.origin.height, curvature: curvature)
            // The ray's ellipsoidal height is convex in s (curvature (1 − k)/R > 0), so once it
            // climbs above the highest terrain it stays above.
            if ray > maximumTerrain + 1, p.ray > previousEllipsoidalRay { break }
            previousEllipsoidalRay = p.ray
        }
        result.marchedDistance = s
        // The ray rose above everything (or went as far as a ray can) without a hit: the skyline
        // may lie beyond where its ground track stopped, so follow the azimuth to the horizon.
        scanSkyline(from: s * horizontalFraction, to: horizonRange, maximumTerrain: maximumTerrain,
                    best: &best, sawVoid: &sawVoid, &terrain)
        return finish(result, best: best, sawVoid: sawVoid)
    }

    /// The terrain point of highest apparent elevation seen so far: the skyline candidate.
    @usableFromInline struct Skyline {
        /// tan of the apparent elevation angle; −∞ before any terrain is seen.
        @usableFromInline var tangent = -Double.infinity
        @usableFromInline var latitude = 0.0, longitude = 0.0, undulation = 0.0, elevation = 0.0

        @inlinable init() {}

        /// Keeps the point if it appears higher than the best so far. Its apparent elevation is
        /// atan((H + N − h_eye − (1 − k)·d²/(2R)) / d): the conventions' skyline, with heights
        /// ellipsoidal so that the geoid's slope along the path is included.
        /// `eye` is the eye's ellipsoidal height, `curvature` (1 − k)/(2R).
        @inlinable mutating func consider(terrain h: Double, latitude: Double, longitude: Double, undulation: Double,
                               groundDistance d: Double, eye: Double, curvature: Double) {
            guard d > 0 else { return }
            let t = (h + undulation - eye - curvature * d * d) / d
            if t > tangent {
                tangent = t
                self.latitude = latitude
                self.longitude = longitude
                self.undulation = undulation
                elevation = h
            }
        }
    }

    /// Apparent drop of terrain at ground distance d below the eye's horizon, metres:
    /// d²·(1 − k)/(2R).
    @inlinable func curvatureDrop(_ d: Double) -> Double { curvature * d * d }

    /// (1 − k)/(2R): the apparent drop of terrain per square metre of ground distance.
    @inlinable var curvature: Double { (1 - settings.refraction) / (2 * radius) }

    /// Highest undulation of EGM96 anywhere, metres (+85.4 m, conventions: −107 … +85): bounds
    /// how high unseen terrain can appear.
    @usableFromInline static let highestUndulation = 86.0

    /// Samples the terrain along the ray's azimuth every step from ground distance `start` to
    /// `range`, keeping the highest-appearing point. Every ray of one azimuth shares a ground
    /// track (the normal section through the eye), so a level ray's track serves. Stops early
    /// once even the highest terrain could no longer appear above the best point.
    @inlinable mutating func scanSkyline<E: ElevationSource>(from start: Double, to range: Double, maximumTerrain: Double,
                                                         best: inout Skyline, sawVoid: inout Bool, _ terrain: inout E) {
        let horizontal = Vector3(enuDirection.x, enuDirection.y, 0)
        guard horizontal.length > 1e-9, start < range else { return }
        var level = SightlineMarch(observer: frame.origin, direction: horizontal, geoid: geoid, settings: settings)
        let highest = maximumTerrain + Self.highestUndulation - frame.origin.height
        // Past the distance where the highest terrain would stand on the horizon, its apparent
        // elevation only falls.
        let turning = (max(-highest, 0) * 2 * radius / (1 - settings.refraction)).squareRoot()
        var d = (start / settings.step).rounded(.up) * settings.step
        while d <= range {
            if d > turning, (highest - curvatureDrop(d)) / d < best.tangent { return }
            let p = level.point(at: d)
            switch terrain.sample(latitude: p.latitude, longitude: p.longitude) {
            case .outside: return
            case .void: sawVoid = true
            case .height(let h):
                best.consider(terrain: h, latitude: p.latitude, longitude: p.longitude, undulation: p.undulation,
                              groundDistance: d, eye: frame.origin.height, curvature: curvature)
            }
            d += settings.step
        }
    }

    /// The default ``run(over:maximumTerrain:maximumSlope:)`` slope bound: 10 m per m (84°).
    /// The steepest bilinear cell of the shared SRTM tiles is 8.8 (3″, Everest's south-west
    /// face); 1″ New Zealand data reaches 3.5. ``Locator`` measures its tiles instead.
    public static let defaultMaximumSlope = 10.0
    /// The largest slope bound used, metres per metre (89.94°): beyond it the march would
    /// subdivide every step to the centimetre.
    public static let steepestBoundedSlope = 1000.0
    /// Relative margin on the slope bound (see ``run(over:maximumTerrain:maximumSlope:)``).
    @usableFromInline static let slopeSafety = 1.001

    /// Whether the terrain provably stays below the ray between two samples that are both
    /// above it.
    ///
    /// Between the samples the ray sags below its chord by at most len²·(1 − k)/(8R) (its height
    /// has curvature cos²e·(1 − k)/R), and the terrain rises at most L = ``slopeBound`` per metre of ray from
    /// either end. So at x metres past `a` the margin is at least
    /// max(m_a − (L − r)·x, m_b − (L + r)·(len − x)) − sag, with r the chord's slope; its
    /// smallest value is where the two lines meet. Unknown terrain (margin +∞) counts as clear.
    @inlinable func isClear(_ a: Sample, _ b: Sample) -> Bool {
        guard a.margin > 0, b.margin > 0 else { return false }
        guard a.margin.isFinite, b.margin.isFinite else { return true }
        let length = b.s - a.s
        let rise = (b.ray - a.ray) / length
        let sag = length * length * (1 - min(settings.refraction, 0)) / (8 * Self.smallestRadius)
        let fallForward = slopeBound - rise, fallBackward = slopeBound + rise
        let x: Double
        if fallForward <= 0 {
            x = 0
        } else if fallBackward <= 0 {
            x = length
        } else {
            x = min(max((a.margin - b.margin + fallBackward * length) / (fallForward + fallBackward), 0), length)
        }
        let lowest = max(a.margin - fallForward * x, b.margin - fallBackward * (length - x)) - sag
        return lowest > 0
    }

    /// Polar radius of curvature of WGS84 is the largest; the equatorial meridian radius
    /// M(0) = a(1 − e²) ≈ 6 335 439 m is the smallest, so the ray's sag is never underestimated.
    @usableFromInline static let smallestRadius = 6_335_439.0

    /// The first point after `a` (which is above the terrain) and up to `b` where the ray is at
    /// or below the terrain, to ``refinementTolerance``; nil when the terrain stays below.
    ///
    /// Halves the interval, always searching the nearer half first, and drops every piece that
    /// ``isClear(_:_:)`` proves clear. A dip that the bound cannot rule out within 1 cm is at
    /// most slope × 5 mm deep and counts as a miss.
    @inlinable mutating func firstCrossing<E: ElevationSource>(after a: Sample, upTo b: Sample, _ terrain: inout E) -> Double? {
        if b.margin > 0, isClear(a, b) { return nil }
        if b.s - a.s <= Self.refinementTolerance { return b.margin <= 0 ? b.s : nil }
        let middle = sample(at: (a.s + b.s) / 2, &terrain)
        if let crossing = firstCrossing(after: a, upTo: middle, &terrain) { return crossing }
        guard middle.margin > 0 else { return middle.s }
        return firstCrossing(after: middle, upTo: b, &terrain)
    }

    @inlinable mutating func hitResult<E: ElevationSource>(_ partial: Result, at s: Double, _ terrain: inout E) -> Result {
        var result = partial
        let p = point(at: s)
        result.latitude = p.latitude
        result.longitude = normalizedLongitude(p.longitude)
        result.elevation = terrain.elevation(latitude: p.latitude, longitude: p.longitude) ?? (p.ray - p.undulation)
        result.slantRange = slantRange(to: p, terrainMSL: result.elevation)
        result.track = track(to: s)
        return result
    }

    @usableFromInline mutating func finish(_ partial: Result, best: Skyline, sawVoid: Bool) -> Result {
        var result = partial
        result.crossedVoid = sawVoid
        result.track = track(to: result.marchedDistance)
        guard best.tangent > -Double.infinity else { return result }
        result.outcome = .horizon
        result.latitude = best.latitude
        result.longitude = normalizedLongitude(best.longitude)
        result.elevation = best.elevation
        result.slantRange = slantRange(to: (best.latitude, best.longitude, 0, best.undulation), terrainMSL: best.elevation)
        return result
    }

    /// Straight-line distance from the eye to a terrain point, metres.
    @usableFromInline func slantRange(to p: (latitude: Double, longitude: Double, ray: Double, undulation: Double), terrainMSL: Double) -> Double {
        let target = Ellipsoid.wgs84.ecef(GeodeticPosition(latitude: p.latitude, longitude: p.longitude, height: terrainMSL + p.undulation))
        return (target - frame.originECEF).length
    }

    /// The ground track from the observer to slant distance `s`: the knots before it and its end.
    @usableFromInline mutating func track(to s: Double) -> [(latitude: Double, longitude: Double)] {
        var points = [(frame.origin.latitude, normalizedLongitude(frame.origin.longitude))]
        var k = 1
        while Double(k) * Self.knotSpacing < s {
            let p = point(at: Double(k) * Self.knotSpacing)
            points.append((p.latitude, normalizedLongitude(p.longitude)))
            k += 1
        }
        if s > 0 {
            let end = point(at: s)
            points.append((end.latitude, normalizedLongitude(end.longitude)))
        }
        return points
    }
}
