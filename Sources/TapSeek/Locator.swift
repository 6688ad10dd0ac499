import Foundation
import Synchronization

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
    /// The slope map of each tile, made once per tile and kept.
    private let tileSlopes = TileSlopes()

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
        // No tile is loaded ahead of the ray: the ceiling is the highest mountain on Earth (the
        // march only goes on a little longer before it knows it is above everything), and the
        // slope bound is looked up tile by tile as the ray reaches them.
        var slopes = CatalogSlopes(catalog: catalog, tileSlopes: tileSlopes)
        let outcome = march.run(over: &terrain, slopes: &slopes, maximumTerrain: Self.highestOnEarth)
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
    /// - Parameter allowsOutside: whether an observer outside every tile is placed anyway (with a
    ///   warning and no ground), which needs a given altitude.
    private func place(_ location: Reading.Location, terrain: inout TerrainSampler, warnings: inout [String],
                       allowsOutside: Bool = false) throws(LocateResult.Failure) -> LocateResult.Observer {
        let p: (latitude: Double, longitude: Double)
        do {
            p = try CoordinateError.validated(latitude: location.latitude, longitude: location.longitude)
        } catch {
            throw LocateResult.Failure(code: "bad-input", message: "location.\(error.message)")
        }
        var ground: Double?
        switch terrain.sample(latitude: p.latitude, longitude: p.longitude) {
        case .outside:
            guard allowsOutside, location.altitude != nil else {
                throw LocateResult.Failure(code: "outside-dem", message: "the observer (\(p.latitude), \(p.longitude)) is outside the DEM: no tile covers it")
            }
            warnings.append("no DEM tile covers the observer; ground elevation unknown")
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

    /// Highest terrain on Earth, metres above mean sea level (Everest, 8 849 m, 2020 survey).
    static let highestOnEarth = 8849.0

    /// Rejects a reading whose numbers cannot make a sightline, naming the field as the reading
    /// decoder does. Readings from ``ReadingDecoder`` always pass; this guards readings built in
    /// code (a NaN heading would otherwise march nowhere and report "no terrain").
    private static func validate(_ reading: Reading, orientation: Reading.Orientation) throws(LocateResult.Failure) {
        func bad(_ field: String, _ rule: String, _ value: Double) -> LocateResult.Failure {
            LocateResult.Failure(code: "bad-input", message: "\(field) \(rule), got \(value)")
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
            throw LocateResult.Failure(code: "bad-input", message: "tap needs camera.horizontalFOV, imageWidth and imageHeight")
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

/// The slope bound of a march over a catalog, block by block: for the ground between a step's
/// two samples, the steepest ``SlopeMap`` block of every tile that may hold those samples — the
/// tiles registered in the 1° cell of the step (a superset of the tiles containing it,
/// overlapping copies included). A tile that only partly covers the step counts with its
/// steepest slope. The maps of the cell asked about last are kept at hand.
///
/// A seam cell between two tiles that do not overlap takes its posts from both and is measured
/// by neither; SRTM tiles share their edge posts, so it does not arise with them.
private struct CatalogSlopes: SlopeBound {
    let catalog: ElevationCatalog
    let tileSlopes: TileSlopes
    /// The 1° cell asked about last (south-west corner) and the maps of its tiles.
    private var cell = (latitude: Double.nan, longitude: Double.nan)
    private var maps: [SlopeMap] = []
    /// The slope block of the first map that held the last step, and the bound over it: a
    /// 10 m step stays inside one block (≈ 1.5 km of 3″ cells) for a hundred steps or so, so
    /// most steps are answered by two comparisons.
    private var block = (south: Double.nan, north: Double.nan, west: Double.nan, east: Double.nan)
    private var blockSlope = 0.0

    init(catalog: ElevationCatalog, tileSlopes: TileSlopes) {
        self.catalog = catalog
        self.tileSlopes = tileSlopes
    }

    mutating func maximumSlope(fromLatitude lat1: Double, longitude lon1: Double, toLatitude lat2: Double, longitude lon2: Double) -> Double {
        let lon1 = normalizedLongitude(lon1), lon2 = normalizedLongitude(lon2)
        if min(lat1, lat2) > block.south, max(lat1, lat2) < block.north,
           min(lon1, lon2) > block.west, max(lon1, lon2) < block.east {
            return blockSlope
        }
        let south = min(lat1, lat2).rounded(.down), north = max(lat1, lat2).rounded(.down)
        let west = min(lon1, lon2).rounded(.down), east = max(lon1, lon2).rounded(.down)
        guard south == north, west == east else {
            return steepest(south: south, north: north, west: west, east: east, acrossAntimeridian: abs(lon1 - lon2) > 180)
        }
        if south != cell.latitude || west != cell.longitude {
            cell = (south, west)
            maps = maps(ofCell: south, west)
        }
        rememberBlock(around: lat2, lon2)
        return steepest(latitude: lat1, longitude: lon1, latitude: lat2, longitude: lon2)
    }

    /// Makes the slope block of the first map around a point the cached one, with the bound
    /// over all maps on its rectangle (shrunk by a millionth of a block so that its edges, where
    /// blocks meet, are never inside).
    private mutating func rememberBlock(around latitude: Double, _ longitude: Double) {
        guard let map = maps.first(where: { latitude <= $0.north && latitude >= $0.south && longitude >= $0.west && longitude <= $0.east }) else {
            block = (.nan, .nan, .nan, .nan)
            return
        }
        let height = Double(map.cellsPerBlock) * map.latitudeSpacing, width = Double(map.cellsPerBlock) * map.longitudeSpacing
        let r = ((map.north - latitude) / height).rounded(.down), c = ((longitude - map.west) / width).rounded(.down)
        let inset = 1e-6
        let north = map.north - (r + inset) * height, south = max(map.north - (r + 1 - inset) * height, map.south)
        let west = map.west + (c + inset) * width, east = min(map.west + (c + 1 - inset) * width, map.east)
        guard south < north, west < east else {
            block = (.nan, .nan, .nan, .nan)
            return
        }
        block = (south, north, west, east)
        blockSlope = steepest(latitude: south, longitude: west, latitude: north, longitude: east)
    }

    /// The bound over every map on the rectangle between two points of one 1° cell.
    private func steepest(latitude lat1: Double, longitude lon1: Double, latitude lat2: Double, longitude lon2: Double) -> Double {
        var steepest = 0.0
        for map in maps {
            if let local = map.maximumSlope(latitude: lat1, longitude: lon1, latitude: lat2, longitude: lon2) {
                steepest = max(steepest, local)
            } else if max(lat1, lat2) >= map.south, min(lat1, lat2) <= map.north,
                      max(lon1, lon2) >= map.west, min(lon1, lon2) <= map.east {
                steepest = max(steepest, map.steepest)
            }
        }
        return steepest
    }

    /// A step across 1° cells (rare: once per cell crossed): the steepest tile of every cell
    /// its rectangle touches, or of every cell on both sides of the antimeridian.
    private func steepest(south: Double, north: Double, west: Double, east: Double, acrossAntimeridian: Bool) -> Double {
        let columns: [Double] = acrossAntimeridian ? [-180, 179] : Array(stride(from: west, through: east, by: 1))
        var steepest = 0.0
        for lat in stride(from: south, through: north, by: 1) {
            for lon in columns {
                for map in maps(ofCell: lat, lon) { steepest = max(steepest, map.steepest) }
            }
        }
        return steepest
    }

    /// The slope maps of the tiles registered in the 1° cell with this south-west corner.
    private func maps(ofCell latitude: Double, _ longitude: Double) -> [SlopeMap] {
        catalog.tiles(nearLatitude: min(max(latitude + 0.5, -90), 90), longitude: longitude + 0.5)
            .compactMap { tileSlopes.map(ofTile: $0, in: catalog) }
    }
}

/// The ``SlopeMap`` of each tile of a catalog, made on first use and kept for the locator's
/// lifetime (about 45 kB a 3″ tile).
private final class TileSlopes: Sendable {
    private let maps = Mutex<[Int: SlopeMap]>([:])

    /// nil when the tile cannot be loaded (it then serves no heights either).
    func map(ofTile index: Int, in catalog: ElevationCatalog) -> SlopeMap? {
        if let known = maps.withLock({ $0[index] }) { return known }
        guard let grid = catalog.grid(tile: index) else { return nil }
        let map = grid.slopeMap()
        maps.withLock { $0[index] = map }
        return map
    }
}

extension LocateResult {
    static func failure(_ failure: Failure, id: String?, time: Date?) -> LocateResult {
        .failure(failure, id: id, line: nil, time: time)
    }
}
