import Foundation
import Testing

@testable import TapSeekCore

/// The placemark's JSON: CLPlacemark's key names, unknown keys absent.
@Suite struct PlacemarkTests {
    @Test func unknownKeysAreLeftOut() throws {
        let json = try JSONEncoder().encode(Placemark(isoCountryCode: "CH", country: "Switzerland"))
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
        #expect(Set(object.keys) == ["isoCountryCode", "country"])
    }

    @Test func emptyPlacemarkIsAnEmptyObject() throws {
        #expect(String(decoding: try JSONEncoder().encode(Placemark()), as: UTF8.self) == "{}")
    }

    @Test func keysFollowCLPlacemark() throws {
        let full = Placemark(isoCountryCode: "CH", country: "Switzerland", administrativeArea: "Bern",
                             subAdministrativeArea: "Interlaken-Oberhasli", locality: "Grindelwald", localityDistance: 382,
                             ocean: "o", inlandWater: "w", name: "n")
        let object = try #require(try JSONSerialization.jsonObject(with: try JSONEncoder().encode(full)) as? [String: Any])
        #expect(Set(object.keys) == ["isoCountryCode", "country", "administrativeArea", "subAdministrativeArea",
                                     "locality", "localityDistance", "ocean", "inlandWater", "name"])
        #expect(try JSONDecoder().decode(Placemark.self, from: try JSONEncoder().encode(full)) == full)
    }

    /// The interface's example placemark decodes as written.
    @Test func interfaceExampleDecodes() throws {
        let text = #"{ "isoCountryCode": "CH", "country": "Switzerland", "administrativeArea": "Bern", "locality": "Grindelwald" }"#
        let p = try JSONDecoder().decode(Placemark.self, from: Data(text.utf8))
        #expect(p == Placemark(isoCountryCode: "CH", country: "Switzerland", administrativeArea: "Bern", locality: "Grindelwald"))
    }

    /// The public initialiser hands each argument to its own field (it calls the synthesised
    /// memberwise one, whose parameters come in another order).
    @Test func initialiserSetsEveryFieldFromItsOwnArgument() {
        let p = Placemark(isoCountryCode: "a", country: "b", administrativeArea: "c", subAdministrativeArea: "d",
                          locality: "e", localityDistance: 6, ocean: "g", inlandWater: "h", name: "i", timeZone: "j",
                          alsoClaimedBy: ["k"])
        #expect([p.isoCountryCode, p.country, p.administrativeArea, p.subAdministrativeArea, p.locality,
                 p.ocean, p.inlandWater, p.name, p.timeZone] == ["a", "b", "c", "d", "e", "g", "h", "i", "j"])
        #expect(p.localityDistance == 6)
        #expect(p.alsoClaimedBy == ["k"])
        #expect(Placemark(timeZone: "Etc/GMT-3") == Placemark(isoCountryCode: nil, timeZone: "Etc/GMT-3"))
        #expect(Placemark(timeZone: "Etc/GMT-3").isoCountryCode == nil)
    }
}
