import Foundation
import PropertyBased
import Testing
@testable import TapSeekCore

@Suite struct ReadingEncoderTests {
    @Test func writesTheInterfaceExampleCompactly() throws {
        let r = try ReadingDecoder().decode(ReadingDecoderTests.example)
        #expect(ReadingEncoder().encode(r) == #"{"id":"optional, echoed back","time":"2026-07-14T09:31:05Z","location":{"latitude":46.624,"longitude":8.041,"altitude":1034,"altitudeReference":"msl","horizontalAccuracy":5,"verticalAccuracy":10},"orientation":{"heading":208,"headingReference":"true","pitch":26,"roll":0,"headingAccuracy":5,"pitchAccuracy":1},"camera":{"horizontalFOV":63.7,"zoom":1,"imageWidth":4032,"imageHeight":3024},"tap":{"x":2016,"y":1512}}"#)
    }

    @Test func escapesStringsAndWritesOddNumbersExactly() throws {
        var r = Reading(id: "q\"b\\s\n\u{01}é😀", location: .init(latitude: -0.0, longitude: 1e-300, altitude: -999.9999999999999,
                                                               eyeHeight: 0))
        r.orientation = .init(heading: 359.99999999999994, pitch: .leastNonzeroMagnitude)
        let text = ReadingEncoder().encode(r)
        #expect(text.hasPrefix(#"{"id":"q\"b\\s\n\u0001é😀","#))
        #expect(!text.contains("\n"))
        let back = try ReadingDecoder().decode(text)
        #expect(back == r)
        #expect(back.location.latitude.sign == .minus)
        #expect(ReadingEncoder.number(.nan) == "null" && ReadingEncoder.number(-.infinity) == "null")
        #expect(ReadingEncoder.number(9_007_199_254_740_992) == "9007199254740992.0")
        #expect(ReadingEncoder.number(-42) == "-42")
    }

    /// Encode → decode gives back the same reading, for any valid reading.
    @Test func roundTripsThroughTheDecoder() async throws {
        await propertyCheck(
            count: 500,
            input: Gen.double(in: -90...90), Gen.double(in: -180...180), Gen.double(in: -500...9000).optional(),
            Gen.double(in: 0..<360), Gen.double(in: -90...90), Gen.double(in: -400...400),
            Gen.double(in: 1...179), Gen.double(in: 0...1), Gen.int(in: 1_600_000_000_000 ... 2_000_000_000_000).optional(),
            Gen.bool
        ) { lat, lon, alt, heading, pitch, roll, fov, tapFraction, millis, magnetic in
            let r = Reading(
                id: millis.map { "id-\($0)" },
                time: millis.map { Date(timeIntervalSince1970: Double($0) / 1000) },
                location: .init(latitude: lat, longitude: lon, altitude: alt,
                                altitudeReference: alt == nil ? .msl : .ellipsoid, horizontalAccuracy: 4.5,
                                eyeHeight: magnetic ? 1.6 : 2),
                orientation: .init(heading: heading, headingReference: magnetic && millis != nil ? .magnetic : .true,
                                   pitch: pitch, roll: roll, pitchAccuracy: magnetic ? nil : 0.25),
                camera: .init(horizontalFOV: fov, zoom: 1 + tapFraction, imageWidth: 4000, imageHeight: 3000),
                tap: magnetic ? nil : .init(x: tapFraction * 4000, y: (1 - tapFraction) * 3000))
            let text = ReadingEncoder().encode(r)
            let back = try ReadingDecoder().decode(text)
            #expect(back.id == r.id && back.location == r.location && back.orientation == r.orientation)
            #expect(back.camera == r.camera && back.tap == r.tap)
            #expect(back.time.map { abs($0.timeIntervalSince(r.time!)) < 1e-6 } ?? (r.time == nil))
        }
    }
}
