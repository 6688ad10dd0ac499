/// What ``ProfilePlot`` draws, reduced to a few dozen points for a page that draws many
/// profiles itself (`tapseek report`): the same frame (heights less the drop d²(1 − k)/(2R),
/// so the ray is straight), the same ground distances, the same voids and target, with the
/// terrain thinned so that no crest is lost.
///
/// Thinning keeps, in each of `bins` equal stretches of ground distance, the highest terrain
/// sample and its distance (and the first and last sample of every run of known terrain, so
/// that runs end where the voids begin): picking every n-th sample instead drew a 1 949 m
/// skyline point's crest at 1 800 m. Between kept points the terrain is drawn straight, never
/// above the samples' own polyline by more than the rise within a stretch.
public struct ProfileOutline: Sendable {
    /// A point of the picture: ground distance from the observer and apparent height (the
    /// height less the drop), metres.
    public struct Point: Sendable, Hashable {
        public var distance: Double
        public var height: Double
    }

    /// Ground distance the picture spans: the farthest of terrain, voids, ray and target, metres.
    public var length: Double
    /// The observer's eye (at distance 0).
    public var eye: Point
    /// The last point of the ray the march followed; in this frame the ray is the straight line
    /// from the eye through it (a hit's ray ends at the target).
    public var rayEnd: Point
    /// The hit or skyline point; nil when the march found none.
    public var target: Point?
    /// Whether ``target`` is a hit rather than a skyline point.
    public var targetIsHit: Bool
    /// Runs of known terrain, in order, each at most about `bins` points, split where the DEM
    /// has voids.
    public var terrain: [[Point]]
    /// Ground-distance ranges where the DEM has no data along the sightline, metres.
    public var voids: [ClosedRange<Double>]
    /// Ground distance of the last terrain sample: a skyline point beyond it was found by a scan
    /// that records no profile, so the terrain between is not drawn (not a void).
    public var sampledLength: Double
}

extension ProfileOutline {
    /// The terrain as one height per stretch: `bins` equal stretches of ``length``, each the
    /// highest point kept in it, else (a stretch between two samples) the straight line between
    /// the kept points around its middle; nil where no run of known terrain covers it (a void,
    /// or beyond the samples). The compact form a page draws at the stretches' middles; a
    /// crest is kept at its height, half a stretch at most from its place.
    /// - Precondition: `bins` ≥ 1.
    public func heights(bins: Int) -> [Double?] {
        precondition(bins >= 1, "profile heights: at least 1 bin")
        let width = max(length, 1) / Double(bins)
        var heights = [Double?](repeating: nil, count: bins)
        for run in terrain {
            for p in run {
                let b = min(max(Int(p.distance / width), 0), bins - 1)
                heights[b] = max(heights[b] ?? -.infinity, p.height)
            }
            // Stretches the run spans without a point of its own.
            for (a, b) in zip(run, run.dropFirst()) {
                let first = max(Int((a.distance / width - 0.5).rounded(.up)), 0)
                let last = min(Int((b.distance / width - 0.5).rounded(.down)), bins - 1)
                guard first <= last else { continue }
                for k in first...last where heights[k] == nil {
                    let middle = (Double(k) + 0.5) * width
                    heights[k] = a.height + (b.height - a.height) * (middle - a.distance) / max(b.distance - a.distance, 1e-9)
                }
            }
        }
        return heights
    }
}

extension ProfilePlot {
    /// The picture's content with its terrain thinned to about `bins` points (see
    /// ``ProfileOutline``).
    /// - Precondition: `bins` ≥ 2.
    public func outline(bins: Int) -> ProfileOutline {
        precondition(bins >= 2, "profile outline: at least 2 bins")
        let fig = figure()
        var length = max(fig.target?.d ?? 0, fig.ray.last?.d ?? 0, fig.voids.last?.upperBound ?? 0)
        for run in fig.terrainRuns { length = max(length, run.last?.d ?? 0) }
        let sampled = max(fig.terrainRuns.last?.last?.d ?? 0, fig.voids.last?.upperBound ?? 0)
        let width = max(length, 1) / Double(bins)
        let point = { (p: Point) in ProfileOutline.Point(distance: p.d, height: p.h) }
        let terrain = fig.terrainRuns.map { run -> [ProfileOutline.Point] in
            var kept: [ProfileOutline.Point] = []
            var bin = -1
            for (i, p) in run.enumerated() {
                let b = min(Int(p.d / width), bins - 1)
                let ends = i == 0 || i == run.count - 1
                if b != bin || ends {
                    kept.append(point(p))
                    bin = b
                } else if p.h > kept[kept.count - 1].height {
                    kept[kept.count - 1] = point(p)
                }
                // The run's first point stays its own: a later, higher sample of its stretch
                // starts a point of its own rather than moving the run's start.
                if i == 0 { bin = -2 - b }
            }
            return kept
        }
        let eye = point(fig.eye)
        return ProfileOutline(length: length, eye: eye, rayEnd: fig.ray.last.map(point) ?? eye, target: fig.target.map(point),
                              targetIsHit: targetIsHit, terrain: terrain, voids: fig.voids, sampledLength: sampled)
    }
}
