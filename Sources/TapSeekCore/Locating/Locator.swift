import Foundation

/// Locates what a reading looks at: build one over a DEM catalog, then call
/// ``locate(_:)`` from any number of threads. Values in, values out.
///
/// ```swift
/// let locator = Locator(catalog: try ElevationCatalog(directory: "dem"), geoid: try Geoid())
/// // SRTM tiles only; with `import TapSeek`, `rasterReader: .gdal` reads every other format too.
/// let result = locator.locate(reading)   // result.status, result.target?.latitude, …
/// ```
public struct Locator: Sendable {
    public let catalog: ElevationCatalog
    public let geoid: Geoid
    public let settings: MarchSettings
    /// Names the target; nil leaves `placemark` out of results.
    public let placemarks: (@Sendable (Double, Double) -> Placemark?)?
    public let magneticModel: MagneticModel
    /// Names the summit, lake, pass or glacier a target lies on (`placemark.name`) and the
    /// peaks of panoramas and photos; nil leaves them unnamed.
    public let names: FeatureNaming?

    public init(catalog: ElevationCatalog, geoid: Geoid, settings: MarchSettings = MarchSettings(),
                magneticModel: MagneticModel = .wmm,
                placemarks: (@Sendable (Double, Double) -> Placemark?)? = nil,
                names: FeatureNaming? = nil) {
        self.catalog = catalog
        self.geoid = geoid
        self.settings = settings
        self.magneticModel = magneticModel
        self.placemarks = placemarks
        self.names = names
    }

    /// Locates one reading. Never throws: a reading that cannot be located gives a result with
    /// status `error` and a one-line message naming the problem.
    public func locate(_ reading: Reading) -> LocateResult {
        var terrain = TerrainSampler(catalog: catalog)
        return locate(reading, terrain: &terrain)
    }

    /// As ``locate(_:)``, reusing a per-thread terrain sampler (faster for many readings).
    ///
    /// A reading that carries `skyline` or `landmarks` pixels is calibrated first
    /// (``calibrate(_:limits:jobs:)``) and located with the calibrated orientation; the result's
    /// `calibration` says so. Otherwise a `carried` calibration (of an earlier reading of the
    /// same log) corrects the reading's orientation by its correction.
    public func locate(_ reading: Reading, carrying carried: Calibration? = nil, terrain: inout TerrainSampler) -> LocateResult {
        let prepared = calibrated(reading, carried: carried, terrain: &terrain)
        var result: LocateResult
        do {
            result = try locateOrThrow(prepared.reading, terrain: &terrain)
        } catch {
            result = .failure(error, id: reading.id, time: reading.time)
        }
        result.calibration = prepared.calibration
        // Joined only when there is something to put first: the two concatenations copied the
        // result's warnings into new arrays for every reading (400 instructions).
        let unknown = Self.unknownFieldWarnings(reading)
        if !unknown.isEmpty || !prepared.warnings.isEmpty {
            result.warnings = unknown + prepared.warnings + result.warnings
        }
        return result
    }

    /// A warning naming the reading's members that the interface does not define (a misspelt
    /// `headingReference` would otherwise quietly make a magnetic heading true).
    static func unknownFieldWarnings(_ reading: Reading) -> [Warning] {
        guard !reading.unknownFields.isEmpty else { return [] }
        return [Warning(.unknownField, "ignored unknown field\(reading.unknownFields.count == 1 ? "" : "s"): \(reading.unknownFields.joined(separator: ", "))")]
    }

    private func locateOrThrow(_ reading: Reading, terrain: inout TerrainSampler) throws(LocateResult.Failure) -> LocateResult {
        var result = LocateResult(id: reading.id, time: reading.time, status: .horizon)
        guard let orientation = reading.orientation else {
            // A location-only record (GPSLogger, phyphox): where the observer stands is all
            // there is to say. A given altitude still says it outside the DEM.
            result.status = .location
            let observer = try place(reading.location, terrain: &terrain, warnings: &result.warnings,
                                     allowsOutside: reading.location.altitude != nil)
            result.observer = observer
            result.placemark = placemarks?(observer.latitude, observer.longitude)
            return result
        }
        try Self.validate(reading, orientation: orientation)
        let observer = try place(reading.location, terrain: &terrain, warnings: &result.warnings)
        result.observer = observer

        let heading = try trueHeading(of: reading, orientation: orientation, observer: observer)
        let camera = CameraOrientation(heading: heading, pitch: orientation.pitch, roll: orientation.roll)
        let direction = camera.direction(tap: reading.tap, camera: reading.camera.map(PinholeCamera.init))
        var view = ViewDirection(enu: direction)
        if (direction.x * direction.x + direction.y * direction.y).squareRoot() < 1e-9 { view.azimuth = normalizedAzimuth(heading) }
        result.sightline = .init(azimuth: view.azimuth, elevationAngle: view.elevation, refraction: settings.refraction)

        let eye = eye(of: observer)
        // A vertical ray has no azimuth of its own: its skyline lies along the camera's heading.
        var march = SightlineMarch(observer: eye, direction: direction, geoid: geoid, settings: settings,
                                   verticalAzimuth: heading)
        // No tile is loaded ahead of the ray: the ceiling is the highest mountain on Earth (the
        // march only goes on a little longer before it knows it is above everything).
        let outcome = march.run(over: &terrain, maximumTerrain: Self.highestOnEarth)
        result.track = outcome.track
        result.profile = outcome.profile
        switch outcome.outcome {
        case .noTerrain:
            throw LocateResult.Failure(code: .noTerrain, message: "the sightline met no terrain data (left the DEM at once or crossed only voids)")
        case .hit: result.status = .hit
        case .horizon: result.status = .horizon
        case .terrainUnknown:
            // What is known is kept: where the observer stands, the sightline and its track up
            // to the void, for plots and maps.
            let stretch = outcome.unknownStretch ?? 0...0
            result.status = .error
            result.error = LocateResult.Failure(code: .terrainUnknown, message: "terrain unknown: the sightline crosses a void in the DEM \(Self.metres(stretch.lowerBound))–\(Self.metres(stretch.upperBound)) m from the observer and may meet the terrain there, where its height is unknown (fill voids, the default, or use a DEM without voids)")
            return result
        }
        if let filled = outcome.filledTerrain {
            result.warnings.append(Warning(.filledVoid, Self.filledMessage(filled)))
        }
        if let left = outcome.leftData {
            var damage = ""
            if let end = outcome.track.last, let d = catalog.damage(latitude: end.latitude, longitude: end.longitude) { damage = " (a \(d))" }
            result.warnings.append(Warning(.leftDEM, "the sightline left the DEM \(Self.metres(left)) m from the observer without meeting the terrain; terrain beyond is unknown\(damage)"))
        }
        if outcome.crossedVoid {
            result.warnings.append(Warning(.voidOnSightline, "the sightline crossed a void in the DEM; terrain there is unknown and may hide a nearer hit"))
        }
        let distance = Geodesic.distance(latitude1: observer.latitude, longitude1: observer.longitude,
                                         latitude2: outcome.latitude, longitude2: outcome.longitude)
        result.target = .init(latitude: outcome.latitude, longitude: outcome.longitude, elevation: outcome.elevation,
                              distance: distance, slantRange: outcome.slantRange)
        if result.status == .horizon {
            // How far above the skyline point the ray passed: its apparent elevation from the eye.
            // The march's frame and radius are the eye's, as TargetSight would make them (the
            // same arithmetic, so the same bits): made again, they cost 800 instructions.
            let skyline = TargetSight(eye: eye, frame: march.path.frame, radius: march.path.radius,
                                      target: position(latitude: outcome.latitude, longitude: outcome.longitude, msl: outcome.elevation),
                                      refraction: settings.refraction).view.elevation
            let above = view.elevation - skyline
            // Where the sightline left the DEM, terrain beyond may stand in its way: the sky is
            // not known to lie that way.
            if above > Self.skyMargin, outcome.leftData == nil {
                let degrees = Self.oneDecimal(above)
                result.warnings.append(Warning(.skyTapped, "the sightline passes \(degrees)° above the skyline: no terrain lies in the tapped direction (the sky?); the target is the skyline point \(degrees)° below it"))
            }
        }
        result.placemark = placemarks?(outcome.latitude, outcome.longitude)
        if let names, let feature = names.name(latitude: outcome.latitude, longitude: outcome.longitude, elevation: outcome.elevation, terrain: &terrain) {
            var placemark = result.placemark ?? Placemark()
            placemark.setFeature(feature)
            result.placemark = placemark
        }
        return result
    }

    /// The `filled-void` warning's sentence: how far the answer rests on filled terrain.
    static func filledMessage(_ filled: FilledTerrain) -> String {
        let along = filled.groundDistance > 0
            ? "\(metres(filled.groundDistance)) m of the sightline ran less than \(Int(FilledTerrain.clearance)) m above filled terrain"
            : ""
        if filled.targetOnFilled {
            return "the target lies on terrain filled across a void of the DEM (interpolated from around the void, not measured)" + (along.isEmpty ? "" : "; " + along)
        }
        return along + ", filled across a void of the DEM (interpolated, not measured): real terrain there may stop the sightline nearer"
    }

    /// Degrees by which a sightline that meets no terrain may pass above the skyline point it
    /// reports before the result warns that the tap was on the sky: a hand-held phone's pitch
    /// error (``SensorSigmas/defaultPitch``); nearer, the skyline is what was aimed at.
    public static let skyMargin = SensorSigmas.defaultPitch

    /// The observer's eye: position, height above mean sea level and the ground under it.
    /// - Parameter allowsOutside: whether an observer outside every tile is placed anyway (with a
    ///   warning and no ground), which needs a given altitude.
    func place(_ location: Reading.Location, terrain: inout TerrainSampler, warnings: inout [Warning],
               allowsOutside: Bool = false) throws(LocateResult.Failure) -> LocateResult.Observer {
        let p: (latitude: Double, longitude: Double)
        do {
            p = try CoordinateError.validated(latitude: location.latitude, longitude: location.longitude)
        } catch {
            throw LocateResult.Failure(code: .badInput, message: "location.\(error.message)")
        }
        var ground: Double?
        switch terrain.sample(latitude: p.latitude, longitude: p.longitude) {
        case .outside:
            if let damage = catalog.damage(latitude: p.latitude, longitude: p.longitude) {
                throw LocateResult.Failure(code: .damagedDEM, message: "the observer (\(p.latitude), \(p.longitude)) lies in the footprint of a \(damage)")
            }
            guard allowsOutside, location.altitude != nil else {
                throw LocateResult.Failure(code: .outsideDEM, message: "the observer (\(p.latitude), \(p.longitude)) is outside the DEM: no tile covers it")
            }
            warnings.append(Warning(.observerOutsideDEM, "no DEM tile covers the observer; ground elevation unknown"))
        case .void:
            guard location.altitude != nil else {
                throw LocateResult.Failure(code: .voidObserver,
                                           message: "the observer stands over a void in the DEM and no altitude is given (location.altitude, or --altitude)")
            }
            warnings.append(Warning(.observerOverVoid, "the observer stands over a void in the DEM; ground elevation unknown"))
        case .height(let h):
            ground = h
        }
        var altitude: Double
        if let given = location.altitude {
            altitude = location.altitudeReference == .ellipsoid
                ? geoid.orthometricHeight(ellipsoidal: given, latitude: p.latitude, longitude: p.longitude)
                : given
            if let g = ground, altitude < g {
                warnings.append(Warning(.observerRaised, "altitude \(Self.metres(altitude)) m is below the terrain (\(Self.metres(g)) m); observer raised to ground + \(Self.metres(location.eyeHeight)) m"))
                altitude = g + location.eyeHeight
            }
        } else {
            altitude = ground! + location.eyeHeight
        }
        return .init(latitude: p.latitude, longitude: p.longitude, altitude: altitude, groundElevation: ground)
    }

    /// A point given in metres above mean sea level, as a height above the WGS84 ellipsoid.
    func position(latitude: Double, longitude: Double, msl: Double) -> GeodeticPosition {
        GeodeticPosition(latitude: latitude, longitude: longitude, height: msl + geoid.undulation(latitude: latitude, longitude: longitude))
    }

    /// The observer's eye above the WGS84 ellipsoid.
    func eye(of observer: LocateResult.Observer) -> GeodeticPosition {
        position(latitude: observer.latitude, longitude: observer.longitude, msl: observer.altitude)
    }

    private static func metres(_ x: Double) -> String { oneDecimal(x) }

    /// `x` to one decimal, as `String(format: "%.1f", x)` writes it: the exact value of the
    /// double rounded half to even, a `-` for any negative `x` (`-0.0`). Foundation's formatter
    /// took 30 000 instructions a call, and a sightline that leaves the DEM or passes above the
    /// skyline says so with a number: a sixth of a located reading's instructions.
    ///
    /// x·10 is p + e exactly, p the rounded product and e its error (a fused multiply-add).
    /// Below 10¹⁵ every half-integer is a double, so p + e rounds as p does unless p is itself
    /// a half-integer and e ≠ 0; then e says which way.
    static func oneDecimal(_ x: Double) -> String {
        guard x.isFinite, abs(x) < 1e15 else { return String(format: "%.1f", x) }
        let p = x * 10
        let e = (-p).addingProduct(x, 10)
        var n = p.rounded(.toNearestOrEven)
        // p is a half-integer when 2p is an odd integer (2p is exact; p − ⌊p⌋ is not, below 1).
        let twice = 2 * p
        if e != 0, twice == twice.rounded(), twice.truncatingRemainder(dividingBy: 2) != 0 { n = e > 0 ? p + 0.5 : p - 0.5 }
        // The digits written from the right into a buffer and made a string once: four
        // strings concatenated cost 1 200 instructions a call.
        var tenths = UInt64(abs(n))
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buffer in
            var i = 23
            buffer[i] = UInt8(ascii: "0") + UInt8(tenths % 10)
            i -= 1
            buffer[i] = UInt8(ascii: ".")
            tenths /= 10
            repeat {
                i -= 1
                buffer[i] = UInt8(ascii: "0") + UInt8(tenths % 10)
                tenths /= 10
            } while tenths > 0
            if x.sign == .minus {
                i -= 1
                buffer[i] = UInt8(ascii: "-")
            }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[i...]), as: UTF8.self)
        }
    }

    /// Highest terrain on Earth, metres above mean sea level (Everest, 8 849 m, 2020 survey).
    static let highestOnEarth = 8849.0

    /// Rejects a reading whose numbers cannot make a sightline, naming the field as the reading
    /// decoder does. Readings from ``ReadingDecoder`` always pass; this guards readings built in
    /// code (a NaN heading would otherwise march nowhere and report "no terrain").
    private static func validate(_ reading: Reading, orientation: Reading.Orientation) throws(LocateResult.Failure) {
        func bad(_ field: String, _ rule: String, _ value: Double) -> LocateResult.Failure {
            LocateResult.Failure(code: .badInput, message: "\(field) \(rule), got \(value)")
        }
        let location = reading.location
        if let altitude = location.altitude, !altitude.isFinite {
            throw bad("location.altitude", "must be a finite number", altitude)
        }
        guard location.eyeHeight.isFinite, location.eyeHeight >= 0 else {
            throw bad("location.eyeHeight", "must be a finite number ≥ 0", location.eyeHeight)
        }
        guard orientation.heading.isFinite else { throw bad("orientation.heading", "must be a finite number", orientation.heading) }
        guard orientation.pitch.isFinite, (-90...90).contains(orientation.pitch) else {
            throw bad("orientation.pitch", "must be within −90…90", orientation.pitch)
        }
        guard orientation.roll.isFinite else { throw bad("orientation.roll", "must be a finite number", orientation.roll) }
        guard let tap = reading.tap else { return }
        guard let camera = reading.camera else {
            throw LocateResult.Failure(code: .badInput, message: "tap needs camera.horizontalFOV, imageWidth and imageHeight")
        }
        guard camera.horizontalFOV > 0, camera.horizontalFOV < 180 else {
            throw bad("camera.horizontalFOV", "must be within (0, 180) degrees", camera.horizontalFOV)
        }
        guard camera.zoom.isFinite, camera.zoom >= 1 else { throw bad("camera.zoom", "must be a finite number ≥ 1", camera.zoom) }
        guard camera.imageWidth.isFinite, camera.imageWidth > 0 else {
            throw bad("camera.imageWidth", "must be a finite number > 0", camera.imageWidth)
        }
        guard camera.imageHeight.isFinite, camera.imageHeight > 0 else {
            throw bad("camera.imageHeight", "must be a finite number > 0", camera.imageHeight)
        }
        guard tap.x >= 0, tap.x <= camera.imageWidth else { throw bad("tap.x", "must be within 0…\(camera.imageWidth)", tap.x) }
        guard tap.y >= 0, tap.y <= camera.imageHeight else { throw bad("tap.y", "must be within 0…\(camera.imageHeight)", tap.y) }
    }
}

extension LocateResult {
    static func failure(_ failure: Failure, id: String?, time: Date?) -> LocateResult {
        .failure(failure, id: id, line: nil, time: time)
    }
}
