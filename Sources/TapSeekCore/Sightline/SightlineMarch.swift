import Foundation

/// The march of one sightline over the terrain: a straight line in ECEF from the observer,
/// bent toward the Earth by refraction, sampled every `step` metres until it meets the terrain.
///
/// Heights are compared on the WGS84 ellipsoid: terrain = DEM (mean sea level) + geoid
/// undulation. Every crossing is refined by bisection to 1 cm along the ray. Where two
/// consecutive samples both pass within a near-miss margin over the terrain, the step is
/// re-sampled every metre so that a crest between samples is not skipped. Voids are unknown
/// terrain: the march goes on through them and never hits at 0 m.
///
/// The march ends at a hit, when the ray is above the highest terrain and climbing, when it
/// leaves the data, or at the horizon range √(2R′h_o) + √(2R′H_max), R′ = R/(1 − k).
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
    }

    public struct Result: Sendable {
        public var outcome: Outcome
        /// The hit or skyline point: degrees, and metres above mean sea level.
        public var latitude: Double = .nan
        public var longitude: Double = .nan
        public var elevation: Double = .nan
        /// Straight-line distance from the observer's eye to the target, metres.
        public var slantRange: Double = .nan
        /// Whether the ray passed over a void before reaching its target.
        public var crossedVoid = false
        /// How far the march went along the ray, metres.
        public var marchedDistance = 0.0
        /// The ground track from the observer to the end of the march (every 500 m and the end).
        public var track: [(latitude: Double, longitude: Double)] = []
        /// Terrain under the ray at every step, when ``MarchSettings/recordsProfile`` is set.
        public var profile: [ProfileSample] = []
    }

    /// Lowest land on Earth (Dead Sea shore, about −430 m): the floor of the horizon range.
    static let lowestTerrain = -430.0
    /// Spacing of exactly computed points along the ray, metres. Between them latitude,
    /// longitude, height and undulation are interpolated linearly: the height of a straight
    /// line curves by s²/2R, so the interpolation error is at most 500²/(8R) ≈ 5 mm.
    static let knotSpacing = 500.0
    /// Sub-step used to re-sample near misses, metres.
    static let nearMissStep = 1.0
    /// Bisection stops when the crossing is bracketed this tightly, metres.
    static let refinementTolerance = 0.01

    let frame: LocalFrame
    let direction: Vector3
    let settings: MarchSettings
    let geoid: Geoid
    /// Mean radius of curvature at the observer, metres.
    let radius: Double
    /// cos of the ray's elevation: refraction acts over the horizontal part of the path.
    let horizontalFraction: Double

    /// Knots along the ray: geodetic position of the straight line and the geoid there.
    private var knots: [(latitude: Double, longitude: Double, height: Double, undulation: Double)] = []

    /// - Parameters:
    ///   - observer: the eye, height above the WGS84 ellipsoid.
    ///   - direction: unit vector of the sightline in the observer's East-North-Up frame.
    public init(observer: GeodeticPosition, direction: Vector3, geoid: Geoid, settings: MarchSettings) {
        frame = LocalFrame(origin: observer)
        let d = direction.normalized
        self.direction = frame.ecefVector(fromENU: d)
        self.settings = settings
        self.geoid = geoid
        radius = Ellipsoid.wgs84.meanRadius(latitude: radians(observer.latitude))
        horizontalFraction = (d.x * d.x + d.y * d.y).squareRoot()
    }

    /// Position of the ray at slant distance `s`: ground point in degrees, ray height and geoid
    /// undulation in metres (ray height above the ellipsoid, refraction applied).
    mutating func point(at s: Double) -> (latitude: Double, longitude: Double, ray: Double, undulation: Double) {
        let j = Int(s / Self.knotSpacing)
        while knots.count < j + 2 { appendKnot() }
        let a = knots[j], b = knots[j + 1]
        let t = (s - Double(j) * Self.knotSpacing) / Self.knotSpacing
        let d = s * horizontalFraction
        let drop = settings.refraction * d * d / (2 * radius)
        return (a.latitude + (b.latitude - a.latitude) * t,
                a.longitude + (b.longitude - a.longitude) * t,
                a.height + (b.height - a.height) * t - drop,
                a.undulation + (b.undulation - a.undulation) * t)
    }

    private mutating func appendKnot() {
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

    /// What the terrain is at slant distance `s`: the margin of the ray over the terrain in
    /// metres (negative = below ground), or nil in a void, or `.outside` when no tile covers it.
    private enum Probe { case margin(Double, terrain: Double), void, outside }

    private mutating func probe<E: ElevationSource>(_ s: Double, _ terrain: inout E) -> Probe {
        let p = point(at: s)
        switch terrain.sample(latitude: p.latitude, longitude: p.longitude) {
        case .height(let h): return .margin(p.ray - (h + p.undulation), terrain: h)
        case .void: return .void
        case .outside: return .outside
        }
    }

    /// Marches the ray.
    /// - Parameters:
    ///   - terrain: heights above mean sea level.
    ///   - maximumTerrain: the highest terrain the ray can meet, metres above mean sea level.
    public mutating func run<E: ElevationSource>(over terrain: inout E, maximumTerrain: Double) -> Result {
        let step = settings.step
        let observerMSL = frame.origin.height - geoid.undulation(latitude: frame.origin.latitude, longitude: frame.origin.longitude)
        let rPrime = radius / (1 - settings.refraction)
        let ho = max(observerMSL - Self.lowestTerrain, 1), hmax = max(maximumTerrain - Self.lowestTerrain, 1)
        let horizonRange = (2 * rPrime * ho).squareRoot() + (2 * rPrime * hmax).squareRoot()
        // Slant distance covering the horizon range even for a steep ray, capped for safety.
        let maximumSlant = min(horizonRange / max(horizontalFraction, 0.05), 2_000_000)

        var result = Result(outcome: .noTerrain)
        var best = (angle: -Double.infinity, s: 0.0)
        var previousMargin: Double? = nil
        var previousRay = -Double.infinity
        var sawVoid = false
        var s = 0.0
        var i = 0
        while s <= maximumSlant {
            i += 1
            let previousS = s
            s = Double(i) * step
            let p = point(at: s)
            let sample = terrain.sample(latitude: p.latitude, longitude: p.longitude)
            if settings.recordsProfile {
                result.profile.append(ProfileSample(slantDistance: s, latitude: p.latitude, longitude: normalizedLongitude(p.longitude),
                                                    terrain: sample.height, ray: p.ray - p.undulation))
            }
            switch sample {
            case .outside:
                result.marchedDistance = s
                return finish(result, best: best, sawVoid: sawVoid, terrain: &terrain)
            case .void:
                sawVoid = true
                previousMargin = nil
            case .height(let h):
                let margin = p.ray - (h + p.undulation)
                if margin <= 0 {
                    let crossing = refine(above: previousS, below: s, &terrain)
                    result.outcome = .hit
                    result.crossedVoid = sawVoid
                    result.marchedDistance = crossing
                    return hitResult(result, at: crossing, &terrain)
                }
                if let pm = previousMargin, min(pm, margin) < step * Self.nearMissSlope,
                   let crossing = resample(from: previousS, to: s, &terrain) {
                    result.outcome = .hit
                    result.crossedVoid = sawVoid
                    result.marchedDistance = crossing
                    return hitResult(result, at: crossing, &terrain)
                }
                previousMargin = margin
                // Apparent elevation of this terrain point relative to the ray's direction.
                let angle = -margin / max(s * horizontalFraction, 1e-3)
                if angle > best.angle { best = (angle, s) }
                let climbing = p.ray > previousRay
                previousRay = p.ray
                if climbing, p.ray - p.undulation > maximumTerrain + 1 {
                    result.marchedDistance = s
                    return finish(result, best: best, sawVoid: sawVoid, terrain: &terrain)
                }
            }
        }
        result.marchedDistance = s
        return finish(result, best: best, sawVoid: sawVoid, terrain: &terrain)
    }

    /// Margin per metre of step below which a step is re-sampled: a crest between two samples
    /// can rise above the line joining them by up to half the step times the slope; 0.5
    /// covers slopes up to 45° on both sides.
    static let nearMissSlope = 0.5

    /// Bisection between a sample above the terrain and one below; voids count as above.
    private mutating func refine<E: ElevationSource>(above: Double, below: Double, _ terrain: inout E) -> Double {
        var lo = above, hi = below
        while hi - lo > Self.refinementTolerance {
            let mid = (lo + hi) / 2
            if case .margin(let m, _) = probe(mid, &terrain), m <= 0 { hi = mid } else { lo = mid }
        }
        return hi
    }

    /// Re-samples a near-miss step every metre; the slant distance of a crossing, if any.
    private mutating func resample<E: ElevationSource>(from a: Double, to b: Double, _ terrain: inout E) -> Double? {
        var s = a
        while s < b - Self.nearMissStep / 2 {
            let next = min(s + Self.nearMissStep, b)
            if case .margin(let m, _) = probe(next, &terrain), m <= 0 { return refine(above: s, below: next, &terrain) }
            s = next
        }
        return nil
    }

    private mutating func hitResult<E: ElevationSource>(_ partial: Result, at s: Double, _ terrain: inout E) -> Result {
        var result = partial
        let p = point(at: s)
        result.latitude = p.latitude
        result.longitude = normalizedLongitude(p.longitude)
        result.elevation = terrain.elevation(latitude: p.latitude, longitude: p.longitude) ?? (p.ray - p.undulation)
        result.slantRange = slantRange(to: p, terrainMSL: result.elevation)
        result.track = track(to: s)
        return result
    }

    private mutating func finish<E: ElevationSource>(_ partial: Result, best: (angle: Double, s: Double), sawVoid: Bool,
                                                     terrain: inout E) -> Result {
        var result = partial
        result.crossedVoid = sawVoid
        result.track = track(to: result.marchedDistance)
        guard best.angle > -Double.infinity else { return result }
        let p = point(at: best.s)
        result.outcome = .horizon
        result.latitude = p.latitude
        result.longitude = normalizedLongitude(p.longitude)
        result.elevation = terrain.elevation(latitude: p.latitude, longitude: p.longitude) ?? .nan
        result.slantRange = slantRange(to: p, terrainMSL: result.elevation)
        return result
    }

    /// Straight-line distance from the eye to a terrain point, metres.
    private func slantRange(to p: (latitude: Double, longitude: Double, ray: Double, undulation: Double), terrainMSL: Double) -> Double {
        let target = Ellipsoid.wgs84.ecef(GeodeticPosition(latitude: p.latitude, longitude: p.longitude, height: terrainMSL + p.undulation))
        return (target - frame.originECEF).length
    }

    /// The ground track from the observer to slant distance `s`: the knots before it and its end.
    private mutating func track(to s: Double) -> [(latitude: Double, longitude: Double)] {
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
