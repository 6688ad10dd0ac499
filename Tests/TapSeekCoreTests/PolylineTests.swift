import PropertyBased
import Testing

@testable import TapSeekCore

/// Published examples, malformed strings of every kind, and round-trip properties of the codec.
@Suite struct PolylineTests {
    // Google's documented example,
    // https://developers.google.com/maps/documentation/utilities/polylinealgorithm
    static let googleExample = "_p~iF~ps|U_ulLnnqC_mqNvxq`@"
    static let googleExamplePoints = [
        Polyline.Coordinate(latitude: 38.5, longitude: -120.2),
        Polyline.Coordinate(latitude: 40.7, longitude: -120.95),
        Polyline.Coordinate(latitude: 43.252, longitude: -126.453),
    ]

    // MARK: Published values

    @Test func googleExampleDecodesToItsDocumentedPoints() throws {
        let decoded = try Polyline.decode(Self.googleExample)
        #expect(decoded == Self.googleExamplePoints)
    }

    @Test func googleExampleEncodesToItsDocumentedString() throws {
        #expect(try Polyline.encode(Self.googleExamplePoints) == Self.googleExample)
    }

    /// The worked single-value example on Google's page: −179.9832104 encodes as `` `~oia@ ``
    /// (a longitude: no latitude goes that far).
    @Test func googleWorkedSingleValueExample() throws {
        let encoded = try Polyline.encode([Polyline.Coordinate(latitude: 0, longitude: -179.9832104)])
        #expect(encoded == "?`~oia@")
    }

    /// The same three points at precision 6, as OSRM's `polyline6` and Mapbox's polyline
    /// library document them.
    @Test func googleExampleAtPrecisionSixMatchesPolyline6() throws {
        let polyline6 = "_izlhA~rlgdF_{geC~ywl@_kwzCn`{nI"
        #expect(try Polyline.encode(Self.googleExamplePoints, precision: .osrm) == polyline6)
        #expect(try Polyline.decode(polyline6, precision: 6) == Self.googleExamplePoints)
    }

    /// The property tests below build valid strings with `referenceEncoding`; it must itself
    /// reproduce the published example from the example's integer units.
    @Test func referenceEncodingReproducesGoogleExample() {
        let units: [Int64] = [3_850_000, -12_020_000, 4_070_000, -12_095_000, 4_325_200, -12_645_300]
        #expect(Self.referenceEncoding(units) == Self.googleExample)
    }

    @Test func emptyPathIsEmptyString() throws {
        #expect(try Polyline.encode([]) == "")
        #expect(try Polyline.decode("").isEmpty)
    }

    /// Zero is the one-character value `?`, and the origin is `??`.
    @Test func originIsTwoQuestionMarks() throws {
        #expect(try Polyline.encode([Polyline.Coordinate(latitude: 0, longitude: 0)]) == "??")
        #expect(try Polyline.decode("??") == [Polyline.Coordinate(latitude: 0, longitude: 0)])
    }

    /// Rounding is half away from zero on the scaled value: 0.000015° is 1.5 units at precision
    /// 5. Its binary value sits a hair below 1.5 × 10⁻⁵, so the check uses exactly representable
    /// halves at precision 0 instead: 2.5 → 3, −2.5 → −3, 0.5 → 1, −0.5 → −1.
    @Test func roundsHalfAwayFromZero() throws {
        let path = [2.5, -2.5, 0.5, -0.5].map { Polyline.Coordinate(latitude: $0, longitude: 0) }
        let decoded = try Polyline.decode(try Polyline.encode(path, precision: 0), precision: 0)
        #expect(decoded.map(\.latitude) == [3, -3, 1, -1])
    }

    // MARK: Malformed strings, each with its offset

    @Test func characterBelowQuestionMarkIsRejectedAtItsOffset() {
        #expect(throws: PolylineError(.invalidCharacter(0x20), at: 4)) {
            try Polyline.decode("_p~i F~ps|U")
        }
    }

    @Test func characterAboveTildeIsRejectedAtItsOffset() {
        #expect(throws: PolylineError(.invalidCharacter(0x7F), at: 2)) {
            try Polyline.decode("??\u{7F}?")
        }
    }

    @Test func nonASCIIIsRejectedAtTheFirstByte() {
        // "é" is 0xC3 0xA9 in UTF-8; everything before it is ASCII, so offset 2 is also its
        // character offset.
        #expect(throws: PolylineError(.invalidCharacter(0xC3), at: 2)) {
            try Polyline.decode("??é??")
        }
    }

    @Test func trailingNewlineIsRejected() {
        #expect(throws: PolylineError(.invalidCharacter(0x0A), at: Self.googleExample.utf8.count)) {
            try Polyline.decode(Self.googleExample + "\n")
        }
    }

    /// `_p~i` is the start of 38.5° with every character still carrying the continuation bit.
    @Test func valueCutOffByTheEndIsReportedWhereItBegins() {
        #expect(throws: PolylineError(.truncatedValue, at: 0)) { try Polyline.decode("_p~i") }
        #expect(throws: PolylineError(.truncatedValue, at: 5)) { try Polyline.decode("_p~iF~ps") }
    }

    @Test func latitudeWithoutLongitudeIsReported() {
        #expect(throws: PolylineError(.missingLongitude, at: 0)) { try Polyline.decode("_p~iF") }
        #expect(throws: PolylineError(.missingLongitude, at: 10)) { try Polyline.decode("_p~iF~ps|U_ulL") }
    }

    /// Twelve continuation characters and a last one carry more than the 60 bits any in-range
    /// value needs (12 chunks: ±360° of difference at 15 digits).
    @Test func overlongValueIsOutOfRange() {
        let tooLong = String(repeating: "~", count: 12) + "?"
        #expect(throws: PolylineError(.valueOutOfRange, at: 2)) { try Polyline.decode("??" + tooLong + "?") }
    }

    /// Each difference is in range on its own, but they add up past 90° of latitude, or past
    /// 180° of longitude: the decoder refuses what the encoder would refuse to write.
    @Test func runningSumBeyondTheRangeIsRejectedAtTheValueThatCrossesIt() throws {
        for digits in [0, 5, 15] {
            let precision = PolylinePrecision(digits: digits)!
            let north = try Polyline.encode([Polyline.Coordinate(latitude: 60, longitude: 0)], precision: precision)
            #expect(throws: PolylineError(.valueOutOfRange, at: north.utf8.count), "\(digits) digits") {
                try Polyline.decode(north + north, precision: precision)
            }
            let east = try Polyline.encode([Polyline.Coordinate(latitude: 0, longitude: 120)], precision: precision)
            // "?" is the zero latitude of the second point; its longitude follows.
            #expect(throws: PolylineError(.valueOutOfRange, at: east.utf8.count + 1), "\(digits) digits") {
                try Polyline.decode(east + east, precision: precision)
            }
        }
    }

    /// The poles and the antimeridian encode and decode exactly at every precision, 15 digits
    /// (1.8 × 10¹⁷ units) included.
    @Test func extremeValuesAtTheLimitAreAccepted() throws {
        let path = [
            Polyline.Coordinate(latitude: 90, longitude: -180),
            Polyline.Coordinate(latitude: -90, longitude: 180),
        ]
        for digits in PolylinePrecision.supportedDigits {
            let precision = PolylinePrecision(digits: digits)!
            let encoded = try Polyline.encode(path, precision: precision)
            #expect(try Polyline.decode(encoded, precision: precision) == path, "\(digits) digits")
        }
    }

    /// Long strings of differences just under 2³⁹ units (eight characters each) cross 90° at
    /// 11 digits (9 × 10¹² units) after 16 of them: the same check holds when eight characters
    /// are read at once.
    @Test func runningSumBeyondTheRangeIsRejectedInLongStrings() throws {
        let step: Int64 = (1 << 39) - 1
        // Differences only: the first 16 points are a prefix of the 17-point string.
        let prefix = Self.referenceEncoding((1...16).flatMap { [Int64($0) * step, 0] })
        let text = Self.referenceEncoding((1...17).flatMap { [Int64($0) * step, 0] })
        #expect(throws: Never.self) { try Polyline.decode(prefix + "??", precision: 11) }
        #expect(throws: PolylineError(.valueOutOfRange, at: prefix.utf8.count)) {
            try Polyline.decode(text, precision: 11)
        }
    }

    /// `_?` means 0 with a redundant final chunk; only `?` is the canonical zero. No encoder
    /// writes it, but other decoders read it: so does this one, as the value it spells. Checked
    /// near the end (read a character at a time) and at the start of a long string (eight at a
    /// time).
    @Test func redundantZeroChunksAreReadAsTheValueTheySpell() throws {
        #expect(try Polyline.decode("??_??") == Polyline.decode("????"))
        #expect(try Polyline.decode("_??????????????") == Polyline.decode("??????????????"))
        // 32 as three chunks, the last zero: `_` `@` `?` is `_@`.
        #expect(try Polyline.decode("????_`????????????") == Polyline.decode("????_@???????????"))
    }

    @Test func errorMessagesNameTheOffset() {
        #expect(PolylineError(.invalidCharacter(0x20), at: 4).description.contains("character ' ' (0x20) at offset 4"))
        #expect(PolylineError(.invalidCharacter(0x0A), at: 9).description.contains("byte 0x0A at offset 9"))
        #expect(PolylineError(.truncatedValue, at: 5).description.contains("offset 5"))
        #expect(PolylineError(.missingLongitude, at: 0).description.contains("offset 0"))
        #expect(PolylineError(.valueOutOfRange, at: 7).description.contains("offset 7"))
    }

    // MARK: Unencodable coordinates

    @Test func nonFiniteCoordinatesAreRefusedByIndexAndField() {
        let path = [
            Polyline.Coordinate(latitude: 1, longitude: 2),
            Polyline.Coordinate(latitude: 3, longitude: .nan),
        ]
        #expect(throws: PolylineEncodingError.self) { try Polyline.encode(path) }
        do {
            _ = try Polyline.encode(path)
        } catch {
            #expect(error.index == 1)
            #expect(error.field == .longitude)
            #expect(error.description.contains("coordinate 1: longitude nan"))
        }
        #expect(throws: PolylineEncodingError.self) {
            try Polyline.encode([Polyline.Coordinate(latitude: .infinity, longitude: 0)])
        }
    }

    /// Latitude 430 used to encode (anything within 2⁵⁰ units did); now a latitude beyond ±90°
    /// or a longitude beyond ±180° is refused at every precision, naming the point and the value.
    @Test func coordinateOutsideTheGlobeIsRefusedByIndexAndValue() throws {
        let path = [
            Polyline.Coordinate(latitude: 46.5, longitude: 8),
            Polyline.Coordinate(latitude: 430, longitude: 8),
        ]
        for digits in [0, 5, 12, 15] {
            #expect(throws: PolylineEncodingError(index: 1, field: .latitude, value: 430,
                                                  precision: PolylinePrecision(digits: digits)!)) {
                try Polyline.encode(path, precision: PolylinePrecision(digits: digits)!)
            }
        }
        #expect(PolylineEncodingError(index: 1, field: .latitude, value: 430, precision: 5).description
            == "polyline: coordinate 1: latitude 430.0 is outside −90…90 degrees")
        #expect(throws: PolylineEncodingError(index: 0, field: .longitude, value: -180.5, precision: 0)) {
            try Polyline.encode([Polyline.Coordinate(latitude: 0, longitude: -180.5)], precision: 0)
        }
        #expect(throws: PolylineEncodingError(index: 0, field: .latitude, value: -90.000001, precision: 5)) {
            try Polyline.encode([Polyline.Coordinate(latitude: -90.000001, longitude: 0)])
        }
        #expect(throws: Never.self) {
            try Polyline.encode([Polyline.Coordinate(latitude: 90, longitude: -180)], precision: 15)
        }
    }

    /// 13 to 15 digits used to be refused although the integer arithmetic holds them.
    @Test func precisionOutsideTheSupportedDigitsIsNil() {
        #expect(PolylinePrecision(digits: -1) == nil)
        #expect(PolylinePrecision(digits: 16) == nil)
        #expect(PolylinePrecision(digits: 0)?.digits == 0)
        for digits in 13...15 {
            #expect(PolylinePrecision(digits: digits)?.digits == digits)
        }
    }

    /// At 13 digits ±180° is 1.8 × 10¹⁵ units, below 2⁵¹: the round trip is still exact there.
    @Test func thirteenDigitsRoundTripExactlyAtTheAntimeridian() throws {
        let units: [Int64] = [899_999_999_999_999, -1_799_999_999_999_999, -900_000_000_000_000, 1_800_000_000_000_000]
        let text = Self.referenceEncoding(units)
        let decoded = try Polyline.decode(text, precision: 13)
        #expect(decoded.map(\.latitude) == [89.9999999999999, -90])
        #expect(try Polyline.encode(decoded, precision: 13) == text)
    }

    // MARK: Properties

    /// Coordinates anywhere on the globe, with the edges (poles, antimeridian) drawn often.
    static let latitude = Gen<Double>.oneOf(
        Gen.double(in: -90...90).eraseToAnySequence(),
        Gen.element(of: [-90.0, 90, 0, -0.0]).compactMap { $0 }.eraseToAnySequence()
    )
    static let longitude = Gen<Double>.oneOf(
        Gen.double(in: -180...180).eraseToAnySequence(),
        Gen.element(of: [-180.0, 180, 0, -0.0]).compactMap { $0 }.eraseToAnySequence()
    )
    static let coordinate = zip(latitude, longitude).map { Polyline.Coordinate(latitude: $0, longitude: $1) }

    /// A path of 1 to 30 points; after the first, each point either jumps to a fresh random
    /// coordinate, repeats the previous point, or moves from it by a tiny delta (±10⁻⁵°, a few
    /// units at most below precision 6).
    static let path = zip(
        coordinate.array(of: 1...30),
        Gen.int(in: 0...2).array(of: 30),
        Gen.double(in: -1e-5...1e-5).array(of: 30)
    ).map { fresh, moves, tinyDeltas in
        var points = [fresh[0]]
        for index in fresh.indices.dropFirst() {
            let last = points[index - 1]
            switch moves[index] {
            case 0:
                points.append(fresh[index])
            case 1:
                points.append(last)
            default:
                let delta = tinyDeltas[index]
                points.append(Polyline.Coordinate(
                    latitude: min(90, max(-90, last.latitude + delta)),
                    longitude: min(180, max(-180, last.longitude - delta))))
            }
        }
        return points
    }

    static let precisionDigits = Gen.int(in: PolylinePrecision.supportedDigits)

    @Test func decodeOfEncodeIsWithinHalfAUnit() async {
        await propertyCheck(count: 300, input: Self.path, Self.precisionDigits) { path, digits in
            let precision = PolylinePrecision(digits: digits)!
            let tolerance = 0.5 / precision.unitsPerDegree
            let decoded = try Polyline.decode(try Polyline.encode(path, precision: precision), precision: precision)
            #expect(decoded.count == path.count)
            for (original, back) in zip(path, decoded) {
                // Half a unit from rounding, plus the rounding of the two floating-point steps.
                #expect((back.latitude - original.latitude).magnitude <= tolerance + 4 * original.latitude.ulp)
                #expect((back.longitude - original.longitude).magnitude <= tolerance + 4 * original.longitude.ulp)
            }
        }
    }

    /// Integer units of every size: a few characters, a few more, and up to 180° at 15 digits.
    static let units = Gen<Int64>.oneOf(
        Gen.int64(in: -40...40),
        Gen.int64(in: -(1 << 20)...(1 << 20)),
        Gen.int64(in: -(1 << 51)...(1 << 51)),
        Gen.int64(in: -180_000_000_000_000_000...180_000_000_000_000_000)
    )

    /// `values` as latitude/longitude units clamped into the globe at `precision`, and below
    /// `bound` in magnitude.
    static func clamped(_ values: [Int64], _ precision: PolylinePrecision, below bound: Int64 = .max) -> [Int64] {
        values.enumerated().map { index, value in
            let limit = min(index % 2 == 0 ? precision.latitudeUnits : precision.longitudeUnits, bound - 1)
            return min(max(value, -limit), limit)
        }
    }

    /// Strings built from random in-range integer units (not from this encoder) decode to
    /// exactly those units and encode back to the same string, while every unit count is below
    /// ``Polyline/exactUnits`` (everywhere through 13 digits).
    @Test func encodeOfDecodeIsIdentityForValidStrings() async {
        let units = Self.units.array(of: 0...40)
        await propertyCheck(count: 300, input: units, Self.precisionDigits) { values, digits in
            let precision = PolylinePrecision(digits: digits)!
            let pairs = values.count / 2
            let values = Self.clamped(Array(values.prefix(pairs * 2)), precision, below: Polyline.exactUnits)
            let text = Self.referenceEncoding(values)
            let decoded = try Polyline.decode(text, precision: precision)
            #expect(decoded.count == pairs)
            for (index, coordinate) in decoded.enumerated() {
                #expect(coordinate.latitude == Double(values[2 * index]) / precision.unitsPerDegree)
                #expect(coordinate.longitude == Double(values[2 * index + 1]) / precision.unitsPerDegree)
            }
            #expect(try Polyline.encode(decoded, precision: precision) == text)
        }
    }

    /// At 14 and 15 digits, unit counts beyond 2⁵¹ no longer survive a `Double` exactly:
    /// re-encoding a decoded string comes back within 1 + |u| · 2⁻⁵¹ units, as documented on
    /// ``Polyline``.
    @Test func beyondExactUnitsTheRoundTripIsWithinTheDocumentedBound() async {
        let units = Self.units.array(of: 2...40)
        await propertyCheck(count: 300, input: units, Gen.int(in: 14...15)) { values, digits in
            let precision = PolylinePrecision(digits: digits)!
            let values = Self.clamped(Array(values.prefix(values.count / 2 * 2)), precision)
            let decoded = try Polyline.decode(Self.referenceEncoding(values), precision: precision)
            let flat = decoded.flatMap { [$0.latitude, $0.longitude] }
            let again = try Polyline.decode(Polyline.encode(decoded, precision: precision), precision: precision)
            for (value, (x, y)) in zip(values, zip(flat, again.flatMap { [$0.latitude, $0.longitude] })) {
                let bound = (1 + Double(value.magnitude) * 0x1p-51) / precision.unitsPerDegree
                // Plus the rounding of each decoded Double, within |x| · 2⁻⁵² each.
                #expect((x - y).magnitude <= bound + 4 * x.ulp, "\(value) units at \(digits) digits")
            }
        }
    }

    /// Random byte strings never crash the decoder; a rejection points inside the string, and an
    /// acceptance round-trips (to the canonical encoding of the same path).
    @Test func arbitraryBytesEitherRoundTripOrFailInside() async {
        let bytes = Gen.uint8(in: 50...130).array(of: 0...24)
        await propertyCheck(count: 500, input: bytes) { bytes in
            do {
                let decoded = try Polyline.decode(utf8: bytes)
                #expect(try Polyline.decode(Polyline.encode(decoded)) == decoded)
            } catch let error as PolylineError {
                #expect((0..<bytes.count).contains(error.offset))
            }
        }
    }

    /// Strings of valid characters only (the decoder's fast path when the last one ends a
    /// value) either round-trip (to the canonical encoding of the same path) or fail at an
    /// offset inside the string.
    @Test func validCharactersEitherRoundTripOrFailInside() async {
        let bytes = Gen.uint8(in: 63...126).array(of: 0...40)
        await propertyCheck(count: 1000, input: bytes) { bytes in
            do {
                let decoded = try Polyline.decode(utf8: bytes)
                #expect(try Polyline.decode(Polyline.encode(decoded)) == decoded)
            } catch let error as PolylineError {
                #expect((0..<bytes.count).contains(error.offset))
            }
        }
    }

    /// An independent, textbook restatement of the format's byte layout from integers (per
    /// Google's page: difference, shift left, invert if negative, 5-bit chunks low first, OR 0x20
    /// on all but the last, add 63), used to build valid strings without the encoder under test.
    static func referenceEncoding(_ units: [Int64]) -> String {
        var previous: [Int64] = [0, 0]
        var characters: [Character] = []
        for (index, value) in units.enumerated() {
            let delta = value - previous[index % 2]
            previous[index % 2] = value
            var shifted = UInt64(bitPattern: delta << 1)
            if delta < 0 { shifted = ~shifted }
            repeat {
                var chunk = shifted % 32
                shifted /= 32
                if shifted > 0 { chunk += 32 }
                characters.append(Character(Unicode.Scalar(UInt8(chunk + 63))))
            } while shifted > 0
        }
        return String(characters)
    }
}
