import Foundation

/// Where a log's readings gather: the located readings counted per cell of the globe by their
/// observer, the cells joined into clusters of neighbours. A report of readings on several
/// continents opens on its densest cluster, with the others a click away, rather than on a
/// box around them all where each cluster is a dot.
struct ReportClusters: Sendable {
    /// Side of a cell, degrees (about 55 km north–south): readings further apart than a cell or
    /// two are in different places for a map, and a drive or a hike stays one cluster.
    static let cellSize = 0.5
    static let columns = Int(360 / cellSize)

    /// The readings of one cell.
    struct Cell: Sendable {
        var count = 0
        /// Sums of the observers' latitudes and longitudes (their mean names the cluster).
        var latitudeSum = 0.0, longitudeSum = 0.0
        /// Box of the observers, targets and 95 % regions of the cell's readings, degrees.
        var south = Double.infinity, west = Double.infinity, north = -Double.infinity, east = -Double.infinity

        mutating func merge(_ other: Cell) {
            count += other.count
            latitudeSum += other.latitudeSum
            longitudeSum += other.longitudeSum
            south = min(south, other.south); north = max(north, other.north)
            west = min(west, other.west); east = max(east, other.east)
        }

        func overlaps(_ other: Cell) -> Bool {
            south <= other.north && other.south <= north && west <= other.east && other.west <= east
        }
    }

    /// Cells by key row × ``columns`` + column.
    var cells: [Int: Cell] = [:]

    /// Counts a located reading: its observer, and the points its box must hold.
    mutating func add(observer: (latitude: Double, longitude: Double), points: [(Double, Double)]) {
        guard observer.latitude.isFinite, observer.longitude.isFinite else { return }
        let row = Int(((observer.latitude + 90) / Self.cellSize).rounded(.down))
        let column = Int(((normalized(observer.longitude) + 180) / Self.cellSize).rounded(.down)) % Self.columns
        var cell = cells[row * Self.columns + column] ?? Cell()
        cell.count += 1
        cell.latitudeSum += observer.latitude
        cell.longitudeSum += observer.longitude
        for (latitude, longitude) in [(observer.latitude, observer.longitude)] + points {
            cell.south = min(cell.south, latitude); cell.north = max(cell.north, latitude)
            cell.west = min(cell.west, longitude); cell.east = max(cell.east, longitude)
        }
        cells[row * Self.columns + column] = cell
    }

    mutating func merge(_ other: ReportClusters) {
        for (key, cell) in other.cells { cells[key, default: Cell()].merge(cell) }
    }

    /// The clusters, most readings first (ties: southernmost, then westernmost): cells joined
    /// with their eight neighbours, then clusters whose boxes overlap (a long sightline's
    /// target may lie in another's box).
    var clusters: [Cell] {
        var parent = Dictionary(uniqueKeysWithValues: cells.keys.map { ($0, $0) })
        func root(_ key: Int) -> Int {
            var k = key
            while let p = parent[k], p != k { k = p }
            parent[key] = k
            return k
        }
        for key in cells.keys {
            let row = key / Self.columns, column = key % Self.columns
            for dr in -1...1 {
                for dc in -1...1 where dr != 0 || dc != 0 {
                    let neighbour = (row + dr) * Self.columns + (column + dc + Self.columns) % Self.columns
                    guard cells[neighbour] != nil else { continue }
                    let (a, b) = (root(key), root(neighbour))
                    if a != b { parent[max(a, b)] = min(a, b) }
                }
            }
        }
        var joined: [Int: Cell] = [:]
        for (key, cell) in cells { joined[root(key), default: Cell()].merge(cell) }
        var clusters = Array(joined.values)
        var merged = true
        while merged {
            merged = false
            outer: for i in clusters.indices {
                for j in clusters.indices where j > i && clusters[i].overlaps(clusters[j]) {
                    clusters[i].merge(clusters[j])
                    clusters.remove(at: j)
                    merged = true
                    break outer
                }
            }
        }
        return clusters.sorted { ($0.count, -$0.south, -$0.west) > ($1.count, -$1.south, -$1.west) }
    }

    private func normalized(_ longitude: Double) -> Double {
        let l = (longitude + 180).truncatingRemainder(dividingBy: 360)
        return (l < 0 ? l + 360 : l) - 180
    }
}
