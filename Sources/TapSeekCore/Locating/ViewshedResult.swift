import Dispatch
import Foundation

/// What can be seen from a point over a DEM catalog: ``Locator/viewshed(from:settings:jobs:progress:)``.
public struct ViewshedResult: Sendable {
    /// Where the observer stands, as for a located reading.
    public var observer: LocateResult.Observer
    public var viewshed: Viewshed
    public var warnings: [Warning] = []
}

extension Locator {
    /// The viewshed of a location (a reading's `location`: altitude optional, as MSL or
    /// ellipsoidal height; absent, the eye stands on the ground at eye height): for every cell
    /// of a grid at the DEM's resolution (or `settings.resolution`) within `settings.range`,
    /// whether ``aim(_:terrain:resolve:)`` would find the cell's centre, raised by
    /// `settings.targetHeight`, `visible`. The level rays and the rows are shared among `jobs`
    /// threads; `progress` hears (rows done, rows) as rows are finished, from any thread.
    ///
    /// The grid covers the range's square on the ground, clipped to the DEM's tiles; cells
    /// beyond the range or without terrain are ``ViewshedGrid/noData``.
    ///
    /// - Throws: ``LocateResult/Failure`` when the observer cannot be placed, or the grid would
    ///   exceed ``Viewshed/maximumCells``, or a setting is out of its range.
    public func viewshed(from location: Reading.Location, settings: Viewshed.Settings,
                         jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
                         progress: (@Sendable (Int, Int) -> Void)? = nil) throws(LocateResult.Failure) -> ViewshedResult {
        func bad(_ message: String) -> LocateResult.Failure { LocateResult.Failure(code: .badInput, message: message) }
        if let range = settings.range, !(range > 0 && range.isFinite) { throw bad("range must be a positive number of metres, got \(range)") }
        if let resolution = settings.resolution, !(resolution > 0 && resolution <= 1) {
            throw bad("resolution must be within (0, 1] degrees, got \(resolution)")
        }
        guard settings.targetHeight.isFinite, settings.targetHeight >= 0, settings.targetHeight <= 10_000 else {
            throw bad("targetHeight must be within 0…10000 metres, got \(settings.targetHeight)")
        }
        guard MarchSettings.refractionRange.contains(settings.refraction) else {
            throw bad("refraction must be within \(MarchSettings.refractionRange), got \(settings.refraction)")
        }
        var terrain = TerrainSampler(catalog: catalog)
        var warnings: [Warning] = []
        let observer = try place(location, terrain: &terrain, warnings: &warnings)
        let eye = eye(of: observer)
        guard let dem = terrain.grid(containing: observer.latitude, longitude: observer.longitude) else {
            throw LocateResult.Failure(code: .outsideDEM, message: "the observer (\(observer.latitude), \(observer.longitude)) is outside the DEM")
        }
        let range = settings.range ?? Panorama.range(settings: Panorama.Settings(refraction: settings.refraction),
                                                     eyeMSL: observer.altitude, latitude: observer.latitude)
        let window = try viewshedWindow(around: observer, range: range, isDefaultRange: settings.range == nil, dem: dem, resolution: settings.resolution)
        let rows = window.rows, columns = window.columns

        let catalog = self.catalog, geoid = self.geoid
        // The grid's values are taken out while the cells are judged, so that the threads write
        // into them alone; `empty` (its geometry, which is all the sweep reads) holds none.
        var whole = ViewshedGrid(north: window.north, west: window.west, latitudeSpacing: window.latitudeSpacing,
                                 longitudeSpacing: window.longitudeSpacing, rows: rows, columns: columns,
                                 values: [UInt8](repeating: ViewshedGrid.noData, count: rows * columns))
        var values = whole.values
        whole.values = []
        let empty = whole
        let grids = demGrids(in: empty, terrain: &terrain)

        // The sweep's level rays, at least as close as the DEM's posts require; over terrain
        // without voids (which could hide between rays wider apart) every other one first, and
        // the rest only where a pilot finds they pay (Viewshed.walksFinest).
        let poleward = radians(min(89.9, abs(observer.latitude) + window.latitudeSpan))
        let postSpacing = min(radians(dem.latitudeSpacing) * Ellipsoid.wgs84.meanRadius(latitude: radians(observer.latitude)),
                              radians(dem.longitudeSpacing) * Ellipsoid.wgs84.semiMajorAxis * cos(poleward))
        let halving = !grids.contains { $0.voidFraction > 0 }
        let finest = Viewshed.radialCount(range: range, postSpacing: postSpacing)
        let count = halving ? (finest + 1) / 2 * 2 : finest
        // Each ray's profile, by its index; a ray never walked keeps an empty one, which no
        // sweep holds.
        var radials = [HorizonProfile](repeating: HorizonProfile(), count: count)
        // Every ray's row of bands is written by the share that walks it.
        let bandCount = count * WedgeSlopes.bandCount
        var bandHorizons = [Double](unsafeUninitializedCapacity: bandCount) { _, written in written = bandCount }
        var bandCeilings = [Double](unsafeUninitializedCapacity: bandCount) { _, written in written = bandCount }
        // Walks level rays `rays` into `radials` while `goesOn` says so (asked before each ray),
        // with `alongside` run meanwhile, first (on its own thread when there are several): small
        // shares, 16 a job, so that the thread that ran it is not left behind by a whole share.
        func walk(_ rays: [Int], alongside: @escaping @Sendable (Viewshed.Sweep.Bands) -> Void,
                  while goesOn: @escaping @Sendable () -> Bool = { true }) {
            let shares = jobs == 1 ? 1 : max(1, min(jobs * 16, rays.count))
            let parts = ViewshedParts<[HorizonProfile]>(count: shares)
            @Sendable func share(_ i: Int) -> Range<Int> { (i * rays.count / shares)..<((i + 1) * rays.count / shares) }
            bandHorizons.withUnsafeMutableBufferPointer { horizons in
                bandCeilings.withUnsafeMutableBufferPointer { ceilings in
                    let bands = Viewshed.Sweep.Bands(horizons: horizons, ceilings: ceilings)
                    Self.perform(shares + 1, jobs: jobs) { task in
                        guard task > 0 else { return alongside(bands) }
                        var sampler = TerrainSampler(catalog: catalog)
                        parts.store(task - 1, Viewshed.profiles(rays[share(task - 1)], count: count, eye: eye, geoid: geoid,
                                                                refraction: settings.refraction, range: range, bands: bands, while: goesOn,
                                                                over: &sampler))
                    }
                }
            }
            for (i, part) in parts.all.enumerated() {
                for (ray, profile) in zip(rays[share(i)], part ?? []) { radials[ray] = profile }
            }
        }
        // The wedges' slopes (a quarter of the level rays' work) are measured while the rays are
        // walked.
        let slopesPart = ViewshedParts<WedgeSlopes>(count: 1)
        walk(Array(stride(from: 0, to: count, by: halving ? 2 : 1))) { _ in
            slopesPart.store(0, WedgeSlopes.measure(of: grids, south: empty.latitude(row: rows - 1), north: empty.north, west: empty.west,
                                                    east: empty.longitude(column: columns - 1), eye: eye, count: count,
                                                    range: Viewshed.profileRange(range)))
        }
        guard let slopes = slopesPart.all[0] else { preconditionFailure("the wedges' slopes are measured before the cells are judged") }
        let eyeClearance = observer.altitude - Self.highestNear(observer, in: dem)
        let voidSpacing = max(radians(dem.latitudeSpacing), radians(dem.longitudeSpacing)) * Ellipsoid.wgs84.semiMajorAxis
        // The sweep over every `spacing`-th level ray, from their profiles and rows of bands.
        @Sendable func sweep(every spacing: Int, profiles: [HorizonProfile], horizons: [Double], ceilings: [Double]) -> Viewshed.Sweep {
            Viewshed.Sweep(eye: eye, geoid: geoid, refraction: settings.refraction, targetHeight: settings.targetHeight, range: range,
                           profiles: profiles, bandHorizons: horizons, bandCeilings: ceilings, wedgeSlopes: slopes.coarsened(by: spacing),
                           eyeClearance: eyeClearance, postSpacing: voidSpacing)
        }
        let angles = Viewshed.ColumnAngles(of: empty)
        var coarse: Viewshed.Sweep?
        if halving {
            // The pilot bounds its rows with every other ray while the rest are walked, on the
            // chance that they pay; they stop once it finds they do not.
            let sample = Array(stride(from: Viewshed.pilotSpacing / 2, to: rows, by: Viewshed.pilotSpacing))
            let even = Array(stride(from: 0, to: count, by: 2)), profiles = even.map { radials[$0] }
            let decided = Locked<Bool?>(nil)
            let coarsePart = ViewshedParts<Viewshed.Sweep>(count: 1)
            walk(Array(stride(from: 1, to: count, by: 2)), alongside: { bands in
                let (horizons, ceilings) = bands.rows(even)
                let coarse = sweep(every: 2, profiles: profiles, horizons: horizons, ceilings: ceilings)
                var sampler = TerrainSampler(catalog: catalog)
                var scratch = [UInt8](repeating: ViewshedGrid.noData, count: columns)
                let open = scratch.withUnsafeMutableBufferPointer { values in
                    sample.reduce(0) {
                        $0 + Viewshed.judge(rows: $1..<($1 + 1), of: empty, angles: angles, into: values, sweep: coarse, countingOnly: true,
                                            over: &sampler)
                    }
                }
                coarsePart.store(0, coarse)
                decided.withLock { $0 = Viewshed.walksFinest(open: open, sampled: sample.count, rows: rows, extraRays: count / 2) }
            }, while: { decided.withLock { $0 } != false })
            if decided.withLock({ $0 }) == false { coarse = coarsePart.all[0] }
        }
        // Rows in blocks, many per job so that the slower rows near the eye are shared out.
        let blocks = max(1, min(rows, jobs * 16))
        let judged = ViewshedParts<Int>(count: blocks)
        let done = Locked(0)
        // Shares split at whole groups of rows (ViewshedBlock), so that every --jobs judges the
        // same blocks and counts the same own sightlines.
        @Sendable func split(_ i: Int) -> Int {
            i == blocks ? rows : min(rows, (i * rows / blocks + ViewshedBlock.side / 2) / ViewshedBlock.side * ViewshedBlock.side)
        }
        let final = coarse ?? sweep(every: 1, profiles: radials, horizons: bandHorizons, ceilings: bandCeilings)
        let profiles = final.profiles
        values.withUnsafeMutableBufferPointer { buffer in
            let storage = GridStorage(values: buffer)
            Self.perform(blocks, jobs: jobs) { block in
                var sampler = TerrainSampler(catalog: catalog)
                let share = split(block)..<split(block + 1)
                let cells = UnsafeMutableBufferPointer(rebasing: storage.values[(share.lowerBound * columns)..<(share.upperBound * columns)])
                judged.store(block, Viewshed.judge(rows: share, of: empty, angles: angles, into: cells, sweep: final, over: &sampler))
                let finished = done.withLock { $0 += share.count; return $0 }
                progress?(finished, rows)
            }
        }
        let exact = judged.all.reduce(0) { $0 + ($1 ?? 0) }
        var grid = empty
        grid.values = values
        let crossedVoid = profiles.contains { $0.firstVoid.isFinite }
        if crossedVoid {
            warnings.append(Warning(.voidOnSightline, "some sightlines cross voids in the DEM; terrain there is unknown and counts as hiding nothing"))
        }
        if profiles.contains(where: { $0.validity < range }) {
            warnings.append(Warning(.leftDEM, "the DEM ends within range; cells beyond it are no data and terrain beyond hides nothing"))
        }
        if let warning = Self.nearGroundWarning(profiles, range: range) { warnings.append(warning) }
        if let warning = Self.filledWarning(grids, around: observer, range: range, window: empty) { warnings.append(warning) }
        let viewshed = Viewshed(eye: eye, settings: settings, range: range, grid: grid, radials: profiles.count, exactCells: exact,
                                crossedVoid: crossedVoid)
        return ViewshedResult(observer: observer, viewshed: viewshed, warnings: warnings)
    }

    /// The warning for posts within range (and the window) filled across voids of the DEM:
    /// cells on them, and what they hide, rest on interpolated terrain. Nil when none is.
    static func filledWarning(_ grids: [ElevationGrid], around observer: LocateResult.Observer, range: Double,
                              window: ViewshedGrid) -> Warning? {
        guard grids.contains(where: { $0.filled != nil }) else { return nil }
        let metresPerDegree = radians(1) * Ellipsoid.wgs84.meanRadius(latitude: radians(observer.latitude))
        let east = metresPerDegree * cos(radians(observer.latitude))
        let south = window.latitude(row: window.rows - 1), eastEdge = window.longitude(column: window.columns - 1)
        var filled = 0, posts = 0
        for grid in grids {
            // The grid's longitudes are the observer's plus `shift` (whole turns, across 180°).
            let shift = grid.longitudeShift(toward: observer.longitude)
            let firstRow = max(0, Int(((grid.north - window.north) / grid.latitudeSpacing).rounded(.down)))
            let lastRow = min(grid.rows - 1, Int(((grid.north - south) / grid.latitudeSpacing).rounded(.up)))
            let firstColumn = max(0, Int(((window.west + shift - grid.west) / grid.longitudeSpacing).rounded(.down)))
            let lastColumn = min(grid.columns - 1, Int(((eastEdge + shift - grid.west) / grid.longitudeSpacing).rounded(.up)))
            guard firstRow <= lastRow, firstColumn <= lastColumn else { continue }
            for row in firstRow...lastRow {
                let north = (grid.north - Double(row) * grid.latitudeSpacing - observer.latitude) * metresPerDegree
                func inside(_ column: Int) -> Bool {
                    let along = (grid.west - shift + Double(column) * grid.longitudeSpacing - observer.longitude) * east
                    return north * north + along * along <= range * range
                }
                // The row's posts within range are one run of columns (the distance grows both
                // ways from the observer's column): its ends from the circle, settled by the
                // test itself, and the run's filled posts counted a word of the mask at a time
                // (a test for every post of the window was 2 % of a summit's viewshed).
                let centre = (observer.longitude + shift - grid.west) / grid.longitudeSpacing
                let half = (max(0, range * range - north * north)).squareRoot() / east / grid.longitudeSpacing
                var lo = max(firstColumn, Int((centre - half).rounded(.up)))
                var hi = min(lastColumn, Int((centre + half).rounded(.down)))
                while lo > firstColumn, inside(lo - 1) { lo -= 1 }
                while hi < lastColumn, inside(hi + 1) { hi += 1 }
                while lo <= hi, !inside(lo) { lo += 1 }
                while hi >= lo, !inside(hi) { hi -= 1 }
                guard lo <= hi else { continue }
                posts += hi - lo + 1
                if let mask = grid.filled { filled += mask.count(in: (row * grid.columns + lo)..<(row * grid.columns + hi + 1)) }
            }
        }
        guard filled > 0 else { return nil }
        return Warning(.filledVoid, String(format: "%d of the %d DEM posts within range (%.1f %%) were filled across voids of the DEM (interpolated from around the voids, not measured): cells on them, and what they hide, rest on interpolated terrain", filled, posts, 100 * Double(filled) / Double(posts)))
    }

    /// The warning for level rays whose horizon over the whole range is ground within
    /// ``Panorama/nearGround`` of the eye, as a panorama's: an eye on a slope, such as a summit's
    /// coordinates where the DEM's bilinear surface lies below the summit, sees only part of
    /// what stands there. Nil when none.
    static func nearGroundWarning(_ profiles: [HorizonProfile], range: Double) -> Warning? {
        var azimuths: [Double] = []
        var highest = -Double.infinity
        for (i, profile) in profiles.enumerated() {
            let near = profile.horizon(at: Panorama.nearGround)
            guard near.isFinite, near >= profile.horizon(at: min(range, profile.validity)) else { continue }
            azimuths.append(Double(i) * 360 / Double(profiles.count))
            highest = max(highest, near)
        }
        guard !azimuths.isEmpty else { return nil }
        return nearGroundWarning(azimuths: azimuths, of: profiles.count, highest: atan(highest) * 180 / .pi)
    }

    /// Runs `body` for 0..<n: on all cores, or one after another on this thread when `jobs` is 1
    /// (as `--jobs 1` promises).
    private static func perform(_ n: Int, jobs: Int, _ body: @Sendable (Int) -> Void) {
        if jobs == 1 {
            for i in 0..<n { body(i) }
        } else {
            DispatchQueue.concurrentPerform(iterations: n, execute: body)
        }
    }

    /// The grid of a viewshed: the square of `range` metres around the observer, on the DEM's
    /// lattice of posts (or a lattice of `resolution` degrees through the DEM's north-west post),
    /// clipped to the catalog's tiles.
    private func viewshedWindow(around observer: LocateResult.Observer, range: Double, isDefaultRange: Bool, dem: ElevationGrid,
                                resolution: Double?) throws(LocateResult.Failure)
        -> (north: Double, west: Double, latitudeSpacing: Double, longitudeSpacing: Double, rows: Int, columns: Int, latitudeSpan: Double) {
        let latitudeSpacing = resolution ?? dem.latitudeSpacing, longitudeSpacing = resolution ?? dem.longitudeSpacing
        let phi = radians(observer.latitude)
        let e2 = Ellipsoid.wgs84.eccentricitySquared, a = Ellipsoid.wgs84.semiMajorAxis
        let meridian = a * (1 - e2) / pow(1 - e2 * sin(phi) * sin(phi), 1.5)
        let latitudeSpan = degrees(range / meridian) * 1.01 + latitudeSpacing
        let poleward = radians(min(90, abs(observer.latitude) + latitudeSpan))
        guard cos(poleward) > 0.02 else {
            throw LocateResult.Failure(code: .badInput, message: "range \(range) m reaches too near a pole for a latitude–longitude grid")
        }
        let longitudeSpan = min(180, degrees(range / (a * cos(poleward))) * 1.01 + longitudeSpacing)
        var south = observer.latitude - latitudeSpan, north = observer.latitude + latitudeSpan
        var west = observer.longitude - longitudeSpan, east = observer.longitude + longitudeSpan
        // Clip to the tiles that reach into the square (longitudes continued across ±180).
        var box: (south: Double, north: Double, west: Double, east: Double)?
        for t in catalog.tiles {
            let shift = 360 * ((observer.longitude - (t.west + t.east) / 2) / 360).rounded()
            let tw = t.west + shift, te = t.east + shift
            guard t.north >= south, t.south <= north, te >= west, tw <= east else { continue }
            box = box.map { (min($0.south, t.south), max($0.north, t.north), min($0.west, tw), max($0.east, te)) }
                ?? (t.south, t.north, tw, te)
        }
        if let box {
            south = max(south, box.south); north = min(north, box.north)
            west = max(west, box.west); east = min(east, box.east)
        }
        // Rows and columns on the lattice through the DEM's north-west post.
        let top = ((dem.north - north) / latitudeSpacing).rounded(.up), bottom = ((dem.north - south) / latitudeSpacing).rounded(.down)
        let left = ((west - dem.west) / longitudeSpacing).rounded(.up), right = ((east - dem.west) / longitudeSpacing).rounded(.down)
        let rows = Int(bottom - top) + 1, columns = Int(right - left) + 1
        let cells = Double(max(rows, 0)) * Double(max(columns, 0))
        guard cells <= Double(Viewshed.maximumCells) else {
            let why = isDefaultRange ? " (the default: the horizon range of the highest terrain)" : ""
            let arcseconds = String(format: "%.2f", (resolution ?? dem.latitudeSpacing) * 3600)
            throw LocateResult.Failure(code: .badInput, message: "range \(Int(range)) m\(why) at \(arcseconds)″ needs a grid of \(Int(cells)) cells within the DEM's tiles; at most \(Viewshed.maximumCells): give a smaller range or a coarser resolution")
        }
        guard rows > 0, columns > 0 else {
            throw LocateResult.Failure(code: .outsideDEM, message: "no DEM cells lie within range of the observer")
        }
        return (dem.north - top * latitudeSpacing, dem.west + left * longitudeSpacing, latitudeSpacing, longitudeSpacing, rows, columns,
                latitudeSpan)
    }

    /// The DEM grids under a viewshed's cells: those holding a lattice of its cells every 16
    /// rows and columns and along its edges.
    private func demGrids(in grid: ViewshedGrid, terrain: inout TerrainSampler) -> [ElevationGrid] {
        var found: [ElevationGrid] = []
        func note(_ r: Int, _ c: Int) {
            guard let g = terrain.grid(containing: grid.latitude(row: r), longitude: grid.longitude(column: c)) else { return }
            if !found.contains(where: { $0.north == g.north && $0.west == g.west && $0.rows == g.rows && $0.columns == g.columns
                && $0.latitudeSpacing == g.latitudeSpacing }) {
                found.append(g)
            }
        }
        let rowSteps = Array(stride(from: 0, to: grid.rows, by: 16)) + [grid.rows - 1]
        let columnSteps = Array(stride(from: 0, to: grid.columns, by: 16)) + [grid.columns - 1]
        for r in rowSteps { for c in columnSteps { note(r, c) } }
        return found
    }

    /// The highest the terrain can be within ``SkylineSearch/nearest`` of the observer, metres:
    /// its ground plus that distance times the steepest gradient of the 3 × 3 DEM cells around
    /// (+∞ when one of their posts is a void or the ground is unknown, so that the eye never
    /// counts as clear of unknown ground).
    private static func highestNear(_ observer: LocateResult.Observer, in dem: ElevationGrid) -> Double {
        guard let ground = observer.groundElevation else { return .infinity }
        let shift = dem.longitudeShift(toward: observer.longitude)
        let r = Int(((dem.north - observer.latitude) / dem.latitudeSpacing).rounded(.down))
        let c = Int(((observer.longitude + shift - dem.west) / dem.longitudeSpacing).rounded(.down))
        let phi = radians(min(89.9, abs(observer.latitude) + dem.latitudeSpacing))
        let dx = radians(dem.longitudeSpacing) * Ellipsoid.wgs84.semiMajorAxis * cos(phi)
        let dy = radians(dem.latitudeSpacing) * Ellipsoid.wgs84.semiMinorAxis
        var steepest = 0.0
        for i in (r - 1)...(r + 1) {
            for j in (c - 1)...(c + 1) {
                guard let h00 = dem.post(row: i, column: j), let h01 = dem.post(row: i, column: j + 1),
                      let h10 = dem.post(row: i + 1, column: j), let h11 = dem.post(row: i + 1, column: j + 1) else {
                    // Beyond the grid's edge (a seam cell): no bound here.
                    return .infinity
                }
                let gx = Double(max(abs(h01 - h00), abs(h11 - h10))) / dx, gy = Double(max(abs(h10 - h00), abs(h11 - h01))) / dy
                steepest = max(steepest, (gx * gx + gy * gy).squareRoot())
            }
        }
        return ground + SkylineSearch.nearest * steepest * 1.01
    }
}

/// The storage of a viewshed grid's values, which the threads' shares of rows write, each its
/// own rows, within the array's `withUnsafeMutableBufferPointer`.
private struct GridStorage: @unchecked Sendable {
    let values: UnsafeMutableBufferPointer<UInt8>
}

/// The shares of a viewshed computed on several threads, each stored once by its own thread.
private final class ViewshedParts<Part: Sendable>: Sendable {
    private let parts: Locked<[Part?]>

    init(count: Int) { parts = Locked(Array(repeating: nil, count: count)) }

    func store(_ i: Int, _ part: Part) { parts.withLock { $0[i] = part } }

    var all: [Part?] { parts.withLock { $0 } }
}
