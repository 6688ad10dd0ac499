import Foundation

/// The 360° skyline of an observer: at every azimuth step, the largest apparent (refracted)
/// elevation angle at which a sightline still touches the terrain within range, and where.
///
/// Each azimuth is searched exactly like the skyline of a sightline that hits nothing
/// (``SkylineSearch``: cell by cell where the pyramid cannot rule terrain out). The search also
/// notes the best angle seen within each of ``Settings/layers`` — the silhouette of the nearer
/// terrain alone — from which a picture shades near ridges darker than far ones.
public struct Panorama: Sendable {
    /// How a panorama is computed.
    public struct Settings: Sendable, Hashable {
        /// Degrees between azimuths, in (0, 90]; 3 600 azimuths at 0.1°.
        public var azimuthStep: Double
        /// Largest ground distance considered, metres; nil: the horizon range of the highest
        /// terrain on Earth (the search still stops where nothing higher can appear).
        public var range: Double?
        /// Refraction coefficient k (see ``MarchSettings/refraction``).
        public var refraction: Double
        /// Distances (metres) up to which the nearer silhouettes are kept, ascending; none by
        /// default (each layer costs a search without the far seed).
        public var layers: [Double]

        public static let defaultAzimuthStep = 0.1
        /// Layers that shade depth in a picture: 2, 5, 10, 20 and 50 km.
        public static let pictureLayers = [2000.0, 5000, 10_000, 20_000, 50_000]

        public init(azimuthStep: Double = Settings.defaultAzimuthStep, range: Double? = nil,
                    refraction: Double = MarchSettings.defaultRefraction, layers: [Double] = []) {
            self.azimuthStep = azimuthStep
            self.range = range
            self.refraction = refraction
            self.layers = layers
        }
    }

    /// The skyline at one azimuth.
    public struct Point: Sendable, Hashable {
        /// Degrees clockwise from true north.
        public var azimuth: Double
        /// Apparent elevation angle of the skyline, degrees; nil where no terrain data lies
        /// along this azimuth (then the other fields are NaN).
        public var elevationAngle: Double?
        /// Ground distance from the observer, metres (along the ellipsoid, to about 1 cm at
        /// 100 km; see ``Ellipsoid/surfaceDistance(from:to:azimuth:)``).
        public var distance: Double
        /// The touching point: degrees, and metres above mean sea level.
        public var latitude: Double
        public var longitude: Double
        public var elevation: Double
        /// Apparent elevation angle of the silhouette of the terrain within each layer's
        /// distance, degrees (nil where that layer holds no terrain).
        public var layers: [Double?]
        /// Whether the search settled this azimuth's skyline: it went out to the range, or to
        /// where no terrain, however high, could rise above the skyline found. False when the
        /// ray's ground track left the DEM's data first: the true skyline may lie beyond the
        /// data and be higher, so the point found (often on the DEM's edge) is only a lower
        /// bound. Also false where no terrain data lies along the azimuth at all.
        public var complete: Bool = true
        /// Whether the range cut the skyline off: it touches the terrain within
        /// ``Panorama/rangeLimitMargin`` of the range's end, and the terrain just beyond the end
        /// rises above it (or is not in the DEM). There the skyline is the range's cut through a
        /// slope, not the terrain's top, and gives no peak.
        public var atRangeLimit: Bool = false
        /// Whether the touching point rests on posts filled across a void of the DEM
        /// (``ElevationGrid/isFilled(latitude:longitude:)``): interpolated, not measured.
        public var filled: Bool = false
    }

    /// A summit of the skyline worth naming.
    public struct Peak: Sendable, Hashable {
        public var azimuth: Double
        public var elevationAngle: Double
        public var distance: Double
        public var latitude: Double
        public var longitude: Double
        public var elevation: Double
        /// How far (degrees of elevation angle) the skyline falls on both sides before it rises
        /// higher than this summit: the summit's prominence on the skyline.
        public var prominence: Double
        /// Its name, when a gazetteer knows one there.
        public var name: String?
        /// GeoNames' feature code of ``name`` (`MT`, `PK`…).
        public var nameKind: String?
        /// Whether the summit rests on posts filled across a void, as ``Point/filled``.
        public var filled: Bool = false
    }

    /// The eye: degrees, and metres above the WGS84 ellipsoid.
    public var eye: GeodeticPosition
    public var settings: Settings
    /// The range searched, metres of ground.
    public var range: Double
    /// One point per azimuth step, azimuth 0 upward.
    public var skyline: [Point]
    /// Summits of the skyline, by azimuth.
    public var peaks: [Peak]
    /// Whether any azimuth crossed a void in the DEM.
    public var crossedVoid: Bool

    /// Smallest angular prominence of a summit in ``peaks``, degrees.
    public static let peakProminence = 0.25
    /// Nearest summit in ``peaks``, metres: nearer, a skyline top is the observer's own ground.
    public static let nearestPeak = 500.0
    /// Ground nearer than this, metres, that makes the skyline hides the view behind it: the
    /// observer stands on a slope (or a summit's DEM posts lie a little below its top), and the
    /// panorama warns and its picture leaves that ground out of its scale.
    public static let nearGround = 100.0

    /// Number of azimuths: 360° / step.
    public static func azimuthCount(step: Double) -> Int { Int((360 / step).rounded(.down)) }

    /// The range searched for an eye at `eyeMSL` metres above mean sea level: the given one,
    /// else the horizon range of the highest terrain on Earth.
    public static func range(settings: Settings, eyeMSL: Double, latitude: Double) -> Double {
        settings.range ?? SightlineMarch.horizonRange(observer: eyeMSL, highest: SightlineMarch.highestTerrain,
                                                      radius: Ellipsoid.wgs84.meanRadius(latitude: radians(latitude)),
                                                      refraction: settings.refraction)
    }

    /// Assembles a panorama from its skyline (all azimuths, in order) and finds its peaks.
    public init(eye: GeodeticPosition, settings: Settings, range: Double, skyline: [Point], crossedVoid: Bool) {
        self.eye = eye
        self.settings = settings
        self.range = range
        self.skyline = skyline
        self.crossedVoid = crossedVoid
        peaks = Self.peaks(of: skyline)
    }

    /// Computes the panorama from an eye (height above the WGS84 ellipsoid) over the terrain, on
    /// this thread.
    public static func compute<T: TerrainGrids>(eye: GeodeticPosition, geoid: Geoid, settings: Settings,
                                                over terrain: inout T) -> Panorama {
        let eyeMSL = eye.height - geoid.undulation(latitude: eye.latitude, longitude: eye.longitude)
        let range = range(settings: settings, eyeMSL: eyeMSL, latitude: eye.latitude)
        let part = skyline(azimuths: 0..<azimuthCount(step: settings.azimuthStep), eye: eye, geoid: geoid, settings: settings,
                           range: range, over: &terrain)
        return Panorama(eye: eye, settings: settings, range: range, skyline: part.points, crossedVoid: part.crossedVoid)
    }

    /// The skyline points of azimuths `azimuths` (indices of azimuth steps): a share of a
    /// panorama for one thread, which gives each its own `terrain`. The points do not depend on
    /// how azimuths are shared.
    public static func skyline<T: TerrainGrids>(azimuths: Range<Int>, eye: GeodeticPosition, geoid: Geoid, settings: Settings,
                                                range: Double, over terrain: inout T) -> (points: [Point], crossedVoid: Bool) {
        var points: [Point] = []
        points.reserveCapacity(azimuths.count)
        var crossedVoid = false
        for i in azimuths {
            points.append(skylinePoint(azimuth: Double(i) * settings.azimuthStep, eye: eye, geoid: geoid, settings: settings,
                                       range: range, over: &terrain, crossedVoid: &crossedVoid))
        }
        return (points, crossedVoid)
    }

    /// The skyline along one azimuth (degrees; any turn), over `range` metres of ground.
    public static func skylinePoint<T: TerrainGrids>(azimuth: Double, eye: GeodeticPosition, geoid: Geoid, settings: Settings,
                                              range: Double, over terrain: inout T, crossedVoid: inout Bool) -> Point {
        var path = RayPath(eye: eye, direction: ViewDirection(azimuth: azimuth, elevation: 0).enu, geoid: geoid,
                           refraction: settings.refraction, segmentLength: RayPath.skylineSegment)
        var search = SkylineSearch(eye: eye.height, curvature: (1 - settings.refraction) / (2 * path.radius),
                                   maximumTerrain: SightlineMarch.highestTerrain, highestUndulation: SightlineMarch.highestUndulation)
        search.seed(along: &path, every: SkylineSearch.seedSpacing, upTo: min(range, SightlineMarch.seedRange), over: &terrain)
        // The seed may lie beyond a layer: the layers' silhouettes are searched without it.
        let seeded = (search.tangent, search.distance)
        var layers: [Double?] = []
        var start = 0.0
        // Where the ray's ground track left the data, metres of slant distance (nil: it did not).
        var leftData: Double?
        var layerSearch = search
        layerSearch.tangent = -.infinity
        for layer in settings.layers where layer < range {
            if leftData == nil {
                let end = path.walk(from: start, to: layer, visitor: &layerSearch) { terrain.withGrid(containing: $0, longitude: $1, $2) }
                if case .leftData(let s) = end { leftData = s }
            }
            layers.append(layerSearch.tangent > -.infinity ? degrees(atan(layerSearch.tangent)) : nil)
            start = layer
        }
        // The whole range, with the better of the layers' best and the seed.
        if layerSearch.tangent >= seeded.0 {
            search = layerSearch
        } else {
            search.crossedVoid = layerSearch.crossedVoid
        }
        if leftData == nil, case .leftData(let s) = path.walk(from: start, to: range, visitor: &search,
                                                               withGrid: { terrain.withGrid(containing: $0, longitude: $1, $2) }) {
            leftData = s
        }
        crossedVoid = crossedVoid || search.crossedVoid
        // Leaving the data matters only where terrain beyond could still rise above the best.
        let complete = leftData.map { !search.mayRise(beyond: $0) } ?? true
        // A best near the range's end is the range's cut through rising terrain when the terrain
        // just beyond rises above it (or is unknown); a summit there has its far side in range.
        var atRangeLimit = false
        if leftData == nil, search.distance >= range - Self.rangeLimitMargin, search.mayRise(beyond: range) {
            var beyond = search
            let end = path.walk(from: range, to: range + Self.rangeLimitMargin, visitor: &beyond,
                                withGrid: { terrain.withGrid(containing: $0, longitude: $1, $2) })
            if case .leftData = end { atRangeLimit = true } else { atRangeLimit = beyond.tangent > search.tangent }
        }
        guard search.tangent > -.infinity else {
            return Point(azimuth: azimuth, elevationAngle: nil, distance: .nan, latitude: .nan, longitude: .nan, elevation: .nan,
                         layers: layers, complete: false)
        }
        let p = path.point(at: search.distance)
        let latitude = p.latitude, longitude = normalizedLongitude(p.longitude)
        let elevation = search.elevation
        let undulation = geoid.undulation(latitude: latitude, longitude: longitude)
        let frame = path.frame
        let v = frame.enu(of: GeodeticPosition(latitude: latitude, longitude: longitude, height: elevation + undulation))
        let horizontal = (v.x * v.x + v.y * v.y).squareRoot()
        let distance = Ellipsoid.wgs84.surfaceDistance(from: eye, to: GeodeticPosition(latitude: latitude, longitude: longitude, height: 0),
                                                       azimuth: azimuth)
        // The ray bends down with curvature k/R: it leaves the eye k·d/(2R) above the chord.
        let apparent = atan2(v.z, horizontal) + settings.refraction * distance / (2 * path.radius)
        return Point(azimuth: azimuth, elevationAngle: degrees(apparent), distance: distance, latitude: latitude,
                     longitude: longitude, elevation: elevation, layers: layers, complete: complete, atRangeLimit: atRangeLimit)
    }

    /// How near the range's end (metres along the ray) a skyline point may be cut by it, and how
    /// far beyond the end the terrain is looked at to tell: two or three posts of a 3″ DEM
    /// (90 m), so that a best at the last post before the end is judged like one at the end.
    static let rangeLimitMargin = 200.0

    /// The summits of a skyline: local maxima at least ``nearestPeak`` away whose angular
    /// prominence (the fall on both sides before the skyline rises higher, around the circle)
    /// is at least ``peakProminence``.
    ///
    /// Only a settled azimuth can be a summit: one ``Point/complete`` and not
    /// ``Point/atRangeLimit``. An unsettled one ends the walk like higher ground: its skyline is
    /// only a lower bound and may well rise above the summit.
    public static func peaks(of skyline: [Point]) -> [Peak] {
        let n = skyline.count
        guard n >= 3 else { return [] }
        let angles = skyline.map { $0.elevationAngle ?? -.infinity }
        let settled = skyline.map { $0.complete && !$0.atRangeLimit }
        var peaks: [Peak] = []
        for i in 0..<n where angles[i].isFinite && settled[i] {
            let a = angles[i]
            guard a >= angles[(i + n - 1) % n], a > angles[(i + 1) % n] else { continue }
            // Walk each way until the skyline rises above the summit (or is unsettled); the
            // lowest point passed on the higher-ground side bounds the prominence.
            func lowest(step: Int) -> Double? {
                var low = a
                var j = (i + step + n) % n
                while j != i {
                    if angles[j] > a || !settled[j] { return low }
                    low = min(low, angles[j])
                    j = (j + step + n) % n
                }
                return nil   // the highest summit of the whole skyline
            }
            let left = lowest(step: -1), right = lowest(step: 1)
            let prominence: Double
            switch (left, right) {
            case let (l?, r?): prominence = a - max(l, r)
            case let (l?, nil): prominence = a - l
            case let (nil, r?): prominence = a - r
            case (nil, nil): prominence = a - (angles.filter(\.isFinite).min() ?? a)
            }
            let p = skyline[i]
            guard prominence >= peakProminence, p.distance >= nearestPeak else { continue }
            peaks.append(Peak(azimuth: p.azimuth, elevationAngle: a, distance: p.distance, latitude: p.latitude,
                              longitude: p.longitude, elevation: p.elevation, prominence: prominence, filled: p.filled))
        }
        return peaks
    }
}

extension Ellipsoid {
    /// Distance along the ellipsoid between the foot points of two positions, metres, from
    /// their chord c and the normal section's radius of curvature ρ at the first along
    /// `azimuth` (degrees): c·(1 + c²/(24ρ²)). Within 1 cm of the geodesic out to about 100 km
    /// (the radius changes along the way by under 1 %, and the correction is c³/(24ρ²)).
    public func surfaceDistance(from a: GeodeticPosition, to b: GeodeticPosition, azimuth: Double) -> Double {
        let footA = ecef(GeodeticPosition(latitude: a.latitude, longitude: a.longitude, height: 0))
        let footB = ecef(GeodeticPosition(latitude: b.latitude, longitude: b.longitude, height: 0))
        let c = (footB - footA).length
        let phi = radians(a.latitude), alpha = radians(azimuth)
        let w2 = 1 - eccentricitySquared * sin(phi) * sin(phi)
        let n = semiMajorAxis / w2.squareRoot(), m = semiMajorAxis * (1 - eccentricitySquared) / (w2 * w2.squareRoot())
        let rho = 1 / (cos(alpha) * cos(alpha) / m + sin(alpha) * sin(alpha) / n)
        return c * (1 + c * c / (24 * rho * rho))
    }
}
