import Foundation
import TapSeek
import TapSeekTestSupport
import Testing

/// The report's map of coasts and borders, made from the real geocoder index, against places
/// whose country and region are known: cities either side of a border, a bay the geocoder files
/// under its coastal country (territorial sea) that the map must draw as water.
@Suite(.enabled(if: GeocoderFixture.available, "geocoder index not built: run scripts/build-geocoder-index.sh"))
struct BorderMapTests {
    let geocoder: Geocoder

    init() throws {
        geocoder = try GeocoderFixture.open()
    }

    @Test func testCoastIsWhereTheLandEndsNotTheTerritorialSea() throws {
        // The Baie des Anges off Nice: French territorial sea, 5 km from the shore.
        let map = BorderMap(index: geocoder.index, south: 43.45, west: 7.05, north: 43.80, east: 7.45, maximumSide: 400)
        let bay = (latitude: 43.60, longitude: 7.25)
        #expect(try geocoder.placemark(latitude: bay.latitude, longitude: bay.longitude).isoCountryCode == "FR",
                "the geocoder files the bay under France")
        #expect(map.area(latitude: bay.latitude, longitude: bay.longitude) == nil, "the map draws it as water")
        // Nice itself (place Masséna) is land, in France, in the Alpes-Maritimes.
        let nice = map.area(latitude: 43.697, longitude: 7.270)
        #expect(nice?.countryCode == "FR")
        #expect(nice?.region == "Alpes-Maritimes")
        // Both kinds of pixel are in the picture: a coast runs through it.
        #expect(map.pixels.contains(0) && map.pixels.contains { $0 != 0 })
    }

    @Test func testCitiesEitherSideOfABorderKeepTheirCountries() {
        // The tripoint at Basel: Basel (CH), Lörrach (DE), Saint-Louis (FR), 3–6 km apart.
        let map = BorderMap(index: geocoder.index, south: 47.50, west: 7.45, north: 47.68, east: 7.75, maximumSide: 600)
        #expect(map.area(latitude: 47.557, longitude: 7.592)?.countryCode == "CH")
        #expect(map.area(latitude: 47.615, longitude: 7.664)?.countryCode == "DE")
        #expect(map.area(latitude: 47.590, longitude: 7.557)?.countryCode == "FR")
        #expect(Set(map.areas.map(\.countryCode)).isSuperset(of: ["CH", "DE", "FR"]))
    }

    @Test func testRegionsWithinACountryAreTold() {
        // Grindelwald is in the canton of Bern, Zermatt in the Valais.
        let map = BorderMap(index: geocoder.index, south: 45.95, west: 7.60, north: 46.70, east: 8.20, maximumSide: 500)
        let grindelwald = map.area(latitude: 46.624, longitude: 8.041), zermatt = map.area(latitude: 46.020, longitude: 7.749)
        #expect(grindelwald?.countryCode == "CH" && zermatt?.countryCode == "CH")
        #expect(grindelwald?.region == "Bern")
        #expect(zermatt?.region == "Valais")
    }

    @Test func testRunsRebuildEveryPixel() {
        let map = BorderMap(index: geocoder.index, south: 47.50, west: 7.45, north: 47.68, east: 7.75, maximumSide: 300)
        var rebuilt: [UInt16] = []
        for row in map.runs {
            #expect(row.count % 2 == 0)
            for k in stride(from: 0, to: row.count, by: 2) {
                #expect(row[k + 1] > 0, "no empty run")
                rebuilt += Array(repeating: UInt16(row[k]), count: row[k + 1])
            }
        }
        #expect(rebuilt == map.pixels)
        #expect(map.runs.count == map.height)
    }

    @Test func testBoxOverTheAntimeridianWrapsTheLongitudes() {
        // Chukotka spans 180°: 181° east is 179° west, inland either way.
        let map = BorderMap(index: geocoder.index, south: 66.5, west: 178.0, north: 67.5, east: 182.0, maximumSide: 400)
        #expect(map.area(latitude: 67.0, longitude: 179.0)?.countryCode == "RU")
        #expect(map.area(latitude: 67.0, longitude: 181.0)?.countryCode == "RU")
    }
}
