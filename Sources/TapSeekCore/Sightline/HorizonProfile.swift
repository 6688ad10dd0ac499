/// The running horizon along one azimuth: for every distance d, bounds on the highest apparent
/// tangent of the terrain nearer than d — the horizon that a viewshed's sweep reuses for every
/// cell near that azimuth.
///
/// It is walked like a panorama's skyline (``SkylineSearch``, exact on the bilinear terrain, the
/// pyramid skipping blocks that cannot raise the best tangent so far) without the far seed, and
/// notes every cell that raised the best: where the ray entered that cell, where the new best
/// lies, and the tangent. Between two such cells the running maximum is constant, so
///
/// - ``upper(at:)``: the best of the cells entered before d — never below the true running
///   maximum at d (the raising cell may have reached its best beyond d);
/// - ``lower(at:)``: the best of the points found before d — never above it.
///
/// Tangents are the skyline search's: (h − h_eye − (1 − k)·d²/(2R))/d with h the terrain's
/// ellipsoidal height and d the slant distance along the level ray of the azimuth, metres.
struct HorizonProfile: Sendable {
    /// Where each raising cell was entered, where its best point lies, and the best tangent
    /// after it: all three ascending.
    private(set) var entries: [Double] = []
    private(set) var bests: [Double] = []
    private(set) var tangents: [Double] = []
    /// Where the ray first crossed a void cell (+∞: never): beyond it the terrain beside the
    /// ray may be unknown where the ray's is not, or the other way round.
    private(set) var firstVoid = Double.infinity
    /// How far the profile holds, metres: the walk's end, where the ray left the terrain data,
    /// or +∞ when nothing beyond where it stopped could raise the horizon.
    private(set) var validity = Double.infinity

    /// The highest tangent of terrain nearer than d can be no higher than this (−∞: no terrain).
    func upper(at d: Double) -> Double { value(in: entries, at: d) }

    /// The highest tangent of terrain nearer than d is at least this (−∞: none known).
    func lower(at d: Double) -> Double { value(in: bests, at: d) }

    /// The tangent after the last key ≤ d, by binary search.
    private func value(in keys: [Double], at d: Double) -> Double {
        var lo = 0, hi = keys.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if keys[mid] <= d { lo = mid + 1 } else { hi = mid }
        }
        return lo == 0 ? -.infinity : tangents[lo - 1]
    }

    /// Walks the level ray at `azimuth` (degrees) from the eye to `range` slant metres.
    static func walk<T: TerrainGrids>(azimuth: Double, eye: GeodeticPosition, geoid: Geoid, refraction: Double, range: Double,
                                      over terrain: inout T) -> HorizonProfile {
        var path = RayPath(eye: eye, direction: ViewDirection(azimuth: azimuth, elevation: 0).enu, geoid: geoid,
                           refraction: refraction, segmentLength: RayPath.skylineSegment)
        let search = SkylineSearch(eye: eye.height, curvature: (1 - refraction) / (2 * path.radius),
                                   maximumTerrain: SightlineMarch.highestTerrain, highestUndulation: SightlineMarch.highestUndulation)
        var recorder = Recorder(search: search)
        let end = path.walk(from: 0, to: range, visitor: &recorder) { terrain.grid(containing: $0, longitude: $1) }
        var profile = recorder.profile
        switch end {
        case .stopped: break
        case .finished(let s): profile.validity = s < range ? .infinity : range
        case .leftData(let s): profile.validity = s
        }
        return profile
    }

    /// The skyline search, noting each cell that raises its best.
    private struct Recorder: RayVisitor {
        var search: SkylineSearch
        var profile = HorizonProfile()

        var crossedVoid: Bool { search.crossedVoid }

        mutating func mayMatter(maximum: Double, segment: RayPath.Segment, from u0: Double, to u1: Double) -> Bool {
            search.mayMatter(maximum: maximum, segment: segment, from: u0, to: u1)
        }

        func mayMatter(_ cell: CellCrossing) -> Bool { search.mayMatter(cell) }

        mutating func visit(_ cell: CellCrossing) -> Bool {
            if cell.hasVoid, profile.firstVoid == .infinity { profile.firstVoid = cell.s0 }
            let before = search.tangent
            _ = search.visit(cell)
            if search.tangent > before {
                profile.entries.append(cell.s0)
                profile.bests.append(search.distance)
                profile.tangents.append(search.tangent)
            }
            return false
        }

        mutating func goesOn(at s: Double, segment: RayPath.Segment) -> Bool { search.goesOn(at: s, segment: segment) }
    }
}
