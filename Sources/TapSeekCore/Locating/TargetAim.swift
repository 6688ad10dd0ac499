import Foundation

/// Where to look for a known place, and whether it can be seen: the answer of
/// ``Locator/aim(_:terrain:)`` and of `tapseek aim`.
public struct AimResult: Sendable {
    /// The target as aimed at: degrees, metres above mean sea level (given, or the DEM's).
    public struct Target: Sendable, Hashable {
        public var latitude: Double
        public var longitude: Double
        /// Nil when neither the request nor the DEM gives one (a target off the DEM): the aim
        /// is then at the ellipsoid's surface below the target.
        public var elevation: Double?
        public var name: String?
    }

    /// The first terrain in the way.
    public struct Blocker: Sendable, Hashable {
        public var latitude: Double
        public var longitude: Double
        /// Metres above mean sea level.
        public var elevation: Double
        /// Geodesic metres from the observer.
        public var distance: Double
    }

    /// Where the target appears in the camera's image.
    public struct Pixel: Sendable, Hashable {
        /// From the image's top-left corner, y down; nil when the target is behind the camera.
        public var x: Double?
        public var y: Double?
        /// Whether the pixel lies in the image.
        public var inFrame: Bool
        /// Whether the target lies behind the camera (or 90° or more off its axis).
        public var behindCamera: Bool
    }

    public var id: String?
    /// 1-based input line with `--batch`.
    public var line: Int?
    public var target: Target?
    /// The apparent (refracted) direction to the target, degrees.
    public var azimuth = Double.nan
    public var elevationAngle = Double.nan
    /// Geodesic metres between the observer's and the target's ground points, and straight-line
    /// metres from the eye to the target.
    public var distance = Double.nan
    public var slantRange = Double.nan
    /// Whether the sightline meets no terrain more than max(30 m, 0.5 % of the slant range)
    /// short of the target; nil when that is unknown: the target lies off the DEM and no
    /// terrain the DEM holds blocks the sightline.
    public var visible: Bool? = false
    public var blockedBy: Blocker?
    /// Present when the request gives an orientation and a camera.
    public var pixel: Pixel?
    public var observer: LocateResult.Observer?
    public var warnings: [Warning] = []
    public var error: LocateResult.Failure?

    public init(id: String? = nil, line: Int? = nil) {
        self.id = id
        self.line = line
    }
}

extension Locator {
    /// Aims from an observer at a target: its apparent direction, distances, whether terrain
    /// hides it (and where), and its pixel under the request's orientation and camera. Never
    /// throws: a request that cannot be answered gives a result with `error`.
    ///
    /// - Parameter resolve: looks a target's name up near the observer (name, latitude,
    ///   longitude in degrees; the place search's ``AimRequest/NameLookup``); without it a named
    ///   target is an error.
    public func aim(_ request: AimRequest, terrain: inout TerrainSampler,
                    resolve: (@Sendable (String, Double, Double) -> AimRequest.NameLookup)? = nil) -> AimResult {
        var result = AimResult(id: request.observer.id)
        result.warnings = Self.unknownFieldWarnings(request.observer)
        do {
            try aimOrThrow(request, terrain: &terrain, resolve: resolve, into: &result)
        } catch {
            result.error = error
        }
        return result
    }

    /// The `not-found` failure of a name, with the closest matches the search offered.
    static func notFound(_ name: String, candidates: [AimRequest.Candidate]) -> LocateResult.Failure {
        let radius = String(format: "%.0f", AimRequest.nameSearchRadius / 1000)
        var message = "target.name \"\(name)\" names no place within \(radius) km of the observer"
        if candidates.isEmpty {
            message += " and matches no known place"
        } else {
            let listed = candidates.prefix(3).map { "\($0.name) (\($0.isoCountryCode), \(String(format: "%.0f", $0.distance / 1000)) km)" }
            message += "; closest matches: " + listed.joined(separator: ", ")
        }
        message += "; give target.latitude and target.longitude"
        return LocateResult.Failure(code: .notFound, message: message)
    }

    /// As ``aim(_:terrain:resolve:)`` with a terrain sampler of its own.
    public func aim(_ request: AimRequest, resolve: (@Sendable (String, Double, Double) -> AimRequest.NameLookup)? = nil) -> AimResult {
        var terrain = TerrainSampler(catalog: catalog)
        return aim(request, terrain: &terrain, resolve: resolve)
    }

    private func aimOrThrow(_ request: AimRequest, terrain: inout TerrainSampler,
                            resolve: (@Sendable (String, Double, Double) -> AimRequest.NameLookup)?,
                            into result: inout AimResult) throws(LocateResult.Failure) {
        var target = request.target
        if case .named(let name) = target {
            guard let resolve else {
                throw LocateResult.Failure(code: .badInput, message: "target.name needs the place-search index (run scripts/setup.sh)")
            }
            let location = request.observer.location
            let found: AimRequest.Target
            switch resolve(name, location.latitude, location.longitude) {
            case .found(let place): found = place
            case .notFound(let candidates): throw Self.notFound(name, candidates: candidates)
            }
            // A resolver that forgives typing errors may answer another name: say so.
            if case .position(_, _, _, let foundName?) = found, SearchKey.normalized(foundName) != SearchKey.normalized(name) {
                result.warnings.append(Warning(.nameMismatch, "target.name \"\(name)\" is not the name of the place aimed at: the place search's best match is \(foundName); give latitude and longitude to aim elsewhere"))
            }
            target = found
        }
        guard case .position(let latitude, let longitude, let given, let name) = target else {
            throw LocateResult.Failure(code: .notFound, message: "the place search gave no coordinates")
        }
        let observer = try place(request.observer.location, terrain: &terrain, warnings: &result.warnings)
        result.observer = observer
        let ground: Double?
        let offDEM: Bool
        switch terrain.sample(latitude: latitude, longitude: longitude) {
        case .height(let h): (ground, offDEM) = (h, false)
        case .void: (ground, offDEM) = (nil, false)
        case .outside: (ground, offDEM) = (nil, true)
        }
        let elevation = given ?? ground
        if elevation == nil, !offDEM {
            throw LocateResult.Failure(code: .outsideDEM,
                                       message: "target (\(latitude), \(longitude)) has no elevation and the DEM has a void there; give target.elevation")
        }
        if let ground, let elevation, elevation < ground - 30 {
            result.warnings.append(Warning(.targetBelowGround, String(format: "the target's elevation %.1f m lies %.1f m below the DEM there (%.1f m); it counts as hidden by its own ground", elevation, ground - elevation, ground)))
        }
        if offDEM {
            // Direction and distance need no terrain: they are answered, over the ellipsoid
            // when the elevation is unknown too; whether terrain hides the target is not known.
            let aimedAt = elevation == nil ? "; its elevation is unknown, so the elevation angle is to the ellipsoid's surface below it" : ""
            result.warnings.append(Warning(.targetOutsideDEM, "no DEM terrain at the target: terrain near it is unknown, so is whether it can be seen\(aimedAt)"))
        } else if ground == nil {
            result.warnings.append(Warning(.targetOutsideDEM, "no DEM terrain at the target; terrain near it is unknown"))
        }
        result.target = .init(latitude: latitude, longitude: longitude, elevation: elevation, name: name)
        let eye = eye(of: observer)
        let point = elevation.map { position(latitude: latitude, longitude: longitude, msl: $0) }
            ?? GeodeticPosition(latitude: latitude, longitude: longitude, height: 0)
        let sight = TargetSight(eye: eye, target: point, refraction: settings.refraction)
        result.distance = Geodesic.inverse(latitude1: observer.latitude, longitude1: observer.longitude,
                                           latitude2: latitude, longitude2: longitude).distance
        guard result.distance >= 1 else {
            throw LocateResult.Failure(code: .badInput, message: "the target is the observer's own position")
        }
        let view = sight.view
        result.azimuth = view.azimuth
        result.elevationAngle = view.elevation
        result.slantRange = sight.slantRange
        if let block = sight.blocker(geoid: geoid, over: &terrain, maximumTerrain: Self.highestOnEarth) {
            // Terrain the DEM holds hides it, whatever lies beyond the DEM.
            result.visible = false
            result.blockedBy = .init(latitude: block.latitude, longitude: block.longitude, elevation: block.elevation,
                                     distance: Geodesic.inverse(latitude1: observer.latitude, longitude1: observer.longitude,
                                                                latitude2: block.latitude, longitude2: block.longitude).distance)
        } else {
            result.visible = offDEM ? nil : true
        }
        if let orientation = request.observer.orientation, let settings = request.observer.camera {
            let heading = try trueHeading(of: request.observer, orientation: orientation, observer: observer)
            let camera = PinholeCamera(settings)
            let view = CameraOrientation(heading: heading, pitch: orientation.pitch, roll: orientation.roll)
            if let p = view.pixel(of: sight.direction, camera: camera) {
                result.pixel = .init(x: p.x, y: p.y, inFrame: camera.contains(pixelX: p.x, y: p.y), behindCamera: false)
            } else {
                result.pixel = .init(x: nil, y: nil, inFrame: false, behindCamera: true)
            }
        }
    }
}

// The aim JSON of the interface (`tapseek aim`): angles to 1e-6°, positions to 1e-7°, metres to
// the centimetre, written by ``CompactJSONEncoder`` like the result JSON; decoding reads it back.

extension AimResult: Codable, Hashable {
    private enum CodingKeys: String, CodingKey {
        case id, line, target, azimuth, elevationAngle, distance, slantRange, visible, blockedBy, pixel, observer, warnings, warningCodes, error
    }

    /// The sight's members only when there is no error; `observer` always (null when unplaced).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(id, forKey: .id)
        try c.encodeIfPresent(line, forKey: .line)
        try c.encodeIfPresent(target, forKey: .target)
        if error == nil {
            try c.encode(FixedDecimal.angle(azimuth), forKey: .azimuth)
            try c.encode(FixedDecimal.angle(elevationAngle), forKey: .elevationAngle)
            try c.encode(FixedDecimal.metres(distance), forKey: .distance)
            try c.encode(FixedDecimal.metres(slantRange), forKey: .slantRange)
            try c.encodeIfPresent(visible, forKey: .visible)
            try c.encodeIfPresent(blockedBy, forKey: .blockedBy)
            try c.encodeIfPresent(pixel, forKey: .pixel)
        }
        // Absent when unknown (an error before the observer was placed), as in every record.
        try c.encodeIfPresent(observer, forKey: .observer)
        try c.encode(warnings, messages: .warnings, codes: .warningCodes)
        try c.encodeIfPresent(error, forKey: .error)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(id: try c.decodeIfPresent(String.self, forKey: .id), line: try c.decodeIfPresent(Int.self, forKey: .line))
        target = try c.decodeIfPresent(Target.self, forKey: .target)
        azimuth = try c.decodeIfPresent(Double.self, forKey: .azimuth) ?? .nan
        elevationAngle = try c.decodeIfPresent(Double.self, forKey: .elevationAngle) ?? .nan
        distance = try c.decodeIfPresent(Double.self, forKey: .distance) ?? .nan
        slantRange = try c.decodeIfPresent(Double.self, forKey: .slantRange) ?? .nan
        visible = try c.decodeIfPresent(Bool.self, forKey: .visible)
        blockedBy = try c.decodeIfPresent(Blocker.self, forKey: .blockedBy)
        pixel = try c.decodeIfPresent(Pixel.self, forKey: .pixel)
        observer = try c.decodeIfPresent(LocateResult.Observer.self, forKey: .observer)
        warnings = try c.decodeWarnings(messages: .warnings, codes: .warningCodes)
        error = try c.decodeIfPresent(LocateResult.Failure.self, forKey: .error)
    }
}

extension AimResult.Target: Codable {
    private enum CodingKeys: String, CodingKey { case latitude, longitude, elevation, name }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(FixedDecimal.position(latitude), forKey: .latitude)
        try c.encode(FixedDecimal.position(longitude), forKey: .longitude)
        try c.encodeIfPresent(elevation.map(FixedDecimal.metres), forKey: .elevation)
        try c.encodeIfPresent(name, forKey: .name)
    }
}

extension AimResult.Blocker: Codable {
    private enum CodingKeys: String, CodingKey { case latitude, longitude, elevation, distance }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(FixedDecimal.position(latitude), forKey: .latitude)
        try c.encode(FixedDecimal.position(longitude), forKey: .longitude)
        try c.encode(FixedDecimal.metres(elevation), forKey: .elevation)
        try c.encode(FixedDecimal.metres(distance), forKey: .distance)
    }
}

extension AimResult.Pixel: Codable {
    private enum CodingKeys: String, CodingKey { case x, y, inFrame, behindCamera }

    /// `x` and `y` only when both are known.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        if let x, let y {
            try c.encode(FixedDecimal.metres(x), forKey: .x)
            try c.encode(FixedDecimal.metres(y), forKey: .y)
        }
        try c.encode(inFrame, forKey: .inFrame)
        try c.encode(behindCamera, forKey: .behindCamera)
    }
}
