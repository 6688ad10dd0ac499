/// Finds where a ray first meets the bilinear terrain, exactly.
///
/// In each cell the ray's height and the terrain along its track are quadratics in the cell's
/// parameter w, so their difference is one too: the hit is its first root, solved in closed
/// form. A block is skipped when the ray's lowest point over it (less the highest undulation
/// there) stays above the block's highest post. Voids are unknown: never hit, only noted; but
/// where the ray leaves a void already below the terrain, it met the terrain somewhere in the
/// void, and where is unknown: the walk ends there with ``unknownCrossing``, never with a hit
/// on the void's far rim (which would lie off the sightline).
struct FirstHit: RayVisitor {
    /// Highest terrain the ray can meet, metres above mean sea level: past it and climbing,
    /// the ray can meet nothing more.
    let maximumTerrain: Double
    /// Slant distance of the hit, once found, and the terrain's height there (metres above
    /// mean sea level).
    var hit: Double?
    var elevation = Double.nan
    /// Whether the ray passed over a void cell before its end.
    var crossedVoid = false
    /// The void cells the ray crossed last, one after the other: slant distances where it
    /// entered and left them, and the ray's lowest height over them (metres above mean sea
    /// level). Cleared by a known cell the ray passes above.
    var voidRun: (start: Double, end: Double, lowest: Double)?
    /// Where the ray crossed a void it entered above the terrain and left below it (slant
    /// distances): it met the terrain in between, where unknown. Certainly blocked by then:
    /// callers asking only that take the void's end as the obstruction.
    var unknownCrossing: (start: Double, end: Double)?
    /// The first run of void cells over which the ray passed lower than the highest known post
    /// of their grid (``CellCrossing/ceiling``): terrain hidden there may have stopped it. A
    /// march that then finds no hit cannot name what the ray met.
    var lowVoid: (start: Double, end: Double)?

    /// Slant distances closer than this are one place: cells of a walk abut to rounding.
    static let abutting = 1e-3

    init(maximumTerrain: Double) { self.maximumTerrain = maximumTerrain }

    func mayMatter(maximum: Double, segment: RayPath.Segment, from u0: Double, to u1: Double) -> Bool {
        let lowest = segment.height.minimum(from: u0, to: u1) - segment.highestUndulation - RayPath.modelTolerance
        return lowest <= maximum
    }

    /// The ray's lowest point over any stretch from u is at most its height at u.
    func surelyMatters(maximum: Double, segment: RayPath.Segment, at u: Double) -> Bool {
        segment.height(u) - segment.highestUndulation - RayPath.modelTolerance <= maximum
    }

    func mayMatter(_ cell: CellCrossing) -> Bool {
        let top = cell.highestPost
        guard !top.isNaN else { return true }
        return cell.ellipsoidalRay.minimum(from: 0, to: 1) - cell.highestUndulation - RayPath.modelTolerance <= top
    }

    mutating func visit(_ crossing: CellCrossing) -> Bool {
        crossedVoid = crossedVoid || crossing.hasVoid
        guard let cell = crossing.known() else {
            let lowest = crossing.ray.minimum(from: 0, to: 1)
            if let run = voidRun, abs(run.end - crossing.s0) < Self.abutting {
                voidRun = (run.start, crossing.s1, min(run.lowest, lowest))
            } else {
                voidRun = (crossing.s0, crossing.s1, lowest)
            }
            if let run = voidRun, lowest < crossing.ceiling, lowVoid == nil || lowVoid!.start == run.start {
                lowVoid = (run.start, run.end)
            }
            return false
        }
        let terrain = cell.terrain
        guard let w = Self.firstContact(cell.ray, above: terrain) else {
            voidRun = nil
            return false
        }
        if w == 0, let run = voidRun, abs(run.end - cell.s0) < Self.abutting {
            // Below the terrain on entering the cell, straight out of a void: the ray passed into
            // the terrain inside the void. (Anywhere else a contact at the entry was already
            // found in the cell before, which shares the entry's posts.)
            unknownCrossing = (run.start, run.end)
            // The far rim's height: where a caller that only asks whether the ray is blocked
            // (aim, viewshed) takes the void's end as the obstruction.
            elevation = terrain(0)
            return true
        }
        hit = cell.s0 + w * (cell.s1 - cell.s0)
        elevation = terrain(w)
        return true
    }

    func goesOn(at s: Double, segment: RayPath.Segment) -> Bool {
        // The ray's height is convex in s (curvature (1 − k)/R > 0): once above everything and
        // climbing, it stays above.
        let u = s - segment.start
        let lowest = segment.height(u) - segment.highestUndulation - RayPath.modelTolerance
        return !(lowest > maximumTerrain && segment.height.slope(u) > 0)
    }

    /// The first w in [0, 1] where the ray is at or below the terrain, or nil.
    static func firstContact(_ ray: Quadratic, above terrain: Quadratic) -> Double? {
        let gap = Quadratic(a: ray.a - terrain.a, b: ray.b - terrain.b, c: ray.c - terrain.c)
        if gap.c <= 0 { return 0 }
        let atExit = gap.a + gap.b + gap.c
        if atExit > 0 {
            // Above at both ends: a dip between them needs a minimum inside that reaches 0.
            guard gap.a > 0 else { return nil }
            let vertex = -gap.b / (2 * gap.a)
            guard vertex > 0, vertex < 1, gap(vertex) <= 0 else { return nil }
        }
        let root = gap.firstCrossing(of: 0, after: 0, limit: 1)
        // Rounding can lose a root that the signs prove: then it lies at the exit or the vertex.
        if root.isFinite { return root }
        return atExit <= 0 ? 1 : -gap.b / (2 * gap.a)
    }
}
