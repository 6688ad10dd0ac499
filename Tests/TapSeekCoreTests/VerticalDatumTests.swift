import Foundation
import TapSeekTestSupport
import Testing
@testable import TapSeekCore

/// Copernicus tiles give heights above EGM2008; the catalog knows them by name and converts
/// them to EGM96 (the heights everything else uses) when an EGM2008 grid is given.
@Suite struct VerticalDatumTests {
    @Test(arguments: [
        ("Copernicus_DSM_COG_10_N46_00_E008_00_DEM.tif", 46, 8, 1),
        ("/dem/alps/Copernicus_DSM_COG_10_S38_00_W071_00_DEM.TIF", -38, -71, 1),
        ("Copernicus_DSM_COG_30_N00_00_E000_00_DEM", 0, 0, 3),
    ])
    func copernicusNamesGiveTheirTile(name: String, latitude: Int, longitude: Int, arcSeconds: Int) throws {
        let cell = try #require(CopernicusTileName.parse(name))
        #expect(cell.latitude == latitude && cell.longitude == longitude && cell.arcSeconds == arcSeconds)
    }

    @Test(arguments: ["N46E008.tif", "Copernicus_DSM_COG_20_N46_00_E008_00_DEM.tif", "Copernicus_DSM_COG_10_N46_00_E008_DEM.tif",
                      "Copernicus_DSM_COG_10_N90_00_E008_00_DEM.tif", "Copernicus_DSM_COG_10_N46_00_E+08_00_DEM.tif",
                      "Copernicus_DSM_COG_10_X46_00_E008_00_DEM.tif"])
    func otherNamesAreNotCopernicusTiles(name: String) {
        #expect(CopernicusTileName.parse(name) == nil)
    }

    @Test func glo30NamesAreTheBucketsNames() {
        // As listed in the bucket (registry.opendata.aws/copernicus-dem).
        #expect(CopernicusTileName.glo30(latitude: 46, longitude: 8) == "Copernicus_DSM_COG_10_N46_00_E008_00_DEM")
        #expect(CopernicusTileName.glo30(latitude: -1, longitude: -72) == "Copernicus_DSM_COG_10_S01_00_W072_00_DEM")
    }

    /// The conversion walks each row between the geoids' columns: it must give what a look-up
    /// of both geoids at every post gives, on a lattice that matches neither geoid's.
    @Test func conversionOfAGridIsTheShiftAtEveryPost() throws {
        let folder = try SharedData.temporaryDirectory("egm2008")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("egm08_test.gtx")
        try CopernicusFixture.writeGeoid(to: file) { latitude, longitude in 3 * sin(latitude / 7) + 2 * cos(longitude / 3) }
        let geoids = try EGM2008Conversion(egm2008Path: file.path)
        let grid = ElevationGrid(north: 46.9, west: 7.8703, latitudeSpacing: 1 / 1200, longitudeSpacing: 1 / 800,
                                 rows: 40, columns: 1500, heights: (0..<60_000).map { Float($0 % 977) })
        let converted = geoids.toEGM96(grid)
        var largest = 0.0
        for r in 0..<grid.rows {
            for c in 0..<grid.columns {
                let latitude = grid.north - Double(r) * grid.latitudeSpacing, longitude = grid.west + Double(c) * grid.longitudeSpacing
                let expected = Double(grid.heights[r * grid.columns + c]) + geoids.shift(latitude: latitude, longitude: longitude)
                largest = max(largest, abs(Double(converted.heights[r * grid.columns + c]) - expected))
            }
        }
        #expect(largest < 1e-4, "largest difference \(largest) m")
    }

    /// A Copernicus-named tile in a catalog: with an EGM2008 grid whose difference from EGM96 is
    /// linear (so known exactly between posts), every height rises by that difference; without
    /// one, heights are read as they are and the catalog warns.
    @Test func catalogConvertsCopernicusHeightsOrWarns() throws {
        let folder = try SharedData.temporaryDirectory("egm2008-catalog")
        defer { try? FileManager.default.removeItem(at: folder) }
        let dem = folder.appendingPathComponent("dem")
        try FileManager.default.createDirectory(at: dem, withIntermediateDirectories: true)
        // 20 × 20 Int16 posts of 1″ from 46° N, 8° E: heights 100 + row + column.
        var data: [UInt8] = []
        for r in 0..<20 { for c in 0..<20 { let h = Int16(100 + r + c); data += [UInt8(h & 0xFF), UInt8(h >> 8)] } }
        let tiff = TIFFBuilder.int16(columns: 20, rows: 20, data: data).bytes()
        try Data(tiff).write(to: dem.appendingPathComponent("Copernicus_DSM_COG_10_N45_00_E007_00_DEM.tif"))
        let geoid = folder.appendingPathComponent("egm08_linear.gtx")
        func difference(_ latitude: Double, _ longitude: Double) -> Double { 2 + 0.01 * latitude - 0.02 * longitude }
        try CopernicusFixture.writeGeoid(to: geoid, difference: difference)

        let plain = try ElevationCatalog(directory: dem.path)
        #expect(plain.tiles.map(\.verticalDatum) == [.egm2008])
        #expect(plain.warnings.map(\.code) == [.verticalDatum])
        #expect(plain.warnings.first?.message.contains("Copernicus_DSM_COG_10_N45_00_E007_00_DEM.tif gives heights above EGM2008") == true)
        let converted = try ElevationCatalog(directory: dem.path, egm2008GeoidPath: geoid.path)
        #expect(converted.warnings.isEmpty)
        let raw = try #require(plain.grid(tile: 0)), shifted = try #require(converted.grid(tile: 0))
        for (latitude, longitude) in [(45.9990, 8.0010), (45.9951, 8.0049), (45.9975, 8.0003)] {
            let before = try #require(raw.height(latitude: latitude, longitude: longitude))
            let after = try #require(shifted.height(latitude: latitude, longitude: longitude))
            #expect(abs(after - before - difference(latitude, longitude)) < 1e-3, "at \(latitude), \(longitude)")
        }

        let missing = try ElevationCatalog(directory: dem.path, egm2008GeoidPath: folder.appendingPathComponent("none.gtx").path)
        #expect(missing.grid(tile: 0) == nil)
        #expect(missing.loadFailures.first?.contains("gives heights above EGM2008, and the geoid grids that convert them cannot be read") == true)
    }

    /// An SRTM tile is above EGM96 and needs no grid: no warning, whatever else is given.
    @Test func srtmTilesAreAboveEGM96() throws {
        let source = SharedData.dem.appendingPathComponent("N47E009.hgt")
        try #require(SharedData.exists(source), Comment(rawValue: SharedData.missing(source)))
        let folder = try SharedData.temporaryDirectory("egm96-catalog")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("N47E009.hgt"), withDestinationURL: source)
        let catalog = try ElevationCatalog(directory: folder.path, egm2008GeoidPath: "/nowhere.gtx")
        #expect(catalog.tiles.map(\.verticalDatum) == [.egm96])
        #expect(catalog.warnings.isEmpty)
        #expect(catalog.grid(tile: 0) != nil)
    }
}
