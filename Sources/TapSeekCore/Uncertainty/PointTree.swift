/// A 2-d tree over points of a plane, for the two searches a ``TargetRegion`` makes: each
/// point's distance to its k-th nearest neighbour, and the groups of points linked by chains of
/// steps no longer than a given distance.
///
/// The tree is implicit: the points are reordered so that every range [lo, hi) of more than
/// ``leafSize`` points has its median at (lo + hi) / 2, the points before it on one side of the
/// median's coordinate along the range's wider axis and those after it on the other. Searches
/// descend into the nearer side first and skip a side once the split alone is farther than
/// what they look for, so each query reads a few leaves whatever the cloud's shape (a line
/// of targets along a sightline, two blobs on a ridge and in a valley, a ring).
struct PointTree {
    /// The points in tree order, and each one's index in the caller's array.
    private(set) var xs: [Double], ys: [Double]
    private(set) var ids: [Int]
    /// Whether the range whose median sits at a position is split across x (else across y).
    private var splitsX: [Bool]
    static let leafSize = 8

    init(_ points: [(x: Double, y: Double)]) {
        var ids = Array(points.indices)
        var splitsX = [Bool](repeating: true, count: points.count)
        ids.withUnsafeMutableBufferPointer { ids in
            splitsX.withUnsafeMutableBufferPointer { splitsX in
                points.withUnsafeBufferPointer { points in
                    Self.build(ids, splitsX, points, lo: 0, hi: ids.count)
                }
            }
        }
        self.ids = ids
        self.splitsX = splitsX
        xs = ids.map { points[$0].x }
        ys = ids.map { points[$0].y }
    }

    var count: Int { ids.count }

    private static func build(_ ids: UnsafeMutableBufferPointer<Int>, _ splitsX: UnsafeMutableBufferPointer<Bool>,
                              _ points: UnsafeBufferPointer<(x: Double, y: Double)>, lo: Int, hi: Int) {
        guard hi - lo > leafSize else { return }
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        for i in lo..<hi {
            let p = points[ids[i]]
            minX = min(minX, p.x); maxX = max(maxX, p.x)
            minY = min(minY, p.y); maxY = max(maxY, p.y)
        }
        let alongX = maxX - minX >= maxY - minY
        let mid = (lo + hi) / 2
        splitsX[mid] = alongX
        @inline(__always) func key(_ i: Int) -> Double { alongX ? points[ids[i]].x : points[ids[i]].y }
        // Quickselect: the median in place, smaller keys before it, larger after.
        var left = lo, right = hi - 1
        while left < right {
            let pivot = key((left + right) / 2)
            var i = left, j = right
            while i <= j {
                while key(i) < pivot { i += 1 }
                while key(j) > pivot { j -= 1 }
                if i <= j { ids.swapAt(i, j); i += 1; j -= 1 }
            }
            if mid <= j { right = j } else if mid >= i { left = i } else { break }
        }
        build(ids, splitsX, points, lo: lo, hi: mid)
        build(ids, splitsX, points, lo: mid + 1, hi: hi)
    }

    /// Each point's distance to its k-th nearest other point (0 when k = 0), indexed like the
    /// points given to ``init(_:)``.
    func kthNearestDistances(k: Int) -> [Double] { nearestDistances(ranks: [k])[0] }

    /// For each rank r (1 = the nearest), each point's distance to its r-th nearest other point
    /// (ranks past the other points count as the farthest; 0 when there is none), found in one
    /// search.
    func nearestDistances(ranks: [Int]) -> [[Double]] {
        var results = ranks.map { _ in [Double](repeating: 0, count: count) }
        guard let deepest = ranks.max(), deepest > 0, count > 1 else { return results }
        let k = min(deepest, count - 1)
        let ranks = ranks.map { min($0, k) }
        withSearch(k: k) { search in
            let xs = search.xs, ys = search.ys
            // Neighbours in tree order lie close together: the k-th distance of one bounds the
            // next one's by the triangle inequality (the k points around the first, with the
            // first itself in place of the second, are within it), so that the search starts
            // with a tight bound.
            var previous = (x: xs[0], y: ys[0], distance: Double.infinity)
            for place in 0..<count {
                let dx = xs[place] - previous.x, dy = ys[place] - previous.y
                let bound = (previous.distance + (dx * dx + dy * dy).squareRoot()) * (1 + 1e-9) + 1e-9
                let distance = search.kthNearestSquared(of: place, within: bound).squareRoot()
                for (i, rank) in ranks.enumerated() where rank > 0 {
                    results[i][ids[place]] = rank == k ? distance : search.nearest[rank - 1].squareRoot()
                }
                previous = (xs[place], ys[place], distance)
            }
        }
        return results
    }

    /// For each query point (x, y), its distance to its k-th nearest point of the tree, leaving
    /// out the tree point `excluding[i]` names (its index as given to ``init(_:)``: the query
    /// point itself when it is one of the tree's); ranks past the points count as the farthest.
    func kthNearestDistances(k: Int, from queries: [(x: Double, y: Double)], excluding: [Int?]) -> [Double] {
        var results = [Double](repeating: 0, count: queries.count)
        guard k > 0, count > 1 else { return results }
        let k = min(k, count - 1)
        // Tree place of each caller index, to leave a query's own point out.
        var place = [Int](repeating: -1, count: count)
        for (p, id) in ids.enumerated() { place[id] = p }
        withSearch(k: k) { search in
            for (i, q) in queries.enumerated() {
                let skip = excluding[i].map { place[$0] } ?? -1
                results[i] = search.kthNearestSquared(x: q.x, y: q.y, excluding: skip, within: .infinity).squareRoot()
            }
        }
        return results
    }

    /// Runs `body` with a search for the k nearest points over the tree's storage.
    private func withSearch(k: Int, _ body: (inout NearestSearch) -> Void) {
        var nearest = [Double](repeating: .infinity, count: k)
        xs.withUnsafeBufferPointer { xs in
            ys.withUnsafeBufferPointer { ys in
                splitsX.withUnsafeBufferPointer { splitsX in
                    nearest.withUnsafeMutableBufferPointer { nearest in
                        var search = NearestSearch(xs: xs, ys: ys, splitsX: splitsX, nearest: nearest, k: k)
                        body(&search)
                    }
                }
            }
        }
    }

    /// The k nearest squared distances from one point of the tree to the others, kept ascending.
    private struct NearestSearch {
        let xs: UnsafeBufferPointer<Double>, ys: UnsafeBufferPointer<Double>
        let splitsX: UnsafeBufferPointer<Bool>
        let nearest: UnsafeMutableBufferPointer<Double>
        let k: Int
        var place = 0, x = 0.0, y = 0.0

        /// The k-th smallest squared distance, known to be at most `bound` squared.
        mutating func kthNearestSquared(of place: Int, within bound: Double) -> Double {
            kthNearestSquared(x: xs[place], y: ys[place], excluding: place, within: bound)
        }

        /// The same from any point (x, y), leaving out the tree point at `excluding` (−1: none).
        mutating func kthNearestSquared(x: Double, y: Double, excluding: Int, within bound: Double) -> Double {
            for m in 0..<k { nearest[m] = bound * bound }
            place = excluding
            self.x = x
            self.y = y
            search(lo: 0, hi: xs.count)
            return nearest[k - 1]
        }

        @inline(__always) private func consider(_ j: Int) {
            let dx = xs[j] - x, dy = ys[j] - y
            let d = dx * dx + dy * dy
            guard d < nearest[k - 1], j != place else { return }
            var m = k - 1
            while m > 0, nearest[m - 1] > d { nearest[m] = nearest[m - 1]; m -= 1 }
            nearest[m] = d
        }

        private func search(lo: Int, hi: Int) {
            guard hi - lo > PointTree.leafSize else {
                for j in lo..<hi { consider(j) }
                return
            }
            let mid = (lo + hi) / 2
            consider(mid)
            let gap = splitsX[mid] ? x - xs[mid] : y - ys[mid]
            if gap < 0 {
                search(lo: lo, hi: mid)
                if gap * gap < nearest[k - 1] { search(lo: mid + 1, hi: hi) }
            } else {
                search(lo: mid + 1, hi: hi)
                if gap * gap < nearest[k - 1] { search(lo: lo, hi: mid) }
            }
        }
    }

    /// The groups of `members` (a flag per point given to ``init(_:)``) joined by chains of
    /// steps of at most `link` metres between members (single linkage), as indices like the
    /// points; a group lists its points in the order they were reached.
    func groups(linkedWithin link: Double, among members: [Bool]) -> [[Int]] {
        // Others count as grouped from the start.
        var grouped = ids.map { !members[$0] }
        // Points not yet grouped in each range: a range with none is not searched again.
        var left = [Int](repeating: 0, count: count)
        func fill(_ lo: Int, _ hi: Int) -> Int {
            guard hi - lo > Self.leafSize else { return (lo..<hi).count { !grouped[$0] } }
            let mid = (lo + hi) / 2
            left[mid] = fill(lo, mid) + fill(mid + 1, hi) + (grouped[mid] ? 0 : 1)
            return left[mid]
        }
        _ = fill(0, count)
        func take(_ place: Int) {
            grouped[place] = true
            var lo = 0, hi = count
            while hi - lo > Self.leafSize {
                let mid = (lo + hi) / 2
                left[mid] -= 1
                if place == mid { return }
                if place < mid { hi = mid } else { lo = mid + 1 }
            }
        }
        let link2 = link * link
        var groups: [[Int]] = []
        for start in 0..<count where !grouped[start] {
            take(start)
            var group = [start], next = 0
            while next < group.count {
                let a = group[next]
                next += 1
                let x = xs[a], y = ys[a]
                func reach(_ lo: Int, _ hi: Int) {
                    guard hi - lo > Self.leafSize else {
                        for j in lo..<hi where !grouped[j] {
                            let dx = xs[j] - x, dy = ys[j] - y
                            if dx * dx + dy * dy <= link2 { take(j); group.append(j) }
                        }
                        return
                    }
                    let mid = (lo + hi) / 2
                    guard left[mid] > 0 else { return }
                    let gap = splitsX[mid] ? x - xs[mid] : y - ys[mid]
                    if !grouped[mid] {
                        let dx = xs[mid] - x, dy = ys[mid] - y
                        if dx * dx + dy * dy <= link2 { take(mid); group.append(mid) }
                    }
                    // Points before the median lie at or below its coordinate, those after at or above.
                    if gap <= link { reach(lo, mid) }
                    if gap >= -link { reach(mid + 1, hi) }
                }
                reach(0, count)
            }
            groups.append(group.map { ids[$0] })
        }
        return groups
    }
}
