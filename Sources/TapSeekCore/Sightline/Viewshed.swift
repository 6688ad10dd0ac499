import Foundation

/// What an eye can see: for every cell of a latitude–longitude grid around it, whether the
/// sightline from the eye to the cell's centre (on the terrain, raised by a target height) is
/// free — the same answer as ``Locator/aim(_:terrain:resolve:)``'s `visible` for that point.
///
/// A sweep reuses the horizon along each azimuth instead of walking one ray per cell. Level rays
/// fan out from the eye (``HorizonProfile``: exact on the bilinear terrain, with the pyramid),
/// each recording how the horizon rises with distance. A cell lies between two of them; its
/// own sightline runs within the wedge between them, where terrain a lateral distance ℓ away
/// differs in height by at most S·ℓ (S the steepest slope of the bilinear terrain in the
/// wedge), so at every distance d its horizon tangent differs from a neighbour's by at most
/// S·Δα (ℓ = d·Δα for an azimuth difference Δα). With the cell's apparent tangent above every
/// upper bound so raised, the cell is visible; below a lower bound so lowered, hidden. A cell
/// that neither settles — near grazing, near a void, near the edge of the data, or within
/// ``nearCells`` of the eye — is judged by its own exact sightline, exactly as `aim` judges it
/// (``TargetSight/blocker(geoid:over:maximumTerrain:)``), unless the posts under the short
/// stretch the bounds leave open settle it (``SightlineTail``). Every answer is therefore `aim`'s:
/// the sweep only decides which cells need no ray of their own. Blocks of cells hidden as a
/// whole are settled at once (``ViewshedBlock``), before any of their cells is bounded alone.
///
/// The bounds leave margins for what differs between a cell's sightline and the level rays'
/// model: the skyline tangent's Earth curvature (the mean radius R, where the line falls away
/// with the normal section's radius R_α: a terrain point at distance d′ and a target at d
/// compare as if the target's tangent were off by (d − d′)·(1/R_α − 1/R)/2, at most
/// d·|1/R_α − 1/R|/2 ≤ 1.6·10⁻⁵ at 30 km; counted twice, per wedge, with 4·10⁻¹⁰·d more for
/// the eye's and the terrain's heights over the ellipsoid, which change those radii by under
/// 0.15 %) and where a point at one height lies over the ground compared with one at another
/// (Δh·d/R metres of distance); the points of a cell's own sightline do not all show its
/// tangent, but tangents from its elevation's at the eye to its own
/// (``sightlineSpread(elevation:x:rise:radius:refraction:)``); and the rays' piecewise-quadratic
/// models stray from the exact rays, in height by under 10⁻⁷ of the distance and in their
/// ground tracks by ``trackDrift(latitude:)`` times it, which the terrain's steepest gradient
/// turns into height (``Sweep/Margin/model``, per wedge; a constant 2·10⁻⁵ before, too little
/// for steep terrain or high latitudes, more than needed on gentle terrain).
public struct Viewshed: Sendable {
    /// How a viewshed is computed.
    public struct Settings: Sendable, Hashable {
        /// Largest ground distance considered, metres; nil: the horizon range of the highest
        /// terrain on Earth (clipped to the DEM by ``Locator/viewshed(from:settings:jobs:progress:)``).
        public var range: Double?
        /// Refraction coefficient k (see ``MarchSettings/refraction``).
        public var refraction: Double
        /// Height of the seen points above the terrain, metres.
        public var targetHeight: Double
        /// Degrees between cell centres; nil: the DEM's own post spacing at the observer.
        public var resolution: Double?

        public init(range: Double? = nil, refraction: Double = MarchSettings.defaultRefraction, targetHeight: Double = 0,
                    resolution: Double? = nil) {
            self.range = range
            self.refraction = refraction
            self.targetHeight = targetHeight
            self.resolution = resolution
        }
    }

    /// The eye: degrees, and metres above the WGS84 ellipsoid.
    public var eye: GeodeticPosition
    public var settings: Settings
    /// The range judged, metres: cells whose centres lie farther (horizontally from the eye)
    /// are ``ViewshedGrid/noData``.
    public var range: Double
    public var grid: ViewshedGrid
    /// Number of level rays of the sweep.
    public var radials: Int
    /// Cells judged by a sightline of their own.
    public var exactCells: Int
    /// Whether a level ray crossed a void in the DEM.
    public var crossedVoid: Bool

    /// Most cells a viewshed may have: 25 million (5 000 × 5 000; a 150 km square at 1″, 450 km
    /// at 3″), one byte each, all in memory.
    public static let maximumCells = 25_000_000
    /// Cells nearer than this (horizontally, metres) always get their own sightline: near the
    /// eye a cell's wedge holds little terrain and its rays are short.
    public static let nearCells = 100.0
    /// Level rays per radian of the sweep, per metre of range over the DEM's smallest post
    /// spacing: 0.6, the fewest that let no void hide between two of them (see
    /// ``radialCount(range:postSpacing:)``). More make the bounds tighter, but cost more than the
    /// own sightlines they spare: 633 M instructions at 0.6 against 671 M at 1 and 735 M at 2 on
    /// the 30 km benchmark (scripts/bench-viewshed.sh, under callgrind, before the row look-ups).
    /// Fewer pay on some terrain: over terrain without voids a sweep walks every other ray of
    /// these first and the rest only where they pay (``walksFinest(open:sampled:rows:extraRays:)``).
    static let radialDensity = 0.6

    public init(eye: GeodeticPosition, settings: Settings, range: Double, grid: ViewshedGrid, radials: Int, exactCells: Int,
                crossedVoid: Bool) {
        self.eye = eye
        self.settings = settings
        self.range = range
        self.grid = grid
        self.radials = radials
        self.exactCells = exactCells
        self.crossedVoid = crossedVoid
    }

    /// The number of level rays for a sweep to `range` metres over posts `postSpacing` metres
    /// apart (the smaller of the two axes). A void post makes the four cells around it unknown,
    /// a square 2·spacing wide; with rays closer than 2·spacing/(1.2·range) radians every such
    /// square within range is crossed by one of the two rays around any sightline that crosses it.
    public static func radialCount(range: Double, postSpacing: Double) -> Int {
        let perRadian = max(1.2 / 2, radialDensity) * range / postSpacing
        return max(360, Int((2 * .pi * perRadian).rounded(.up)))
    }

    /// Whether a sweep over void-free terrain walks the finest spacing of level rays
    /// (``radialCount(range:postSpacing:)``) rather than every other ray of it, judged by a pilot
    /// that bounded every ``pilotSpacing``-th of its `rows` rows (`sampled` of them) with every
    /// other ray and left `open` cells open. The finest spacing walks `extraRays` more rays,
    /// each costing about ``sightlinesPerRay`` own sightlines, and settles about
    /// ``settledByHalving`` of the open cells: it pays where many cells stay open, seen from a
    /// summit along grazing ridges; over a valley, the Khumbu or the sea the half pays.
    static func walksFinest(open: Int, sampled: Int, rows: Int, extraRays: Int) -> Bool {
        guard sampled > 0 else { return true }
        return Double(open) * Double(rows) / Double(sampled) * settledByHalving > Double(extraRays) * sightlinesPerRay
    }
    /// Rows between those the pilot of ``walksFinest(open:sampled:rows:extraRays:)`` bounds: 1 in
    /// 64 costs 0.7 % of a summit's viewshed (a row's set-up included).
    static let pilotSpacing = 64
    /// A level ray's walk over an own sightline's, in instructions: 96 000 over 7 400 on the
    /// summit of scripts/bench-terrains.sh (callgrind, 30 km).
    static let sightlinesPerRay = 13.0
    /// The share of the cells a sweep of every other ray leaves open that the finest settles:
    /// 0.43–0.46 over the summit, the valley, the Khumbu and the coast of scripts/bench-terrains.sh
    /// (0.23 over the plain, whose voids keep it at the finest).
    static let settledByHalving = 0.45

    /// The radial horizons of level rays `rays` of a sweep of `count` (ray i at azimuth
    /// i·360°/count), their rows of ``Sweep/Bands`` written into `bands`: of the first rays, up to
    /// the first before which `goesOn` says no.
    static func profiles<T: TerrainGrids>(_ rays: ArraySlice<Int>, count: Int, eye: GeodeticPosition, geoid: Geoid, refraction: Double,
                                          range: Double, bands: Sweep.Bands, while goesOn: () -> Bool = { true },
                                          over terrain: inout T) -> [HorizonProfile] {
        var scratch: [HorizonProfile.Rise] = []
        var profiles: [HorizonProfile] = []
        profiles.reserveCapacity(rays.count)
        for i in rays {
            guard goesOn() else { break }
            let profile = HorizonProfile.walk(azimuth: Double(i) * 360 / Double(count), eye: eye, geoid: geoid, refraction: refraction,
                                              range: profileRange(range), scratch: &scratch, over: &terrain)
            bands.write(profile, row: i, range: profileRange(range))
            profiles.append(profile)
        }
        return profiles
    }

    /// How far the level rays are walked: a little beyond the range, as a cell's distance along
    /// a level ray differs from its horizontal distance by Δh·d/R and the slack on top.
    static func profileRange(_ range: Double) -> Double { range * 1.01 + 200 }
}

extension Viewshed {
    /// What every share of a sweep's cells needs: the eye, the radial horizons and the bounds'
    /// constants.
    struct Sweep: Sendable {
        let eye: GeodeticPosition
        let geoid: Geoid
        let refraction: Double
        let targetHeight: Double
        let range: Double
        let profiles: [HorizonProfile]
        /// For each wedge, S·1.02 plus the geoid's steepest gradient: how much a horizon tangent
        /// can change per radian of azimuth within it (S the wedge's steepest slope).
        let lateral: [Double]
        /// The same per wedge and distance band (``WedgeSlopes``), wedge-major: how much the
        /// tangent of terrain within the band can change per radian of azimuth.
        let bandLateral: [Double]
        let bands: Int
        let bandLength: Double
        /// 1/``bandLength``: a distance's band by a multiplication (a band off by one for a
        /// distance within rounding of a band's edge reads slopes spread over both: ``WedgeSlopes``
        /// widens each block's bands by 200 m).
        let bandsPerMetre: Double
        /// Each level ray's horizon at the end of each band, ray-major: `bandHorizons[i * bands + k]`
        /// = `profiles[i].horizon(at: (k + 1)·bandLength)`.
        let bandHorizons: [Double]
        /// The running maximum of `bandHorizons` along each ray, ray-major: a ceiling on every
        /// band's horizon up to k, so that the band-by-band bounds can pass over many bands in
        /// one comparison (the horizon only rises with distance, to rounding).
        let bandCeilings: [Double]
        /// `bandLateral`'s largest over each ``bandGroup`` bands of a wedge, wedge-major.
        let groupLateral: [Double]
        /// What a tangent's margin allows, per wedge, beyond the cell's own terms: for the rays'
        /// models (``trackDrift(latitude:)`` times the wedge's steepest gradient), and the share of
        /// a cell's distance for the Earth's curvature along the wedge's azimuths (see
        /// ``Viewshed``: twice the largest |1/R_α − 1/R|/2 over the wedge, plus 4·10⁻¹⁰).
        struct Margin {
            var model: Double
            var curvature: Double
        }
        let margins: [Margin]
        /// The highest tangent terrain nearer than ``SkylineSearch/nearest`` to the eye can show
        /// (which the level rays leave out): +∞ when the eye is not clear above its own ground.
        let nearBound: Double
        /// A void square's reach along a ray beyond where it begins, metres.
        let voidReach: Double
        /// For the tails settled by their posts (``SightlineTail``): the geoid's steepest gradient
        /// over the window, and how far a modelled track may stray per metre of horizontal run at
        /// its farthest latitude (``Viewshed/trackDrift(latitude:)``).
        let windowUndulationSlope: Double
        let drift: Double

        /// Where each level ray's horizon at the end of each band of ``WedgeSlopes`` (over the
        /// level rays' range) is written, ray-major, and its running maximum along the ray: the
        /// storage of two arrays of the sweep's, written by the threads that walk the rays, each
        /// its own rays' rows (made after the rays, they ran on one thread between the sweep's two
        /// phases; made by each share and joined after, they were copied there).
        struct Bands: @unchecked Sendable {
            let horizons: UnsafeMutableBufferPointer<Double>
            let ceilings: UnsafeMutableBufferPointer<Double>

            /// The rows of level rays `rays`, one after another: horizons and ceilings.
            func rows(_ rays: [Int]) -> (horizons: [Double], ceilings: [Double]) {
                let bands = WedgeSlopes.bandCount
                func rows(of table: UnsafeMutableBufferPointer<Double>) -> [Double] {
                    [Double](unsafeUninitializedCapacity: rays.count * bands) { copy, written in
                        for (i, ray) in rays.enumerated() {
                            for k in 0..<bands { copy[i * bands + k] = table[ray * bands + k] }
                        }
                        written = rays.count * bands
                    }
                }
                return (rows(of: horizons), rows(of: ceilings))
            }

            /// Writes the row of level ray `row`.
            func write(_ profile: HorizonProfile, row: Int, range: Double) {
                let bands = WedgeSlopes.bandCount, bandLength = WedgeSlopes.bandLength(range: range), start = row * bands
                var ceiling = -Double.infinity
                for k in 0..<bands {
                    let horizon = profile.horizon(at: Double(k + 1) * bandLength)
                    horizons[start + k] = horizon
                    ceiling = max(horizon, ceiling)
                    ceilings[start + k] = ceiling
                }
            }
        }

        init(eye: GeodeticPosition, geoid: Geoid, refraction: Double, targetHeight: Double, range: Double,
             profiles: [HorizonProfile], bandHorizons: [Double], bandCeilings: [Double], wedgeSlopes: WedgeSlopes,
             eyeClearance: Double, postSpacing: Double) {
            precondition(wedgeSlopes.bands == WedgeSlopes.bandCount && bandHorizons.count == profiles.count * wedgeSlopes.bands
                         && bandCeilings.count == bandHorizons.count, "a horizon per level ray and band")
            self.eye = eye
            self.geoid = geoid
            self.refraction = refraction
            self.targetHeight = targetHeight
            self.range = range
            self.profiles = profiles
            // Read once: each read takes the geoid's lock (11 M instructions when read per band).
            let undulationSlope = geoid.steepestGradient
            lateral = wedgeSlopes.wedgeMaxima.map { $0 * 1.02 + undulationSlope }
            bandLateral = wedgeSlopes.values.map { $0 * 1.02 + undulationSlope }
            bands = wedgeSlopes.bands
            bandLength = wedgeSlopes.bandLength
            bandsPerMetre = 1 / wedgeSlopes.bandLength
            // A local: the closure below may not capture self before it is initialised.
            let bands = wedgeSlopes.bands
            self.bandHorizons = bandHorizons
            self.bandCeilings = bandCeilings
            let groups = (bands + Self.bandGroup - 1) / Self.bandGroup
            groupLateral = (0..<(bandLateral.count / bands * groups)).map { [bandLateral] i in
                let start = i / groups * bands + i % groups * Self.bandGroup
                return bandLateral[start..<min(start + Self.bandGroup, i / groups * bands + bands)].max() ?? 0
            }
            // Normal sections (Euler): 1/R_α = cos²α/M + sin²α/N at the eye; R the mean radius
            // the level rays and the cells' tangents use.
            let e2 = Ellipsoid.wgs84.eccentricitySquared, sinPhi = sin(radians(eye.latitude))
            let w = (1 - e2 * sinPhi * sinPhi).squareRoot()
            let meridian = Ellipsoid.wgs84.semiMajorAxis * (1 - e2) / (w * w * w), normal = Ellipsoid.wgs84.semiMajorAxis / w
            let inverseMean = 1 / Ellipsoid.wgs84.meanRadius(latitude: radians(eye.latitude))
            let count = profiles.count
            func deviation(_ i: Int) -> Double {
                let alpha = 2 * Double.pi * Double(i) / Double(count), c = cos(alpha), s = sin(alpha)
                return abs(c * c / meridian + s * s / normal - inverseMean) / 2
            }
            let curvature = (0..<count).map { 2 * max(deviation($0), deviation($0 + 1)) * 1.01 + 4e-10 }
            nearBound = eyeClearance > 0 ? -eyeClearance / SkylineSearch.nearest : .infinity
            voidReach = 3 * postSpacing
            // The rays' models (``RayPath``): heights within 10⁻⁷ of the horizontal run of the exact
            // line's, tracks within ``trackDrift(latitude:)`` of it at the window's farthest
            // latitude from the equator, times the steepest gradient of the wedge or of either
            // neighbour (whose terrain a wedge's edge ray may cross).
            let reachInDegrees = Viewshed.profileRange(range) / 110_000, widening = 1 / max(cos(radians(eye.latitude)), 0.01)
            let drift = Viewshed.trackDrift(latitude: min(90, abs(eye.latitude) + reachInDegrees))
            self.drift = drift
            windowUndulationSlope = geoid.steepestGradient(south: eye.latitude - reachInDegrees, north: eye.latitude + reachInDegrees,
                                                           west: eye.longitude - reachInDegrees * widening,
                                                           east: eye.longitude + reachInDegrees * widening)
            let gradients = wedgeSlopes.gradients
            margins = gradients.indices.map { w in
                let steepest = max(gradients[w], gradients[w == 0 ? gradients.count - 1 : w - 1], gradients[(w + 1) % gradients.count])
                return Margin(model: 2e-7 + (steepest * 1.02 + undulationSlope) * drift, curvature: curvature[w])
            }
        }

        /// Bands a group of ``groupLateral`` spans.
        static let bandGroup = 8

        /// The sweep's per-wedge tables read in place: a cell reads several of them, and an
        /// array's subscript checks its bounds every time.
        struct Tables {
            let lateral: UnsafeBufferPointer<Double>
            let bandLateral: UnsafeBufferPointer<Double>
            let bandHorizons: UnsafeBufferPointer<Double>
            let bandCeilings: UnsafeBufferPointer<Double>
            let groupLateral: UnsafeBufferPointer<Double>
            let margins: UnsafeBufferPointer<Margin>
        }

        /// Calls `body` with the tables, valid only within it.
        func withTables<R>(_ body: (Tables) throws -> R) rethrows -> R {
            try lateral.withUnsafeBufferPointer { lateral in
                try bandLateral.withUnsafeBufferPointer { bandLateral in
                    try bandHorizons.withUnsafeBufferPointer { bandHorizons in
                        try bandCeilings.withUnsafeBufferPointer { bandCeilings in
                            try groupLateral.withUnsafeBufferPointer { groupLateral in
                                try margins.withUnsafeBufferPointer { margins in
                                    try body(Tables(lateral: lateral, bandLateral: bandLateral, bandHorizons: bandHorizons,
                                                    bandCeilings: bandCeilings, groupLateral: groupLateral, margins: margins))
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Judges rows `rows` of a grid (its geometry; values ignored) from the sweep into `values`,
    /// those rows' cells row-major, which hold ``ViewshedGrid/noData`` on entry and keep it where
    /// no cell is judged; says how many cells needed their own sightline. The threads' shares
    /// write their rows straight into the grid's storage: an array per share, joined after, cost
    /// two more passes over the grid and its pages.
    ///
    /// `countingOnly`: the cells left open are counted, not judged (their values stay).
    static func judge<T: TerrainGrids>(rows: Range<Int>, of grid: ViewshedGrid, angles: ColumnAngles, into values: UnsafeMutableBufferPointer<UInt8>,
                                       sweep: Sweep, countingOnly: Bool = false, over terrain: inout T) -> Int {
        let columns = grid.columns
        precondition(values.count == rows.count * columns, "a value for every cell of the rows")
        var exact = 0
        let eye = sweep.eye, frame = LocalFrame(origin: eye), geoid = sweep.geoid
        let radius = Ellipsoid.wgs84.meanRadius(latitude: radians(eye.latitude))
        let curvature = (1 - sweep.refraction) / (2 * radius)
        let k = sweep.refraction
        let a = Ellipsoid.wgs84.semiMajorAxis, e2 = Ellipsoid.wgs84.eccentricitySquared
        let count = sweep.profiles.count
        let step = 2 * Double.pi / Double(count)
        // Each column's cosine and sine of longitude, read through pointers (no bounds checks).
        precondition(angles.count == columns, "an angle for every column")
        let cosines = angles.cosines, sines = angles.sines
        var undulations = RowUndulations(count: columns)
        // The geoid's cell of the open cell looked up last: the next is most often in it.
        var geoidCell = Geoid.Cell()
        let meridian = a * (1 - e2) / pow(1 - e2 * sin(radians(eye.latitude)) * sin(radians(eye.latitude)), 1.5)
        var heights = RowTerrain(grid: grid)
        var path = RayPath(eye: eye, direction: Vector3(0, 0, 1), geoid: geoid, refraction: sweep.refraction, frame: frame,
                           longitudeByArctangent: true)
        let undulationSlope = sweep.windowUndulationSlope, drift = sweep.drift
        // A group of rows' cells: ground heights (NaN: none), ellipsoidal target heights and
        // whether a hidden block holds them; each row's columns within reach (first > last:
        // none) and its vertical's terms.
        let side = ViewshedBlock.side
        // Through pointers: arrays captured by the block test would be boxed, and every cell's
        // read of them checked for exclusive access.
        let grounds = UnsafeMutablePointer<Double>.allocate(capacity: 2 * side * columns), ellipsoidal = grounds + side * columns
        let spans = UnsafeMutablePointer<(first: Int, last: Int)>.allocate(capacity: side)
        let verticals = UnsafeMutablePointer<(n: Double, cosPhi: Double, sinPhi: Double)>.allocate(capacity: side)
        let hidden = UnsafeMutablePointer<Bool>.allocate(capacity: side * columns)
        defer {
            grounds.deallocate()
            spans.deallocate()
            verticals.deallocate()
            hidden.deallocate()
        }
        // The level rays and the tables read in place: through the arrays, every cell's read
        // checked their bounds.
        sweep.withTables { tables in
        sweep.profiles.withUnsafeBufferPointer { profiles in
            // Whether the block of columns c0..<c1 of the group's first `count` rows is hidden
            // as a whole: every cell within reach and on terrain, and ViewshedBlock's proof.
            func blockIsHidden(_ c0: Int, _ c1: Int, rows count: Int) -> Bool {
                var highest = -Double.infinity, lowest = Double.infinity
                for row in 0..<count {
                    guard spans[row].first <= c0, spans[row].last >= c1 - 1 else { return false }
                    for c in c0..<c1 {
                        let h = ellipsoidal[row * columns + c]
                        guard !h.isNaN else { return false }
                        highest = max(highest, h)
                        lowest = min(lowest, h)
                    }
                }
                func vertical(_ row: Int, _ c: Int) -> Ellipsoid.Vertical {
                    Ellipsoid.Vertical(n: verticals[row].n, cosLatitude: verticals[row].cosPhi, sinLatitude: verticals[row].sinPhi,
                                       cosLongitude: cosines[c], sinLongitude: sines[c], eccentricitySquared: e2)
                }
                let block = ViewshedBlock(highest: highest, lowest: lowest, northWest: vertical(0, c0), northEast: vertical(0, c1 - 1),
                                          southWest: vertical(count - 1, c0), southEast: vertical(count - 1, c1 - 1))
                return block.isHidden(sweep: sweep, tables: tables, profiles: profiles, frame: frame, radius: radius,
                                      curvature: curvature, step: step)
            }
            // Rows a group at a time: their cells' heights first, then the blocks of the group
            // that are hidden as a whole (ViewshedBlock), then every other cell on its own.
            var group = rows.lowerBound
            while group < rows.upperBound {
                let groupEnd = min(group + side, rows.upperBound)
                for r in group..<groupEnd {
                    let row = r - group
                    spans[row] = (0, -1)
                    let latitude = grid.latitude(row: r)
                    let phi = radians(latitude), sinPhi = sin(phi), cosPhi = cos(phi)
                    let n = Ellipsoid.wgs84.primeVerticalRadius(sinLatitude: sinPhi)
                    verticals[row] = (n, cosPhi, sinPhi)
                    // Columns that may lie within range: a generous local estimate of the distance
                    // (3 % and 200 m to spare), so that cells surely beyond it cost nothing.
                    let north = radians(latitude - eye.latitude) * meridian
                    let reach = sweep.range * 1.03 + 200
                    guard abs(north) <= reach else { continue }
                    let east = (reach * reach - north * north).squareRoot() / (n * cosPhi) * 180 / .pi
                    let first = max(0, Int(((eye.longitude - east - grid.west) / grid.longitudeSpacing).rounded(.down)))
                    let last = min(columns - 1, Int(((eye.longitude + east - grid.west) / grid.longitudeSpacing).rounded(.up)))
                    guard first <= last else { continue }
                    spans[row] = (first, last)
                    undulations.fill(latitude: latitude, grid: grid, geoid: geoid)
                    heights.start(latitude: latitude)
                    for c in first...last {
                        let ground: Double
                        if case .height(let h) = heights.sample(column: c, latitude: latitude, longitude: grid.longitude(column: c), over: &terrain) {
                            ground = h
                        } else {
                            ground = .nan
                        }
                        grounds[row * columns + c] = ground
                        ellipsoidal[row * columns + c] = ground + sweep.targetHeight + undulations.values[c]
                    }
                }
                hidden.update(repeating: false, count: side * columns)
                for c0 in stride(from: 0, to: columns, by: side) {
                    let c1 = min(c0 + side, columns)
                    guard blockIsHidden(c0, c1, rows: groupEnd - group) else { continue }
                    for row in 0..<(groupEnd - group) { (hidden + row * columns + c0).update(repeating: true, count: c1 - c0) }
                }
                for r in group..<groupEnd {
                    let row = r - group
                    let (first, last) = spans[row]
                    guard first <= last else { continue }
                    let latitude = grid.latitude(row: r)
                    let (n, cosPhi, sinPhi) = verticals[row]
                    let base = (r - rows.lowerBound) * columns
                    var bearing = Bearing()
                    for c in first...last {
                        if hidden[row * columns + c] {
                            values[base + c] = ViewshedGrid.hidden
                            continue
                        }
                        let ground = grounds[row * columns + c]
                        guard !ground.isNaN else { continue }
                        let h = ellipsoidal[row * columns + c]
                        let p = Vector3((n + h) * cosPhi * cosines[c], (n + h) * cosPhi * sines[c], (n * (1 - e2) + h) * sinPhi)
                        let v = frame.enu(ofECEF: p)
                        let x = (v.x * v.x + v.y * v.y).squareRoot()
                        guard x <= sweep.range else { continue }
                        let visible: Bool
                        switch x < nearCells ? .open(clearTo: 0)
                            : settle(v: v, x: x, h: h, azimuth: bearing.next(east: v.x, north: v.y), sweep: sweep, tables: tables,
                                     profiles: profiles, radius: radius, curvature: curvature, k: k, step: step, count: count) {
                        case .visible: visible = true
                        case .hidden: visible = false
                        case .open where countingOnly:
                            exact += 1
                            continue
                        case .open(let clear, let clearFrom):
                            // aim's own target height, with the geoid looked up at the point itself.
                            let longitude = grid.longitude(column: c)
                            let undulation = geoid.undulation(latitude: latitude, longitude: longitude, cell: &geoidCell)
                            let target = ground + sweep.targetHeight + undulation
                            // The vertical through the cell from the row's and the column's sines and
                            // cosines: what Ellipsoid.vertical computes from the cell's position.
                            let above = Ellipsoid.Vertical(n: n, cosLatitude: cosPhi, sinLatitude: sinPhi, cosLongitude: cosines[c],
                                                           sinLongitude: sines[c], eccentricitySquared: e2)
                            // The stretch left open is first bounded by the posts under it (SightlineTail): all of
                            // it when it is short, else its last few hundred metres, which may hide the cell or end
                            // its walk.
                            var walkTo = clearFrom, seen: Bool?
                            if x >= 1 {
                                let short = SightlineTail.mayCover(slant: v.length, from: clear, to: clearFrom)
                                let tail = SightlineTail(frame: frame, target: above, latitude: latitude, longitude: longitude,
                                                         height: target, run: x, refraction: k, radius: radius)
                                let start = short ? clear : max(clear, min(tail.reach - tail.tolerance, clearFrom) - SightlineTail.glance)
                                seen = tail.verdict(from: start, to: clearFrom, undulation: undulation, undulationSlope: undulationSlope,
                                                    drift: drift, over: &terrain)
                                if seen == true, start > clear {
                                    walkTo = start
                                    seen = nil
                                }
                            }
                            if let seen {
                                visible = seen
                            } else {
                                exact += 1
                                visible = x < 1 || exactlyVisible(above: above, height: target, clearTo: clear, clearFrom: walkTo,
                                                                  sweep: sweep, frame: frame, radius: radius, path: &path, over: &terrain)
                            }
                        }
                        values[base + c] = visible ? ViewshedGrid.visible : ViewshedGrid.hidden
                    }
                }
                group = groupEnd
            }
        }
        }
        return exact
    }

    /// The cosine and sine of the longitude of each column of a grid, found once for all the
    /// shares of its rows (each share found them again: two thousand calls of `sin` and `cos`
    /// apiece on the summit's window). Read in place: each cell reads them.
    final class ColumnAngles: @unchecked Sendable {
        let count: Int
        let cosines: UnsafeMutablePointer<Double>
        let sines: UnsafeMutablePointer<Double>

        init(of grid: ViewshedGrid) {
            count = grid.columns
            cosines = .allocate(capacity: 2 * count)
            sines = cosines + count
            for c in 0..<count {
                cosines[c] = cos(radians(grid.longitude(column: c)))
                sines[c] = sin(radians(grid.longitude(column: c)))
            }
        }

        deinit { cosines.deallocate() }
    }

    /// What the radial horizons say of a cell.
    enum Judgement {
        case visible, hidden
        /// Open: only its own sightline can tell, and no terrain can touch that sightline
        /// nearer than `clearTo` slant metres from the eye, nor beyond `clearFrom`.
        case open(clearTo: Double, clearFrom: Double = .infinity)
    }

    /// Whether the radial horizons around a cell settle it, and if not, how far its sightline
    /// is surely clear. `v` is the target in the eye's ENU frame, x its horizontal distance, h its
    /// ellipsoidal height.
    ///
    /// The level rays are read in place through `profiles` (the sweep's): a copy of a profile
    /// per cell would retain and release its array of rises, two atomic operations a cell.
    @inline(__always)
    private static func settle(v: Vector3, x: Double, h: Double, azimuth: Double, sweep: Sweep, tables: Sweep.Tables,
                               profiles: UnsafeBufferPointer<HorizonProfile>, radius: Double, curvature: Double,
                               k: Double, step: Double, count: Int) -> Judgement {
        let (t, d, above) = tangent(x: x, height: h, eyeHeight: sweep.eye.height, radius: radius, curvature: curvature)
        // The sightline ends `tolerance` short of the target (TargetSight): the same share of
        // its horizontal run.
        let lift = k * x * x * (0.5 / radius)
        let reach = (x * x + (v.z + lift) * (v.z + lift)).squareRoot()
        let tolerance = max(30, 0.005 * (x * x + v.z * v.z).squareRoot())
        guard reach > tolerance + 1 else { return .open(clearTo: 0) }
        let cut = d * (reach - tolerance) / reach
        // A point of the sightline lies over the ground within this share of its horizontal
        // distance of where a level ray's point at that distance does.
        let shift = (abs(above) + 100) * (1 / radius)
        let slack = 1 + shift * x
        let f = azimuth * (1 / step)
        let i0 = min(Int(f), count - 1), i1 = i0 + 1 == count ? 0 : i0 + 1
        let off0 = (f - Double(i0)) * step, off1 = step - off0
        let far = cut + slack
        let margin = tables.margins[i0].model + tables.margins[i0].curvature * x + 1e-6 * abs(t)
        // The sightline's own points show tangents from min(t, T) to t (T its elevation tangent
        // at the eye), give or take `spread`: terrain above the highest hides the cell, below
        // the lowest it does not (``sightlineSpread(elevation:x:rise:radius:refraction:)``).
        let elevation = (v.z + lift) / x
        let spread = sightlineSpread(elevation: elevation, x: x, rise: h - sweep.eye.height, radius: radius, refraction: k)
        let highest = t + spread + margin, lowest = min(t, elevation) - spread - margin
        let lateral = tables.lateral[i0]
        // Each level ray's horizon is exact; the cell's own lies within lateral·offset of both.
        // Most cells are hidden: the lower bounds first, the nearer ray's first.
        let (a, la, b, lb) = off0 <= off1 ? (i0, lateral * off0, i1, lateral * off1) : (i1, lateral * off1, i0, lateral * off0)
        let offA = off0 <= off1 ? off0 : off1, offB = off0 <= off1 ? off1 : off0
        let validity = min(profiles[i0].validity, profiles[i1].validity), firstVoid = min(profiles[i0].firstVoid, profiles[i1].firstVoid)
        guard far < validity, far + sweep.voidReach < firstVoid else {
            return settle(before: min(validity, firstVoid - sweep.voidReach), cut: cut, slack: slack, reach: reach, x: x, shift: shift,
                          highest: highest, lowest: lowest, rays: (a, b), raised: (la, lb), offsets: (offA, offB), wedge: i0,
                          sweep: sweep, tables: tables, profiles: profiles)
        }
        // First with the horizons' cheap bounds (exact but within a crossing, where a closed
        // form is needed: over the sea every cell raises the horizon).
        let nearA = profiles[a].horizonBounds(at: cut - slack)
        if highest < nearA.lower - la { return .hidden }
        let nearB = profiles[b].horizonBounds(at: cut - slack)
        if highest < nearB.lower - lb { return .hidden }
        let atFarA = profiles[a].reading(at: far), atFarB = profiles[b].reading(at: far)
        if lowest > max(min(atFarA.bounds.upper + la, atFarB.bounds.upper + lb), sweep.nearBound) { return .visible }
        let farA = atFarA.value, farB = atFarB.value
        let upper = max(min(farA + la, farB + lb), sweep.nearBound)
        if lowest > upper { return .visible }
        // Not settled by the wedge's steepest slope: bound again band by band, with the slope
        // of the terrain where it matters.
        // A ray whose horizon there surely stays below the tangent hides nothing band by band:
        // its closed form is not needed (10⁻⁹ covers the closed form's rounding past the bound).
        if nearA.upper + 1e-9 > highest
            && hiddenByBands(highest, ray: a, offset: offA, at: cut - slack, wedge: i0, sweep: sweep, tables: tables, profiles: profiles)
            || nearB.upper + 1e-9 > highest
            && hiddenByBands(highest, ray: b, offset: offB, at: cut - slack, wedge: i0, sweep: sweep, tables: tables, profiles: profiles) {
            return .hidden
        }
        if sweep.nearBound < lowest,
           upperByBands(below: lowest, ray: a, offset: offA, horizon: farA, at: far, wedge: i0, sweep: sweep, tables: tables)
            || upperByBands(below: lowest, ray: b, offset: offB, horizon: farB, at: far, wedge: i0, sweep: sweep, tables: tables) {
            return .visible
        }
        // Nearer than where either ray's raised horizon first comes within the margin, nothing
        // can reach the sightline.
        guard sweep.nearBound < lowest else { return .open(clearTo: 0) }
        let clear = max(clearByBands(below: lowest, ray: a, offset: offA, to: far, wedge: i0, sweep: sweep, tables: tables, profiles: profiles),
                        clearByBands(below: lowest, ray: b, offset: offB, to: far, wedge: i0, sweep: sweep, tables: tables, profiles: profiles))
        // Past the last band where neither ray bounds it, the sightline is surely clear too: its
        // walk ends there (a cell near grazing over a ridge part-way is walked over the ridge).
        let beyond = clearBeyondBands(below: lowest, rays: (a, b), offsets: (offA, offB), horizons: (farA, farB), at: far, wedge: i0,
                                      sweep: sweep, tables: tables)
        return .open(clearTo: max(0, (clear / (1 + shift) - 1) * reach / x), clearFrom: ((beyond + slack) * (1 + shift) + 1) * reach / x)
    }

    /// ``settle(v:x:h:azimuth:sweep:tables:profiles:radius:curvature:k:step:count:)`` for a cell
    /// whose sightline runs on past `known` level-ray metres: beyond, one of its two rays left
    /// the data or its wedge may hold a void (whose terrain, unknown, hides nothing), so that
    /// the rays tell nothing of the terrain beside them. Nearer, they do: terrain there that
    /// surely rises above the cell's tangent hides it, and the band-by-band bound says how far
    /// its sightline is surely clear, from where its own walk starts (over a window whose data
    /// end within range, such a cell's sightline was walked from the eye). The cell's bounds are
    /// settle's: `highest` and `lowest` its tangents, rays a and b the nearer and the farther,
    /// `raised` their horizons' lateral steps and `offsets` the cell's azimuth from them.
    @inline(never)
    private static func settle(before known: Double, cut: Double, slack: Double, reach: Double, x: Double, shift: Double,
                               highest: Double, lowest: Double, rays: (a: Int, b: Int), raised: (a: Double, b: Double),
                               offsets: (a: Double, b: Double), wedge: Int, sweep: Sweep, tables: Sweep.Tables,
                               profiles: UnsafeBufferPointer<HorizonProfile>) -> Judgement {
        guard known > slack else { return .open(clearTo: 0) }
        let near = min(cut, known) - slack
        if highest < profiles[rays.a].horizonBounds(at: near).lower - raised.a
            || highest < profiles[rays.b].horizonBounds(at: near).lower - raised.b {
            return .hidden
        }
        guard sweep.nearBound < lowest else { return .open(clearTo: 0) }
        let clear = min(known, max(clearByBands(below: lowest, ray: rays.a, offset: offsets.a, to: known, wedge: wedge, sweep: sweep,
                                                tables: tables, profiles: profiles),
                                   clearByBands(below: lowest, ray: rays.b, offset: offsets.b, to: known, wedge: wedge, sweep: sweep,
                                                tables: tables, profiles: profiles)))
        return .open(clearTo: max(0, (clear / (1 + shift) - 1) * reach / x))
    }

    /// How far, per metre of its horizontal run, a ray's modelled ground track (``RayPath``: 20 km
    /// segments for level rays, 5 km for sightlines) may stray from the exact ray's at `latitude`
    /// degrees, the two together: 2.5·10⁻⁶·sec²φ. The longitude's quadratic errs as sec²φ; a
    /// level ray strays up to 1.8·10⁻⁶·sec²φ, a sightline 1.4·10⁻⁷·sec²φ (3.3·10⁻⁶ and 2.7·10⁻⁷
    /// at 45°, 2.3·10⁻⁴ and 1.4·10⁻⁵ at 85°; `RayPathTests`). Terrain under a track that strays
    /// by δ differs by the gradient times δ, which every bound must allow.
    static func trackDrift(latitude: Double) -> Double {
        let c = cos(radians(min(abs(latitude), 89.99)))
        return 2.5e-6 / (c * c)
    }

    /// A cell's tangent as the level rays measure tangents, for a target x metres from the eye
    /// horizontally and `height` metres above the ellipsoid: the distance d along a level ray over
    /// the target's ground point (the level ray lies `above` metres over the target there), and
    /// (h − h_eye − c·d²)/d.
    @inline(__always)
    static func tangent(x: Double, height h: Double, eyeHeight: Double, radius: Double, curvature: Double)
        -> (tangent: Double, distance: Double, above: Double) {
        let above = eyeHeight + x * x * (0.5 / radius) - h
        let d = x + above * x * (1 / radius)
        return ((h - eyeHeight - curvature * d * d) / d, d, above)
    }

    /// How far the tangents that the points of a cell's own sightline show, as the level rays
    /// measure tangents ((h − h_eye − c·d′²)/d′, d′ the level ray's slant distance over the
    /// point), may stray beyond the span from T, the sightline's elevation tangent at the eye,
    /// to the cell's own tangent t (``tangent(x:height:eyeHeight:radius:curvature:)``).
    ///
    /// A straight line is not one of constant tangent. On a sphere of radius R, a line leaving
    /// an eye at radius r₀ at elevation tangent T lies r₀·(sec β/(1 − T·tan β) − 1) over the
    /// ground an angle β from the eye, where a level ray has run d′ = r₀·tan β; so at u = tan β
    /// it shows τ(u) = T + u·T² + u²·(T³ + T/2) + u³·(T⁴ + T²/2 − 1/8) − u·(r₀ − R)/(2R) + …,
    /// from T at the eye to t at the target: t − T ≈ (x/R)·T², 1.6·10⁻⁵ at 10 km for T = ±0.1,
    /// 7·10⁻⁵ at 5 km below an eye 1 500 m up. A sightline can thus pass under terrain that
    /// shows a tangent below its own t, which a bound proving the cell visible must leave room
    /// for. Its points lie between min(t, T) and t to within u²·|T|·(1 + T²) +
    /// u³·(1/8 + T²/2 + T⁴) for u = x/R, and the heights' term u·(r₀ − R)/(2R), which the
    /// sweep's curvature margin holds (4·10⁻¹⁰ a metre: eye and target heights up to 16 km in
    /// all). Refraction's drop, applied along the vertical over a horizontal distance that
    /// differs from d′ by the shares u² and Δh/R, adds |k|·u·(u² + |Δh|/R)·(1 + |T|). Against the
    /// exact line on a sphere (eyes −430 to 8 848 m up, targets 150 m–400 km away and up to
    /// 8.8 km below or 8 km above, k from −1 to 1), with that 4·10⁻¹⁰·x, the largest stray was
    /// 0.32 of this (`ViewshedSpreadTests`).
    @inline(__always)
    static func sightlineSpread(elevation T: Double, x: Double, rise: Double, radius: Double, refraction k: Double) -> Double {
        let u = x * (1 / radius), t2 = T * T
        return u * (u * abs(T) * (1 + t2) + u * u * (0.125 + t2 * (0.5 + t2))
                    + abs(k) * (u * u + abs(rise) * (1 / radius)) * (1 + abs(T)))
    }

    /// Slant metres along level ray `ray` nearer than which the cell's own sightline surely
    /// stays below `tangent`: the first band (up to d) whose terrain, raised by the band's slope
    /// in `wedge` times the cell's azimuth `offset`, may reach it, from where the ray's horizon
    /// first rises that high (or the band's start, if later).
    @inline(__always)
    private static func clearByBands(below tangent: Double, ray: Int, offset: Double, to d: Double, wedge: Int, sweep: Sweep,
                                     tables: Sweep.Tables, profiles: UnsafeBufferPointer<HorizonProfile>) -> Double {
        let row = wedge * sweep.bands, base = ray * sweep.bands, last = min(Int(d * sweep.bandsPerMetre), sweep.bands - 1)
        // Bands whose ceiling stays below the tangent less the wedge's steepest slope times the
        // offset pass the test below: the first that may not, found by bisection, is where the
        // band-by-band search starts (the ceilings rise with k).
        let lowest = tangent - tables.lateral[wedge] * offset
        var first = 0, end = last
        while first < end {
            let mid = (first + end) >> 1
            if tables.bandCeilings[base + mid] < lowest { first = mid + 1 } else { end = mid }
        }
        for k in first...last {
            let threshold = tangent - tables.bandLateral[row + k] * offset
            if k < last, tables.bandHorizons[base + k] < threshold { continue }
            return profiles[ray].firstRise(to: threshold, from: Double(k) * sweep.bandLength)
        }
        return 0
    }

    /// Whether the terrain along the cell's own sightline surely rises above `tangent` before
    /// slant distance d: the terrain that sets level ray `ray`'s horizon at d, less the slope of
    /// its band in `wedge` times the cell's azimuth `offset` (radians) from the ray.
    @inline(__always)
    private static func hiddenByBands(_ tangent: Double, ray: Int, offset: Double, at d: Double, wedge: Int, sweep: Sweep,
                                      tables: Sweep.Tables, profiles: UnsafeBufferPointer<HorizonProfile>) -> Bool {
        let source = profiles[ray].horizonSource(at: d)
        guard source.tangent > tangent else { return false }
        let row = wedge * sweep.bands
        var slope = tables.lateral[wedge]
        if source.end >= source.start {
            slope = 0
            let last = min(Int(source.end * sweep.bandsPerMetre), sweep.bands - 1)
            for k in min(Int(max(source.start, 0) * sweep.bandsPerMetre), last)...last { slope = max(slope, tables.bandLateral[row + k]) }
        }
        return source.tangent - slope * offset > tangent
    }

    /// Whether the terrain along the cell's own sightline surely stays below `tangent` up to
    /// slant distance d (level ray `ray`'s horizon there being `horizon`): in every band, the
    /// ray's horizon at the band's end raised by the band's slope in `wedge` times the cell's
    /// azimuth `offset` (radians) from the ray.
    @inline(__always)
    private static func upperByBands(below tangent: Double, ray: Int, offset: Double, horizon: Double, at d: Double, wedge: Int,
                                     sweep: Sweep, tables: Sweep.Tables) -> Bool {
        let row = wedge * sweep.bands, last = min(Int(d * sweep.bandsPerMetre), sweep.bands - 1)
        guard horizon + tables.bandLateral[row + last] * offset < tangent else { return false }
        let base = ray * sweep.bands, groups = (sweep.bands + Sweep.bandGroup - 1) / Sweep.bandGroup
        var k = 0
        while k < last {
            // A group of bands at once, by its highest horizon and steepest slope; band by band
            // only where that does not settle it.
            let group = k / Sweep.bandGroup, end = min(k + Sweep.bandGroup, last)
            if tables.bandCeilings[base + end - 1] + tables.groupLateral[wedge * groups + group] * offset >= tangent {
                for j in k..<end where tables.bandHorizons[base + j] + tables.bandLateral[row + j] * offset >= tangent { return false }
            }
            k = end
        }
        return true
    }

    /// Slant metres along the level rays beyond which the cell's own sightline surely stays below
    /// `tangent` up to d: the start of the band after the last one (up to d's) in which neither
    /// ray bounds it, each ray's horizon at the band's end (at d in d's band: `horizons`) raised
    /// by the band's slope in `wedge` times the cell's azimuth offset from that ray; +∞ when
    /// d's band is such a band. Each band is bounded on its own: terrain along a ray within a
    /// band is no higher than the ray's horizon at the band's end, and the sightline's within
    /// the band's slope times the offset of that.
    @inline(__always)
    private static func clearBeyondBands(below tangent: Double, rays: (a: Int, b: Int), offsets: (a: Double, b: Double),
                                         horizons: (a: Double, b: Double), at d: Double, wedge: Int, sweep: Sweep,
                                         tables: Sweep.Tables) -> Double {
        let row = wedge * sweep.bands, last = min(Int(d * sweep.bandsPerMetre), sweep.bands - 1)
        let slope = tables.bandLateral[row + last]
        guard horizons.a + slope * offsets.a < tangent || horizons.b + slope * offsets.b < tangent else { return .infinity }
        let baseA = rays.a * sweep.bands, baseB = rays.b * sweep.bands
        var k = last - 1
        while k >= 0 {
            let slope = tables.bandLateral[row + k]
            guard tables.bandHorizons[baseA + k] + slope * offsets.a < tangent
                    || tables.bandHorizons[baseB + k] + slope * offsets.b < tangent else { break }
            k -= 1
        }
        return Double(k + 1) * sweep.bandLength
    }

    /// `aim`'s answer for one point (ellipsoidal height h on the vertical `above`): no terrain in
    /// the way of its own sightline (``TargetSight/blocker(geoid:over:maximumTerrain:)``), walked
    /// from `clearTo` to `clearFrom` slant metres, nearer and beyond which the sweep has proved it
    /// clear. `frame` and `radius` are the eye's, computed once for all cells; `path` is the
    /// eye's ray, re-aimed.
    static func exactlyVisible<T: TerrainGrids>(above: Ellipsoid.Vertical, height h: Double, clearTo: Double, clearFrom: Double = .infinity,
                                                sweep: Sweep, frame: LocalFrame, radius: Double, path: inout RayPath,
                                                over terrain: inout T) -> Bool {
        let sight = TargetSight(eye: sweep.eye, frame: frame, radius: radius, above: above, height: h, refraction: sweep.refraction)
        let limit = min(sight.reach - sight.tolerance, clearFrom)
        guard limit > clearTo else { return true }
        // One path for all the cells, aimed anew (the geoid it holds is copied once).
        path.restart(direction: sight.direction)
        // A cell's sightline stays within 180° of longitude of the eye (the grid spans at most
        // that much and the ray passes over no pole): the segments before clearTo are not needed.
        path.startSegments(at: clearTo)
        path.reserveSegments(through: limit)
        var hit = FirstHit(maximumTerrain: SightlineMarch.highestTerrain)
        // The walk begins at the pyramid level whose blocks span about half the stretch walked
        // (in cells of the DEM's wider spacing): every block above it would matter, the target's
        // own terrain in it. Plain 1 196 → 1 145 M instructions with the top level (as aim walks);
        // a level more or less: ± 0.3 %.
        let cells = (limit - clearTo) / (sweep.voidReach / 3)
        let level = max(0, Int(log2(max(cells, 1) / Double(MaximumPyramid.cellsPerBlock(level: 0))).rounded(.up)) - 1)
        _ = path.walk(from: clearTo, to: limit, visitor: &hit, startLevel: level) { terrain.withGrid(containing: $0, longitude: $1, $2) }
        // A ray that left a void below the terrain was stopped in it, as aim says.
        guard let s = hit.hit ?? hit.unknownCrossing?.end else { return true }
        return s >= limit
    }
}

/// The geoid's undulation along one row of a viewshed grid. Along a parallel the bilinear
/// geoid is linear in longitude between two of its columns, so two look-ups per stretch between
/// its columns give every cell's value by linear interpolation, to rounding (10⁻¹² m): used
/// only to settle cells, never for a sightline.
struct RowUndulations {
    private(set) var values: [Double]

    init(count: Int) { values = [Double](repeating: 0, count: count) }

    mutating func fill(latitude: Double, grid: ViewshedGrid, geoid: Geoid) {
        let spacing = geoid.longitudeSpacing, west = geoid.west
        // Along a row the look-ups stay in a few cells of the geoid.
        var cell = Geoid.Cell()
        func stretch(_ c: Int) -> Double { ((grid.longitude(column: c) - west) / spacing).rounded(.down) }
        var c = 0
        let count = values.count
        while c < count {
            // The last column in the same stretch between two geoid columns.
            let k = stretch(c)
            var end = min(count - 1, c + max(0, Int(((k + 1) * spacing + west - grid.longitude(column: c)) / grid.longitudeSpacing)))
            while end > c, stretch(end) != k { end -= 1 }
            while end + 1 < count, stretch(end + 1) == k { end += 1 }
            let first = geoid.undulation(latitude: latitude, longitude: grid.longitude(column: c), cell: &cell)
            values[c] = first
            if end > c {
                let last = geoid.undulation(latitude: latitude, longitude: grid.longitude(column: end), cell: &cell)
                let slope = (last - first) / Double(end - c)
                for j in (c + 1)...end { values[j] = first + slope * Double(j - c) }
            }
            c = end + 1
        }
    }
}

/// The azimuths of the cells along a row, each from the one before: neighbours differ by a small
/// angle whose arctangent a short series gives, cheaper than `atan2` for every cell.
struct Bearing {
    private var east = 0.0, north = 0.0, azimuth = Double.nan

    /// The azimuth of (east, north), radians clockwise from north in [0, 2π): from the previous
    /// direction when the turn's tangent e is below 10⁻² (the series e − e³/3 + e⁵/5 − e⁷/7 then
    /// errs by under e⁹/9 ≈ 10⁻¹⁹), else by `atan2`.
    @inline(__always)
    mutating func next(east x: Double, north y: Double) -> Double {
        let dot = east * x + north * y, cross = north * x - east * y
        var a: Double
        if azimuth.isFinite, dot > 0, abs(cross) < 0.01 * dot {
            let e = cross / dot, e2 = e * e
            a = azimuth + e * (1 - e2 * (1.0 / 3 - e2 * (1.0 / 5 - e2 * (1.0 / 7))))
            if a < 0 { a += 2 * .pi } else if a >= 2 * .pi { a -= 2 * .pi }
        } else {
            a = atan2(x, y)
            if a < 0 { a += 2 * .pi }
        }
        east = x
        north = y
        azimuth = a
        return a
    }
}
