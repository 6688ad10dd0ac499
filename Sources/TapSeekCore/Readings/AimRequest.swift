import Foundation

/// What `tapseek aim` reads: an observer (a reading's `location`, optionally its `orientation`
/// and `camera` for the pixel) and a `target` given by coordinates or by name.
///
/// ```json
/// { "location": { "latitude": 46.624, "longitude": 8.041 },
///   "orientation": { "heading": 208, "pitch": 26 },
///   "camera": { "horizontalFOV": 63.7, "imageWidth": 4032, "imageHeight": 3024 },
///   "target": { "latitude": 46.5775, "longitude": 8.005, "elevation": 3967 } }
/// ```
public struct AimRequest: Sendable, Hashable {
    /// Where the target is: coordinates (elevation nil: the terrain's there), or a name for the
    /// place search to resolve.
    public enum Target: Sendable, Hashable {
        case position(latitude: Double, longitude: Double, elevation: Double?, name: String?)
        case named(String)
    }

    /// What a place search answers for a target's name, looked up near the observer.
    public enum NameLookup: Sendable, Hashable {
        /// The place of that name nearest the observer, within ``nameSearchRadius``.
        case found(Target)
        /// No place of exactly that name (case, accents and spelling variants of the index
        /// aside) lies within ``nameSearchRadius``: the closest matches, best first.
        case notFound(candidates: [Candidate])
    }

    /// A place the search offered for a name, for the message when none is taken.
    public struct Candidate: Sendable, Hashable {
        public var name: String
        /// ISO 3166-1 alpha-2.
        public var isoCountryCode: String
        /// Metres from the observer.
        public var distance: Double

        public init(name: String, isoCountryCode: String, distance: Double) {
            self.name = name
            self.isoCountryCode = isoCountryCode
            self.distance = distance
        }
    }

    /// How far from the observer a named target may lie, metres: about the farthest a summit can
    /// be seen (from 3 000 m, peaks of 4 800 m show about 475 km away; see the conventions'
    /// range). A name matched only farther away is not what the observer looks at.
    public static let nameSearchRadius = 500_000.0

    /// The observer: `location`, and the optional `orientation`, `camera`, `id` and `time`.
    public var observer: Reading
    public var target: Target

    public init(observer: Reading, target: Target) {
        self.observer = observer
        self.target = target
    }

    /// Decodes a request; the observer's fields follow ``ReadingDecoder`` (orientation optional),
    /// `target` needs `latitude` and `longitude` (with an optional `elevation`, metres above mean
    /// sea level, and `name`) or a non-empty `name`.
    public static func decode(_ json: String) throws(ReadingError) -> AimRequest {
        var observer = try ReadingDecoder(requiresOrientation: false).decode(json)
        observer.unknownFields.removeAll { $0 == "target" }
        var text = json
        var result: Result<Target?, ReadingError>!
        text.withUTF8 { utf8 in result = Result { () throws(ReadingError) in try readTarget(utf8) } }
        guard let target = try result.get() else { throw ReadingError(field: "target", message: "is missing") }
        return AimRequest(observer: observer, target: target)
    }

    /// The `target` member of a request whose syntax the reading decoder has already checked.
    private static func readTarget(_ bytes: UnsafeBufferPointer<UInt8>) throws(ReadingError) -> Target? {
        var scanner = JSONScanner(bytes)
        var target: Target?
        try scanner.forEachMember { (s, key) throws(ReadingError) in
            guard JSONScanner.key(key, is: "target") else { return try s.skipValue() }
            guard try s.peekKind() == .object else {
                throw ReadingError(field: "target", message: "must be an object, got \(try s.skipValueQuoting())")
            }
            var latitude: Double?, longitude: Double?, elevation: Double?, name: String?
            try s.forEachMember { (s, key) throws(ReadingError) in
                if JSONScanner.key(key, is: "latitude") {
                    latitude = try s.readNumber("target.latitude", within: -90...90, "−90…90")
                } else if JSONScanner.key(key, is: "longitude") {
                    longitude = try s.readNumber("target.longitude", within: -180...180, "−180…180")
                } else if JSONScanner.key(key, is: "elevation") {
                    elevation = try s.readNumber("target.elevation", within: -500...100_000, "−500…100000 metres")
                } else if JSONScanner.key(key, is: "name") {
                    name = try s.readOptionalString("target.name")
                } else {
                    try s.skipValue()
                }
            }
            switch (latitude, longitude) {
            case let (lat?, lon?):
                target = .position(latitude: lat, longitude: lon, elevation: elevation, name: name)
            case (nil, nil):
                guard let name, !name.trimmingCharacters(in: .whitespaces).isEmpty else {
                    throw ReadingError(field: "target", message: "needs latitude and longitude, or a name")
                }
                target = .named(name)
            case (nil, _): throw ReadingError(field: "target.latitude", message: "is missing")
            case (_, nil): throw ReadingError(field: "target.longitude", message: "is missing")
            }
        }
        return target
    }
}
