/// The running horizon along one azimuth: for every distance d, the highest apparent tangent of
/// the terrain nearer than d — the horizon that a viewshed's sweep reuses for every cell near
/// that azimuth.
///
/// It is walked like a panorama's skyline (``SkylineSearch``, exact on the bilinear terrain, the
/// pyramid skipping blocks that cannot raise the best tangent so far) without the far seed, and
/// keeps every cell crossing that raised the best: where it begins and ends, the best before it,
/// and its tangent's numerator as a quadratic. A flat block of the pyramid (a lake, the sea:
/// ``FlatStretch``) is taken whole, as one crossing. Between two such crossings the running maximum
/// is constant (every other cell, walked or skipped, stays below it); within one it is the
/// better of the best before and the crossing's own maximum up to d, found in closed form. So
/// ``horizon(at:)`` is the running maximum itself, not a bound.
///
/// Tangents are the skyline search's: (h − h_eye − (1 − k)·d²/(2R))/d with h the terrain's
/// ellipsoidal height and d the slant distance along the level ray of the azimuth, metres.
struct HorizonProfile: Sendable {
    /// One crossing that raised the horizon.
    struct Rise: Sendable {
        /// Slant metres where the crossing begins and ends.
        var start: Double, end: Double
        /// The best tangent before it, and after it.
        var before: Double, after: Double
        /// The tangent's numerator along the crossing, w ∈ [0, 1] from start to end.
        var numerator: Quadratic

        /// The highest tangent of the crossing's terrain from its start to d.
        func highest(upTo d: Double) -> Double {
            let span = end - start
            let w1 = min(max((d - start) / span, 0), 1)
            var best = -Double.infinity
            func consider(_ w: Double) {
                let distance = start + w * span
                guard distance >= SkylineSearch.nearest else { return }
                best = max(best, numerator(w) / distance)
            }
            consider(0)
            consider(w1)
            // d/dw [p/d] = 0  ⇔  a·Δ·w² + 2a·d0·w + (b·d0 − Δ·c) = 0
            let p = numerator
            let stationary = Quadratic(a: p.a * span, b: 2 * p.a * start, c: p.b * start - span * p.c)
            var w = stationary.firstCrossing(of: 0, after: 0, limit: w1)
            if w.isFinite {
                consider(w)
                w = stationary.firstCrossing(of: 0, after: w, limit: w1)
                if w.isFinite { consider(w) }
            }
            return best
        }
    }

    /// The crossings that raised the horizon, in order of distance.
    private(set) var rises: [Rise] = []
    /// Where the ray first crossed a void cell (+∞: never): beyond it the terrain beside the
    /// ray may be unknown where the ray's is not, or the other way round.
    private(set) var firstVoid = Double.infinity
    /// How far the profile holds, metres: the walk's end, where the ray left the terrain data,
    /// or +∞ when nothing beyond where it stopped could raise the horizon.
    private(set) var validity = Double.infinity

    /// For distances a hair short of k/``entriesPerMetre`` along the walk (10⁻⁶ of an entry's
    /// spacing), how many rises start there or nearer: where ``horizon(at:)`` begins its count
    /// of the rises before d, a step or two from it, and never past it (d·entriesPerMetre
    /// rounds down to k only for a d beyond that distance, by far more than its rounding). A
    /// binary search for every look-up cost a viewshed's cells more than their arithmetic, in
    /// branches no processor predicts. An entry every 100 m, or fewer where few rises are (at
    /// most two per rise, so that the index never outgrows the rises themselves).
    private(set) var startsBefore: [Int32] = []
    private(set) var entriesPerMetre = 0.0

    /// The highest tangent of the terrain along the ray nearer than d (−∞: none). Inlined
    /// into a viewshed's cells, where its arrays are read without being retained.
    @inline(__always)
    func horizon(at d: Double) -> Double { reading(at: d).value }

    /// Bounds of ``horizon(at:)`` without its closed form: exact beyond a crossing, the best
    /// before and after it within one.
    @inline(__always)
    func horizonBounds(at d: Double) -> (lower: Double, upper: Double) { reading(at: d).bounds }

    /// The horizon at one distance, its rise looked up once: for a viewshed's cell, which reads
    /// the bounds first and the closed form only where they settle nothing (looked up twice,
    /// 0.6–1.6 % of a viewshed's instructions).
    struct Reading {
        /// The last rise starting at d or nearer (nil: none).
        let rise: Rise?
        let d: Double

        /// ``HorizonProfile/horizonBounds(at:)``.
        @inline(__always) var bounds: (lower: Double, upper: Double) {
            guard let rise else { return (-.infinity, -.infinity) }
            return d >= rise.end ? (rise.after, rise.after) : (rise.before, rise.after)
        }

        /// ``HorizonProfile/horizon(at:)``.
        @inline(__always) var value: Double {
            guard let rise else { return -.infinity }
            return d >= rise.end ? rise.after : max(rise.before, rise.highest(upTo: d))
        }
    }

    /// The horizon at d, for its bounds and its value.
    @inline(__always)
    func reading(at d: Double) -> Reading {
        let lo = risesStarted(before: d)
        return Reading(rise: lo > 0 ? riseAt(lo - 1) : nil, d: d)
    }

    /// ``horizon(at:)`` and where along the ray the terrain that sets it lies: between `start`
    /// and `end` slant metres (end < start: somewhere nearer than d, where is not known).
    /// Inlined into a viewshed's cells: called on a level ray read in place, it retained and
    /// released both the profile's arrays (4 % of the coast's instructions).
    @inline(__always)
    func horizonSource(at d: Double) -> (tangent: Double, start: Double, end: Double) {
        let lo = risesStarted(before: d)
        guard lo > 0 else { return (-.infinity, 1, 0) }
        let rise = riseAt(lo - 1)
        if d >= rise.end { return (rise.after, rise.start, rise.end) }
        // Every read of the arrays before the closed form's call: a read after it made the
        // profile be retained across the call.
        let previous = lo >= 2 ? riseAt(lo - 2) : nil
        let highest = rise.highest(upTo: d)
        if highest >= rise.before { return (highest, rise.start, d) }
        // The best before this crossing: the rise before it, unless a crossing no rise records
        // (over a void's known edge) raised it.
        if let previous, previous.after == rise.before { return (rise.before, previous.start, previous.end) }
        return (rise.before, 1, 0)
    }

    /// Rise i (of ``rises``), read in place: a viewshed's cells read several a cell, and the
    /// array's subscript checked its bounds in a call of its own.
    @inline(__always)
    private func riseAt(_ i: Int) -> Rise { rises.withUnsafeBufferPointer { $0[i] } }

    /// How many rises start at d or nearer.
    @inline(__always)
    private func risesStarted(before d: Double) -> Int {
        // Read in place: a viewshed asks this several times a cell, and the arrays' subscripts
        // check their bounds at every step.
        rises.withUnsafeBufferPointer { rises in
            var lo: Int
            let k = d * entriesPerMetre
            if k >= 0, k < Double(startsBefore.count) {
                // Rises are in order of their start: from the entry's count, step on to the
                // rises before d (the entry's distance lies short of d).
                lo = startsBefore.withUnsafeBufferPointer { Int($0[Int(k)]) }
                while lo < rises.count, rises[lo].start <= d { lo += 1 }
            } else {
                lo = 0
                var hi = rises.count
                while lo < hi {
                    let mid = (lo + hi) >> 1
                    if rises[mid].start <= d { lo = mid + 1 } else { hi = mid }
                }
            }
            return lo
        }
    }

    /// Where the horizon first rises to `tangent`, or d if it has by then: the start of the first
    /// crossing that takes it there (+∞: never). Nearer, all terrain along the ray shows a lower
    /// tangent. For a d that the horizon reaches `tangent` not far beyond, a step at a time from
    /// the rise that holds d: a bisection of all the rises, whose branches no processor predicts,
    /// was 4 % of a viewshed's time over a lake, where every cell is a rise. Inlined into a
    /// viewshed's cells, the rises read in place.
    @inline(__always)
    func firstRise(to tangent: Double, from d: Double) -> Double {
        let first = max(0, risesStarted(before: d) - 1)
        return rises.withUnsafeBufferPointer { rises in
            var i = first
            while i < rises.count, rises[i].after < tangent { i += 1 }
            return i < rises.count ? max(d, rises[i].start) : .infinity
        }
    }

    /// Walks the level ray at `azimuth` (degrees) from the eye to `range` slant metres, the rises
    /// gathered in `scratch` (emptied first, its room kept) and copied out at their final count:
    /// a sweep's rays, walked one after another with one scratch array, grow no array of their
    /// own. Over the sea every cell is a rise, and each ray's array, grown by doubling, was
    /// copied a dozen times.
    static func walk<T: TerrainGrids>(azimuth: Double, eye: GeodeticPosition, geoid: Geoid, refraction: Double, range: Double,
                                      scratch: inout [Rise], over terrain: inout T) -> HorizonProfile {
        var path = RayPath(eye: eye, direction: ViewDirection(azimuth: azimuth, elevation: 0).enu, geoid: geoid,
                           refraction: refraction, segmentLength: RayPath.skylineSegment)
        let curvature = (1 - refraction) / (2 * path.radius)
        let search = SkylineSearch(eye: eye.height, curvature: curvature,
                                   maximumTerrain: SightlineMarch.highestTerrain, highestUndulation: SightlineMarch.highestUndulation)
        scratch.removeAll(keepingCapacity: true)
        var recorder = Recorder(search: search, rises: scratch)
        scratch = []
        let end = path.walk(from: 0, to: range, visitor: &recorder) { terrain.withGrid(containing: $0, longitude: $1, $2) }
        var profile = recorder.profile
        profile.rises = recorder.rises.withUnsafeBufferPointer { found in
            [Rise](unsafeUninitializedCapacity: found.count) { rises, count in
                _ = rises.initialize(fromContentsOf: found)
                count = found.count
            }
        }
        scratch = recorder.rises
        if range > 0, range.isFinite {
            let entries = max(2, min(Int(range / 100) + 2, 2 * profile.rises.count + 2))
            profile.entriesPerMetre = Double(entries - 1) / range
            // Entry k's distance as (k − 10⁻⁶) times the spacing: it and k/entriesPerMetre differ
            // by a few ulps, a ten-millionth of the hair it keeps short (and no division each).
            let spacing = range / Double(entries - 1)
            profile.startsBefore = profile.rises.withUnsafeBufferPointer { rises in
                [Int32](unsafeUninitializedCapacity: entries) { starts, count in
                    var i = 0
                    for k in 0..<entries {
                        let distance = (Double(k) - 1e-6) * spacing
                        while i < rises.count, rises[i].start <= distance { i += 1 }
                        starts[k] = Int32(i)
                    }
                    count = entries
                }
            }
        }
        switch end {
        case .stopped: break
        case .finished(let s): profile.validity = s < range ? .infinity : range
        case .leftData(let s): profile.validity = s
        }
        return profile
    }

    /// The skyline search, keeping each crossing that raises its best.
    private struct Recorder: RayVisitor {
        var search: SkylineSearch
        /// The rises found so far, in the caller's scratch array.
        var rises: [Rise]
        var profile = HorizonProfile()

        var crossedVoid: Bool { search.crossedVoid }

        mutating func mayMatter(maximum: Double, segment: RayPath.Segment, from u0: Double, to u1: Double) -> Bool {
            search.mayMatter(maximum: maximum, segment: segment, from: u0, to: u1)
        }

        func mayMatter(_ cell: CellCrossing) -> Bool { search.mayMatter(cell) }

        mutating func visit(_ crossing: CellCrossing) -> Bool {
            if crossing.hasVoid, profile.firstVoid == .infinity { profile.firstVoid = crossing.s0 }
            let before = search.tangent
            search.crossedVoid = search.crossedVoid || crossing.hasVoid
            guard let cell = crossing.known() else { return false }
            // The numerator SkylineSearch maximises: h(w) + N(w) − eye − c·d(w)².
            let numerator = search.visit(known: cell, terrain: cell.terrain)
            guard search.tangent > before else { return false }
            rises.append(Rise(start: cell.s0, end: cell.s1, before: before, after: search.tangent, numerator: numerator))
            return false
        }

        /// Over a lake or the sea every cell raises the horizon: a flat block is one rise, not
        /// one for each of its cells.
        static var takesFlatBlocks: Bool { true }

        mutating func visit(flat stretch: FlatStretch) -> Bool {
            let before = search.tangent
            let numerator = search.visit(known: stretch)
            guard search.tangent > before else { return false }
            rises.append(Rise(start: stretch.s0, end: stretch.s1, before: before, after: search.tangent, numerator: numerator))
            return false
        }

        mutating func goesOn(at s: Double, segment: RayPath.Segment) -> Bool { search.goesOn(at: s, segment: segment) }
    }
}
