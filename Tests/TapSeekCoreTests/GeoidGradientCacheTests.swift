import Foundation
import Testing
import TapSeekTestSupport
@testable import TapSeekCore

/// The geoid's steepest gradient kept on disk (``GeoidGradientCache``): written by the first
/// geoid that computes it, read back by the next one made from the same grid, ignored (and
/// written again) when the file is damaged or another grid's. Every test has its own temporary
/// directory.
struct GeoidGradientCacheTests {
    /// A small undulation grid with some relief (9 × 17 posts, 0.25° apart, from 44° N, 6° E).
    static func grid(bump: Float = 0) -> ElevationGrid {
        let rows = 9, columns = 17
        let heights = (0..<(rows * columns)).map { i -> Float in
            let r = Float(i / columns), c = Float(i % columns)
            return 48 + 3 * sin(r * 0.7) - 2 * cos(c * 0.45) + (i == 40 ? bump : 0)
        }
        return ElevationGrid(north: 46, west: 6, latitudeSpacing: 0.25, longitudeSpacing: 0.25,
                             rows: rows, columns: columns, heights: heights, boundsTerrain: false)
    }

    static func file(in directory: URL, for grid: ElevationGrid) -> URL {
        GeoidGradientCache(directory: directory).url(of: GeoidGradientCache.key(for: grid))
    }

    @Test func aGeoidKeepingItsGradientWritesItAndTheNextReadsIt() throws {
        let directory = try SharedData.temporaryDirectory("geoid-gradient-kept")
        defer { try? FileManager.default.removeItem(at: directory) }
        let grid = Self.grid()
        let computed = Geoid(grid: grid).steepestGradient
        #expect(computed > 0)
        let first = Geoid(grid: grid).keepingSteepestGradient(in: directory).steepestGradient
        #expect(first.bitPattern == computed.bitPattern, "kept geoid \(first) vs \(computed)")
        let file = Self.file(in: directory, for: grid)
        let written = try String(contentsOf: file, encoding: .utf8)
        #expect(written == GeoidGradientCache.contents(computed, key: GeoidGradientCache.key(for: grid)))
        // A well-formed file holding another value: the next geoid reads it instead of scanning.
        try GeoidGradientCache.contents(computed * 2, key: GeoidGradientCache.key(for: grid)).write(to: file, atomically: true, encoding: .utf8)
        let read = Geoid(grid: grid).keepingSteepestGradient(in: directory).steepestGradient
        #expect(read == computed * 2)
    }

    /// Cut short, a changed digit in the value (its check no longer fits), another grid's key
    /// under this grid's name: the gradient is computed as without a cache, and the file
    /// written again whole.
    @Test(arguments: ["truncated", "value", "key"])
    func aDamagedOrForeignFileIsIgnoredAndRewritten(_ damage: String) throws {
        let directory = try SharedData.temporaryDirectory("geoid-gradient-\(damage)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let grid = Self.grid()
        let key = GeoidGradientCache.key(for: grid)
        let computed = Geoid(grid: grid).steepestGradient
        var text = GeoidGradientCache.contents(computed, key: key)
        switch damage {
        case "truncated": text = String(text.dropLast(9))
        case "value":
            let valueLine = "value \(String(computed.bitPattern, radix: 16))"
            let changed = "value \(String((computed / 3).bitPattern, radix: 16))"
            text = text.replacingOccurrences(of: valueLine, with: changed)
        default: text = GeoidGradientCache.contents(computed / 3, key: GeoidGradientCache.key(for: Self.grid(bump: 5)))
        }
        let file = Self.file(in: directory, for: grid)
        try text.write(to: file, atomically: true, encoding: .utf8)
        let value = Geoid(grid: grid).keepingSteepestGradient(in: directory).steepestGradient
        #expect(value.bitPattern == computed.bitPattern, "\(damage): \(value) vs \(computed)")
        #expect(try String(contentsOf: file, encoding: .utf8) == GeoidGradientCache.contents(computed, key: key), "\(damage): not rewritten")
    }

    /// One post changed: another key, so another file; its gradient its own.
    @Test func anotherGridHasItsOwnFile() throws {
        let directory = try SharedData.temporaryDirectory("geoid-gradient-other")
        defer { try? FileManager.default.removeItem(at: directory) }
        let a = Self.grid(), b = Self.grid(bump: 5)
        #expect(GeoidGradientCache.key(for: a) != GeoidGradientCache.key(for: b))
        let va = Geoid(grid: a).keepingSteepestGradient(in: directory).steepestGradient
        let vb = Geoid(grid: b).keepingSteepestGradient(in: directory).steepestGradient
        #expect(va.bitPattern == Geoid(grid: a).steepestGradient.bitPattern)
        #expect(vb.bitPattern == Geoid(grid: b).steepestGradient.bitPattern)
        #expect(vb > va, "the bump steepens grid b")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasPrefix("geoid-gradient-") }
        #expect(names.count == 2, "\(names)")
    }

    /// A directory that cannot be made (under a regular file): no cache, the value computed.
    @Test func anUnwritableDirectoryMeansNoCache() throws {
        let root = try SharedData.temporaryDirectory("geoid-gradient-unwritable")
        defer { try? FileManager.default.removeItem(at: root) }
        let blocker = root.appendingPathComponent("file")
        try Data("x".utf8).write(to: blocker)
        let grid = Self.grid()
        let value = Geoid(grid: grid).keepingSteepestGradient(in: blocker.appendingPathComponent("cache")).steepestGradient
        #expect(value.bitPattern == Geoid(grid: grid).steepestGradient.bitPattern)
    }
}
