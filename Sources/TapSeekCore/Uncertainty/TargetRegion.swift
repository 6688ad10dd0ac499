import Foundation

/// The smallest-area region (as far as this method goes) that holds a given share of a cloud
/// of sampled targets: one polygon per separate group of them.
///
/// The samples are ranked by how crowded they are (the distance to their k-th nearest
/// neighbour, k = max(5, n/50); beyond ``crowdingSubsample`` samples, among an even subsample
/// of that many, k in proportion); the share wanted of the most crowded is kept. Kept samples
/// closer than twice the largest such distance among them join one group (single linkage),
/// so that targets split between a near ridge and a far valley make two groups, not one hull
/// over both; each group's region is the convex hull of its samples, each widened by half the
/// distance to its second-nearest sample. The hulls hold every kept sample, so the region holds
/// at least the share of the samples asked for, and (the widening) about that share of further
/// draws: the true target, in calibration tests. Distances are metres on a local plane (east, north
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
        self = Self.regions(holding: [share], of: points)[0]
    }

    /// Regions for several shares of the same points, sharing the work of ranking them.
    public static func regions(holding shares: [Double], of points: [(latitude: Double, longitude: Double)]) -> [TargetRegion] {
        guard !points.isEmpty else { return shares.map { _ in TargetRegion(polygons: []) } }
        let plane = Plane(points)
        let tree = PointTree(plane.xy)
        let crowding: [Double], widening: [Double]
        // Half the spacing of the samples themselves: the gap a further draw may fall into at a
        // hull's edge. (Half the crowding distance, a smoothing scale that stays a fixed share
        // of the cloud however many samples there are, made 1 000-sample regions too big: the
        // 50 % region held the truth in 63 % of calibration trials.)
        if points.count <= crowdingSubsample {
            let distances = tree.nearestDistances(ranks: [max(5, points.count / 50), 2])
            crowding = distances[0]
            widening = distances[1].map { $0 / 2 }
        } else {
            // The radius holding 2 % of the cloud around each sample, measured on an even
            // subsample (every step-th draw: the draws are independent) with its own 2 %: the
            // k-th nearest of all n with k = n/50 costs a search of k neighbours for each of n
            // samples, time growing as n², where this grows as n·log n.
            let step = (points.count + crowdingSubsample - 1) / crowdingSubsample
            let chosen = Array(stride(from: 0, to: points.count, by: step))
            let subtree = PointTree(chosen.map { plane.xy[$0] })
            crowding = subtree.kthNearestDistances(k: max(5, chosen.count / 50), from: plane.xy,
                                                   excluding: points.indices.map { $0 % step == 0 ? $0 / step : nil })
            widening = tree.nearestDistances(ranks: [2])[0].map { $0 / 2 }
        }
        let order = points.indices.sorted { crowding[$0] < crowding[$1] || (crowding[$0] == crowding[$1] && $0 < $1) }
        return shares.map { share in
            let keep = max(1, min(points.count, Int((share * Double(points.count)).rounded(.up))))
            return TargetRegion(polygons: plane.hulls(of: Array(order.prefix(keep)), crowding: crowding, widening: widening, tree: tree))
        }
    }

    /// Samples beyond which the crowding (the radius holding 2 % of the cloud) is measured on an
    /// even subsample of this many: up to it the regions are exactly those of all samples.
    static let crowdingSubsample = 5000

    private init(polygons: [[Vertex]]) { self.polygons = polygons }

    /// The points in metres on a plane tangent at their mean latitude, turned so that x runs
    /// along the cloud's longest axis.
    private struct Plane {
        let lat0: Double, lon0: Double, east: Double
        /// The turn from east/north to the plane's axes.
        let cosine: Double, sine: Double
        let xy: [(x: Double, y: Double)]
        static let metresPerDegree = 111_320.0

        init(_ points: [(latitude: Double, longitude: Double)]) {
            let n = Double(points.count)
            lat0 = points.map(\.latitude).reduce(0, +) / n
            lon0 = points.map(\.longitude).reduce(0, +) / n
            east = Self.metresPerDegree * cos(lat0 * .pi / 180)
            let (lat0, lon0, east) = (lat0, lon0, east)
            let plain = points.map { (x: ($0.longitude - lon0) * east, y: ($0.latitude - lat0) * Self.metresPerDegree) }
            // Turned so that x runs along the cloud's longest axis (targets along a sightline
            // often lie on a line): groups are listed in order along it.
            var sxx = 0.0, syy = 0.0, sxy = 0.0
            for p in plain { sxx += p.x * p.x; syy += p.y * p.y; sxy += p.x * p.y }
            let angle = 0.5 * atan2(2 * sxy, sxx - syy)
            cosine = cos(angle)
            sine = sin(angle)
            let (c, s) = (cosine, sine)
            xy = plain.map { (x: c * $0.x + s * $0.y, y: -s * $0.x + c * $0.y) }
        }

        /// The widened hull of each group of `kept` (single linkage at twice the largest crowding).
        func hulls(of kept: [Int], crowding: [Double], widening: [Double], tree: PointTree) -> [[Vertex]] {
            // Every kept sample has k others within its crowding distance: twice the largest keeps
            // each one linked to its group, while gaps wider than that split groups.
            let link = 2 * (kept.map { crowding[$0] }.max() ?? 0)
            // Groups in order along the plane's x axis (by their first member on it).
            var isKept = [Bool](repeating: false, count: xy.count)
            for m in kept { isKept[m] = true }
            let groups = tree.groups(linkedWithin: link, among: isKept)
                .map { members in (members: members, first: members.map { xy[$0].x }.min()!) }
                .sorted { $0.first < $1.first }
                .map(\.members)
            // A hull of samples holds a further draw less often than the samples it is made of
            // (the draw may land just outside its edge): every kept sample is widened by its
            // `widening` (more in the sparse tails, little in the core), so that the region holds
            // about the share of new draws, not only of these.
            let ring = (0..<8).map { (x: cos(Double($0) * .pi / 4), y: sin(Double($0) * .pi / 4)) }
            return groups.map { all in
                // A sample whose widening lies inside the hull of the samples themselves cannot
                // reach the widened hull's outline: leave it out (the outline is the same).
                let core = TargetRegion.convexHull(all.map { xy[$0] })
                // Each edge of the core hull as a point on it and its unit inward normal.
                let edges = zip(core, core.dropFirst()).compactMap { a, b -> (x: Double, y: Double, nx: Double, ny: Double)? in
                    let ex = b.x - a.x, ey = b.y - a.y
                    let length = (ex * ex + ey * ey).squareRoot()
                    return length == 0 ? nil : (a.x, a.y, -ey / length, ex / length)
                }
                let members = core.count < 4 ? all : all.filter { m in
                    let p = xy[m], r = widening[m]
                    return edges.contains { e in e.nx * (p.x - e.x) + e.ny * (p.y - e.y) <= r }
                }
                let widened = members.flatMap { m in
                    let r = widening[m]
                    return r > 0 ? ring.map { (x: xy[m].x + r * $0.x, y: xy[m].y + r * $0.y) } : [xy[m]]
                }
                return TargetRegion.convexHull(widened).map {
                    let x = cosine * $0.x - sine * $0.y, y = sine * $0.x + cosine * $0.y
                    return Vertex(latitude: lat0 + y / Self.metresPerDegree, longitude: lon0 + x / east)
                }
            }
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
        func cross(_ o: (x: Double, y: Double), _ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> Double {
            (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
        }
        // Akl and Toussaint's prefilter: the points extreme in eight directions, in turn, make a
        // convex polygon inside the hull; a point strictly inside it cannot be a hull vertex.
        var candidates = points
        if points.count > 64 {
            // Extremes along −x, −(x + y), −y, x − y, x, x + y, y, y − x: counter-clockwise.
            var extreme = [Int](repeating: 0, count: 8), best = [Double](repeating: -.infinity, count: 8)
            extreme.withUnsafeMutableBufferPointer { extreme in
                best.withUnsafeMutableBufferPointer { best in
                    for (i, p) in points.enumerated() {
                        @inline(__always) func consider(_ d: Int, _ key: Double) {
                            if key > best[d] { best[d] = key; extreme[d] = i }
                        }
                        consider(0, -p.x); consider(1, -p.x - p.y); consider(2, -p.y); consider(3, p.x - p.y)
                        consider(4, p.x); consider(5, p.x + p.y); consider(6, p.y); consider(7, p.y - p.x)
                    }
                }
            }
            let octagon = (extreme + [extreme[0]]).map { points[$0] }
            candidates = points.filter { p in (0..<8).contains { cross(octagon[$0], octagon[$0 + 1], p) <= 0 } }
        }
        let sorted = candidates.sorted { $0.x < $1.x || ($0.x == $1.x && $0.y < $1.y) }
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

extension TargetRegion: Codable {
    private enum CodingKeys: String, CodingKey { case type, coordinates }

    /// A GeoJSON `Polygon` when the region is one part, else a `MultiPolygon`; each part one
    /// ring, `[longitude, latitude]` pairs at 1e-7°.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        let rings = polygons.map { ring in [ring.map { [FixedDecimal.position($0.longitude), FixedDecimal.position($0.latitude)] }] }
        if rings.count == 1 {
            try c.encode("Polygon", forKey: .type)
            try c.encode(rings[0], forKey: .coordinates)
        } else {
            try c.encode("MultiPolygon", forKey: .type)
            try c.encode(rings, forKey: .coordinates)
        }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let parts: [[[[Double]]]]
        switch try c.decode(String.self, forKey: .type) {
        case "Polygon": parts = [try c.decode([[[Double]]].self, forKey: .coordinates)]
        case "MultiPolygon": parts = try c.decode([[[[Double]]]].self, forKey: .coordinates)
        case let other: throw DecodingError.dataCorruptedError(forKey: .type, in: c, debugDescription: "a region is a Polygon or MultiPolygon, not \(other)")
        }
        var polygons: [[Vertex]] = []
        for part in parts {
            guard let ring = part.first, part.count == 1, ring.allSatisfy({ $0.count == 2 }) else {
                throw DecodingError.dataCorruptedError(forKey: .coordinates, in: c, debugDescription: "each part is one ring of [longitude, latitude] pairs")
            }
            polygons.append(ring.map { Vertex(latitude: $0[1], longitude: $0[0]) })
        }
        self.init(polygons: polygons)
    }
}
