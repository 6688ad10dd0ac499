import Foundation
import Testing
@testable import TapSeekCore

/// ``CompactJSONEncoder`` against Foundation's `JSONEncoder`: the same members and values, in
/// the order `encode(to:)` writes them, and a clear error where streaming cannot follow.
struct CompactJSONEncoderTests {
    struct Inner: Codable, Equatable {
        var name: String
        var values: [Double]
        var flag: Bool?
    }

    struct Outer: Codable, Equatable {
        var count: Int
        var inner: Inner
        var list: [Inner]
        var nested: [[Int]]
        var map: [String: Int]
        var missing: String?
        var small: Int8
        var big: UInt64
    }

    static let sample = Outer(count: -3, inner: Inner(name: "Säntis \"2502\"\n\t\\ \u{1}", values: [0.1, 1e-7, 8848.86, -0.5], flag: true),
                              list: [Inner(name: "", values: [], flag: nil), Inner(name: "b", values: [2], flag: false)],
                              nested: [[], [1, 2], [3]], map: ["k": 1], missing: nil, small: -128, big: .max)

    @Test func agreesWithFoundation() throws {
        let compact = try CompactJSONEncoder().encode(Self.sample)
        let text = String(decoding: compact, as: UTF8.self)
        #expect(text.hasPrefix(#"{"count":-3,"inner":{"name":"Säntis \"2502\"\n\t\\ \u0001","values":[0.1,1e-07,8848.86,-0.5],"flag":true},"list":[{"name":"","values":[]},"#))
        #expect(text.contains(#""nested":[[],[1,2],[3]]"#))
        #expect(text.hasSuffix(#""small":-128,"big":18446744073709551615}"#))
        let foundation = try JSONSerialization.jsonObject(with: try JSONEncoder().encode(Self.sample)) as? NSDictionary
        #expect(try JSONSerialization.jsonObject(with: Data(compact)) as? NSDictionary == foundation)
        #expect(try JSONDecoder().decode(Outer.self, from: Data(compact)) == Self.sample)
    }

    @Test func fixedDecimalsAndNonFiniteNumbers() throws {
        let values = [FixedDecimal(27.98812055, places: 7), FixedDecimal(8840, places: 2), FixedDecimal(-28.7349, places: 2),
                      FixedDecimal(.nan, places: 2), FixedDecimal(0.00004, places: 4)]
        #expect(String(decoding: try CompactJSONEncoder().encode(values), as: UTF8.self) == "[27.9881206,8840,-28.73,null,0]")
        // Foundation gets the rounded Doubles, which print the same.
        #expect(String(decoding: try JSONEncoder().encode(values), as: UTF8.self) == "[27.9881206,8840,-28.73,null,0]")
        #expect(String(decoding: try CompactJSONEncoder().encode([Double.infinity, 1.5]), as: UTF8.self) == "[null,1.5]")
    }

    /// Writes to a container after a later sibling was opened: streaming cannot go back.
    struct Interleaved: Encodable {
        enum Keys: String, CodingKey { case a, b, c }
        func encode(to encoder: any Encoder) throws {
            var outer = encoder.container(keyedBy: Keys.self)
            var first = outer.nestedContainer(keyedBy: Keys.self, forKey: .a)
            try first.encode(1, forKey: .a)
            try outer.encode(2, forKey: .b)
            try first.encode(3, forKey: .c)
        }
    }

    @Test func writingToAClosedContainerThrowsAndLeavesTheBytes() throws {
        var bytes = Array("x".utf8)
        #expect(throws: EncodingError.self) { try CompactJSONEncoder().encode(Interleaved(), appendingTo: &bytes) }
        #expect(bytes == Array("x".utf8))
    }

    @Test func valueThatWritesNothingIsAnEmptyObject() throws {
        struct Nothing: Encodable { func encode(to encoder: any Encoder) throws {} }
        #expect(String(decoding: try CompactJSONEncoder().encode([Nothing()]), as: UTF8.self) == "[{}]")
    }
}

/// The failure codes are a public contract (README, "A result"): scripts match them.
struct FailureCodeTests {
    @Test func codesAreTheDocumentedStrings() throws {
        #expect(FailureCode.allCases.map(\.rawValue) == ["bad-input", "outside-dem", "damaged-dem", "void-observer", "no-terrain",
                                                          "magnetic-model", "no-fit", "not-found"])
        let encoded = try CompactJSONEncoder().encode(FailureCode.voidObserver)
        #expect(String(decoding: encoded, as: UTF8.self) == #""void-observer""#)
    }
}

/// The panorama JSON as the interface writes it: an azimuth with no terrain has only
/// `"elevationAngle":null`, a peak's `name` appears when known.
struct PanoramaJSONTests {
    @Test func emptyAzimuthAndNamedPeak() throws {
        let point = Panorama.Point(azimuth: 10, elevationAngle: 1.23456789, distance: 1234.5678, latitude: 46.123456789,
                                   longitude: 8.1, elevation: 2500.004, layers: [])
        let empty = Panorama.Point(azimuth: 20.5, elevationAngle: nil, distance: .nan, latitude: .nan, longitude: .nan,
                                   elevation: .nan, layers: [])
        var panorama = Panorama(eye: GeodeticPosition(latitude: 46, longitude: 8, height: 600),
                                settings: .init(azimuthStep: 10.5, refraction: 0.13), range: 100_000.004, skyline: [point, empty],
                                crossedVoid: false)
        panorama.peaks = [Panorama.Peak(azimuth: 10, elevationAngle: 1.5, distance: 2000, latitude: 46.2, longitude: 8.2,
                                        elevation: 3000, prominence: 0.25, name: "Eiger")]
        let result = PanoramaResult(observer: .init(latitude: 46, longitude: 8, altitude: 552.5, groundElevation: nil),
                                    panorama: panorama, warnings: ["w"])
        let json = String(decoding: try CompactJSONEncoder().encode(result), as: UTF8.self)
        #expect(json == #"{"observer":{"latitude":46,"longitude":8,"altitude":552.5,"groundElevation":null},"refraction":0.13,"azimuthStep":10.5,"range":100000,"# +
                #""skyline":[{"azimuth":10,"elevationAngle":1.234568,"distance":1234.57,"latitude":46.1234568,"longitude":8.1,"elevation":2500},"# +
                #"{"azimuth":20.5,"elevationAngle":null}],"peaks":[{"azimuth":10,"elevationAngle":1.5,"distance":2000,"latitude":46.2,"# +
                #""longitude":8.2,"elevation":3000,"prominence":0.25,"name":"Eiger"}],"warnings":["w"]}"#)
    }
}
