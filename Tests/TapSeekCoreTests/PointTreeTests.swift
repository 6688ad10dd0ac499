import Foundation
import Testing
@testable import TapSeekCore
import TapSeekTestSupport

/// The 2-d tree's two searches against brute force, on clouds of the shapes sampled targets
/// take: a blob, a thin line along a sightline, two blobs far apart, many identical points.
struct PointTreeTests {
    static func clouds() -> [(name: String, points: [(x: Double, y: Double)])] {
        var random = SplitMix64(seed: 7)
        func uniform(_ range: ClosedRange<Double>) -> Double { range.lowerBound + (range.upperBound - range.lowerBound) * random.nextUnit() }
        let blob = (0..<700).map { _ in (x: uniform(-500...500), y: uniform(-300...300)) }
        let line = (0..<600).map { _ in (x: uniform(0...30_000), y: uniform(-2...2)) }
        let near: [(x: Double, y: Double)] = (0..<300).map { _ in (x: uniform(0...200), y: uniform(0...200)) }
        let far: [(x: Double, y: Double)] = (0..<200).map { _ in (x: uniform(3000...3100), y: uniform(-50...50)) }
        let row: [(x: Double, y: Double)] = (0..<20).map { i in (x: Double(i), y: 0.0) }
        let repeated = Array(repeating: (x: 5.0, y: -3.0), count: 40) + row
        // Many equal distances.
        let grid: [(x: Double, y: Double)] = (0..<400).map { i in
            let column = Double(i % 20), row = Double(i / 20)
            return (x: 10 * column, y: 10 * row)
        }
        return [("blob", blob), ("line", line), ("two blobs", near + far), ("repeated", repeated), ("grid", grid)]
    }

    static func squared(_ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> Double {
        let dx = b.x - a.x, dy = b.y - a.y
        return dx * dx + dy * dy
    }

    @Test(arguments: [1, 5, 20])
    func kthNearestDistanceEqualsBruteForce(k: Int) {
        for (name, points) in Self.clouds() {
            let found = PointTree(points).kthNearestDistances(k: k)
            for i in points.indices {
                let others = points.indices.filter { $0 != i }.map { Self.squared(points[i], points[$0]) }.sorted()
                let expected = others[min(k, others.count) - 1].squareRoot()
                #expect(found[i] == expected, "\(name): point \(i)")
            }
        }
    }

    /// Several ranks from one search equal each rank searched alone.
    @Test func ranksTogetherEqualRanksAlone() {
        for (name, points) in Self.clouds() {
            let tree = PointTree(points)
            let together = tree.nearestDistances(ranks: [20, 2, 1])
            #expect(together[0] == tree.kthNearestDistances(k: 20), "\(name)")
            #expect(together[1] == tree.kthNearestDistances(k: 2), "\(name)")
            #expect(together[2] == tree.kthNearestDistances(k: 1), "\(name)")
        }
    }

    @Test(arguments: [0.0, 3.0, 40.0, 400.0])
    func groupsAreTheComponentsOfTheLinkGraph(link: Double) {
        for (name, points) in Self.clouds() {
            // Every third point is left out.
            let members = points.indices.map { $0 % 3 != 1 }
            let groups = PointTree(points).groups(linkedWithin: link, among: members)
            // Every member in exactly one group.
            #expect(groups.flatMap { $0 }.sorted() == points.indices.filter { members[$0] }, "\(name)")
            // Brute force: label each point with its component by flooding the link graph.
            var component = points.indices.map { members[$0] ? -1 : -2 }
            for start in points.indices where component[start] == -1 {
                component[start] = start
                var stack = [start]
                while let a = stack.popLast() {
                    for b in points.indices where component[b] == -1 && Self.squared(points[a], points[b]) <= link * link {
                        component[b] = start
                        stack.append(b)
                    }
                }
            }
            for group in groups {
                #expect(Set(group.map { component[$0] }).count == 1, "\(name): a group spans two components")
            }
            #expect(groups.count == Set(component.filter { $0 >= 0 }).count, "\(name): a component split over groups")
        }
    }

    /// The hull (prefiltered by its extreme octagon above 64 points) holds every point, is made
    /// of input points only, and turns left at every vertex: the convex hull, uniquely.
    @Test func convexHullIsTheHull() {
        for (name, points) in Self.clouds() where Set(points.map { "\($0.x),\($0.y)" }).count >= 3 {
            let hull = TargetRegion.convexHull(points)
            func cross(_ o: (x: Double, y: Double), _ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> Double {
                (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
            }
            #expect(hull.first! == hull.last!, "\(name)")
            let ring = Array(hull.dropLast())
            for (i, v) in ring.enumerated() {
                #expect(points.contains { $0 == v }, "\(name): vertex \(i) is no input point")
                #expect(cross(ring[(i + ring.count - 1) % ring.count], v, ring[(i + 1) % ring.count]) > 0, "\(name): vertex \(i) does not turn left")
            }
            for p in points {
                let scale = max(1, abs(p.x), abs(p.y))
                #expect(zip(hull, hull.dropFirst()).allSatisfy { cross($0, $1, p) >= -1e-9 * scale * scale }, "\(name): \(p) outside")
            }
        }
    }
}
