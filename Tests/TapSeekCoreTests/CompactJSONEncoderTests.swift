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

    /// Strings are written in runs between the bytes that need escaping: escapes at either end,
    /// side by side or alone, and long plain runs all read back as the string they came from.
    @Test(arguments: ["", "\"", "\\", "\n\"", "a\"", "\"a", "\u{1}\u{1F}x\u{7F}", "plain text of some length, é and 😀 included",
                      "\"\"\\\\\n\r\t", String(repeating: "ab\"", count: 300)])
    func stringsReadBack(_ text: String) throws {
        let bytes = try CompactJSONEncoder().encode([text])
        #expect(try JSONDecoder().decode([String].self, from: Data(bytes)) == [text])
        #expect(!bytes.contains { $0 < 0x20 }, "control bytes are escaped")
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
                                                          "terrain-unknown", "magnetic-model", "no-fit", "not-found"])
        let encoded = try CompactJSONEncoder().encode(FailureCode.voidObserver)
        #expect(String(decoding: encoded, as: UTF8.self) == #""void-observer""#)
    }
}

/// The panorama JSON as the interface writes it: an azimuth with no terrain has only
/// `"elevationAngle":null`, a peak's `name` appears when known.
struct PanoramaJSONTests {
    static func json(_ value: some Encodable) throws -> Data { Data(try CompactJSONEncoder().encode(value)) }

    @Test func emptyAzimuthAndNamedPeak() throws {
        let point = Panorama.Point(azimuth: 10, elevationAngle: 1.23456789, distance: 1234.5678, latitude: 46.123456789,
                                   longitude: 8.1, elevation: 2500.004, layers: [])
        let empty = Panorama.Point(azimuth: 20.5, elevationAngle: nil, distance: .nan, latitude: .nan, longitude: .nan,
                                   elevation: .nan, layers: [], complete: false)
        var panorama = Panorama(eye: GeodeticPosition(latitude: 46, longitude: 8, height: 600),
                                settings: .init(azimuthStep: 10.5, refraction: 0.13), range: 100_000.004, skyline: [point, empty],
                                crossedVoid: false)
        panorama.peaks = [Panorama.Peak(azimuth: 10, elevationAngle: 1.5, distance: 2000, latitude: 46.2, longitude: 8.2,
                                        elevation: 3000, prominence: 0.25, name: "Eiger")]
        let result = PanoramaResult(observer: .init(latitude: 46, longitude: 8, altitude: 552.5, groundElevation: nil),
                                    panorama: panorama, warnings: [Warning(.voidOnSightline, "w")])
        let json = String(decoding: try CompactJSONEncoder().encode(result), as: UTF8.self)
        #expect(json == #"{"observer":{"latitude":46,"longitude":8,"altitude":552.5,"groundElevation":null},"refraction":0.13,"azimuthStep":10.5,"range":100000,"# +
                #""skyline":[{"azimuth":10,"elevationAngle":1.234568,"distance":1234.57,"latitude":46.1234568,"longitude":8.1,"elevation":2500,"# +
                #""complete":true},{"azimuth":20.5,"elevationAngle":null,"complete":false}],"peaks":[{"azimuth":10,"elevationAngle":1.5,"distance":2000,"latitude":46.2,"# +
                #""longitude":8.2,"elevation":3000,"prominence":0.25,"name":"Eiger"}],"warnings":["w"],"warningCodes":["void-on-sightline"]}"#)

        // The skyline and peaks read back to the same JSON (the per-layer skylines are the
        // picture's, not the JSON's).
        let skyline = try JSONDecoder().decode([Panorama.Point].self, from: try Self.json(panorama.skyline))
        #expect(skyline.count == 2 && skyline[0].elevationAngle == 1.234568 && skyline[0].latitude == 46.1234568 && skyline[1].elevationAngle == nil && skyline[1].distance.isNaN && skyline[0].complete && !skyline[1].complete)
        #expect(try CompactJSONEncoder().encode(skyline) == CompactJSONEncoder().encode(panorama.skyline))
        #expect(try JSONDecoder().decode([Panorama.Peak].self, from: try Self.json(panorama.peaks)) == panorama.peaks)
    }

    /// The skyline's points the compact encoder writes directly are the bytes of their `encode(to:)`:
    /// every member present and absent, negative and non-finite numbers, rounding at each place.
    @Test func skylinePointsWrittenDirectlyAreTheBytesOfTheirEncoding() throws {
        var points: [Panorama.Point] = []
        for (k, angle) in [-0.0000004, -1.2345675, 0, 12.9999996, 89.5].enumerated() {
            for flags in 0..<8 {
                var p = Panorama.Point(azimuth: 359.9999996 - Double(k) * 17.25, elevationAngle: angle, distance: 29_999.995 + Double(flags),
                                       latitude: -46.00000005 - Double(flags), longitude: 179.99999995 - Double(k), elevation: -12.345 + 1000 * Double(k),
                                       layers: [], complete: flags & 1 == 0)
                p.atRangeLimit = flags & 2 != 0
                p.filled = flags & 4 != 0
                points.append(p)
            }
        }
        points.append(Panorama.Point(azimuth: 0.1, elevationAngle: nil, distance: .nan, latitude: .nan, longitude: .nan,
                                     elevation: .nan, layers: [], complete: true))
        points.append(Panorama.Point(azimuth: 0.2, elevationAngle: nil, distance: .nan, latitude: .nan, longitude: .nan,
                                     elevation: .nan, layers: [], complete: false))
        points.append(Panorama.Point(azimuth: .nan, elevationAngle: .infinity, distance: .nan, latitude: 1e-9, longitude: -1e-9,
                                     elevation: 1e12, layers: [], complete: true))
        let encoder = CompactJSONEncoder()
        for point in points {
            let direct = try encoder.encode(SkylineJSON(points: [point])), keyed = try encoder.encode([point])
            #expect(String(decoding: direct, as: UTF8.self) == String(decoding: keyed, as: UTF8.self))
        }
        #expect(try encoder.encode(SkylineJSON(points: points)) == encoder.encode(points))
        #expect(try encoder.encode(SkylineJSON(points: [])) == Array("[]".utf8))
        // Any other encoder gets the array (read back: Foundation's member order may vary).
        let foreign = try JSONDecoder().decode([Panorama.Point].self, from: JSONEncoder().encode(SkylineJSON(points: Array(points.prefix(8)))))
        #expect(try encoder.encode(foreign) == encoder.encode(Array(points.prefix(8))))
    }
}

/// Warnings carry stable codes: the JSON's `warningCodes`, parallel to `warnings`.
struct WarningTests {
    @Test func codesAreTheDocumentedStrings() throws {
        #expect(Warning.Code.allCases.map(\.rawValue) == [
            "unknown-field", "calibration-refused", "ambiguous-calibration", "roll-kept", "observer-outside-dem", "observer-over-void",
            "observer-raised", "left-dem", "void-on-sightline", "skyline-unknown", "grazing-sightline", "several-places",
            "name-mismatch", "target-below-ground", "target-outside-dem", "skipped-file", "sky-tapped", "near-ground-hides-view",
            "no-skyline", "local-time", "photo-incomplete", "vertical-datum", "filled-void", "few-samples-hit", "calibration-imprecise", "other"])
    }

    /// JSON of an older TapSeek (no codes) and codes of a newer one read as `other`; codes that
    /// do not pair with the sentences are refused.
    @Test func decodingWithoutOrWithUnknownCodes() throws {
        let old = try JSONDecoder().decode(LocateResult.self, from: Data(#"{"status":"horizon","warnings":["a","b"]}"#.utf8))
        #expect(old.warnings == [Warning(.other, "a"), Warning(.other, "b")])
        let newer = try JSONDecoder().decode(LocateResult.self,
                                             from: Data(#"{"status":"horizon","warnings":["a","b"],"warningCodes":["left-dem","from-the-future"]}"#.utf8))
        #expect(newer.warnings == [Warning(.leftDEM, "a"), Warning(.other, "b")])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(LocateResult.self, from: Data(#"{"status":"horizon","warnings":["a"],"warningCodes":[]}"#.utf8))
        }
    }
}

/// The aim JSON reads back to the same result: a sight with its blocker and pixel, one behind
/// the camera, and an error.
struct AimJSONTests {
    static func json(_ value: some Encodable) throws -> Data { Data(try CompactJSONEncoder().encode(value)) }

    @Test func aimResultsReadBack() throws {
        var blocked = AimResult(id: "a", line: 3)
        blocked.target = .init(latitude: 46.5775, longitude: 8.0051, elevation: 3967, name: "Eiger")
        blocked.azimuth = 208.123456
        blocked.elevationAngle = 26.5
        blocked.distance = 5853.61
        blocked.slantRange = 6523.72
        blocked.blockedBy = .init(latitude: 46.6, longitude: 8.02, elevation: 2100.5, distance: 3000.25)
        blocked.pixel = .init(x: 512.5, y: 300.25, inFrame: true, behindCamera: false)
        blocked.observer = .init(latitude: 46.624, longitude: 8.041, altitude: 1055.4, groundElevation: 1053.8)
        blocked.warnings = [Warning(.nameMismatch, "n")]
        var behind = blocked
        behind.blockedBy = nil
        behind.visible = true
        behind.pixel = .init(x: nil, y: nil, inFrame: false, behindCamera: true)
        var failed = AimResult(line: 4)
        failed.error = .init(code: .notFound, message: "no place named x")
        for result in [blocked, behind, failed] {
            let json = try CompactJSONEncoder().encode(result)
            let decoded = try JSONDecoder().decode(AimResult.self, from: Data(json))
            #expect(try CompactJSONEncoder().encode(decoded) == json, "\(String(decoding: json, as: UTF8.self))")
        }
        let decoded = try JSONDecoder().decode(AimResult.self, from: try Self.json(blocked))
        #expect(decoded == blocked)
        #expect(try JSONDecoder().decode(AimResult.self, from: try Self.json(failed)).azimuth.isNaN)
    }
}
