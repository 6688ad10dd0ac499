import Foundation
import Testing
import TapSeekTestSupport
@testable import TapSeekCore

/// A geoid read from a GTX file (``Geoid/init(gtxContentsOf:)``) looks its posts up in the
/// mapped file and makes its grid only when asked: everything it answers must be what the
/// geoid of that grid (``GTXGrid/readGrid(path:)``) answers, to the bit.
struct GeoidFileTests {
    /// ``GTXGridTests/gtx(south:west:step:rows:columns:values:wide:)``'s bytes, to write to a file.
    static func gtx(south: Double, west: Double, step: Double, rows: Int, columns: Int, values: [Float], wide: Bool = false) -> Data {
        Data(GTXGridTests.gtx(south: south, west: west, step: step, rows: rows, columns: columns, values: values, wide: wide))
    }

    /// Pseudo-random values from a seed, a few of them missing.
    static func values(count: Int, seed: UInt64) -> [Float] {
        var state = seed
        return (0..<count).map { i in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return i % 37 == 5 ? GTXGrid.missingValue : Float(state >> 40) / Float(1 << 24) * 180 - 100
        }
    }

    static func points(_ n: Int, seed: UInt64) -> [(Double, Double)] {
        var state = seed
        func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        // Beyond the poles and round the globe more than once, and the lattice's own lines.
        let edges: [(Double, Double)] = [(90, -180), (-90, 180), (0, 0), (89.999, 179.999), (-89.999, -179.999), (45, 540), (-30, -721)]
        return edges + (0..<n).map { _ in (next() * 200 - 100, next() * 1100 - 550) }
    }

    /// Round the globe (24 columns of 15°, the one after the last the first) and a regional
    /// grid (clamped at its edges, spacing not a power of two); posts of four and eight bytes.
    @Test(arguments: [(false, false), (false, true), (true, false), (true, true)])
    func aFileGeoidAnswersAsTheGeoidOfItsGrid(global: Bool, wide: Bool) throws {
        let directory = try SharedData.temporaryDirectory("geoid-file")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (south, west, step, rows, columns) = global ? (-90.0, -180.0, 15.0, 13, 24) : (40.0, 5.0, 0.3, 9, 14)
        let path = directory.appendingPathComponent("g.gtx").path
        try Self.gtx(south: south, west: west, step: step, rows: rows, columns: columns,
                     values: Self.values(count: rows * columns, seed: global ? 3 : 4), wide: wide).write(to: URL(fileURLWithPath: path))
        let file = try Geoid(gtxContentsOf: path)
        let read = try GTXGrid.readGrid(path: path)
        let geoid = Geoid(grid: read)
        for (latitude, longitude) in Self.points(4000, seed: 11) {
            let a = file.undulation(latitude: latitude, longitude: longitude), b = geoid.undulation(latitude: latitude, longitude: longitude)
            #expect(a.bitPattern == b.bitPattern, "\(latitude), \(longitude): \(a) vs \(b)")
        }
        #expect(file.steepestGradient.bitPattern == geoid.steepestGradient.bitPattern)
        for (s, n, w, e) in [(41.0, 42.0, 6.0, 8.0), (-60.0, -10.0, 170.0, 200.0), (-89.0, 89.0, -179.0, 179.0)] {
            #expect(file.steepestGradient(south: s, north: n, west: w, east: e).bitPattern
                    == geoid.steepestGradient(south: s, north: n, west: w, east: e).bitPattern, "box \(s) \(n) \(w) \(e)")
        }
        // The grid, made when asked for, is the file's.
        let made = file.grid
        #expect(made.heights.map(\.bitPattern) == read.heights.map(\.bitPattern))
        #expect(made.north == read.north && made.west == read.west && made.latitudeSpacing == read.latitudeSpacing
                && made.longitudeSpacing == read.longitudeSpacing && made.rows == rows && made.columns == columns)
    }

    /// The real EGM96 grid of Debian's proj-data: the same undulation as its grid's geoid at
    /// ten thousand points.
    @Test func theEGM96FileAnswersAsItsGrid() throws {
        let file = try Geoid(gtxContentsOf: Geoid.defaultPath)
        let geoid = Geoid(grid: try GTXGrid.readGrid(path: Geoid.defaultPath))
        for (latitude, longitude) in Self.points(10_000, seed: 5) {
            let a = file.undulation(latitude: latitude, longitude: longitude), b = geoid.undulation(latitude: latitude, longitude: longitude)
            #expect(a.bitPattern == b.bitPattern, "\(latitude), \(longitude): \(a) vs \(b)")
        }
    }

    /// A file's gradient is kept under what identifies the file on disk: read back by the next
    /// geoid of the same file, computed again for a file written anew (another inode and time),
    /// even with the same size.
    @Test func aFileGeoidKeepsItsGradientByTheFile() throws {
        let directory = try SharedData.temporaryDirectory("geoid-file-gradient")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = directory.appendingPathComponent("cache"), path = directory.appendingPathComponent("g.gtx").path
        let write = { (seed: UInt64) in
            try Self.gtx(south: 40, west: 5, step: 0.25, rows: 6, columns: 7, values: Self.values(count: 42, seed: seed))
                .write(to: URL(fileURLWithPath: path))
        }
        try write(1)
        let first = try Geoid(gtxContentsOf: path)
        let computed = Geoid(grid: try GTXGrid.readGrid(path: path)).steepestGradient
        #expect(first.keepingSteepestGradient(in: cache).steepestGradient.bitPattern == computed.bitPattern)
        let kept = try #require(try FileManager.default.contentsOfDirectory(atPath: cache.path).first { $0.hasPrefix("geoid-gradient-") })
        let key = GeoidGradientCache.key(forFile: path, identity: try MappedFile(path: path).identity)
        #expect(kept == key.fileName)
        // Another value under this file's key: the next geoid of the file reads it.
        try GeoidGradientCache.contents(computed * 3, key: key).write(to: cache.appendingPathComponent(kept), atomically: true, encoding: .utf8)
        #expect(try Geoid(gtxContentsOf: path).keepingSteepestGradient(in: cache).steepestGradient == computed * 3)
        // The file written again with other posts: its own gradient, not the kept one.
        try FileManager.default.removeItem(atPath: path)
        try write(2)
        let again = try Geoid(gtxContentsOf: path).keepingSteepestGradient(in: cache).steepestGradient
        #expect(again.bitPattern == Geoid(grid: try GTXGrid.readGrid(path: path)).steepestGradient.bitPattern && again != computed * 3)
    }

    /// A missing file, an empty one, a folder and a header that disagrees with the size each
    /// give the one-line error reading the grid gives.
    @Test func aBadFileIsTheGridsOneLineError() throws {
        let directory = try SharedData.temporaryDirectory("geoid-file-bad")
        defer { try? FileManager.default.removeItem(at: directory) }
        let empty = directory.appendingPathComponent("empty.gtx").path, short = directory.appendingPathComponent("short.gtx").path
        try Data().write(to: URL(fileURLWithPath: empty))
        try Self.gtx(south: 0, west: 0, step: 1, rows: 3, columns: 3, values: [1, 2, 3]).write(to: URL(fileURLWithPath: short))
        for path in [directory.appendingPathComponent("none.gtx").path, empty, short, directory.path] {
            var expected = ""
            do { _ = try GTXGrid.readGrid(path: path) } catch { expected = error.description }
            do {
                _ = try Geoid(gtxContentsOf: path)
                Issue.record("\(path) was read")
            } catch {
                #expect(!expected.isEmpty && error.description == expected && !error.description.contains("\n"), "\(error.description)")
            }
        }
    }
}
