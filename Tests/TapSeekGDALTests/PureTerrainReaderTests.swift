import Foundation
import Testing
import TapSeekCore
import TapSeekGDAL
import TapSeekTestSupport

/// The pure-Swift readers of SRTM tiles and of the GTX geoid grid give exactly what GDAL gives:
/// the same lattice to the last bit and the same value at every post.
@Suite(.enabled(if: SharedData.available(SharedData.dem), "needs ../shared/dem"))
struct PureTerrainReaderTests {
    /// Every `.hgt` and `.hgt.zip` tile of the shared data (its README lists them).
    static let sharedTiles = ["N27E086.hgt", "N42E001.hgt.zip", "N43E006.hgt", "N47E009.hgt", "S38E178.hgt.zip"]

    static func expectIdentical(_ pure: ElevationGrid, _ gdal: ElevationGrid, _ label: String) {
        #expect(pure.north.bitPattern == gdal.north.bitPattern, "\(label) north \(pure.north) vs \(gdal.north)")
        #expect(pure.west.bitPattern == gdal.west.bitPattern, "\(label) west \(pure.west) vs \(gdal.west)")
        #expect(pure.latitudeSpacing.bitPattern == gdal.latitudeSpacing.bitPattern, "\(label) latitude spacing")
        #expect(pure.longitudeSpacing.bitPattern == gdal.longitudeSpacing.bitPattern, "\(label) longitude spacing")
        #expect(pure.rows == gdal.rows && pure.columns == gdal.columns, "\(label) shape")
        guard pure.heights.count == gdal.heights.count else { return }
        var differing = 0, first: Int?
        for i in pure.heights.indices where pure.heights[i].bitPattern != gdal.heights[i].bitPattern {
            differing += 1
            if first == nil { first = i }
        }
        #expect(differing == 0, "\(label): \(differing) posts differ, first at \(first ?? -1): \(first.map { "\(pure.heights[$0]) vs \(gdal.heights[$0])" } ?? "")")
    }

    @Test(arguments: sharedTiles)
    func srtmTileReadsTheSamePostsAsGDAL(name: String) throws {
        let url = SharedData.dem.appendingPathComponent(name)
        try #require(SharedData.exists(url), Comment(rawValue: SharedData.missing(url)))
        let pure = try SRTMTile.readGrid(path: url.path)
        let gdal = try ElevationGrid(contentsOf: url.path)
        Self.expectIdentical(pure, gdal, name)
        #expect(pure.voidFraction == gdal.voidFraction)
    }

    /// No `.hgt` tile of the shared data is left out of the comparison above.
    @Test func everySharedSRTMTileIsCompared() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: SharedData.dem.path)
            .filter { SRTMTile(fileName: $0) != nil }.sorted()
        #expect(names == Self.sharedTiles)
    }

    @Test func geoidGridReadsTheSamePostsAsGDAL() throws {
        let gdal = try ElevationGrid(contentsOf: Geoid.defaultPath)
        let pure = try GTXGrid.readGrid(path: Geoid.defaultPath)
        Self.expectIdentical(pure, gdal, Geoid.defaultPath)
        let geoid = try Geoid(gtxContentsOf: Geoid.defaultPath)
        #expect(geoid.steepestGradient == Geoid(grid: gdal).steepestGradient)
    }

    /// A truncated `.hgt` and a zip whose member is damaged fail with the path, as GDAL's do.
    @Test func damagedTilesFailWithTheirPath() throws {
        let folder = try SharedData.temporaryDirectory("pure-srtm")
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = SharedData.dem.appendingPathComponent("N47E009.hgt")
        try #require(SharedData.exists(source), Comment(rawValue: SharedData.missing(source)))
        let truncated = folder.appendingPathComponent("N47E009.hgt")
        try Data(try Data(contentsOf: source).prefix(1000)).write(to: truncated)
        #expect { try SRTMTile.readGrid(path: truncated.path) } throws: { error in
            (error as? TerrainFileError)?.description.hasPrefix(truncated.path) == true
        }
        #expect(throws: GDALError.self) { try ElevationGrid(contentsOf: truncated.path) }

        let zip = SharedData.dem.appendingPathComponent("N42E001.hgt.zip")
        try #require(SharedData.exists(zip), Comment(rawValue: SharedData.missing(zip)))
        var bytes = [UInt8](try Data(contentsOf: zip))
        bytes[bytes.count / 2] ^= 0xFF
        let damaged = folder.appendingPathComponent("N42E001.hgt.zip")
        try Data(bytes).write(to: damaged)
        #expect { try SRTMTile.readGrid(path: damaged.path) } throws: { error in
            (error as? TerrainFileError)?.path == damaged.path
        }
    }
}
