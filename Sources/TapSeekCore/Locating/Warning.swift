/// Something a result should not be taken without: a stable ``Code`` for programs and a sentence
/// for people. In the result JSON the sentences are `warnings` and the codes, in the same order,
/// `warningCodes`; the codes never change, the sentences may.
public struct Warning: Sendable, Hashable, CustomStringConvertible {
    public enum Code: String, CaseIterable, Codable, Sendable {
        /// The reading has members the interface does not define (a misspelt key is ignored).
        case unknownField = "unknown-field"
        /// The reading's skyline or landmark pixels fit no orientation; the sensors' is used.
        case calibrationRefused = "calibration-refused"
        /// Two headings explain the traced skyline almost equally.
        case ambiguousCalibration = "ambiguous-calibration"
        /// The calibration could not fix the roll and kept the sensors' one.
        case rollKept = "roll-kept"
        /// No DEM tile covers the observer: ground elevation unknown.
        case observerOutsideDEM = "observer-outside-dem"
        /// The observer stands over a void in the DEM: ground elevation unknown.
        case observerOverVoid = "observer-over-void"
        /// The given altitude lies below the terrain; the observer was raised onto it.
        case observerRaised = "observer-raised"
        /// The sightline (or a panorama's, or an aim's) left the DEM without meeting the terrain.
        case leftDEM = "left-dem"
        /// A sightline crossed a void: the terrain there is unknown and may hide a nearer hit.
        case voidOnSightline = "void-on-sightline"
        /// Some of a panorama's azimuths have no terrain data within range.
        case skylineUnknown = "skyline-unknown"
        /// The hit moves kilometres per degree of pitch: the distance is ill-determined.
        case grazingSightline = "grazing-sightline"
        /// The 95 % region of the target spans more than one named place.
        case severalPlaces = "several-places"
        /// An aimed name resolved to a place with another name (the search's best match).
        case nameMismatch = "name-mismatch"
        /// An aimed target lies below the DEM's ground there.
        case targetBelowGround = "target-below-ground"
        /// No DEM terrain at an aimed target.
        case targetOutsideDEM = "target-outside-dem"
        /// A file of a DEM folder was skipped (not a tile, unreadable, too large for the cache).
        case skippedFile = "skipped-file"
        /// A sightline that met no terrain passed well above the skyline point given as target:
        /// the tap was on the sky.
        case skyTapped = "sky-tapped"
        /// Near ground hides part of a panorama's view (the observer stands on a slope).
        case nearGroundHidesView = "near-ground-hides-view"
        /// No skyline was found in a photo's pixels (fog, cloud, indoors, no sky in view).
        case noSkyline = "no-skyline"
        /// A photo's time is its camera's local clock: no offset to UTC was given.
        case localTime = "local-time"
        /// A photo lacks a value its reading needs (heading, field of view); a default or the
        /// search stands in.
        case photoIncomplete = "photo-incomplete"
        /// Some DEM tiles measure heights from another geoid (EGM2008 for Copernicus) and no grid
        /// of it was at hand to convert them: they are read as if above EGM96.
        case verticalDatum = "vertical-datum"
        /// The answer rests on terrain filled across a void of the DEM (interpolated, not
        /// measured): the target lies on it, or the sightline passed close above it.
        case filledVoid = "filled-void"
        /// Fewer than half of an uncertainty run's samples hit the terrain.
        case fewSamplesHit = "few-samples-hit"
        /// A photo's calibration is unambiguous but imprecise: the sentence gives its heading's
        /// 1-σ, and its covariance carries the imprecision into the taps.
        case calibrationImprecise = "calibration-imprecise"
        /// A code this version does not know, read from a newer TapSeek's JSON.
        case other = "other"
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}

// The JSON's two parallel arrays, for the result types that carry warnings.

extension KeyedEncodingContainer {
    /// Writes `warnings` as its sentences under `messages` and its codes under `codes`.
    mutating func encode(_ warnings: [Warning], messages: Key, codes: Key) throws {
        try encode(warnings.map(\.message), forKey: messages)
        try encode(warnings.map(\.code.rawValue), forKey: codes)
    }
}

extension KeyedDecodingContainer {
    /// Reads warnings written by ``KeyedEncodingContainer/encode(_:messages:codes:)``; JSON
    /// without codes (older output) gives them ``Warning/Code/other``.
    func decodeWarnings(messages: Key, codes: Key) throws -> [Warning] {
        let texts = try decode([String].self, forKey: messages)
        guard let names = try decodeIfPresent([String].self, forKey: codes) else {
            return texts.map { Warning(.other, $0) }
        }
        guard names.count == texts.count else {
            throw DecodingError.dataCorruptedError(forKey: codes, in: self,
                                                   debugDescription: "\(names.count) warning codes for \(texts.count) warnings")
        }
        return zip(names, texts).map { Warning(Warning.Code(rawValue: $0) ?? .other, $1) }
    }
}
