import Foundation

/// Finds the skyline along one azimuth: the terrain point of highest apparent elevation.
///
/// A terrain point at ground distance d and ellipsoidal height h appears at
/// tan e ≈ (h − h_eye − (1 − k)·d²/(2R)) / d (the conventions' skyline, heights ellipsoidal so
/// that the geoid's slope is included). Along a cell, h is a quadratic in the cell's parameter
/// and d is linear, so the tangent's maximum is at an end or where a quadratic vanishes: found
/// in closed form. A block is skipped when even its highest post, at the most favourable
/// distance over the block, would not appear above the best point so far.
///
/// d is the slant distance along the level ray of that azimuth, which differs from the ground
/// distance by the ray's height over the ground (R/(R + h): 2·10⁻⁴ for an eye at 1 000 m);
/// it only ranks points, and the reported angle is recomputed exactly.
struct SkylineSearch: RayVisitor {
    /// Ellipsoidal height of the eye, metres.
    let eye: Double
    /// (1 − k)/(2R): the apparent drop of terrain per square metre of ground distance.
    let curvature: Double
    /// Highest terrain that can exist, metres above mean sea level.
    let maximumTerrain: Double
    /// Highest undulation anywhere, metres.
    let highestUndulation: Double
    /// The best tangent so far (−∞ before any terrain is seen), where it is, and the terrain's
    /// height there (metres above mean sea level).
    var tangent = -Double.infinity
    var distance = Double.nan
    var elevation = Double.nan
    var crossedVoid = false

    /// Points nearer than this are the observer's own ground, metres.
    static let nearest = 0.5

    @inline(__always) func mayMatter(maximum: Double, segment: RayPath.Segment, from u0: Double, to u1: Double) -> Bool {
        return canShow(aboveTangent: tangent, height: maximum + segment.highestUndulation, from: segment.start + u0, to: segment.start + u1)
    }

    @inline(__always) func mayMatter(_ cell: CellCrossing) -> Bool {
        let top = cell.highestPost
        guard !top.isNaN else { return true }
        return canShow(aboveTangent: tangent, height: top + cell.highestUndulation, from: cell.s0, to: cell.s1)
    }

    @inline(__always) mutating func visit(_ crossing: CellCrossing) -> Bool {
        // A known cell is looked at where it is: through `known()`, every cell was copied out
        // of an optional (a call to memcpy each).
        if crossing.hasVoid {
            crossedVoid = true
            guard let cell = crossing.knownEdge() else { return false }
            visit(known: cell, terrain: cell.terrain)
        } else {
            visit(known: crossing, terrain: crossing.terrain)
        }
        return false
    }

    /// ``visit(_:)`` of a cell as far as it is known (``CellCrossing/known()``), its terrain
    /// along the chord `t` (``CellCrossing/terrain``) given: a viewshed's level ray needs it too,
    /// and the tangent's numerator, which this gives.
    @discardableResult @inline(__always)
    mutating func visit(known cell: CellCrossing, terrain t: Quadratic) -> Quadratic {
        let span = cell.s1 - cell.s0
        // Numerator of the tangent, a quadratic in w: h(w) + N(w) − eye − c·d(w)².
        let p = Quadratic(a: t.a - curvature * span * span,
                          b: t.b + (cell.n1 - cell.n0) - 2 * curvature * cell.s0 * span,
                          c: t.c + cell.n0 - eye - curvature * cell.s0 * cell.s0)
        consider(numerator: p, from: cell.s0, to: cell.s1, terrain: t)
        return p
    }

    /// A flat stretch looked at whole, as ``visit(known:terrain:)`` looks at a cell: the terrain's
    /// height constant, the undulation the stretch's quadratic.
    @inline(__always) mutating func visit(known flat: FlatStretch) -> Quadratic {
        let span = flat.s1 - flat.s0, n = flat.undulation
        let p = Quadratic(a: n.a - curvature * span * span, b: n.b - 2 * curvature * flat.s0 * span,
                          c: flat.height + n.c - eye - curvature * flat.s0 * flat.s0)
        consider(numerator: p, from: flat.s0, to: flat.s1, terrain: Quadratic(a: 0, b: 0, c: flat.height))
        return p
    }

    /// The best tangent of a stretch from s0 to s1 whose tangent's numerator is `p` (w ∈ [0, 1]),
    /// its terrain `t`: at its ends, or where the tangent's derivative vanishes.
    @inline(__always) private mutating func consider(numerator p: Quadratic, from s0: Double, to s1: Double, terrain t: Quadratic) {
        let span = s1 - s0
        consider(p, w: 0, s0, span, t)
        consider(p, w: 1, s0, span, t)
        // d/dw [p/d] = 0  ⇔  a·Δ·w² + 2a·d0·w + (b·d0 − Δ·c) = 0
        let stationary = Quadratic(a: p.a * span, b: 2 * p.a * s0, c: p.b * s0 - span * p.c)
        var w = stationary.firstCrossing(of: 0, after: 0, limit: 1)
        if w.isFinite {
            consider(p, w: w, s0, span, t)
            w = stationary.firstCrossing(of: 0, after: w, limit: 1)
            if w.isFinite { consider(p, w: w, s0, span, t) }
        }
    }

    /// Sets a first best from point samples along the level ray up to `range`: at 25, 50, 100,
    /// … metres doubling up to `spacing`, then every `spacing` metres. Each is a real terrain
    /// point, so the exact search can only improve on it; with a good best early, most blocks
    /// are skipped. The near samples matter: the ground close to the eye often is the skyline.
    ///
    /// `fartherOverData`: past `range`, samples go on (every `spacing`) up to this distance as
    /// long as every sample so far lay over data (a height or a void, never outside every
    /// tile): out to where the ray leaves the data, whose edge is often where the skyline of a
    /// high eye lies, and not past a gap a sample falls in (the walk stops at the first gap; one
    /// that the samples step over, where two tiles meet at a corner, ``SightlineMarch`` catches
    /// after the walk). The samples up to `range` are the same whatever it is.
    mutating func seed<T: TerrainGrids>(along path: inout RayPath, every spacing: Double, upTo range: Double,
                                        fartherOverData farRange: Double = 0, over terrain: inout T) {
        var d = Self.nearestSeed
        var overData = true
        while d <= range || (overData && d <= farRange) {
            let p = path.groundPointAndHighestUndulation(at: d)
            let sample = terrain.sample(latitude: p.latitude, longitude: p.longitude)
            if case .outside = sample { overData = false }
            // The geoid is looked up only where the point could beat the best so far with the
            // segment's highest undulation: the tangent below rises with the undulation in every
            // rounding step, so the points that win are the same as when each was looked up
            // (a look-up is about 100 instructions, and most samples do not win).
            if case .height(let h) = sample, (h + p.highestUndulation - eye - curvature * d * d) / d > tangent {
                let n = path.undulation(latitude: p.latitude, longitude: p.longitude)
                let t = (h + n - eye - curvature * d * d) / d
                if t > tangent {
                    tangent = t
                    distance = d
                    elevation = h
                }
            }
            d = d < spacing ? min(2 * d, spacing) : d + spacing
        }
    }

    /// The nearest seed sample, metres.
    static let nearestSeed = 25.0
    /// Spacing of the seed samples, metres.
    static let seedSpacing = 2000.0

    @inline(__always) private mutating func consider(_ p: Quadratic, w: Double, _ s0: Double, _ span: Double, _ terrain: Quadratic) {
        let d = s0 + w * span
        guard d >= Self.nearest else { return }
        let t = p(w) / d
        if t > tangent {
            tangent = t
            distance = d
            elevation = terrain(w)
        }
    }

    func goesOn(at s: Double, segment: RayPath.Segment) -> Bool { mayRise(beyond: s) }

    /// Whether terrain at slant distance s or beyond, as high as terrain can be anywhere, could
    /// still appear above the best point so far: when a ray leaves the data here, its skyline
    /// is unsettled.
    func mayRise(beyond s: Double) -> Bool {
        canShow(aboveTangent: tangent, height: maximumTerrain + highestUndulation, from: s, to: .infinity)
    }

    /// Whether terrain of ellipsoidal height `height` between distances d0 and d1 can show a
    /// tangent above t: the largest it can show, g(d) = (M − c·d²)/d with M = height − eye, falls
    /// with d when M ≥ 0 and peaks at d = √(−M/c), −2·√(−M·c), otherwise (c > 0: refraction's k
    /// stays below 1). Compared as M − c·d² > t·d, and the peak as 4·(−M)·c < t² for t < 0:
    /// every block and cell a level ray passes asks, and a division and a root each cost more
    /// than the rest of the test.
    @inline(__always) func canShow(aboveTangent t: Double, height: Double, from d0: Double, to d1: Double) -> Bool {
        let m = height - eye
        let near = max(d0, Self.nearest)
        guard near <= d1 else { return false }
        @inline(__always) func shows(at d: Double) -> Bool { m - curvature * d * d > t * d }
        guard m < 0 else { return shows(at: near) }
        if -m <= curvature * near * near { return shows(at: near) }
        if -m >= curvature * d1 * d1 { return shows(at: d1) }
        return t < 0 && 4 * -m * curvature < t * t
    }
}
