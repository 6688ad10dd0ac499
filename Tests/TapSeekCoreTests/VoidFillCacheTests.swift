import Foundation
import Testing
import TapSeekTestSupport
@testable import TapSeekCore

/// The on-disk patch of a tile's filled voids (``VoidFillCache``): a catalog that reads it gives
/// the very grid and filled marks a catalog that fills the tile gives, on the real voids of
/// N46E008 (3 286 voids); a patch that is damaged, cut short, another tile's or another fill's
/// is ignored and the tile filled as without a cache. Every test has its own temporary cache
/// directory: none reads a developer's.
@Suite(.enabled(if: SharedData.available(SharedData.dem), "needs ../shared/dem"))
struct VoidFillCacheTests {
    static let tile = SharedData.dem.appendingPathComponent("N46E008.tif")

    /// The tile as read (voids NaN) and filled without any cache: the answers to match.
    static let reference: (read: ElevationGrid, filled: ElevationGrid)? = {
        guard let read = try? GeoTIFFTile.readGrid(path: tile.path) else { return nil }
        return (read, read.fillingVoids())
    }()

    /// A DEM directory holding a link to N46E008.tif, and an empty cache directory beside it.
    static func directories(_ label: String) throws -> (dem: URL, cache: URL) {
        try #require(SharedData.exists(tile), Comment(rawValue: SharedData.missing(tile)))
        let root = try SharedData.temporaryDirectory("voidfill-cache-\(label)")
        let dem = root.appendingPathComponent("dem")
        try FileManager.default.createDirectory(at: dem, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: dem.appendingPathComponent("N46E008.tif"), withDestinationURL: tile)
        return (dem, root.appendingPathComponent("cache"))
    }

    /// The grid of the catalog's only tile.
    static func load(_ dem: URL, cache: VoidFillCache?, area: VoidFillArea? = nil) throws -> ElevationGrid {
        let catalog = try ElevationCatalog(directory: dem.path, voidFillArea: area, voidFillCache: cache)
        return try #require(catalog.grid(tile: 0))
    }

    /// Same heights to the bit (voids and all), the same filled marks, and the same lowest and
    /// highest height and share of voids (a patched grid takes them from the tile's and the
    /// patch's heights; the filled reference measures its posts).
    static func expectSame(_ grid: ElevationGrid, _ expected: ElevationGrid, _ label: String) {
        #expect(grid.heights.count == expected.heights.count, "\(label): posts")
        #expect(grid.minimumHeight.bitPattern == expected.minimumHeight.bitPattern, "\(label): lowest \(grid.minimumHeight) ≠ \(expected.minimumHeight)")
        #expect(grid.maximumHeight.bitPattern == expected.maximumHeight.bitPattern, "\(label): highest \(grid.maximumHeight) ≠ \(expected.maximumHeight)")
        #expect(grid.voidFraction == expected.voidFraction, "\(label): void share \(grid.voidFraction) ≠ \(expected.voidFraction)")
        let differing = zip(grid.heights, expected.heights).filter { $0.bitPattern != $1.bitPattern }.count
        #expect(differing == 0, "\(label): \(differing) posts differ")
        #expect(grid.filled == expected.filled, "\(label): filled marks differ")
        #expect(grid.pyramid.boundsTerrain, "\(label): no pyramid")
    }

    static func patches(in cache: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: cache.path)) ?? []).sorted()
    }

    @Test func aColdAWarmAndNoCacheGiveTheSameHeightsAndFilledMarks() throws {
        let (dem, cacheDir) = try Self.directories("same")
        defer { try? FileManager.default.removeItem(at: cacheDir.deletingLastPathComponent()) }
        let reference = try #require(Self.reference)
        let cache = VoidFillCache(directory: cacheDir)
        Self.expectSame(try Self.load(dem, cache: nil), reference.filled, "no cache")
        #expect(Self.patches(in: cacheDir).isEmpty)
        Self.expectSame(try Self.load(dem, cache: cache), reference.filled, "cold cache")
        let written = Self.patches(in: cacheDir)
        #expect(written.count == 1 && written[0].hasPrefix("N46E008.tif-") && written[0].hasSuffix(".voidfill"), "\(written)")
        // The warm load reads the patch: a grid as read with it applied is the filled grid.
        let key = try #require(VoidFillCache.key(path: Self.tile.path, window: nil, datumFiles: [], grid: reference.read))
        #expect(written == [key.fileName])
        Self.expectSame(try #require(cache.filled(reference.read, key: key)), reference.filled, "patch applied")
        Self.expectSame(try Self.load(dem, cache: cache), reference.filled, "warm cache")
        // The patch holds the filled posts, not the tile: 8 bytes a filled post and a header.
        let size = try #require(try FileManager.default.attributesOfItem(atPath: cache.url(of: key).path)[.size] as? Int)
        let filledPosts = try #require(reference.filled.filled).count
        #expect(size > 8 * filledPosts && size < 8 * filledPosts + 1024, "patch of \(size) bytes for \(filledPosts) posts")
    }

    /// A tile just read, which nothing else holds, takes its patch in its own posts: the same
    /// heights and marks as the copy `filled` makes, in the same storage (no second tile).
    @Test func aTileHeldOnceIsPatchedInPlace() throws {
        let (dem, cacheDir) = try Self.directories("in-place")
        defer { try? FileManager.default.removeItem(at: cacheDir.deletingLastPathComponent()) }
        let reference = try #require(Self.reference)
        let cache = VoidFillCache(directory: cacheDir)
        _ = try Self.load(dem, cache: cache)
        let key = try #require(VoidFillCache.key(path: Self.tile.path, window: nil, datumFiles: [], grid: reference.read))
        let read = try GeoTIFFTile.readGrid(path: Self.tile.path, boundsTerrain: false)
        let patch = try #require(cache.patch(fitting: read, key: key))
        let storage = read.heights.withUnsafeBufferPointer { $0.baseAddress }
        let patched = patch.applied(to: consume read).boundingTerrain()
        Self.expectSame(patched, reference.filled, "patched in place")
        #expect(patched.heights.withUnsafeBufferPointer { $0.baseAddress } == storage, "the posts were copied")
        // A grid held elsewhere too is copied, and the other holder keeps its voids.
        let shared = try GeoTIFFTile.readGrid(path: Self.tile.path, boundsTerrain: false)
        let copy = patch.applied(to: shared).boundingTerrain()
        Self.expectSame(copy, reference.filled, "patched copy")
        #expect(shared.voidCount == reference.read.voidCount)
    }

    /// One point's elevation fills the kilometre around it: with no patch it writes none (it
    /// must not pay for the whole tile's fill); with one, it reads it, and every post it fills
    /// is the whole fill's.
    @Test func aSmallAreaWritesNoPatchAndReadsOne() throws {
        let (dem, cacheDir) = try Self.directories("area")
        defer { try? FileManager.default.removeItem(at: cacheDir.deletingLastPathComponent()) }
        let reference = try #require(Self.reference)
        let cache = VoidFillCache(directory: cacheDir)
        // The Finsteraarhorn's summit, in a void.
        let area = try #require(VoidFillArea.around(latitude: 46.5367, longitude: 8.1258, radius: 0))
        let cold = try Self.load(dem, cache: cache, area: area)
        #expect(Self.patches(in: cacheDir).isEmpty, "a small area wrote \(Self.patches(in: cacheDir))")
        Self.expectSame(cold, reference.read.fillingVoids(area: area), "small area, no patch")
        _ = try Self.load(dem, cache: cache)
        #expect(Self.patches(in: cacheDir).count == 1)
        Self.expectSame(try Self.load(dem, cache: cache, area: area), reference.filled, "small area, patch")
        #expect(try Self.load(dem, cache: cache, area: area).height(latitude: 46.5367, longitude: 8.1258)
                == cold.height(latitude: 46.5367, longitude: 8.1258))
    }

    enum Damage: String, CaseIterable {
        case flippedByte, truncated, empty, otherFileIdentity, otherFillVersion, otherReach, postNotAVoid, otherVoidCount, otherPostsAsRead
    }

    /// Each damage leaves the catalog's answers those of a fill without a cache, and the
    /// patch is then rewritten whole.
    @Test(arguments: Damage.allCases)
    func aDamagedOrStalePatchIsIgnored(_ damage: Damage) throws {
        let (dem, cacheDir) = try Self.directories("damage")
        defer { try? FileManager.default.removeItem(at: cacheDir.deletingLastPathComponent()) }
        let reference = try #require(Self.reference)
        let cache = VoidFillCache(directory: cacheDir)
        _ = try Self.load(dem, cache: cache)
        let key = try #require(VoidFillCache.key(path: Self.tile.path, window: nil, datumFiles: [], grid: reference.read))
        let url = cache.url(of: key)
        let good = try Data(contentsOf: url)
        let patch = try #require(VoidFillCache.Patch(good, key: key))
        var bad = good
        switch damage {
        case .flippedByte: bad[bad.count / 2] ^= 0x10
        case .truncated: bad = bad.prefix(bad.count - 4)
        case .empty: bad = Data()
        case .otherFileIdentity, .otherFillVersion, .otherReach:
            // A patch written for another key (the tile before it was touched, an earlier fill,
            // another reach), found under this key's name.
            var text = key.text
            switch damage {
            case .otherFileIdentity: text = text.replacingOccurrences(of: "mtime-ns ", with: "mtime-ns 1")
            case .otherFillVersion: text = text.replacingOccurrences(of: "fill-version \(VoidFillCache.fillVersion)", with: "fill-version 0")
            default: text = text.replacingOccurrences(of: "reach ", with: "reach 1")
            }
            #expect(text != key.text)
            bad = patch.encoded(key: VoidFillCache.Key(text: text, fileName: key.fileName))
        case .postNotAVoid:
            // Whole, with the right key and counts, but one filled post moved onto a measured one.
            var wrong = patch
            let measured = try #require(reference.read.heights.firstIndex { !$0.isNaN && $0 > 1000 })
            let k = try #require(wrong.indices.firstIndex { Int($0) > measured })
            wrong.indices[k] = UInt32(measured)
            bad = wrong.encoded(key: key)
        case .otherVoidCount:
            var wrong = patch
            wrong.voids += 1
            bad = wrong.encoded(key: key)
        case .otherPostsAsRead:
            // The same voids, one known post read otherwise (a reader that changed): whole and
            // with this key, but for other posts.
            var heights = reference.read.heights
            let measured = try #require(heights.firstIndex { !$0.isNaN && $0 > 1000 })
            heights[measured] += 1
            let other = ElevationGrid(north: reference.read.north, west: reference.read.west, latitudeSpacing: reference.read.latitudeSpacing,
                                      longitudeSpacing: reference.read.longitudeSpacing, rows: reference.read.rows,
                                      columns: reference.read.columns, heights: heights, boundsTerrain: false)
            bad = try #require(VoidFillCache.Patch(filled: other.fillingVoids(), readAs: other)).encoded(key: key)
        }
        try bad.write(to: url)
        #expect(cache.filled(reference.read, key: key) == nil, "\(damage) patch applied")
        Self.expectSame(try Self.load(dem, cache: cache), reference.filled, "\(damage)")
        // A whole load with a damaged patch fills the tile and writes it anew.
        #expect(try Data(contentsOf: url) == good, "\(damage): patch not rewritten")
    }

    @Test func theCacheDirectoryComesFromTheEnvironment() throws {
        #expect(VoidFillCache(environment: ["TAPSEEK_CACHE_DIR": "/c", "XDG_CACHE_HOME": "/x", "HOME": "/h"])?.directory.path == "/c")
        #expect(VoidFillCache(environment: ["XDG_CACHE_HOME": "/x", "HOME": "/h"])?.directory.path == "/x/tapseek")
        #expect(VoidFillCache(environment: ["XDG_CACHE_HOME": "", "HOME": "/h"])?.directory.path == "/h/.cache/tapseek")
        #expect(VoidFillCache(environment: ["TAPSEEK_CACHE_DIR": "off", "XDG_CACHE_HOME": "/x", "HOME": "/h"]) == nil)
        #expect(VoidFillCache(environment: [:]) == nil)
    }

    /// A cache directory that cannot be made (a file stands in its way) is no cache: the
    /// answers are those without one, and nothing is written.
    @Test func anUnwritableCacheDirectoryIsNoCache() throws {
        let (dem, cacheDir) = try Self.directories("unwritable")
        defer { try? FileManager.default.removeItem(at: cacheDir.deletingLastPathComponent()) }
        try Data("not a directory".utf8).write(to: cacheDir)
        let cache = VoidFillCache(directory: cacheDir.appendingPathComponent("tapseek"))
        Self.expectSame(try Self.load(dem, cache: cache), try #require(Self.reference).filled, "unwritable")
        #expect(try Data(contentsOf: cacheDir) == Data("not a directory".utf8))
    }

    /// Eight threads writing the same patch at once leave one whole patch and no temporary file.
    @Test func writersAtOnceLeaveOneWholePatch() throws {
        let (_, cacheDir) = try Self.directories("writers")
        defer { try? FileManager.default.removeItem(at: cacheDir.deletingLastPathComponent()) }
        let reference = try #require(Self.reference)
        let cache = VoidFillCache(directory: cacheDir)
        let key = try #require(VoidFillCache.key(path: Self.tile.path, window: nil, datumFiles: [], grid: reference.read))
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<3 { cache.store(reference.filled, readAs: reference.read, key: key) }
        }
        #expect(Self.patches(in: cacheDir) == [key.fileName])
        Self.expectSame(try #require(cache.filled(reference.read, key: key)), reference.filled, "after 24 writes")
    }
}
