import Foundation

/// Locates what a reading looks at: build one over a DEM catalog, then call
/// ``locate(_:)`` from any number of threads. Values in, values out.
///
/// ```swift
/// let locator = Locator(catalog: try ElevationCatalog(directory: "dem"), geoid: try Geoid())
/// let result = locator.locate(reading)   // result.status, result.target?.latitude, …
/// ```
public struct Locator: Sendable {
    public let catalog: ElevationCatalog
    public let geoid: Geoid
    public let settings: MarchSettings
    /// Names the target; nil leaves `placemark` out of results.
    public let placemarks: (@Sendable (Double, Double) -> Placemark?)?
    public let magneticModel: MagneticModel

    public init(catalog: ElevationCatalog, geoid: Geoid, settings: MarchSettings = MarchSettings(),
                magneticModel: MagneticModel = .wmm2025,
                placemarks: (@Sendable (Double, Double) -> Placemark?)? = nil) {
        self.catalog = catalog
        self.geoid = geoid
        self.settings = settings
        self.magneticModel = magneticModel
        self.placemarks = placemarks
    }

    /// Locates one reading. Never throws: a reading that cannot be located gives a result with
    /// status `error` and a one-line message naming the problem.
    public func locate(_ reading: Reading) -> LocateResult {
        var terrain = TerrainSampler(catalog: catalog)
        return locate(reading, terrain: &terrain)
    }

    /// As ``locate(_:)``, reusing a per-thread terrain sampler (faster for many readings).
    public func locate(_ reading: Reading, terrain: inout TerrainSampler) -> LocateResult {
        do {
            return try locateOrThrow(reading, terrain: &terrain)
        } catch {
            return .failure(error, id: reading.id, time: reading.time)
        }
    }

    private func locateOrThrow(_ reading: Reading, terrain: inout TerrainSampler) throws(LocateResult.Failure) -> LocateResult {
        var result = LocateResult(id: reading.id, time: reading.time, status: .horizon)
        guard let orientation = reading.orientation else {
            throw LocateResult.Failure(code: "bad-input", message: "orientation is required to locate (heading and pitch)")
        }
        let observer = try place(reading.location, terrain: &terrain, warnings: &result.warnings)
        result.observer = observer

        var heading = orientation.heading
        if orientation.headingReference == .magnetic {
            guard let time = reading.time else {
                throw LocateResult.Failure(code: "bad-input", message: "time is required with a magnetic heading")
            }
            do {
                heading = try magneticModel.magneticToTrue(heading: heading, latitude: observer.latitude,
                                                           longitude: observer.longitude, height: observer.altitude, date: time)
            } catch {
                throw LocateResult.Failure(code: "magnetic-model", message: error.message)
            }
        }
        let camera = CameraOrientation(heading: heading, pitch: orientation.pitch, roll: orientation.roll)
        let direction = camera.direction(tap: reading.tap, camera: reading.camera.map(PinholeCamera.init))
        let view = ViewDirection(enu: direction)
        result.sightline = .init(azimuth: view.azimuth, elevationAngle: view.elevation, refraction: settings.refraction)

        let undulation = geoid.undulation(latitude: observer.latitude, longitude: observer.longitude)
        let eye = GeodeticPosition(latitude: observer.latitude, longitude: observer.longitude,
                                   height: observer.altitude + undulation)
        var march = SightlineMarch(observer: eye, direction: direction, geoid: geoid, settings: settings)
        let ceiling = maximumTerrain(from: observer, azimuth: view.azimuth)
        let outcome = march.run(over: &terrain, maximumTerrain: ceiling)
        result.track = outcome.track
        result.profile = outcome.profile
        switch outcome.outcome {
        case .noTerrain:
            throw LocateResult.Failure(code: "no-terrain", message: "the sightline met no terrain data (left the DEM at once or crossed only voids)")
        case .hit: result.status = .hit
        case .horizon: result.status = .horizon
        }
        if outcome.crossedVoid {
            result.warnings.append("the sightline crossed a void in the DEM; terrain there is unknown and may hide a nearer hit")
        }
        let distance = Geodesic.inverse(latitude1: observer.latitude, longitude1: observer.longitude,
                                        latitude2: outcome.latitude, longitude2: outcome.longitude).distance
        result.target = .init(latitude: outcome.latitude, longitude: outcome.longitude, elevation: outcome.elevation,
                              distance: distance, slantRange: outcome.slantRange)
        result.placemark = placemarks?(outcome.latitude, outcome.longitude)
        return result
    }

    /// The observer's eye: position, height above mean sea level and the ground under it.
    private func place(_ location: Reading.Location, terrain: inout TerrainSampler,
                       warnings: inout [String]) throws(LocateResult.Failure) -> LocateResult.Observer {
        let p: (latitude: Double, longitude: Double)
        do {
            p = try CoordinateError.validated(latitude: location.latitude, longitude: location.longitude)
        } catch {
            throw LocateResult.Failure(code: "bad-input", message: "location.\(error.message)")
        }
        var ground: Double?
        switch terrain.sample(latitude: p.latitude, longitude: p.longitude) {
        case .outside:
            throw LocateResult.Failure(code: "outside-dem", message: "the observer (\(p.latitude), \(p.longitude)) is outside the DEM: no tile covers it")
        case .void:
            guard location.altitude != nil else {
                throw LocateResult.Failure(code: "void-observer",
                                           message: "the observer stands over a void in the DEM and the reading gives no altitude")
            }
            warnings.append("the observer stands over a void in the DEM; ground elevation unknown")
        case .height(let h):
            ground = h
        }
        var altitude: Double
        if let given = location.altitude {
            altitude = location.altitudeReference == .ellipsoid
                ? geoid.orthometricHeight(ellipsoidal: given, latitude: p.latitude, longitude: p.longitude)
                : given
            if let g = ground, altitude < g {
                warnings.append("altitude \(Self.metres(altitude)) m is below the terrain (\(Self.metres(g)) m); observer raised to ground + \(Self.metres(location.eyeHeight)) m")
                altitude = g + location.eyeHeight
            }
        } else {
            altitude = ground! + location.eyeHeight
        }
        return .init(latitude: p.latitude, longitude: p.longitude, altitude: altitude, groundElevation: ground)
    }

    private static func metres(_ x: Double) -> String { String(format: "%.1f", x) }

    /// The highest terrain the ray can meet, metres above mean sea level: the maximum of every
    /// tile within reach of the ground track along `azimuth`, out to the horizon range of the
    /// highest mountain on Earth. Tiles are loaded once to learn their maxima.
    func maximumTerrain(from observer: LocateResult.Observer, azimuth: Double) -> Double {
        let highestOnEarth = 8849.0
        let rPrime = 6_371_000 / (1 - settings.refraction)
        let reach = (2 * rPrime * max(observer.altitude + 430, 1)).squareRoot()
            + (2 * rPrime * (highestOnEarth + 430)).squareRoot()
        // The track on an equirectangular approximation, sampled every 0.05°; over 500 km it
        // strays from the geodesic by a few kilometres, well inside the 0.15° margin.
        let metresPerDegree = 111_195.0
        let cosLatitude = max(cos(radians(observer.latitude)), 0.01)
        let dLat = cos(radians(azimuth)) / metresPerDegree, dLon = sin(radians(azimuth)) / (metresPerDegree * cosLatitude)
        let stepMetres = 0.05 * metresPerDegree
        let margin = 0.15
        var tiles: [Int] = []
        var d = 0.0
        while d <= reach + stepMetres {
            let lat = observer.latitude + d * dLat, lon = observer.longitude + d * dLon
            if lat < -90 - margin || lat > 90 + margin { break }
            for mlat in [-margin, margin] {
                for mlon in [-margin / cosLatitude, margin / cosLatitude] {
                    tiles.append(contentsOf: catalog.tiles(nearLatitude: min(max(lat + mlat, -90), 90), longitude: lon + mlon))
                }
            }
            d += stepMetres
        }
        return catalog.maximumElevation(ofTiles: Set(tiles)) ?? highestOnEarth
    }
}

extension LocateResult {
    static func failure(_ failure: Failure, id: String?, time: Date?) -> LocateResult {
        .failure(failure, id: id, line: nil, time: time)
    }
}
