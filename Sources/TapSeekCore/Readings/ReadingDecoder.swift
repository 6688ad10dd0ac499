import Foundation

/// Decodes and validates one reading JSON object (the public interface's "sensor reading") into
/// a ``Reading``.
///
/// Every problem becomes a ``ReadingError`` whose one-line description names the field and
/// quotes the offending value: `orientation.pitch must be within −90…90, got 123`,
/// `location.latitude is missing`, `camera.horizontalFOV must be a number, got "abc"`.
///
/// The rules, beyond the types of the interface:
/// - `location.latitude` −90…90; `location.longitude` −180…180. Longitudes are **not** wrapped:
///   a value outside is almost always a swapped or corrupt field, and wrapping it would quietly
///   put the observer elsewhere on Earth.
/// - `location.altitude` finite; `altitudeReference` `"msl"` (default) or `"ellipsoid"`;
///   `eyeHeight` ≥ 0 (default 1.6 m); accuracies ≥ 0.
/// - `orientation.heading` and `orientation.pitch` are required (unless
///   ``requiresOrientation`` is false and the whole `orientation` object is absent); heading is
///   any finite number, normalised into [0, 360); pitch −90…90; roll any finite number;
///   `headingReference` `"true"` (default) or `"magnetic"`, and `"magnetic"` needs `time`.
/// - `camera`, when present, needs `horizontalFOV` in (0, 180), `imageWidth` and `imageHeight`
///   > 0; `zoom` ≥ 1 (default 1).
/// - `tap` needs `camera`; `tap.x` within 0…imageWidth and `tap.y` within 0…imageHeight.
/// - `skyline` (an array of `{x, y}`) and `landmarks` (an array of `{x, y, latitude, longitude,
///   elevation?}`) need `camera` and `orientation`; their pixels lie within the image like `tap`,
///   and each array holds at most ``maximumCalibrationPoints`` elements.
/// - `time` is an ISO 8601 date-time with a zone (see ``ISO8601DateTime``); `id` a string.
/// - Limits against absurd values: altitude −1000…50 000 m, eyeHeight 0…10 000 m, heading and
///   roll −3600…3600 (ten turns), angular accuracies 0…180°, location accuracies 0…100 km, zoom 1…1000, image
///   sizes up to 1 000 000 pixels.
/// - `null` counts as absent. Unknown fields are skipped but noted in ``Reading/unknownFields``
///   (with a guess when one looks like a misspelt key), for a warning: the interface lets
///   producers add fields, and a misspelt `headingReference` must not pass silently. A field
///   given twice is an error. Numbers must be JSON numbers and finite: strings
///   such as `"NaN"` or `"12"` and overflowing literals such as `1e999` are rejected.
/// - The input must be exactly one JSON object (surrounding whitespace allowed).
///
/// Speed: a hand-written scanner matches keys in place, converts numbers without building
/// strings (up to 15 significant digits) and allocates only for an `id` longer than 15 bytes;
/// readings are independent, so batches decode in parallel.
public struct ReadingDecoder: Sendable {
    /// When false, a reading without an `orientation` object decodes with `orientation == nil`
    /// (a location-only record). An `orientation` object that is present still needs heading and
    /// pitch.
    public var requiresOrientation: Bool
    /// When set, the position of every reading: it replaces a reading's own `location`, which
    /// may then be absent (`tapseek batch --location`, for logs recorded at a known spot). A
    /// `location` given is still checked.
    public var location: Reading.Location?

    /// The most elements `skyline` or `landmarks` may hold: a trace one point per column of a
    /// 4K image has 4 096, and more only slows a calibration down.
    public static let maximumCalibrationPoints = 10_000

    /// Altitudes a reading may give, metres: the Dead Sea shore to a stratospheric balloon.
    static let altitudes: ClosedRange<Double> = -1000...50_000
    /// Horizontal and vertical accuracies a reading may give, metres.
    static let locationAccuracies: ClosedRange<Double> = 0...100_000
    /// Heading, pitch and roll accuracies a reading may give, degrees.
    static let angularAccuracies: ClosedRange<Double> = 0...180

    /// A decoder; by default a reading must have an orientation.
    public init(requiresOrientation: Bool = true) {
        self.requiresOrientation = requiresOrientation
    }

    /// Decodes a reading from JSON text.
    public func decode(_ json: String) throws(ReadingError) -> Reading {
        var text = json
        var result: Result<Reading, ReadingError>!
        text.withUTF8 { utf8 in result = Result { () throws(ReadingError) in try decode(utf8: utf8) } }
        return try result.get()
    }

    /// Decodes a reading from UTF-8 bytes (`Data`, `[UInt8]`, an `ArraySlice` of a larger
    /// buffer, …).
    public func decode(_ bytes: some ContiguousBytes) throws(ReadingError) -> Reading {
        var result: Result<Reading, ReadingError>!
        bytes.withUnsafeBytes { raw in
            result = Result { () throws(ReadingError) in try decode(utf8: raw.assumingMemoryBound(to: UInt8.self)) }
        }
        return try result.get()
    }

    /// Decodes a reading from a buffer of UTF-8 bytes.
    public func decode(utf8 buffer: UnsafeBufferPointer<UInt8>) throws(ReadingError) -> Reading {
        var scanner = JSONScanner(buffer)
        var parts = Parts()
        guard let first = scanner.peek() else {
            throw ReadingError(field: "", message: "empty input: expected a reading as a JSON object")
        }
        guard first == UInt8(ascii: "{") else {
            let quoted = try scanner.skipValueQuoting()   // a syntax error here wins
            throw ReadingError(field: "", message: "a reading must be a JSON object, got \(quoted)")
        }
        try scanner.forEachMember { (s, key) throws(ReadingError) in try parts.readTopLevel(&s, key) }
        scanner.skipWhitespace()
        guard scanner.isAtEnd else { throw scanner.syntaxError("expected nothing after the reading's closing '}'") }
        return try parts.assemble(requiresOrientation: requiresOrientation, location: location, scanner)
    }
}

/// A number as read, with its source text for error messages.
private struct NumberValue {
    var value: Double
    var source: Range<Int>
}

/// The fields of a reading as they are read, before the checks that span several fields.
private struct Parts {
    var seen: UInt32 = 0

    var id: String?
    var time: Date?
    var hasLocation = false
    var latitude: Double?, longitude: Double?, altitude: Double?
    var altitudeReference = Reading.AltitudeReference.msl
    var horizontalAccuracy: Double?, verticalAccuracy: Double?
    var eyeHeight = Reading.Location.defaultEyeHeight
    var hasOrientation = false
    var heading: Double?, pitch: Double?, roll = 0.0
    var headingReference = Reading.HeadingReference.true
    var headingAccuracy: Double?, pitchAccuracy: Double?, rollAccuracy: Double?
    var hasCamera = false
    var horizontalFOV: Double?, zoom = 1.0, imageWidth: Double?, imageHeight: Double?
    var hasTap = false
    var tapX: NumberValue?, tapY: NumberValue?
    var skyline: [(x: NumberValue, y: NumberValue)] = []
    /// Members the interface does not define, by path (with a guess at a misspelt key).
    var unknownFields: [String] = []
    var landmarks: [(x: NumberValue, y: NumberValue, latitude: Double, longitude: Double, elevation: Double?)] = []

    /// One bit per field, to refuse a field given twice.
    private enum Bit: Int {
        case id, time, location, orientation, camera, tap
        case latitude, longitude, altitude, altitudeReference, horizontalAccuracy, verticalAccuracy, eyeHeight
        case heading, headingReference, pitch, roll, headingAccuracy, pitchAccuracy, rollAccuracy
        case horizontalFOV, zoom, imageWidth, imageHeight
        case x, y
        case skyline, landmarks
    }

    private mutating func once(_ bit: Bit, _ path: String) throws(ReadingError) {
        let mask = UInt32(1) << UInt32(bit.rawValue)
        guard seen & mask == 0 else { throw ReadingError(field: path, message: "appears twice") }
        seen |= mask
    }

    mutating func readTopLevel(_ s: inout JSONScanner, _ key: UnsafeBufferPointer<UInt8>) throws(ReadingError) {
        if JSONScanner.key(key, is: "location") {
            try once(.location, "location")
            hasLocation = try Self.readObject(&s, "location") { (s, key) throws(ReadingError) in try readLocation(&s, key) }
        } else if JSONScanner.key(key, is: "orientation") {
            try once(.orientation, "orientation")
            hasOrientation = try Self.readObject(&s, "orientation") { (s, key) throws(ReadingError) in try readOrientation(&s, key) }
        } else if JSONScanner.key(key, is: "camera") {
            try once(.camera, "camera")
            hasCamera = try Self.readObject(&s, "camera") { (s, key) throws(ReadingError) in try readCamera(&s, key) }
        } else if JSONScanner.key(key, is: "tap") {
            try once(.tap, "tap")
            hasTap = try Self.readObject(&s, "tap") { (s, key) throws(ReadingError) in try readTap(&s, key) }
        } else if JSONScanner.key(key, is: "skyline") {
            try once(.skyline, "skyline")
            try Self.readArray(&s, "skyline") { (s, i) throws(ReadingError) in
                let path = "skyline[\(i)]"
                var x: NumberValue?, y: NumberValue?
                try Self.readPoint(&s, path) { (s, key) throws(ReadingError) in
                    if JSONScanner.key(key, is: "x") {
                        x = try Self.readOnce(x, &s, "\(path).x")
                    } else if JSONScanner.key(key, is: "y") {
                        y = try Self.readOnce(y, &s, "\(path).y")
                    } else {
                        try s.skipValue()
                    }
                }
                guard let x else { throw ReadingError(field: "\(path).x", message: "is missing") }
                guard let y else { throw ReadingError(field: "\(path).y", message: "is missing") }
                skyline.append((x, y))
            }
        } else if JSONScanner.key(key, is: "landmarks") {
            try once(.landmarks, "landmarks")
            try Self.readArray(&s, "landmarks") { (s, i) throws(ReadingError) in
                let path = "landmarks[\(i)]"
                var x: NumberValue?, y: NumberValue?, latitude: NumberValue?, longitude: NumberValue?, elevation: NumberValue?
                try Self.readPoint(&s, path) { (s, key) throws(ReadingError) in
                    if JSONScanner.key(key, is: "x") {
                        x = try Self.readOnce(x, &s, "\(path).x")
                    } else if JSONScanner.key(key, is: "y") {
                        y = try Self.readOnce(y, &s, "\(path).y")
                    } else if JSONScanner.key(key, is: "latitude") {
                        latitude = try Self.readOnce(latitude, &s, "\(path).latitude", within: -90...90, "−90…90")
                    } else if JSONScanner.key(key, is: "longitude") {
                        longitude = try Self.readOnce(longitude, &s, "\(path).longitude", within: -180...180, "−180…180")
                    } else if JSONScanner.key(key, is: "elevation") {
                        elevation = try Self.readOnce(elevation, &s, "\(path).elevation", within: -500...9000, "−500…9000 metres")
                    } else {
                        try s.skipValue()
                    }
                }
                guard let x else { throw ReadingError(field: "\(path).x", message: "is missing") }
                guard let y else { throw ReadingError(field: "\(path).y", message: "is missing") }
                guard let latitude else { throw ReadingError(field: "\(path).latitude", message: "is missing") }
                guard let longitude else { throw ReadingError(field: "\(path).longitude", message: "is missing") }
                landmarks.append((x, y, latitude.value, longitude.value, elevation?.value))
            }
        } else if JSONScanner.key(key, is: "time") {
            try once(.time, "time")
            try readTime(&s)
        } else if JSONScanner.key(key, is: "id") {
            try once(.id, "id")
            id = try Self.readString(&s, "id")
        } else {
            try unknown(&s, key, in: nil)
        }
    }

    /// Skips a member the interface does not define, noting its path and, when it looks like a
    /// misspelt known key, which one.
    private mutating func unknown(_ s: inout JSONScanner, _ key: UnsafeBufferPointer<UInt8>, in object: String?) throws(ReadingError) {
        try s.skipValue()
        let name = String(decoding: key, as: UTF8.self)
        let path = object.map { "\($0).\(name)" } ?? name
        let known = Self.knownKeys[object ?? ""] ?? []
        if let guess = Self.closest(name, among: known) {
            unknownFields.append("\(path) (did you mean \(object.map { "\($0)." } ?? "")\(guess)?)")
        } else {
            unknownFields.append(path)
        }
    }

    /// The keys the interface defines, by object ("" for the top level).
    static let knownKeys: [String: [String]] = [
        "": ["id", "time", "location", "orientation", "camera", "tap", "skyline", "landmarks"],
        "location": ["latitude", "longitude", "altitude", "altitudeReference", "horizontalAccuracy", "verticalAccuracy", "eyeHeight"],
        "orientation": ["heading", "headingReference", "pitch", "roll", "headingAccuracy", "pitchAccuracy", "rollAccuracy"],
        "camera": ["horizontalFOV", "zoom", "imageWidth", "imageHeight"],
        "tap": ["x", "y"],
    ]

    /// The known key a name most likely misspells: equal but for case, within two edits, or one
    /// a prefix of the other (four letters or more; an abbreviation first); nil when none is close.
    static func closest(_ name: String, among known: [String]) -> String? {
        let lower = Array(name.lowercased().utf8)
        var best: (key: String, distance: Int)?
        for key in known {
            let k = Array(key.lowercased().utf8)
            var d = lower.withUnsafeBufferPointer { a in k.withUnsafeBufferPointer { b in SearchKey.distance(a, b, limit: 2) } }
            // An abbreviation (headingRef) before an extension (headingAngle → heading).
            if d == nil, min(lower.count, k.count) >= 4 { d = k.starts(with: lower) ? 3 : lower.starts(with: k) ? 4 : nil }
            if let d, d < (best?.distance ?? .max) { best = (key, d) }
        }
        return best?.key
    }

    private mutating func readLocation(_ s: inout JSONScanner, _ key: UnsafeBufferPointer<UInt8>) throws(ReadingError) {
        if JSONScanner.key(key, is: "latitude") {
            try once(.latitude, "location.latitude")
            latitude = try Self.readNumber(&s, "location.latitude", within: -90...90, "−90…90")?.value
        } else if JSONScanner.key(key, is: "longitude") {
            try once(.longitude, "location.longitude")
            longitude = try Self.readNumber(&s, "location.longitude", within: -180...180, "−180…180")?.value
        } else if JSONScanner.key(key, is: "altitude") {
            try once(.altitude, "location.altitude")
            altitude = try Self.readNumber(&s, "location.altitude", within: ReadingDecoder.altitudes, "−1000…50000 metres")?.value
        } else if JSONScanner.key(key, is: "altitudeReference") {
            try once(.altitudeReference, "location.altitudeReference")
            if let r = try Self.readEnum(&s, "location.altitudeReference", Reading.AltitudeReference.self) {
                altitudeReference = r
            }
        } else if JSONScanner.key(key, is: "horizontalAccuracy") {
            try once(.horizontalAccuracy, "location.horizontalAccuracy")
            horizontalAccuracy = try Self.readNumber(&s, "location.horizontalAccuracy", within: ReadingDecoder.locationAccuracies, "0…100000 metres")?.value
        } else if JSONScanner.key(key, is: "verticalAccuracy") {
            try once(.verticalAccuracy, "location.verticalAccuracy")
            verticalAccuracy = try Self.readNumber(&s, "location.verticalAccuracy", within: ReadingDecoder.locationAccuracies, "0…100000 metres")?.value
        } else if JSONScanner.key(key, is: "eyeHeight") {
            try once(.eyeHeight, "location.eyeHeight")
            if let e = try Self.readNumber(&s, "location.eyeHeight", within: 0...10_000, "0…10000 metres")?.value { eyeHeight = e }
        } else {
            try unknown(&s, key, in: "location")
        }
    }

    private mutating func readOrientation(_ s: inout JSONScanner, _ key: UnsafeBufferPointer<UInt8>) throws(ReadingError) {
        if JSONScanner.key(key, is: "heading") {
            try once(.heading, "orientation.heading")
            heading = (try Self.readNumber(&s, "orientation.heading", within: -3600...3600, "−3600…3600")?.value).map(normalizedAzimuth)
        } else if JSONScanner.key(key, is: "pitch") {
            try once(.pitch, "orientation.pitch")
            pitch = try Self.readNumber(&s, "orientation.pitch", within: -90...90, "−90…90")?.value
        } else if JSONScanner.key(key, is: "roll") {
            try once(.roll, "orientation.roll")
            if let r = try Self.readNumber(&s, "orientation.roll", within: -3600...3600, "−3600…3600") { roll = r.value }
        } else if JSONScanner.key(key, is: "headingReference") {
            try once(.headingReference, "orientation.headingReference")
            if let r = try Self.readEnum(&s, "orientation.headingReference", Reading.HeadingReference.self) {
                headingReference = r
            }
        } else if JSONScanner.key(key, is: "headingAccuracy") {
            try once(.headingAccuracy, "orientation.headingAccuracy")
            headingAccuracy = try Self.readNumber(&s, "orientation.headingAccuracy", within: ReadingDecoder.angularAccuracies, "0…180 degrees")?.value
        } else if JSONScanner.key(key, is: "pitchAccuracy") {
            try once(.pitchAccuracy, "orientation.pitchAccuracy")
            pitchAccuracy = try Self.readNumber(&s, "orientation.pitchAccuracy", within: ReadingDecoder.angularAccuracies, "0…180 degrees")?.value
        } else if JSONScanner.key(key, is: "rollAccuracy") {
            try once(.rollAccuracy, "orientation.rollAccuracy")
            rollAccuracy = try Self.readNumber(&s, "orientation.rollAccuracy", within: ReadingDecoder.angularAccuracies, "0…180 degrees")?.value
        } else {
            try unknown(&s, key, in: "orientation")
        }
    }

    private mutating func readCamera(_ s: inout JSONScanner, _ key: UnsafeBufferPointer<UInt8>) throws(ReadingError) {
        if JSONScanner.key(key, is: "horizontalFOV") {
            try once(.horizontalFOV, "camera.horizontalFOV")
            horizontalFOV = try Self.readNumber(&s, "camera.horizontalFOV", check: { $0 > 0 && $0 < 180 },
                                                "must be within (0, 180) degrees, exclusive")?.value
        } else if JSONScanner.key(key, is: "zoom") {
            try once(.zoom, "camera.zoom")
            if let z = try Self.readNumber(&s, "camera.zoom", within: 1...1000, "1…1000") { zoom = z.value }
        } else if JSONScanner.key(key, is: "imageWidth") {
            try once(.imageWidth, "camera.imageWidth")
            imageWidth = try Self.readNumber(&s, "camera.imageWidth", check: { $0 > 0 && $0 <= 1_000_000 }, "must be within (0, 1000000] pixels")?.value
        } else if JSONScanner.key(key, is: "imageHeight") {
            try once(.imageHeight, "camera.imageHeight")
            imageHeight = try Self.readNumber(&s, "camera.imageHeight", check: { $0 > 0 && $0 <= 1_000_000 }, "must be within (0, 1000000] pixels")?.value
        } else {
            try unknown(&s, key, in: "camera")
        }
    }

    private mutating func readTap(_ s: inout JSONScanner, _ key: UnsafeBufferPointer<UInt8>) throws(ReadingError) {
        if JSONScanner.key(key, is: "x") {
            try once(.x, "tap.x")
            tapX = try Self.readNumber(&s, "tap.x")
        } else if JSONScanner.key(key, is: "y") {
            try once(.y, "tap.y")
            tapY = try Self.readNumber(&s, "tap.y")
        } else {
            try unknown(&s, key, in: "tap")
        }
    }

    private mutating func readTime(_ s: inout JSONScanner) throws(ReadingError) {
        switch try s.peekKind() {
        case .null:
            try s.readNull()
        case .string:
            let start = s.position
            let text = try s.scanString()
            let parsed = text.hasEscapes ? nil
                : ISO8601DateTime.parse(utf8: UnsafeBufferPointer(rebasing: s.bytes[text.range]))
            guard let parsed else {
                throw ReadingError(field: "time", message: "must be an ISO 8601 date-time with a time zone, such as \"2026-07-14T09:31:05Z\", got \(s.quote(start..<s.position))")
            }
            time = parsed
        default:
            let quoted = try s.skipValueQuoting()
            throw ReadingError(field: "time", message: "must be an ISO 8601 date-time string, got \(quoted)")
        }
    }

    // MARK: Typed values

    /// Reads an object member by member; false if the value is `null` (absent).
    private static func readObject(
        _ s: inout JSONScanner, _ path: String,
        _ member: (inout JSONScanner, UnsafeBufferPointer<UInt8>) throws(ReadingError) -> Void
    ) throws(ReadingError) -> Bool {
        switch try s.peekKind() {
        case .object:
            try s.forEachMember(member)
            return true
        case .null:
            try s.readNull()
            return false
        default:
            throw ReadingError(field: path, message: "must be an object, got \(try s.skipValueQuoting())")
        }
    }

    /// An array element by element (`null`: empty), at most
    /// ``ReadingDecoder/maximumCalibrationPoints`` of them.
    private static func readArray(_ s: inout JSONScanner, _ path: String,
                                  _ element: (inout JSONScanner, Int) throws(ReadingError) -> Void) throws(ReadingError) {
        switch try s.peekKind() {
        case .array:
            try s.forEachElement { (s, i) throws(ReadingError) in
                guard i < ReadingDecoder.maximumCalibrationPoints else {
                    throw ReadingError(field: path, message: "holds more than \(ReadingDecoder.maximumCalibrationPoints) elements")
                }
                try element(&s, i)
            }
        case .null:
            try s.readNull()
        default:
            throw ReadingError(field: path, message: "must be an array, got \(try s.skipValueQuoting())")
        }
    }

    /// An object element of an array, member by member; `null` is refused.
    private static func readPoint(_ s: inout JSONScanner, _ path: String,
                                  _ member: (inout JSONScanner, UnsafeBufferPointer<UInt8>) throws(ReadingError) -> Void) throws(ReadingError) {
        guard try s.peekKind() == .object else {
            throw ReadingError(field: path, message: "must be an object, got \(try s.skipValueQuoting())")
        }
        try s.forEachMember(member)
    }

    /// A number of an array element's object, refused when the member appeared before.
    private static func readOnce(_ previous: NumberValue?, _ s: inout JSONScanner, _ path: String,
                                 within range: ClosedRange<Double>? = nil, _ text: String = "") throws(ReadingError) -> NumberValue? {
        guard previous == nil else { throw ReadingError(field: path, message: "appears twice") }
        guard let range else { return try readNumber(&s, path) }
        return try readNumber(&s, path, within: range, text)
    }

    /// A finite JSON number, or nil for `null`.
    private static func readNumber(_ s: inout JSONScanner, _ path: String) throws(ReadingError) -> NumberValue? {
        switch try s.peekKind() {
        case .number:
            s.skipWhitespace()
            let start = s.position
            let v = try s.readNumber()
            guard v.isFinite else {
                throw ReadingError(field: path, message: "must be a finite number, got \(s.quote(start..<s.position))")
            }
            return NumberValue(value: v, source: start..<s.position)
        case .null:
            try s.readNull()
            return nil
        default:
            throw ReadingError(field: path, message: "must be a number, got \(try s.skipValueQuoting())")
        }
    }

    private static func readNumber(_ s: inout JSONScanner, _ path: String, check: (Double) -> Bool,
                                   _ rule: String) throws(ReadingError) -> NumberValue? {
        guard let n = try readNumber(&s, path) else { return nil }
        guard check(n.value) else { throw ReadingError(field: path, message: "\(rule), got \(s.quote(n.source))") }
        return n
    }

    fileprivate static func readNumber(_ s: inout JSONScanner, _ path: String, within range: ClosedRange<Double>,
                                   _ text: String) throws(ReadingError) -> NumberValue? {
        try readNumber(&s, path, check: { range.contains($0) }, "must be within \(text)")
    }

    /// A string, or nil for `null`.
    fileprivate static func readString(_ s: inout JSONScanner, _ path: String) throws(ReadingError) -> String? {
        switch try s.peekKind() {
        case .string: return try s.readString()
        case .null:
            try s.readNull()
            return nil
        default:
            throw ReadingError(field: path, message: "must be a string, got \(try s.skipValueQuoting())")
        }
    }

    /// One of an enumeration's raw values, or nil for `null`.
    private static func readEnum<E: RawRepresentable & CaseIterable>(
        _ s: inout JSONScanner, _ path: String, _ type: E.Type
    ) throws(ReadingError) -> E? where E.RawValue == String {
        s.skipWhitespace()
        let start = s.position
        guard let text = try readString(&s, path) else { return nil }
        if let value = E(rawValue: text) { return value }
        let choices = E.allCases.map { "\"\($0.rawValue)\"" }
        let list = choices.count == 2 ? "\(choices[0]) or \(choices[1])" : choices.joined(separator: ", ")
        throw ReadingError(field: path, message: "must be \(list), got \(s.quote(start..<s.position))")
    }

    // MARK: Cross-field checks

    /// - Parameter fixed: the position that replaces the reading's own (``ReadingDecoder/location``).
    func assemble(requiresOrientation: Bool, location fixed: Reading.Location? = nil, _ s: JSONScanner) throws(ReadingError) -> Reading {
        let location: Reading.Location
        if let fixed {
            location = fixed
        } else {
            guard hasLocation else { throw ReadingError(field: "location", message: "is missing") }
            guard let latitude else { throw ReadingError(field: "location.latitude", message: "is missing") }
            guard let longitude else { throw ReadingError(field: "location.longitude", message: "is missing") }
            location = Reading.Location(latitude: latitude, longitude: longitude, altitude: altitude,
                                        altitudeReference: altitudeReference,
                                        horizontalAccuracy: horizontalAccuracy,
                                        verticalAccuracy: verticalAccuracy, eyeHeight: eyeHeight)
        }

        var orientation: Reading.Orientation?
        if hasOrientation {
            guard let heading else { throw ReadingError(field: "orientation.heading", message: "is missing") }
            guard let pitch else { throw ReadingError(field: "orientation.pitch", message: "is missing") }
            orientation = Reading.Orientation(heading: heading, headingReference: headingReference, pitch: pitch,
                                              roll: roll, headingAccuracy: headingAccuracy,
                                              pitchAccuracy: pitchAccuracy, rollAccuracy: rollAccuracy)
            if headingReference == .magnetic && time == nil {
                throw ReadingError(field: "time", message: "is missing; it is needed when orientation.headingReference is \"magnetic\"")
            }
        } else if requiresOrientation {
            throw ReadingError(field: "orientation", message: "is missing")
        }

        var camera: Reading.CameraSettings?
        if hasCamera {
            guard let horizontalFOV else { throw ReadingError(field: "camera.horizontalFOV", message: "is missing") }
            guard let imageWidth else { throw ReadingError(field: "camera.imageWidth", message: "is missing") }
            guard let imageHeight else { throw ReadingError(field: "camera.imageHeight", message: "is missing") }
            camera = Reading.CameraSettings(horizontalFOV: horizontalFOV, zoom: zoom,
                                            imageWidth: imageWidth, imageHeight: imageHeight)
        }

        var tap: Reading.Tap?
        if hasTap {
            guard let camera else {
                throw ReadingError(field: "tap", message: "needs camera.horizontalFOV, imageWidth and imageHeight")
            }
            guard let tapX else { throw ReadingError(field: "tap.x", message: "is missing") }
            guard let tapY else { throw ReadingError(field: "tap.y", message: "is missing") }
            guard tapX.value >= 0 && tapX.value <= camera.imageWidth else {
                throw ReadingError(field: "tap.x", message: "must be within 0…\(Self.format(camera.imageWidth)) (camera.imageWidth), got \(s.quote(tapX.source))")
            }
            guard tapY.value >= 0 && tapY.value <= camera.imageHeight else {
                throw ReadingError(field: "tap.y", message: "must be within 0…\(Self.format(camera.imageHeight)) (camera.imageHeight), got \(s.quote(tapY.source))")
            }
            tap = Reading.Tap(x: tapX.value, y: tapY.value)
        }

        if !skyline.isEmpty || !landmarks.isEmpty {
            let field = skyline.isEmpty ? "landmarks" : "skyline"
            guard orientation != nil else { throw ReadingError(field: field, message: "needs orientation (the compass's guess to calibrate)") }
            guard camera != nil else { throw ReadingError(field: field, message: "needs camera.horizontalFOV, imageWidth and imageHeight") }
        }
        func pixel(_ x: NumberValue, _ y: NumberValue, _ path: String) throws(ReadingError) -> Reading.Pixel {
            let camera = camera!
            guard x.value >= 0 && x.value <= camera.imageWidth else {
                throw ReadingError(field: "\(path).x", message: "must be within 0…\(Self.format(camera.imageWidth)) (camera.imageWidth), got \(s.quote(x.source))")
            }
            guard y.value >= 0 && y.value <= camera.imageHeight else {
                throw ReadingError(field: "\(path).y", message: "must be within 0…\(Self.format(camera.imageHeight)) (camera.imageHeight), got \(s.quote(y.source))")
            }
            return Reading.Pixel(x: x.value, y: y.value)
        }
        var skylinePixels: [Reading.Pixel] = []
        skylinePixels.reserveCapacity(skyline.count)
        for (i, p) in skyline.enumerated() { skylinePixels.append(try pixel(p.x, p.y, "skyline[\(i)]")) }
        var landmarkPixels: [Reading.Landmark] = []
        for (i, l) in landmarks.enumerated() {
            let p = try pixel(l.x, l.y, "landmarks[\(i)]")
            landmarkPixels.append(Reading.Landmark(x: p.x, y: p.y, latitude: l.latitude, longitude: l.longitude, elevation: l.elevation))
        }

        var reading = Reading(id: id, time: time, location: location, orientation: orientation, camera: camera, tap: tap,
                              skyline: skylinePixels, landmarks: landmarkPixels)
        reading.unknownFields = unknownFields
        return reading
    }

    /// A pixel count as people write it: 4032, not 4032.0.
    private static func format(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : "\(v)"
    }
}

extension JSONScanner {
    /// A finite number within `range` (`text` shows the range in the error), or nil for `null`:
    /// the reading's rule, for decoders of requests that embed a reading (`aim`).
    mutating func readNumber(_ path: String, within range: ClosedRange<Double>, _ text: String) throws(ReadingError) -> Double? {
        try Parts.readNumber(&self, path, within: range, text)?.value
    }

    /// A string, or nil for `null`, with the reading's error for any other value.
    mutating func readOptionalString(_ path: String) throws(ReadingError) -> String? {
        try Parts.readString(&self, path)
    }
}
