import Dispatch
import Foundation

/// The 360° skyline of an observer over a DEM catalog: ``Locator/panorama(from:settings:jobs:)``.
///
/// Encodes the panorama JSON. It is not decoded as a whole: its ``Panorama`` holds the eye's
/// ellipsoidal height and the per-layer skylines, which the JSON does not carry; read a panorama
/// JSON's `skyline` and `peaks` as `[Panorama.Point]` and `[Panorama.Peak]`.
public struct PanoramaResult: Sendable {
    /// Where the observer stands, as for a located reading.
    public var observer: LocateResult.Observer
    /// The skyline, its layers and its peaks.
    public var panorama: Panorama
    public var warnings: [Warning] = []
}

extension Locator {
    /// The panorama seen from a location (a reading's `location`: altitude optional, as MSL or
    /// ellipsoidal height; absent, the eye stands on the ground at eye height), its azimuths
    /// shared among `jobs` threads. Peaks get names from `names` when given, else from the
    /// locator's gazetteer (``FeatureNaming/summit(latitude:longitude:elevation:terrain:)``).
    ///
    /// - Throws: ``LocateResult/Failure`` when the observer cannot be placed (outside the DEM,
    ///   over a void without an altitude, bad coordinates).
    public func panorama(from location: Reading.Location, settings: Panorama.Settings,
                         jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
                         names: (@Sendable (Double, Double) -> String?)? = nil) throws(LocateResult.Failure) -> PanoramaResult {
        var terrain = TerrainSampler(catalog: catalog)
        var warnings: [Warning] = []
        let observer = try place(location, terrain: &terrain, warnings: &warnings)
        let eye = eye(of: observer)
        let range = Panorama.range(settings: settings, eyeMSL: observer.altitude, latitude: observer.latitude)
        let count = Panorama.azimuthCount(step: settings.azimuthStep)
        // Contiguous shares, one per job: neighbouring azimuths share tiles and cache lines.
        let shares = max(1, min(jobs, count))
        let parts = Parts(count: shares)
        let catalog = self.catalog, geoid = self.geoid
        DispatchQueue.concurrentPerform(iterations: shares) { share in
            let azimuths = (share * count / shares)..<((share + 1) * count / shares)
            var sampler = TerrainSampler(catalog: catalog)
            parts.store(share, Panorama.skyline(azimuths: azimuths, eye: eye, geoid: geoid, settings: settings, range: range,
                                                over: &sampler))
        }
        var points = parts.all.flatMap(\.points)
        for i in points.indices where points[i].elevationAngle != nil {
            points[i].filled = terrain.isFilled(latitude: points[i].latitude, longitude: points[i].longitude)
        }
        var panorama = Panorama(eye: eye, settings: settings, range: range, skyline: points,
                                crossedVoid: parts.all.contains { $0.crossedVoid })
        if let names {
            for i in panorama.peaks.indices { panorama.peaks[i].name = names(panorama.peaks[i].latitude, panorama.peaks[i].longitude) }
        } else if let naming = self.names {
            for i in panorama.peaks.indices {
                let peak = panorama.peaks[i]
                if let feature = naming.summit(latitude: peak.latitude, longitude: peak.longitude, elevation: peak.elevation, terrain: &terrain) {
                    panorama.peaks[i].name = feature.name
                    panorama.peaks[i].nameKind = feature.featureCode
                }
            }
        }
        if panorama.crossedVoid {
            warnings.append(Warning(.voidOnSightline, "some sightlines crossed voids in the DEM; terrain there is unknown and may hide part of the skyline"))
        }
        let empty = points.filter { $0.elevationAngle == nil }.count
        if empty > 0 {
            warnings.append(Warning(.skylineUnknown, "\(empty) of \(count) azimuths have no terrain data within range; their skyline is unknown"))
        }
        if let edge = Self.edgeWarning(points, range: range) { warnings.append(edge) }
        if let near = Self.nearGroundWarning(points) { warnings.append(near) }
        if let filled = Self.filledWarning(panorama) { warnings.append(filled) }
        return PanoramaResult(observer: observer, panorama: panorama, warnings: warnings)
    }
}

extension Locator {
    /// The warning for azimuths with terrain whose search left the DEM before it settled the
    /// skyline (``Panorama/Point/complete``); nil when there are none.
    static func edgeWarning(_ points: [Panorama.Point], range: Double) -> Warning? {
        let edge = points.filter { $0.elevationAngle != nil && !$0.complete }.count
        guard edge > 0 else { return nil }
        return Warning(.leftDEM, String(format: "%d of %d azimuths reach the edge of the DEM before the range (%.0f km) with terrain beyond that could rise above the skyline found; their skyline is incomplete (\"complete\": false), possibly the DEM's edge, and gives no peak: add the neighbouring tiles", edge, points.count, range / 1000))
    }

    /// The warning for skyline points and peaks on terrain filled across voids of the DEM
    /// (``Panorama/Point/filled``); nil when there are none.
    static func filledWarning(_ panorama: Panorama) -> Warning? {
        let points = panorama.skyline.filter(\.filled).count
        guard points > 0 else { return nil }
        let peaks = panorama.peaks.filter(\.filled).count
        return Warning(.filledVoid, "\(points) of \(panorama.skyline.count) azimuths' skyline points\(peaks > 0 ? " and \(peaks) of \(panorama.peaks.count) peaks" : "") lie on terrain filled across voids of the DEM (interpolated from around the void, not measured; \"filled\": true): the real skyline there may be higher or lower")
    }

    /// The warning for azimuths whose skyline is ground within ``Panorama/nearGround`` of the
    /// eye, hiding the view behind it: how many, over which azimuths, how high; nil when none.
    static func nearGroundWarning(_ points: [Panorama.Point]) -> Warning? {
        let near = points.filter { p in p.elevationAngle != nil && p.distance < Panorama.nearGround }
        guard let highest = near.compactMap(\.elevationAngle).max() else { return nil }
        return nearGroundWarning(azimuths: near.map(\.azimuth), of: points.count, highest: highest)
    }

    /// The near-ground warning of panoramas and viewsheds: ground within ``Panorama/nearGround``
    /// of the eye is the skyline over `azimuths` (degrees) of `count`, up to `highest` degrees.
    static func nearGroundWarning(azimuths: [Double], of count: Int, highest: Double) -> Warning {
        let first = azimuths.min() ?? 0, last = azimuths.max() ?? 0
        return Warning(.nearGroundHidesView, String(format: "ground within %.0f m of the eye is the skyline over %d of %d azimuths (between %.1f° and %.1f°), up to %.1f° high, hiding the view behind it: the observer stands on a slope; give --altitude (the eye's height above sea level) to see over it", Panorama.nearGround, azimuths.count, count, first, last, highest))
    }

    /// The DEM's skyline from a location at the given azimuths (degrees), each searched exactly
    /// as a panorama's, with `settings`' range and refraction: for drawing the skyline over a
    /// camera image, or checking a traced one.
    public func skyline(from location: Reading.Location, azimuths: [Double],
                        settings: Panorama.Settings = Panorama.Settings()) throws(LocateResult.Failure) -> [Panorama.Point] {
        var terrain = TerrainSampler(catalog: catalog)
        var warnings: [Warning] = []
        let observer = try place(location, terrain: &terrain, warnings: &warnings)
        let eye = eye(of: observer)
        let range = Panorama.range(settings: settings, eyeMSL: observer.altitude, latitude: observer.latitude)
        var crossedVoid = false
        return azimuths.map {
            Panorama.skylinePoint(azimuth: $0, eye: eye, geoid: geoid, settings: settings, range: range, over: &terrain,
                                  crossedVoid: &crossedVoid)
        }
    }
}

/// The shares of a panorama computed on several threads, each stored once by its own thread.
private final class Parts: Sendable {
    private let parts: Locked<[(points: [Panorama.Point], crossedVoid: Bool)]>

    init(count: Int) { parts = Locked(Array(repeating: ([], false), count: count)) }

    func store(_ i: Int, _ part: (points: [Panorama.Point], crossedVoid: Bool)) { parts.withLock { $0[i] = part } }

    var all: [(points: [Panorama.Point], crossedVoid: Bool)] { parts.withLock { $0 } }
}

// The panorama JSON of the interface (`tapseek panorama`): angles to 1e-6°, positions to 1e-7°,
// heights and distances to the centimetre, written by ``CompactJSONEncoder`` like the result JSON.

extension PanoramaResult: Encodable {
    private enum CodingKeys: String, CodingKey { case observer, refraction, azimuthStep, range, skyline, peaks, warnings, warningCodes }

    public func encode(to encoder: any Encoder) throws { try encode(to: encoder, skylineAndPeaks: true) }

    /// The panorama JSON, or without `skyline` and `peaks` (GeoJSON gives them as features and
    /// the rest as the observer's properties).
    public func encode(to encoder: any Encoder, skylineAndPeaks: Bool) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(observer, forKey: .observer)
        try c.encode(panorama.settings.refraction, forKey: .refraction)
        try c.encode(panorama.settings.azimuthStep, forKey: .azimuthStep)
        try c.encode(FixedDecimal.metres(panorama.range), forKey: .range)
        if skylineAndPeaks {
            try c.encode(SkylineJSON(points: panorama.skyline), forKey: .skyline)
            try c.encode(panorama.peaks, forKey: .peaks)
        }
        try c.encode(warnings, messages: .warnings, codes: .warningCodes)
    }
}

extension Panorama.Point: Codable {
    private enum CodingKeys: String, CodingKey { case azimuth, elevationAngle, distance, latitude, longitude, elevation, complete, atRangeLimit, filled }

    /// An azimuth with no terrain in range has only `azimuth`, `"elevationAngle":null` and
    /// `"complete":false`; every entry says `complete`, `"atRangeLimit":true` marks the
    /// points the range cut off (``Panorama/Point/atRangeLimit``) and `"filled":true` those on
    /// terrain filled across a void (``Panorama/Point/filled``). ``CompactJSONEncoder`` writes
    /// the same bytes through ``writeCompactJSON(to:)``: change the two together.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(FixedDecimal.angle(azimuth), forKey: .azimuth)
        guard let elevationAngle else {
            try c.encodeNil(forKey: .elevationAngle)
            try c.encode(complete, forKey: .complete)
            return
        }
        try c.encode(FixedDecimal.angle(elevationAngle), forKey: .elevationAngle)
        try c.encode(FixedDecimal.metres(distance), forKey: .distance)
        try c.encode(FixedDecimal.position(latitude), forKey: .latitude)
        try c.encode(FixedDecimal.position(longitude), forKey: .longitude)
        try c.encode(FixedDecimal.metres(elevation), forKey: .elevation)
        try c.encode(complete, forKey: .complete)
        if atRangeLimit { try c.encode(true, forKey: .atRangeLimit) }
        if filled { try c.encode(true, forKey: .filled) }
    }

    /// The JSON's point; its per-layer skylines (the picture's) are not part of it.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        azimuth = try c.decode(Double.self, forKey: .azimuth)
        elevationAngle = try c.decodeIfPresent(Double.self, forKey: .elevationAngle)
        let known = elevationAngle != nil
        distance = known ? try c.decode(Double.self, forKey: .distance) : .nan
        latitude = known ? try c.decode(Double.self, forKey: .latitude) : .nan
        longitude = known ? try c.decode(Double.self, forKey: .longitude) : .nan
        elevation = known ? try c.decode(Double.self, forKey: .elevation) : .nan
        layers = []
        // JSON of versions before the flag: an entry with terrain was taken as settled.
        complete = try c.decodeIfPresent(Bool.self, forKey: .complete) ?? known
        atRangeLimit = try c.decodeIfPresent(Bool.self, forKey: .atRangeLimit) ?? false
        filled = try c.decodeIfPresent(Bool.self, forKey: .filled) ?? false
    }
}

extension Panorama.Peak: Codable {
    private enum CodingKeys: String, CodingKey { case azimuth, elevationAngle, distance, latitude, longitude, elevation, prominence, name, nameKind, filled }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(FixedDecimal.angle(azimuth), forKey: .azimuth)
        try c.encode(FixedDecimal.angle(elevationAngle), forKey: .elevationAngle)
        try c.encode(FixedDecimal.metres(distance), forKey: .distance)
        try c.encode(FixedDecimal.position(latitude), forKey: .latitude)
        try c.encode(FixedDecimal.position(longitude), forKey: .longitude)
        try c.encode(FixedDecimal.metres(elevation), forKey: .elevation)
        try c.encode(FixedDecimal.angle(prominence), forKey: .prominence)
        try c.encodeIfPresent(name, forKey: .name)
        try c.encodeIfPresent(nameKind, forKey: .nameKind)
        if filled { try c.encode(true, forKey: .filled) }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        azimuth = try c.decode(Double.self, forKey: .azimuth)
        elevationAngle = try c.decode(Double.self, forKey: .elevationAngle)
        distance = try c.decode(Double.self, forKey: .distance)
        latitude = try c.decode(Double.self, forKey: .latitude)
        longitude = try c.decode(Double.self, forKey: .longitude)
        elevation = try c.decode(Double.self, forKey: .elevation)
        prominence = try c.decode(Double.self, forKey: .prominence)
        name = try c.decodeIfPresent(String.self, forKey: .name)
        nameKind = try c.decodeIfPresent(String.self, forKey: .nameKind)
        filled = try c.decodeIfPresent(Bool.self, forKey: .filled) ?? false
    }
}

/// A panorama's skyline as its JSON gives it. Through ``CompactJSONEncoder`` the points are
/// written directly (``Panorama/Point/writeCompactJSON(to:)``), the bytes their keyed containers
/// give, without a container's bookkeeping and dynamic casts per member: 3 600 points cost 50 M
/// instructions that way, an eighth of `tapseek panorama`. Any other encoder gets the array.
/// (The encoder is asked here, once a skyline, rather than every value the compact encoder
/// writes: a cast there cost `tapseek batch` 9 000 instructions a reading.)
struct SkylineJSON: Encodable {
    let points: [Panorama.Point]

    func encode(to encoder: any Encoder) throws {
        guard let compact = encoder as? JSONStreamWriter else { return try points.encode(to: encoder) }
        compact.markWritten()
        compact.bytes.append(UInt8(ascii: "["))
        for (k, point) in points.enumerated() {
            if k > 0 { compact.bytes.append(UInt8(ascii: ",")) }
            point.writeCompactJSON(to: &compact.bytes)
        }
        compact.bytes.append(UInt8(ascii: "]"))
    }
}

extension Panorama.Point {
    /// The bytes ``encode(to:)`` gives through ``CompactJSONEncoder``, written directly:
    /// the same members in the same order, each number by the same ``FixedDecimal`` rule.
    ///
    /// The point is laid out in a buffer on the stack and appended once: appended piece by
    /// piece, its fourteen appends (each a capacity check and a copy call) cost 3 000
    /// instructions a point, 11 M of a 3 600-ray panorama.
    func writeCompactJSON(to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(byteCount: Self.compactJSONCapacity, alignment: 16) { buffer in
            let out = buffer.baseAddress!
            var count = 0
            writeCompactJSON(to: out, count: &count)
            bytes.append(contentsOf: UnsafeRawBufferPointer(start: out, count: count))
        }
    }

    /// Room for a point's JSON: its keys and literals (at most 131 bytes) and six numbers of at
    /// most ``JSONText/fixedCapacity`` bytes each, the last of which may use all of its room.
    static let compactJSONCapacity = 512

    private func writeCompactJSON(to out: UnsafeMutableRawPointer, count n: inout Int) {
        func text(_ t: StaticString) {
            (out + n).copyMemory(from: t.utf8Start, byteCount: t.utf8CodeUnitCount)
            n += t.utf8CodeUnitCount
        }
        func number(_ f: FixedDecimal) {
            // writeFixed writes in place (up to fixedCapacity bytes); fixed(_:decimals:_:)
            // gives the same bytes and also null and the numbers beyond writeFixed's reach.
            if f.value.isFinite, let length = JSONText.writeFixed(f.value, decimals: f.places, to: out + n) {
                n += length
                return
            }
            JSONText.fixed(f.value, decimals: f.places) { digits in
                (out + n).copyMemory(from: digits.baseAddress!, byteCount: digits.count)
                n += digits.count
            }
        }
        text("{\"azimuth\":")
        number(.angle(azimuth))
        guard let elevationAngle else {
            text(complete ? ",\"elevationAngle\":null,\"complete\":true}" : ",\"elevationAngle\":null,\"complete\":false}")
            return
        }
        text(",\"elevationAngle\":")
        number(.angle(elevationAngle))
        text(",\"distance\":")
        number(.metres(distance))
        text(",\"latitude\":")
        number(.position(latitude))
        text(",\"longitude\":")
        number(.position(longitude))
        text(",\"elevation\":")
        number(.metres(elevation))
        text(complete ? ",\"complete\":true" : ",\"complete\":false")
        if atRangeLimit { text(",\"atRangeLimit\":true") }
        if filled { text(",\"filled\":true") }
        text("}")
    }
}
