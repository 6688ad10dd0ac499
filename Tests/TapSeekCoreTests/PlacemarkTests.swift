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
}
