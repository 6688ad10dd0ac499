import Foundation
import PropertyBased
import Testing
@testable import TapSeekCore

@Suite struct ReadingDecoderTests {
    /// The example of docs/interface.md, verbatim.
    static let example = """
    {
      "id": "optional, echoed back",
      "time": "2026-07-14T09:31:05Z",
      "location": {
        "latitude": 46.6240, "longitude": 8.0410,
        "altitude": 1034.0, "altitudeReference": "msl",
        "horizontalAccuracy": 5.0, "verticalAccuracy": 10.0
      },
      "orientation": {
        "heading": 208.0, "headingReference": "true",
        "pitch": 26.0, "roll": 0.0,
        "headingAccuracy": 5.0, "pitchAccuracy": 1.0
      },
      "camera": { "horizontalFOV": 63.7, "zoom": 1.0, "imageWidth": 4032, "imageHeight": 3024 },
      "tap": { "x": 2016, "y": 1512 }
    }
    """

    /// A small valid reading to vary: location, orientation, camera and tap.
    static func reading(location: String = #""latitude": 46.624, "longitude": 8.041"#,
                        orientation: String? = #""heading": 208, "pitch": 26"#,
                        camera: String? = #""horizontalFOV": 63.7, "imageWidth": 4032, "imageHeight": 3024"#,
                        tap: String? = #""x": 2016, "y": 1512"#, extra: String = "") -> String {
        var parts = [#""location": {\#(location)}"#]
        if let orientation { parts.append(#""orientation": {\#(orientation)}"#) }
        if let camera { parts.append(#""camera": {\#(camera)}"#) }
        if let tap { parts.append(#""tap": {\#(tap)}"#) }
        if !extra.isEmpty { parts.append(extra) }
        return "{" + parts.joined(separator: ", ") + "}"
    }

    static func error(_ json: String, decoder: ReadingDecoder = ReadingDecoder()) -> ReadingError? {
        do {
            _ = try decoder.decode(json)
            return nil
        } catch {
            return error
        }
    }

    @Test func decodesTheInterfaceExample() throws {
        let r = try ReadingDecoder().decode(Self.example)
        #expect(r.id == "optional, echoed back")
        #expect(r.time == Date(timeIntervalSince1970: 1_784_021_465))   // 2026-07-14T09:31:05Z
        #expect(r.location == Reading.Location(latitude: 46.6240, longitude: 8.0410, altitude: 1034,
                                               altitudeReference: .msl, horizontalAccuracy: 5,
                                               verticalAccuracy: 10, eyeHeight: 1.6))
        #expect(r.orientation == Reading.Orientation(heading: 208, headingReference: .true, pitch: 26, roll: 0,
                                                     headingAccuracy: 5, pitchAccuracy: 1))
        #expect(r.camera == Reading.CameraSettings(horizontalFOV: 63.7, zoom: 1, imageWidth: 4032, imageHeight: 3024))
        #expect(r.tap == Reading.Tap(x: 2016, y: 1512))
        // The same bytes as Data, [UInt8] and a slice of a larger buffer decode alike.
        #expect(try ReadingDecoder().decode(Data(Self.example.utf8)) == r)
        #expect(try ReadingDecoder().decode(Array(Self.example.utf8)) == r)
        let padded = Array(("xx" + Self.example + "yy").utf8)
        #expect(try ReadingDecoder().decode(padded[2..<(padded.count - 2)]) == r)
    }

    @Test func absentOptionalFieldsTakeTheirDefaults() throws {
        let r = try ReadingDecoder().decode(Self.reading(camera: nil, tap: nil))
        #expect(r.id == nil && r.time == nil && r.camera == nil && r.tap == nil)
        #expect(r.location.altitude == nil && r.location.altitudeReference == .msl && r.location.eyeHeight == 1.6)
        #expect(r.location.horizontalAccuracy == nil && r.location.verticalAccuracy == nil)
        #expect(r.orientation?.roll == 0 && r.orientation?.headingReference == .true)
        #expect(r.orientation?.headingAccuracy == nil && r.orientation?.pitchAccuracy == nil)
        let zoomed = try ReadingDecoder().decode(Self.reading())
        #expect(zoomed.camera?.zoom == 1)
    }

    @Test func nullMeansAbsent() throws {
        let r = try ReadingDecoder().decode(Self.reading(
            location: #""latitude": 1, "longitude": 2, "altitude": null, "eyeHeight": null, "altitudeReference": null"#,
            orientation: #""heading": 3, "pitch": 4, "roll": null, "headingReference": null"#,
            camera: nil, tap: nil, extra: #""id": null, "time": null, "camera": null, "tap": null"#))
        #expect(r.location.altitude == nil && r.location.eyeHeight == 1.6 && r.orientation?.roll == 0)
        #expect(r.id == nil && r.time == nil && r.camera == nil && r.tap == nil)
    }

    @Test(arguments: [(370.0, 10.0), (-10, 350), (360, 0), (720.5, 0.5), (0, 0), (359.75, 359.75)])
    func headingIsNormalisedIntoAFullTurn(given: Double, expected: Double) throws {
        let r = try ReadingDecoder().decode(Self.reading(orientation: #""heading": \#(given), "pitch": 0"#))
        #expect(r.orientation?.heading == expected)
    }

    @Test func readsEveryOptionalField() throws {
        let r = try ReadingDecoder().decode(Self.reading(
            location: #""latitude": -90, "longitude": 180, "altitude": -12.5, "altitudeReference": "ellipsoid", "eyeHeight": 0, "horizontalAccuracy": 0, "verticalAccuracy": 3"#,
            orientation: #""heading": 1, "pitch": -90, "roll": -725.5, "headingReference": "magnetic", "headingAccuracy": 12, "pitchAccuracy": 0.5"#,
            camera: #""horizontalFOV": 0.5, "zoom": 7.5, "imageWidth": 1, "imageHeight": 0.5"#,
            tap: #""x": 1, "y": 0"#, extra: #""time": "2027-03-01T12:00:00+01:00", "id": "a\"b\\c\u00e9\ud83d\ude00""#))
        #expect(r.location.altitudeReference == .ellipsoid && r.location.altitude == -12.5 && r.location.eyeHeight == 0)
        #expect(r.orientation?.headingReference == .magnetic && r.orientation?.roll == -725.5)
        #expect(r.camera == Reading.CameraSettings(horizontalFOV: 0.5, zoom: 7.5, imageWidth: 1, imageHeight: 0.5))
        #expect(r.tap == Reading.Tap(x: 1, y: 0))
        #expect(r.id == "a\"b\\cé😀")
        #expect(r.time == ISO8601DateTime.parse("2027-03-01T11:00:00Z"))
    }

    /// The messages the brief spells out, word for word.
    /// The calibration additions: skyline pixels and landmarks, read back as written.
    @Test func decodesSkylineAndLandmarks() throws {
        let json = Self.reading(extra: #""skyline": [{"x": 112.0, "y": 1402.5}, {"x": 160, "y": 1398}], "landmarks": [{"x": 2016, "y": 1300, "latitude": 46.5775, "longitude": 8.005, "elevation": 3967}, {"x": 10, "y": 20, "latitude": -1, "longitude": 2}]"#)
        let r = try ReadingDecoder().decode(json)
        #expect(r.skyline == [.init(x: 112, y: 1402.5), .init(x: 160, y: 1398)])
        #expect(r.landmarks == [.init(x: 2016, y: 1300, latitude: 46.5775, longitude: 8.005, elevation: 3967),
                                .init(x: 10, y: 20, latitude: -1, longitude: 2)])
        #expect(r.canCalibrate)
        #expect(try ReadingDecoder().decode(ReadingEncoder().encode(r)) == r)
        #expect(try ReadingDecoder().decode(Self.reading(extra: #""skyline": null, "landmarks": []"#)).canCalibrate == false)
    }

    @Test(arguments: [
        (#""skyline": [{"x": 1, "y": 2, "x": 3}]"#, "skyline[0].x appears twice"),
        (#""skyline": [1, 2]"#, "skyline[0] must be an object, got 1"),
        (#""skyline": [{"x": 1, "y": -2}]"#, "skyline[0].y must be within 0…3024 (camera.imageHeight), got -2"),
        (#""skyline": "trace""#, #"skyline must be an array, got "trace""#),
        (#""landmarks": [{"x": 1, "y": 2, "latitude": 95, "longitude": 2}]"#, "landmarks[0].latitude must be within −90…90, got 95"),
        (#""landmarks": [{"x": 1, "y": 2, "latitude": 45, "longitude": 2, "elevation": 1e6}]"#, "landmarks[0].elevation must be within −500…9000 metres, got 1e6"),
        (#""landmarks": [{"x": 1, "y": 2, "longitude": 2}]"#, "landmarks[0].latitude is missing"),
    ])
    func badCalibrationPointsNameTheirElement(extra: String, message: String) throws {
        let error = try #require(Self.error(Self.reading(extra: extra)))
        #expect(error.description == message)
    }

    @Test func calibrationPointsNeedACameraAndAreCapped() throws {
        let noCamera = try #require(Self.error(Self.reading(camera: nil, tap: nil, extra: #""skyline": [{"x": 1, "y": 2}]"#)))
        #expect(noCamera.description == "skyline needs camera.horizontalFOV, imageWidth and imageHeight")
        let many = (0...ReadingDecoder.maximumCalibrationPoints).map { _ in #"{"x":1,"y":1}"# }.joined(separator: ",")
        let capped = try #require(Self.error(Self.reading(extra: #""skyline": [\#(many)]"#)))
        #expect(capped.description == "skyline holds more than 10000 elements")
    }

    @Test func errorsNameTheFieldAndQuoteTheValue() {
        let cases: [(String, String)] = [
            (Self.reading(orientation: #""heading": 1, "pitch": 123"#), "orientation.pitch must be within −90…90, got 123"),
            (Self.reading(location: #""longitude": 8"#), "location.latitude is missing"),
            (Self.reading(camera: #""horizontalFOV": "abc", "imageWidth": 4032, "imageHeight": 3024"#),
             #"camera.horizontalFOV must be a number, got "abc""#),
            (Self.reading(orientation: #""heading": 1, "pitch": 2, "headingReference": "north""#),
             #"orientation.headingReference must be "true" or "magnetic", got "north""#),
            (Self.reading(camera: nil), "tap needs camera.horizontalFOV, imageWidth and imageHeight"),
            (Self.reading(extra: #""time": "yesterday""#),
             #"time must be an ISO 8601 date-time with a time zone, such as "2026-07-14T09:31:05Z", got "yesterday""#),
            (Self.reading(orientation: #""heading": 1, "pitch": 2, "headingReference": "magnetic""#),
             #"time is missing; it is needed when orientation.headingReference is "magnetic""#),
        ]
        for (json, message) in cases {
            #expect(Self.error(json)?.description == message)
        }
    }

    @Test(arguments: [
        (#""latitude": 90.5, "longitude": 8"#, "location.latitude must be within −90…90, got 90.5"),
        (#""latitude": 1, "longitude": -180.01"#, "location.longitude must be within −180…180, got -180.01"),
        (#""latitude": 1, "longitude": 540"#, "location.longitude must be within −180…180, got 540"),
        (#""latitude": 1"#, "location.longitude is missing"),
        (#""latitude": 1, "longitude": 2, "altitude": "100""#, #"location.altitude must be a number, got "100""#),
        (#""latitude": 1, "longitude": 2, "altitude": 1e999"#, "location.altitude must be a finite number, got 1e999"),
        (#""latitude": "NaN", "longitude": 2"#, #"location.latitude must be a number, got "NaN""#),
        (#""latitude": 1, "longitude": "Infinity""#, #"location.longitude must be a number, got "Infinity""#),
        (#""latitude": 1, "longitude": 2, "altitudeReference": "geoid""#, #"location.altitudeReference must be "msl" or "ellipsoid", got "geoid""#),
        (#""latitude": 1, "longitude": 2, "eyeHeight": -0.1"#, "location.eyeHeight must be within 0…10000 metres, got -0.1"),
        (#""latitude": 1, "longitude": 2, "horizontalAccuracy": -1"#, "location.horizontalAccuracy must be within 0…100000 metres, got -1"),
        (#""latitude": 1, "longitude": 2, "verticalAccuracy": true"#, "location.verticalAccuracy must be a number, got true"),
        (#""latitude": [1], "longitude": 2"#, "location.latitude must be a number, got [1]"),
        (#""latitude": 1, "latitude": 2, "longitude": 2"#, "location.latitude appears twice"),
    ])
    func locationErrors(location: String, message: String) {
        #expect(Self.error(Self.reading(location: location))?.description == message)
    }

    @Test(arguments: [
        (#""pitch": 2"#, "orientation.heading is missing"),
        (#""heading": 2"#, "orientation.pitch is missing"),
        (#""heading": 2, "pitch": -90.0001"#, "orientation.pitch must be within −90…90, got -90.0001"),
        (#""heading": 1e400, "pitch": 0"#, "orientation.heading must be a finite number, got 1e400"),
        (#""heading": {"value": 3}, "pitch": 0"#, #"orientation.heading must be a number, got {"value": 3}"#),
        (#""heading": 1, "pitch": 0, "roll": "0""#, #"orientation.roll must be a number, got "0""#),
        (#""heading": 1, "pitch": 0, "headingAccuracy": -5"#, "orientation.headingAccuracy must be within 0…180 degrees, got -5"),
        (#""heading": 1, "pitch": 0, "pitchAccuracy": -1e-9"#, "orientation.pitchAccuracy must be within 0…180 degrees, got -1e-9"),
        (#""heading": 1, "pitch": 0, "headingReference": true"#, "orientation.headingReference must be a string, got true"),
        (#""heading": 1, "pitch": 0, "headingReference": "True""#, #"orientation.headingReference must be "true" or "magnetic", got "True""#),
    ])
    func orientationErrors(orientation: String, message: String) {
        #expect(Self.error(Self.reading(orientation: orientation))?.description == message)
    }

    @Test(arguments: [
        (#""horizontalFOV": 0, "imageWidth": 4, "imageHeight": 3"#, "camera.horizontalFOV must be within (0, 180) degrees, exclusive, got 0"),
        (#""horizontalFOV": 180, "imageWidth": 4, "imageHeight": 3"#, "camera.horizontalFOV must be within (0, 180) degrees, exclusive, got 180"),
        (#""horizontalFOV": 60, "zoom": 0.5, "imageWidth": 4, "imageHeight": 3"#, "camera.zoom must be within 1…1000, got 0.5"),
        (#""horizontalFOV": 60, "imageWidth": 0, "imageHeight": 3"#, "camera.imageWidth must be within (0, 1000000] pixels, got 0"),
        (#""horizontalFOV": 60, "imageWidth": 4, "imageHeight": -3"#, "camera.imageHeight must be within (0, 1000000] pixels, got -3"),
        (#""imageWidth": 4, "imageHeight": 3"#, "camera.horizontalFOV is missing"),
        (#""horizontalFOV": 60, "imageHeight": 3"#, "camera.imageWidth is missing"),
        (#""horizontalFOV": 60, "imageWidth": 4"#, "camera.imageHeight is missing"),
    ])
    func cameraErrors(camera: String, message: String) {
        #expect(Self.error(Self.reading(camera: camera, tap: nil))?.description == message)
    }

    @Test(arguments: [
        (#""x": 4032.5, "y": 1"#, "tap.x must be within 0…4032 (camera.imageWidth), got 4032.5"),
        (#""x": -1, "y": 1"#, "tap.x must be within 0…4032 (camera.imageWidth), got -1"),
        (#""x": 1, "y": 3025"#, "tap.y must be within 0…3024 (camera.imageHeight), got 3025"),
        (#""y": 1"#, "tap.x is missing"),
        (#""x": 1"#, "tap.y is missing"),
        (#""x": "1", "y": 1"#, #"tap.x must be a number, got "1""#),
    ])
    func tapErrors(tap: String, message: String) {
        #expect(Self.error(Self.reading(tap: tap))?.description == message)
    }

    @Test(arguments: [
        (#""id": 17"#, "id must be a string, got 17"),
        (#""time": 1784021465"#, "time must be an ISO 8601 date-time string, got 1784021465"),
        (#""time": "2026-07-14T09:31:05""#, #"time must be an ISO 8601 date-time with a time zone, such as "2026-07-14T09:31:05Z", got "2026-07-14T09:31:05""#),
        (#""time": "2026-02-29T09:31:05Z""#, #"time must be an ISO 8601 date-time with a time zone, such as "2026-07-14T09:31:05Z", got "2026-02-29T09:31:05Z""#),
        (#""camera": {"horizontalFOV": 60, "imageWidth": 4, "imageHeight": 3}"#, "camera appears twice"),
    ])
    func otherFieldErrors(extra: String, message: String) {
        #expect(Self.error(Self.reading(extra: extra))?.description == message)
    }

    @Test func sectionsMustBeObjects() {
        #expect(Self.error(#"{"location": 5}"#)?.description == "location must be an object, got 5")
        #expect(Self.error(Self.reading(tap: nil, extra: #""tap": [1, 2]"#))?.description == "tap must be an object, got [1, 2]")
        #expect(Self.error(Self.reading(orientation: nil, extra: #""orientation": "up""#))?.description == #"orientation must be an object, got "up""#)
    }

    /// A quoted multi-line value must not break the one-line message; long ones are shortened.
    @Test func quotedValuesStayOnOneLine() {
        let json = "{\"location\": {\"latitude\": {\n  \"deg\": 46,\r\n\t\"min\": 37\n}, \"longitude\": 8}}"
        #expect(Self.error(json)?.description == #"location.latitude must be a number, got { "deg": 46, "min": 37 }"#)
        let long = Self.error(Self.reading(location: #""latitude": "\#(String(repeating: "é", count: 100))", "longitude": 8"#))
        #expect(long?.description == "location.latitude must be a number, got \"" + String(repeating: "é", count: 38) + "…")
    }

    @Test func missingSectionsAreNamed() {
        #expect(Self.error(#"{"orientation": {"heading": 1, "pitch": 2}}"#)?.description == "location is missing")
        #expect(Self.error(Self.reading(orientation: nil, camera: nil, tap: nil))?.description == "orientation is missing")
    }

    @Test func locationOnlyReadingsNeedTheOption() throws {
        let decoder = ReadingDecoder(requiresOrientation: false)
        let r = try decoder.decode(Self.reading(orientation: nil, camera: nil, tap: nil))
        #expect(r.orientation == nil && r.location.latitude == 46.624)
        // An orientation that is present must still be complete.
        #expect(Self.error(Self.reading(orientation: #""heading": 3"#), decoder: decoder)?.description == "orientation.pitch is missing")
    }

    @Test func unknownFieldsAreIgnoredWhateverTheyHold() throws {
        let extra = #""vendor": {"a": [1, 2, {"b": null}], "c": "\u00e9"}, "flag": false, "n": -0.5e-3, "s": "}""#
        let r = try ReadingDecoder().decode(Self.reading(
            location: #""latitude": 1, "longitude": 2, "speed": 3"#, extra: extra))
        #expect(r.location.latitude == 1)
    }

    @Test func escapedKeysAreRecognised() throws {
        let r = try ReadingDecoder().decode(#"{"loc\u0061tion": {"l\u0061titude": 5, "longitude": 6}, "orientation": {"heading": 1, "pitch": 2}}"#)
        #expect(r.location.latitude == 5)
    }

    @Test(arguments: ["[1, 2]", "\"text\"", "42", "null", "true"])
    func aReadingMustBeAnObject(json: String) {
        #expect(Self.error(json)?.description == "a reading must be a JSON object, got \(json)")
    }

    @Test func syntaxErrorsGiveLineAndColumn() {
        #expect(Self.error("")?.description == "empty input: expected a reading as a JSON object")
        #expect(Self.error("  \n ")?.description == "empty input: expected a reading as a JSON object")
        #expect(Self.error("{\n  \"location\": {\"latitude\": 1,, }}")?.description
                == "invalid JSON at line 2, column 30: expected a string key, found ','")
        #expect(Self.error(#"{"location": {"latitude": NaN}}"#)?.description
                == "invalid JSON at column 27: expected a value, found 'N'")
        #expect(Self.error(#"{"location": {"latitude": 01}}"#)?.description
                == "invalid JSON at column 28: expected ',' or '}' in an object, found '1'")
        #expect(Self.error(Self.example + " x")?.description
                == "invalid JSON at line 16, column 3: expected nothing after the reading's closing '}', found 'x'")
        #expect(Self.error(#"{"id": "a"#)?.description == "invalid JSON: unexpected end of input at column 10; unterminated string")
        #expect(Self.error("{\"id\": \"tab\there\"}")?.description.contains("control characters must be escaped") == true)
        #expect(Self.error(#"{"id": "\x"}"#)?.description.contains("invalid escape") == true)
        #expect(Self.error(#"{"id": "\ud800"}"#)?.description.contains("unpaired UTF-16 surrogate") == true)
        #expect(Self.error(#"{"a": 1.}"#)?.description.contains("expected a digit after the decimal point") == true)
        #expect(Self.error(#"{"a": -}"#)?.description.contains("expected a digit in a number") == true)
        #expect(Self.error(#"{"a": 1e+}"#)?.description.contains("expected a digit in an exponent") == true)
        // Surrounding whitespace and a byte-order mark are fine.
        #expect(Self.error("\u{FEFF}\n\t" + Self.example + "\r\n") == nil)
    }

    /// A one-line text (a JSON Lines record, whose line the caller names) gives the column
    /// alone: "line 2: invalid JSON at line 1, column 1" read as a contradiction (issue 29).
    /// A final newline does not make it two lines; a text over several lines keeps both.
    @Test func aOneLineTextNamesTheColumnAlone() {
        #expect(Self.error("x\n")?.description == "invalid JSON at column 1: expected a value, found 'x'")
        #expect(Self.error(#"{"id": "a"}  x"#)?.description == "invalid JSON at column 14: expected nothing after the reading's closing '}', found 'x'")
        #expect(Self.error("\nx")?.description == "invalid JSON at line 2, column 1: expected a value, found 'x'")
    }

    @Test func invalidUTF8InAStringIsAnError() throws {
        var bytes = Array(#"{"id": "ab"}"#.utf8)
        bytes[8] = 0xFF
        #expect(throws: ReadingError.self) { try ReadingDecoder().decode(bytes) }
        do {
            _ = try ReadingDecoder().decode(bytes)
        } catch {
            #expect(error.description == "invalid JSON at column 8: a string is not valid UTF-8, found '\"'")
        }
    }

    @Test func hostileNestingIsRefusedNotACrash() {
        let deep = #"{"x": "# + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}"
        #expect(Self.error(deep)?.description.contains("nested more than 256 levels deep") == true)
    }

    /// Every strict prefix of a valid reading is incomplete JSON: an error, never a crash.
    @Test func everyTruncationIsAnError() {
        let bytes = Array(Self.example.utf8)
        let lastBrace = bytes.lastIndex(of: UInt8(ascii: "}"))!
        for n in 0..<lastBrace {
            let e = Self.error(String(decoding: bytes[0..<n], as: UTF8.self))
            #expect(e != nil, "prefix of \(n) bytes")
            #expect(e?.description.contains("\n") == false)
        }
    }

    /// Random corruption of a valid reading either decodes or gives a one-line error.
    @Test func corruptedInputNeverCrashes() async {
        let original = Array(Self.example.utf8)
        await propertyCheck(count: 2000, input: Gen.int(in: 0...(original.count - 1)), Gen.int(in: 0...255), Gen.int(in: 0...3)) { at, byte, mode in
            var bytes = original
            switch mode {
            case 0: bytes[at] = UInt8(byte)
            case 1: bytes.remove(at: at)
            case 2: bytes.insert(UInt8(byte), at: at)
            default: bytes = Array(bytes[at...])
            }
            do throws(ReadingError) {
                _ = try ReadingDecoder().decode(bytes)
            } catch {
                #expect(!error.description.contains("\n") && !error.description.isEmpty)
            }
        }
    }

    /// The scanner's own number conversion agrees bit for bit with the standard library's
    /// correctly rounded one, for shortest representations of random doubles and for long
    /// digit strings that leave the fast path.
    @Test func numbersAreCorrectlyRounded() async throws {
        func scanned(_ text: String) throws -> Double {
            var bytes = Array(text.utf8)
            return try bytes.withUnsafeMutableBufferPointer { b in
                var scanner = JSONScanner(UnsafeBufferPointer(b))
                return try scanner.readNumber()
            }
        }
        await propertyCheck(count: 3000, input: Gen.double(in: -1e6...1e6), Gen.int(in: -320...300)) { mantissa, exponent in
            let x = mantissa * pow(10, Double(exponent) / 10)
            guard x.isFinite else { return }
            #expect((try? scanned("\(x)"))?.bitPattern == x.bitPattern, "\(x)")
        }
        for text in ["0.1", "1e-7", "123456789012345678901234567890", "0.30000000000000004", "9007199254740993",
                     "2.2250738585072011e-308", "4.9e-324", "1.7976931348623157e308", "-0.0", "0e0", "12.5E+2",
                     "0.000000000000000000000000000001234567890123456789", "1" + String(repeating: "0", count: 400) + "e-400"] {
            #expect(try scanned(text).bitPattern == Double(text)!.bitPattern, "\(text)")
        }
        // Through a reading's field, too.
        let r = try ReadingDecoder().decode(Self.reading(location: #""latitude": 0, "longitude": 0, "altitude": 0.30000000000000004"#))
        #expect(r.location.altitude == 0.30000000000000004)
    }

    /// Misspelt and unknown keys are skipped and noted, with a guess at the key meant; absurd
    /// values are refused.
    @Test func unknownKeysAreNotedAndAbsurdValuesRefused() throws {
        let r = try ReadingDecoder().decode(Self.reading(
            location: #""latitude": 1, "longitude": 2, "altitudeRefernce": "ellipsoid", "speed": 3"#,
            orientation: #""heading": 10, "pitch": 0, "headingRef": "magnetic""#, extra: #""Tap": {"x": 1}, "source": "app""#))
        #expect(r.unknownFields == ["location.altitudeRefernce (did you mean location.altitudeReference?)", "location.speed",
                                    "orientation.headingRef (did you mean orientation.headingReference?)",
                                    "Tap (did you mean tap?)", "source"])
        #expect(try ReadingDecoder().decode(Self.reading()).unknownFields.isEmpty)
        for (field, value, message) in [
            ("heading", "1e300", "orientation.heading must be within −3600…3600, got 1e300"),
            ("roll", "-1e9", "orientation.roll must be within −3600…3600, got -1e9"),
            ("headingAccuracy", "1000", "orientation.headingAccuracy must be within 0…180 degrees, got 1000"),
        ] {
            let base = field == "heading" ? #""pitch": 0"# : #""heading": 1, "pitch": 0"#
            let error = try #require(Self.error(Self.reading(orientation: base + #", "\#(field)": \#(value)"#)))
            #expect(error.description == message)
        }
        let high = try #require(Self.error(Self.reading(location: #""latitude": 1, "longitude": 2, "altitude": 1e7"#)))
        #expect(high.description == "location.altitude must be within −1000…50000 metres, got 1e7")
    }
}
