import Foundation
import TapSeekTestSupport
import Testing

@testable import TapSeekCore

/// Rows in GeoNames' 19-column format, for tests that need exact control of the content.
enum GeoNamesRows {
    static func row(id: Int, name: String, alternates: String = "", latitude: Double, longitude: Double,
                    featureClass: String = "T", code: String = "MT", country: String = "CH", elevation: String = "") -> String {
        [String(id), name, name, alternates, String(latitude), String(longitude), featureClass, code, country, "", "", "", "", "",
         "0", elevation, "-9999", "Europe/Zurich", "2020-01-01"].joined(separator: "\t")
    }

    static func gazetteer(_ rows: [String]) throws -> Gazetteer {
        var builder = GazetteerBuilder()
        var reader = GeoNamesReader(source: MemoryByteSource(Array((rows.joined(separator: "\n") + "\n").utf8)), name: "rows")
        var failure: GazetteerError?
        try reader.forEachFeature { feature, alternates in
            do { try builder.add(feature, alternateNames: alternates) } catch { failure = error as? GazetteerError }
        }
        if let failure { throw failure }
        return try Gazetteer(bytes: builder.build())
    }
}

@Suite struct GeoNamesReaderTests {
    @Test func malformedRowsAreCountedWithTheirLineNumbersAndTheRestIsRead() throws {
        let text = [
            GeoNamesRows.row(id: 1, name: "Säntis", latitude: 47.24938, longitude: 9.34224),
            "not\ta\trow",
            "",
            GeoNamesRows.row(id: 2, name: "Altmann", latitude: 200, longitude: 9.35),
            GeoNamesRows.row(id: 3, name: "Altmann", latitude: 47.23817, longitude: 9.35836),
        ].joined(separator: "\r\n")
        var reader = GeoNamesReader(source: MemoryByteSource(Array(text.utf8), maximumReadSize: 7), name: "t")
        var names: [String] = []
        try reader.forEachFeature { feature, _ in names.append(feature.name) }
        #expect(names == ["Säntis", "Altmann"])
        #expect(reader.problemCount == 2)
        #expect(reader.problems.map(\.line) == [2, 4])
        #expect(reader.problems[0].reason.contains("3 columns"))
        #expect(reader.problems[1].reason.contains("latitude"))
        #expect(reader.lines == 5)
    }

    @Test func onlyTerrainWaterAndTheKeptSpotCodesAreKept() throws {
        let rows = [
            GeoNamesRows.row(id: 1, name: "Eiger", latitude: 46.57754, longitude: 8.00529),
            GeoNamesRows.row(id: 2, name: "Grindelwald", latitude: 46.62, longitude: 8.03, featureClass: "P", code: "PPL"),
            GeoNamesRows.row(id: 3, name: "Hotel Eiger", latitude: 46.62, longitude: 8.03, featureClass: "S", code: "HTL"),
            GeoNamesRows.row(id: 4, name: "Bahnhof", latitude: 46.62, longitude: 8.03, featureClass: "S", code: "RSTN"),
            GeoNamesRows.row(id: 5, name: "Thunersee", latitude: 46.69, longitude: 7.71, featureClass: "H", code: "LK"),
        ]
        let g = try GeoNamesRows.gazetteer(rows)
        #expect(Set((0..<g.featureCount).map { g.feature(at: $0).geonameID }) == [1, 3, 5])
    }
}

@Suite struct GazetteerIndexTests {
    @Test func namesAreFoundWithoutAccentsAndInTheirSpeltOutUmlautForm() throws {
        let g = try GeoNamesRows.gazetteer([
            GeoNamesRows.row(id: 1, name: "Säntis", alternates: "Hoher Säntis,Sentis", latitude: 47.24938, longitude: 9.34224, elevation: "2503"),
            GeoNamesRows.row(id: 2, name: "Santiago Peak", latitude: 33.7, longitude: -117.5, country: "US"),
        ])
        for query in ["Säntis", "santis", "SAENTIS", "hoher saentis", "Sentis"] {
            #expect(g.search(query).first?.feature.name == "Säntis", "\(query)")
        }
        #expect(g.search("Säntis").first?.score == 1)
        #expect(g.search("sentis").first?.score == 0.97)
        #expect(g.search("Säntis").first?.feature.elevation == 2503)
        #expect(g.search("santi").map(\.feature.name).sorted() == ["Santiago Peak", "Säntis"])
        #expect(g.search("Säntis", country: "US").isEmpty)
    }

    @Test func aMountainRanksBeforeAHotelOfTheSameNameAndNearerBeforeFarther() throws {
        let g = try GeoNamesRows.gazetteer([
            GeoNamesRows.row(id: 1, name: "Eiger", latitude: 46.62, longitude: 8.03, featureClass: "S", code: "HTL"),
            GeoNamesRows.row(id: 2, name: "Eiger", latitude: 46.57754, longitude: 8.00529),
            GeoNamesRows.row(id: 3, name: "Eiger", latitude: 40.0, longitude: -100.0, country: "US"),
        ])
        let near = g.search("Eiger", limit: 3, near: (46.65, 8.0))
        #expect(near.map(\.feature.geonameID) == [2, 3, 1])
    }

    @Test func featuresNearAPointAreThoseWithinTheRadius() throws {
        // 0.001° of latitude is 111.2 m.
        let g = try GeoNamesRows.gazetteer((0..<50).map { i in
            GeoNamesRows.row(id: i, name: "P\(i)", latitude: 47 + Double(i) * 0.001, longitude: 9.0)
        })
        var found: [(Int, Double)] = []
        g.forEachFeature(near: 47.0, 9.0, radius: 1000) { found.append(($0, $1)) }
        #expect(found.count == 9)
        #expect(found.allSatisfy { $0.1 <= 1000 })
        // Across a cell boundary (0.05° cells, one at 47.05°): from 47.052° within 560 m
        // (0.00504°) lie 47.047°, 47.048° and 47.049°, all in the cell below.
        var across = 0
        g.forEachFeature(near: 47.052, 9.0, radius: 560) { _, _ in across += 1 }
        #expect(across == 3)
    }

    @Test func anIndexLoadsFromItsBytesAndADamagedOneIsRefusedOrReadSafely() throws {
        var builder = GazetteerBuilder()
        try builder.add(GazetteerFeature(geonameID: 7, name: "Eiger", latitude: 46.57754, longitude: 8.00529, elevation: 3970,
                                         featureClass: "T", featureCode: "MT", isoCountryCode: "CH"), alternateNames: "")
        let bytes = builder.build()
        let g = try Gazetteer(bytes: bytes)
        #expect(g.feature(at: 0) == GazetteerFeature(geonameID: 7, name: "Eiger", latitude: 46.57754, longitude: 8.00529, elevation: 3970,
                                                     featureClass: "T", featureCode: "MT", isoCountryCode: "CH"))
        #expect(throws: GazetteerError.self) { try Gazetteer(bytes: Array(bytes.dropLast())) }
        // A name offset past the names is read as no name, never out of bounds (opening does
        // not walk the file, so that it stays instant on hundreds of megabytes).
        var damaged = bytes
        damaged[GazetteerLayout.headerSize + 15] = 0xFF
        #expect(try Gazetteer(bytes: damaged).feature(at: 0).name == "")
        #expect(throws: GazetteerError.self) { try Gazetteer(bytes: Array("not an index".utf8)) }
    }

    @Test func reimportingACountryReplacesItsRowsAndKeepsTheOthers() throws {
        let first = try GeoNamesRows.gazetteer([
            GeoNamesRows.row(id: 1, name: "Säntis", latitude: 47.24938, longitude: 9.34224),
            GeoNamesRows.row(id: 2, name: "Altmann", latitude: 47.23817, longitude: 9.35836),
            GeoNamesRows.row(id: 3, name: "Zugspitze", latitude: 47.42, longitude: 10.98, country: "DE"),
        ])
        var builder = GazetteerBuilder()
        try builder.add(GazetteerFeature(geonameID: 4, name: "Eiger", latitude: 46.57754, longitude: 8.00529, elevation: nil,
                                         featureClass: "T", featureCode: "MT", isoCountryCode: "CH"), alternateNames: "Ogre")
        try builder.keep(from: first, except: ["CH"])
        let g = try Gazetteer(bytes: builder.build())
        #expect(Set((0..<g.featureCount).map { g.feature(at: $0).name }) == ["Eiger", "Zugspitze"])
        #expect(g.search("zugspitze").first?.feature.isoCountryCode == "DE")
        #expect(g.search("ogre").first?.feature.name == "Eiger")
        #expect(g.countries.map(\.isoCountryCode) == ["CH", "DE"])
    }
}

@Suite(.enabled(if: SharedData.available(SharedData.gazetteer), "needs ../shared/gazetteer/CH.txt"))
struct GazetteerSwissDumpTests {
    static func imported(_ path: String) throws -> (Gazetteer, [GazetteerImport.FileReport]) {
        var builder = GazetteerBuilder()
        let reports = try GazetteerImport.read([path], into: &builder)
        return (try Gazetteer(bytes: builder.build()), reports)
    }

    @Test func theSwissDumpKeepsEveryTerrainRowAndFindsTheSaentisByItsSpeltOutName() throws {
        let (g, reports) = try Self.imported(SharedData.gazetteer.path)
        #expect(reports[0].lines == 24_971)
        #expect(reports[0].problemCount == 0)
        let terrain = (0..<g.featureCount).filter { g.feature(at: $0).featureClass == "T" }.count
        #expect(terrain == 6_833)
        let saentis = try #require(g.search("Saentis").first)
        #expect(saentis.feature.name == "Säntis")
        #expect(abs(saentis.feature.latitude - 47.24938) < 1e-5 && abs(saentis.feature.longitude - 9.34224) < 1e-5)
        #expect(g.search("Eiger", near: (46.6, 8.0)).first?.feature.featureCode == "MT")
    }

    @Test func aZippedDumpGivesTheSameIndexAsThePlainOne() throws {
        let dir = try SharedData.temporaryDirectory("gazetteer-zip")
        defer { try? FileManager.default.removeItem(at: dir) }
        let copy = dir.appendingPathComponent("CH.txt")
        try FileManager.default.copyItem(at: SharedData.gazetteer, to: copy)
        try "readme\n".write(to: dir.appendingPathComponent("readme.txt"), atomically: true, encoding: .utf8)
        let zip = dir.appendingPathComponent("CH.zip").path
        try SharedData.run("zip", ["-j", "-q", zip, dir.appendingPathComponent("readme.txt").path, copy.path])
        let (plain, _) = try Self.imported(SharedData.gazetteer.path)
        let (zipped, reports) = try Self.imported(zip)
        #expect(reports[0].lines == 24_971)
        #expect(zipped.featureCount == plain.featureCount && zipped.keyCount == plain.keyCount)
        #expect(zipped.search("Säntis").first?.feature == plain.search("Säntis").first?.feature)
    }
}
