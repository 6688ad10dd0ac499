import Foundation
import TapSeekCore

/// The first crossing of a sightline with a grid's bilinear surface by brute force, as an
/// independent check of the engine: no pyramid, no cells, no quadratics.
///
/// Every point of the ray is converted exactly (ECEF line → geodetic, less refraction's drop
/// k·(s·cos e)²/(2R) with R the Gaussian mean radius at the eye, less the geoid there) and
/// compared with the grid's own bilinear height. The ray is sampled every 1 m where it is more
/// than `slope` × 1.5 m above the terrain (terrain no steeper than `slope` cannot reach it
/// before the next sample), every 0.1 m nearer, and every local minimum of the margin seen at
/// 0.1 m is searched further (golden section down to 0.1 mm) so that a dip thinner than the
/// sampling is not missed. A crossing is then bisected to 0.1 mm, and so is the edge of known
/// terrain when the ray comes out of a void already below it.
public struct BruteForceSightline {
    public let eye: GeodeticPosition
    public let direction: Vector3
    public let refraction: Double
    public let geoid: Geoid
    /// The steepest terrain slope the grid can have, metres per metre.
    public let slope: Double

    private let origin: Vector3
    private let ecefDirection: Vector3
    private let drop: Double

    public init(eye: GeodeticPosition, direction: Vector3, refraction: Double, geoid: Geoid, slope: Double) {
        self.eye = eye
        self.direction = direction.normalized
        self.refraction = refraction
        self.geoid = geoid
        self.slope = slope
        let frame = LocalFrame(origin: eye)
        origin = frame.originECEF
        ecefDirection = frame.ecefVector(fromENU: self.direction)
        let horizontal = self.direction.x * self.direction.x + self.direction.y * self.direction.y
        let phi = eye.latitude * .pi / 180
        let e2 = Ellipsoid.wgs84.eccentricitySquared
        let radius = Ellipsoid.wgs84.semiMajorAxis * (1 - e2).squareRoot() / (1 - e2 * sin(phi) * sin(phi))
        drop = refraction * horizontal / (2 * radius)
    }

    /// The ray's margin over the terrain at slant distance s, metres (nil where unknown), and
    /// its ground position.
    public func margin(at s: Double, over grid: ElevationGrid) -> Double? {
        let p = Ellipsoid.wgs84.geodetic(origin + s * ecefDirection)
        guard let h = grid.height(latitude: p.latitude, longitude: p.longitude) else { return nil }
        let ray = p.height - drop * s * s - geoid.undulation(latitude: p.latitude, longitude: p.longitude)
        return ray - h
    }

    /// The slant distance of the first crossing up to `limit` metres, or nil.
    public func firstHit(over grid: ElevationGrid, limit: Double) -> Double? {
        var s = 0.0
        var previous = margin(at: 0, over: grid)
        var fine: [(Double, Double?)] = []
        while s < limit {
            let step = (previous ?? .infinity) > slope * 1.5 + 1 ? 1.0 : 0.1
            let next = s + step
            let m = margin(at: next, over: grid)
            if let m, m <= 0 {
                // After unknown terrain, the hit is where the terrain becomes known.
                if previous == nil { return bisect(s, next, over: grid) { $0 != nil } }
                return bisect(s, next, over: grid)
            }
            // A local minimum at 0.1 m: search it for a dip below zero.
            fine.append((next, m))
            if fine.count > 3 { fine.removeFirst() }
            if step == 0.1, fine.count == 3, let a = fine[0].1, let b = fine[1].1, let c = fine[2].1, b <= a, b <= c {
                if let dip = dipBelowZero(fine[0].0, fine[2].0, over: grid) { return bisect(fine[0].0, dip, over: grid) }
            }
            previous = m
            s = next
        }
        return nil
    }

    /// A point between a and b where the margin is ≤ 0, by golden-section search of its minimum.
    private func dipBelowZero(_ a: Double, _ b: Double, over grid: ElevationGrid) -> Double? {
        var lo = a, hi = b
        let ratio = (5.0.squareRoot() - 1) / 2
        while hi - lo > 1e-4 {
            let x1 = hi - ratio * (hi - lo), x2 = lo + ratio * (hi - lo)
            guard let m1 = margin(at: x1, over: grid), let m2 = margin(at: x2, over: grid) else { return nil }
            if m1 <= 0 { return x1 }
            if m2 <= 0 { return x2 }
            if m1 < m2 { hi = x2 } else { lo = x1 }
        }
        return nil
    }

    /// The first point between a and b (where `reached` holds) at which `reached` holds of the
    /// margin, to 0.1 mm; by default, where the ray is at or below the terrain.
    private func bisect(_ a: Double, _ b: Double, over grid: ElevationGrid,
                        reached: (Double?) -> Bool = { $0.map { $0 <= 0 } ?? false }) -> Double {
        var lo = a, hi = b
        while hi - lo > 1e-4 {
            let mid = (lo + hi) / 2
            if reached(margin(at: mid, over: grid)) { hi = mid } else { lo = mid }
        }
        return hi
    }

    /// The ENU direction from the eye that passes (refraction included) through a point at
    /// `msl` metres above mean sea level: the straight line is aimed above the point by the
    /// drop k·(s·cos e)²/(2R) it will have there.
    public static func aim(from eye: GeodeticPosition, latitude: Double, longitude: Double, msl: Double, geoid: Geoid,
                           refraction: Double) -> Vector3 {
        let frame = LocalFrame(origin: eye)
        let n = geoid.undulation(latitude: latitude, longitude: longitude)
        let radius = Ellipsoid.wgs84.meanRadius(latitude: eye.latitude * .pi / 180)
        var lift = 0.0
        var direction = Vector3(0, 1, 0)
        for _ in 0..<3 {
            let target = Ellipsoid.wgs84.ecef(GeodeticPosition(latitude: latitude, longitude: longitude, height: msl + n + lift))
            let v = frame.enu(ofECEF: target)
            direction = v.normalized
            lift = refraction * (v.x * v.x + v.y * v.y) / (2 * radius)
        }
        return direction
    }

    /// The engine's march and the brute force on one ray over a grid: whether the brute force
    /// hits within `limit` slant metres, and what disagrees (nil when the engine hits where the
    /// brute force does, to 1 cm along the ray, or neither hits before `limit`).
    public static func compare(eye: GeodeticPosition, direction: Vector3, grid: ElevationGrid, geoid: Geoid, slope: Double,
                               limit: Double, refraction: Double) -> (bruteForceHits: Bool, engine: SightlineMarch.Result, mismatch: String?) {
        var march = SightlineMarch(observer: eye, direction: direction, geoid: geoid, settings: MarchSettings(refraction: refraction))
        var terrain = grid
        let engine = march.run(over: &terrain, maximumTerrain: Double(grid.maximumHeight))
        let brute = BruteForceSightline(eye: eye, direction: direction, refraction: refraction, geoid: geoid, slope: slope)
            .firstHit(over: grid, limit: limit)
        if let brute {
            if engine.outcome != .hit { return (true, engine, "brute force hits at \(brute) m, the engine does not (\(engine.outcome))") }
            if abs(engine.marchedDistance - brute) >= 0.01 { return (true, engine, "engine hits at \(engine.marchedDistance) m, brute force at \(brute) m") }
            return (true, engine, nil)
        }
        if engine.outcome == .hit, engine.marchedDistance <= limit - 0.01 {
            return (false, engine, "engine hits at \(engine.marchedDistance) m, brute force sees nothing up to \(limit) m")
        }
        return (false, engine, nil)
    }
}
