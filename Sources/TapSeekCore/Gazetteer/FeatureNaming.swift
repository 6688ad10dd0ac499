import Foundation

/// Names what a sightline hits the way a person would name it — the summit whose top or upper
/// flank it is on, the lake whose water it is on, a pass, a glacier — or gives no name: no name
/// is better than a wrong one.
///
/// GeoNames gives each feature one point (often 50–150 m from the true top of a summit, the
/// middle of a lake or glacier) and no extent, so every rule reads the DEM around the point:
///
/// - **Lake** (`LK`, `RSV`, `POND`… within 15 km, looked for only when the ground 40 m around
///   the hit is level within 3 m): the DEM holds a lake's water as one flat level. The hit is on
///   the lake when the DEM at the lake's point is within 2 m of the hit's
///   elevation, and the ground from that point to the hit stays on that level (±3 m, every
///   90 m, at most 5 % of the samples off it: an islet or the DEM's noise) — the hit is on the
///   same water, not on a meadow at the same height.
/// - **Summit** (`MT`, `PK`, `HLL`… within 1.2 km): its top is the highest DEM height within
///   120 m of the GeoNames point; its relief R the top's height over the mean of the ground
///   500 m around it. Its *upper flank* reaches D = R / 2 below the top (at least 40 m, at most
///   300 m) and 3 D from it (at least 200 m, at most 1 km). The hit is on the summit when
///   (1) it is at most 20 m above the top (a lower sub-peak the hit stands above is not
///   named), (2) at most D below it and within the flank's reach, and (3) the ground from the
///   hit straight to the top never dips more than 15 m + 10 % of the height to climb below the
///   hit: the way up is the summit's own slope, not a valley — so a summit behind the hit,
///   which the sightline never reached, is not named. Among the summits that pass, the one
///   needing the least climb plus 0.3 × its distance (a climb above the top counts twice)
///   names the hit. A summit whose GeoNames elevation is over 100 m outside these bounds is
///   ruled out without reading the DEM.
/// - **Pass** (`PASS`, `GAP`, `SDL`): within 400 m and 60 m of height of the DEM at its point.
/// - **Glacier** (`GLCR`): within 1.5 km and 200 m of height of the DEM at its point (a
///   glacier's point lies on its ice; its extent is unknown).
///
/// Checked in that order: water is unmistakable, then summits, which people point at most.
/// A look-up reads the grid cells around the hit and, for each candidate summit, about 60 DEM
/// heights (a few microseconds).
public struct FeatureNaming: Sendable {
    public let gazetteer: Gazetteer

    public init(gazetteer: Gazetteer) { self.gazetteer = gazetteer }

    static let lakeRadius = 15_000.0, lakeLevel = 2.0, lakePathLevel = 3.0, lakePathStep = 90.0, lakePathOffLevel = 0.05
    static let summitRadius = 1_200.0, topSearch = 120.0, reliefRing = 500.0
    static let aboveTop = 20.0, smallestDrop = 40.0, largestDrop = 300.0, smallestReach = 200.0, largestReach = 1_000.0
    static let pathStep = 30.0, dipAllowance = 15.0, dipShare = 0.1
    /// How far GeoNames' elevation of a summit may differ from the DEM's top and still be
    /// trusted to rule the summit out: DEM tops lie up to ~60 m low (3″ posts miss the crest).
    static let elevationSlack = 100.0
    static let passRadius = 400.0, passHeight = 60.0
    static let glacierRadius = 1_500.0, glacierHeight = 200.0

    /// The feature a terrain point (degrees, metres above mean sea level) lies on; nil when
    /// none is close enough by the rules above.
    public func name(latitude: Double, longitude: Double, elevation: Double, terrain: inout TerrainSampler) -> FeatureName? {
        guard latitude.isFinite, longitude.isFinite, elevation.isFinite else { return nil }
        var lakes: [(Int, Double)] = [], summits: [(Int, Double)] = [], passes: [(Int, Double)] = [], glaciers: [(Int, Double)] = []
        let hit = Point(latitude: latitude, longitude: longitude)
        // Lakes are looked for far around only where the hit lies on level ground: on a slope
        // (almost every hit on a mountain) four heights spare reading 15 km of grid cells.
        if Self.isLevel(hit, elevation: elevation, terrain: &terrain) {
            gazetteer.forEachFeature(near: latitude, longitude, radius: Self.lakeRadius) { i, d in
                if gazetteer.kind(of: i) == .lake { lakes.append((i, d)) }
            }
            if let lake = lakes.sorted(by: { $0.1 < $1.1 }).first(where: { onLake($0.0, hit: hit, elevation: elevation, terrain: &terrain) }) {
                return named(lake.0, lake.1)
            }
        }
        gazetteer.forEachFeature(near: latitude, longitude, radius: Self.glacierRadius) { i, d in
            switch gazetteer.kind(of: i) {
            case .summit where d <= Self.summitRadius: summits.append((i, d))
            case .pass where d <= Self.passRadius: passes.append((i, d))
            case .glacier: glaciers.append((i, d))
            default: break
            }
        }
        if let summit = bestSummit(summits, hit: hit, elevation: elevation, terrain: &terrain) { return named(summit.0, summit.1) }
        for (candidates, radius, height) in [(passes, Self.passRadius, Self.passHeight), (glaciers, Self.glacierRadius, Self.glacierHeight)] {
            var best: (Int, Double, Double)?
            for (i, d) in candidates where d <= radius {
                let p = gazetteer.coordinates(of: i)
                guard let z = Self.height(&terrain, p.latitude, p.longitude), abs(z - elevation) <= height else { continue }
                let score = d + abs(z - elevation)
                if score < best?.2 ?? .infinity { best = (i, d, score) }
            }
            if let best { return named(best.0, best.1) }
        }
        return nil
    }

    /// The summit a point near a skyline's top lies on (a panorama's or a photo's peak): the
    /// summit rule alone.
    public func summit(latitude: Double, longitude: Double, elevation: Double, terrain: inout TerrainSampler) -> FeatureName? {
        guard latitude.isFinite, longitude.isFinite, elevation.isFinite else { return nil }
        var summits: [(Int, Double)] = []
        gazetteer.forEachFeature(near: latitude, longitude, radius: Self.summitRadius) { i, d in
            if gazetteer.kind(of: i) == .summit { summits.append((i, d)) }
        }
        guard let best = bestSummit(summits, hit: Point(latitude: latitude, longitude: longitude), elevation: elevation, terrain: &terrain) else {
            return nil
        }
        return named(best.0, best.1)
    }

    private func named(_ i: Int, _ distance: Double) -> FeatureName {
        let f = gazetteer.feature(at: i)
        return FeatureName(name: f.name, featureCode: f.featureCode, kind: f.kind, distance: distance, geonameID: f.geonameID)
    }

    // MARK: Rules

    private func onLake(_ i: Int, hit: Point, elevation: Double, terrain: inout TerrainSampler) -> Bool {
        let p = gazetteer.coordinates(of: i)
        guard let level = Self.height(&terrain, p.latitude, p.longitude), abs(level - elevation) <= Self.lakeLevel else { return false }
        let lake = Point(latitude: p.latitude, longitude: p.longitude)
        let length = lake.distance(to: hit)
        let steps = max(1, Int((length / Self.lakePathStep).rounded(.up)))
        var off = 0
        for s in 1...steps {
            let q = lake.towards(hit, fraction: Double(s) / Double(steps))
            guard let z = Self.height(&terrain, q.latitude, q.longitude), abs(z - level) <= Self.lakePathLevel else {
                off += 1
                if Double(off) > Self.lakePathOffLevel * Double(steps) { return false }
                continue
            }
        }
        return true
    }

    /// Whether the ground 40 m around a point lies within the lake rule's level of it.
    static func isLevel(_ p: Point, elevation: Double, terrain: inout TerrainSampler) -> Bool {
        for k in 0..<4 {
            let q = p.offset(bearing: Double(k) * 90, distance: 40)
            guard let z = height(&terrain, q.latitude, q.longitude), abs(z - elevation) <= lakePathLevel else { return false }
        }
        return true
    }

    private func bestSummit(_ candidates: [(Int, Double)], hit: Point, elevation: Double, terrain: inout TerrainSampler) -> (Int, Double)? {
        var best: (Int, Double, Double)?
        for (i, d) in candidates.sorted(by: { $0.1 < $1.1 }) {
            // Cheap bounds before reading the DEM: the top lies within 120 m of the point, so
            // the score is at least 0.3 × (d − 120); GeoNames' elevation, when given, is the
            // summit's within a few tens of metres.
            if 0.3 * (d - Self.topSearch) >= best?.2 ?? .infinity { break }
            if let known = gazetteer.elevation(of: i), known < elevation - Self.aboveTop - Self.elevationSlack
                || known > elevation + Self.largestDrop + Self.elevationSlack { continue }
            let p = gazetteer.coordinates(of: i)
            guard let top = Self.top(near: Point(latitude: p.latitude, longitude: p.longitude), terrain: &terrain) else { continue }
            let climb = top.height - elevation
            guard climb >= -Self.aboveTop, climb <= Self.largestDrop else { continue }
            let reach = hit.distance(to: top.point)
            guard reach <= Self.largestReach else { continue }
            // Relief: the top over the mean ground 500 m around it.
            var sum = 0.0, n = 0
            for k in 0..<8 {
                let q = top.point.offset(bearing: Double(k) * 45, distance: Self.reliefRing)
                if let z = Self.height(&terrain, q.latitude, q.longitude) { sum += z; n += 1 }
            }
            guard n > 0 else { continue }
            let drop = min(Self.largestDrop, max(Self.smallestDrop, (top.height - sum / Double(n)) / 2))
            guard climb <= drop, reach <= min(Self.largestReach, max(Self.smallestReach, 3 * drop)) else { continue }
            // The way up from the hit to the top: no valley between.
            let floor = elevation - (Self.dipAllowance + Self.dipShare * max(climb, 0))
            let steps = Int((reach / Self.pathStep).rounded(.up))
            var valley = false
            if steps > 1 {
                for s in 1..<steps {
                    let q = hit.towards(top.point, fraction: Double(s) / Double(steps))
                    if let z = Self.height(&terrain, q.latitude, q.longitude), z < floor { valley = true; break }
                }
            }
            guard !valley else { continue }
            let score = max(climb, 0) + 2 * max(-climb, 0) + 0.3 * reach
            if score < best?.2 ?? .infinity { best = (i, d, score) }
        }
        return best.map { ($0.0, $0.1) }
    }

    /// The highest DEM height within ``topSearch`` of a summit's GeoNames point: its point,
    /// then rings of 8 at 40, 80 and 120 m.
    static func top(near p: Point, terrain: inout TerrainSampler) -> (point: Point, height: Double)? {
        var best: (Point, Double)?
        if let z = height(&terrain, p.latitude, p.longitude) { best = (p, z) }
        for r in stride(from: topSearch / 3, through: topSearch, by: topSearch / 3) {
            for k in 0..<8 {
                let q = p.offset(bearing: Double(k) * 45, distance: r)
                if let z = height(&terrain, q.latitude, q.longitude), z > best?.1 ?? -.infinity { best = (q, z) }
            }
        }
        return best
    }

    static func height(_ terrain: inout TerrainSampler, _ latitude: Double, _ longitude: Double) -> Double? {
        if case .height(let h) = terrain.sample(latitude: latitude, longitude: longitude) { return h }
        return nil
    }

    /// A point and the local flat geometry around it: within the couple of kilometres these
    /// rules look, an equirectangular plane is exact to a part in ten thousand.
    struct Point {
        var latitude: Double
        var longitude: Double

        static let metresPerDegree = Gazetteer.earthRadius * .pi / 180

        func distance(to q: Point) -> Double {
            let x = (q.longitude - longitude) * Self.metresPerDegree * cos(latitude * .pi / 180)
            let y = (q.latitude - latitude) * Self.metresPerDegree
            return (x * x + y * y).squareRoot()
        }

        func towards(_ q: Point, fraction f: Double) -> Point {
            Point(latitude: latitude + (q.latitude - latitude) * f, longitude: longitude + (q.longitude - longitude) * f)
        }

        func offset(bearing: Double, distance: Double) -> Point {
            let b = bearing * .pi / 180
            return Point(latitude: latitude + distance * cos(b) / Self.metresPerDegree,
                         longitude: longitude + distance * sin(b) / (Self.metresPerDegree * cos(latitude * .pi / 180)))
        }
    }
}
