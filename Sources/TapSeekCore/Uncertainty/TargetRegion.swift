import Foundation

/// The smallest-area region (as far as this method goes) that holds a given share of a cloud
/// of sampled targets: one polygon per separate group of them.
///
/// The samples are ranked by how crowded they are (the distance to their k-th nearest
/// neighbour, k = max(5, n/50)); the share wanted of the most crowded is kept. Kept samples
/// closer than twice the largest such distance among them join one group (single linkage),
/// so that targets split between a near ridge and a far valley make two groups, not one hull
/// over both; each group's region is the convex hull of its samples, each widened by half its
/// own neighbour distance. The hulls hold every kept sample, so the region holds at least
/// the share of the samples asked for, and (the widening) about that share of further draws:
/// the true target, in calibration tests. Distances are metres on a local plane (east, north
/// at the samples' mean latitude), which is exact enough for clouds of tens of kilometres.
public struct TargetRegion: Sendable, Hashable {
    /// A point of a region's outline, degrees.
    public struct Vertex: Sendable, Hashable {
        public var latitude: Double
        public var longitude: Double
    }

    /// Closed outlines (first vertex repeated last), counter-clockwise, one per group.
    public var polygons: [[Vertex]]

    /// The region holding `share` (0…1] of `points` (degrees; longitudes continuous, no
    /// antimeridian in between).
    public init(holding share: Double, of points: [(latitude: Double, longitude: Double)]) {
        guard !points.isEmpty else {
            polygons = []
            return
        }
        let n = points.count
        let lat0 = points.map(\.latitude).reduce(0, +) / Double(n), lon0 = points.map(\.longitude).reduce(0, +) / Double(n)
        let metresPerDegree = 111_320.0, east = metresPerDegree * cos(lat0 * .pi / 180)
        let xy = points.map { (x: ($0.longitude - lon0) * east, y: ($0.latitude - lat0) * metresPerDegree) }
        // Crowding: the distance to the k-th nearest neighbour.
        let k = min(max(5, n / 50), n - 1)
        var crowding = [Double](repeating: 0, count: n)
        if k > 0 {
            // The k + 1 smallest squared distances (the point itself among them), kept sorted.
            var nearest = [Double](repeating: .infinity, count: k + 1)
            for i in 0..<n {
                for m in nearest.indices { nearest[m] = .infinity }
                for j in 0..<n {
                    let dx = xy[i].x - xy[j].x, dy = xy[i].y - xy[j].y
                    var d = dx * dx + dy * dy
                    guard d < nearest[k] else { continue }
                    for m in 0...k where d < nearest[m] { swap(&d, &nearest[m]) }
                }
                crowding[i] = nearest[k].squareRoot()
            }
        }
        let keep = max(1, min(n, Int((share * Double(n)).rounded(.up))))
        let kept = (0..<n).sorted { crowding[$0] < crowding[$1] || (crowding[$0] == crowding[$1] && $0 < $1) }.prefix(keep)
        let keptIndices = Array(kept)
        // Every kept sample has k others within its crowding distance: twice the largest keeps
        // each one linked to its group, while gaps wider than that split groups.
        let link = 2 * (keptIndices.map { crowding[$0] }.max() ?? 0)
        // Single-linkage groups by flood fill.
        var group = [Int](repeating: -1, count: keptIndices.count)
        var groups = 0
        for start in keptIndices.indices where group[start] < 0 {
            group[start] = groups
            var stack = [start]
            while let a = stack.popLast() {
                for b in keptIndices.indices where group[b] < 0 {
                    let p = xy[keptIndices[a]], q = xy[keptIndices[b]]
                    if hypot(p.x - q.x, p.y - q.y) <= link {
                        group[b] = groups
                        stack.append(b)
                    }
                }
            }
            groups += 1
        }
        // A hull of samples holds a further draw less often than the samples it is made of (the
        // draw may land just outside its edge): every kept sample is widened by half its own
        // neighbour distance (more in the sparse tails, little in the core), so that the region
        // holds about the share of new draws, not only of these.
        let ring = (0..<8).map { (x: cos(Double($0) * .pi / 4), y: sin(Double($0) * .pi / 4)) }
        polygons = (0..<groups).map { g in
            let members = keptIndices.indices.filter { group[$0] == g }.map { keptIndices[$0] }
            let widened = members.flatMap { m in
                let r = crowding[m] / 2
                return r > 0 ? ring.map { (x: xy[m].x + r * $0.x, y: xy[m].y + r * $0.y) } : [xy[m]]
            }
            let hull = Self.convexHull(widened)
            return hull.map { Vertex(latitude: lat0 + $0.y / metresPerDegree, longitude: lon0 + $0.x / east) }
        }
    }

    /// Whether a point (degrees) lies inside or on the region.
    public func contains(latitude: Double, longitude: Double) -> Bool {
        polygons.contains { ring in
            guard ring.count >= 4 else { return ring.contains { $0.latitude == latitude && $0.longitude == longitude } }
            // Counter-clockwise convex ring: inside when left of (or on) every edge.
            return zip(ring, ring.dropFirst()).allSatisfy { a, b in
                (b.longitude - a.longitude) * (latitude - a.latitude) - (b.latitude - a.latitude) * (longitude - a.longitude) >= -1e-12
            }
        }
    }

    /// The convex hull, counter-clockwise and closed (Andrew's monotone chain). Fewer than three
    /// distinct points give a degenerate ring through them.
    static func convexHull(_ points: [(x: Double, y: Double)]) -> [(x: Double, y: Double)] {
        let sorted = points.sorted { $0.x < $1.x || ($0.x == $1.x && $0.y < $1.y) }
        func cross(_ o: (x: Double, y: Double), _ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> Double {
            (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
        }
        var lower: [(x: Double, y: Double)] = [], upper: [(x: Double, y: Double)] = []
        for p in sorted {
            while lower.count >= 2, cross(lower[lower.count - 2], lower[lower.count - 1], p) <= 0 { lower.removeLast() }
            lower.append(p)
        }
        for p in sorted.reversed() {
            while upper.count >= 2, cross(upper[upper.count - 2], upper[upper.count - 1], p) <= 0 { upper.removeLast() }
            upper.append(p)
        }
        var hull = Array(lower.dropLast()) + Array(upper.dropLast())
        if hull.isEmpty { hull = [sorted[0]] }
        hull.append(hull[0])
        return hull
    }
}
