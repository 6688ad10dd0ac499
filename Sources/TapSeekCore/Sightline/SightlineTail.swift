import Foundation

/// The last stretch of a viewshed cell's own sightline, next to the cell, settled by the DEM's
/// posts beneath it without walking it.
///
/// Over a lake seen from a hill most cells are visible near grazing: the sweep's bounds, which
/// must allow for every slope of the shore in the cells' wedges, leave the last few hundred
/// metres of their sightlines open, and each was walked (about 5 500 instructions, most of them
/// the walk's set-up: the segment's exact points, the pyramid's levels). Close to its target a
/// sightline is simple enough to bound directly. At slant distance L back from the target
/// (lifted by refraction, ``TargetSight``) the ray lies above the ellipsoid at
///
///     h + g₁·L + g₂·L²,  g₁ = sin ε + k·c²·ρ_s/R,  g₂ = cos²ε/(2(ρ_α + h)) − k·c²/(2R)
///
/// to within L³/R² or so: h the target's height, ε the elevation of the eye seen from the
/// lifted target, ρ_s the slant range to it, c the ray's horizontal share at the eye, ρ_α the
/// ellipsoid's normal section toward the eye at the target, k the refraction coefficient and R
/// the eye's mean radius (a straight line's height over the curved ground, less refraction's
/// drop k·(c·s)²/(2R) at slant s = ρ_s − L, which the lift cancels at the target). Its ground
/// track runs from the target toward the eye, L·cos ε along the normal section's azimuth, scaled
/// to the ground. ``verdict(from:to:undulation:undulationSlope:drift:over:)`` compares the two
/// with the terrain the track may cross; `SightlineTailTests` compares them with the exact ray.
struct SightlineTail {
    /// The target's ground position, degrees, and the ray's height above the ellipsoid at its end
    /// (the target's, raised by the target height), metres.
    let latitude: Double, longitude: Double
    let height: Double
    /// The ray's rise above `height` at slant metres L back from the target.
    let rise: Quadratic
    /// Slant metres from the eye to the lifted target, and those short of it that `aim` leaves
    /// unwalked (``TargetSight/tolerance``).
    let reach: Double
    let tolerance: Double
    /// Degrees of latitude and longitude the ground track moves per slant metre back from the
    /// target, and per ground metre in any direction.
    let latitudeStep: Double, longitudeStep: Double
    let latitudePerMetre: Double, longitudePerMetre: Double
    /// |tan φ| at the target: how fast the track's longitude bends away from a straight line.
    let tangentOfLatitude: Double
    /// The target's horizontal distance from the eye, metres.
    let run: Double

    /// The longest stretch proved from posts, slant metres: beyond, the walk's pyramid skips the
    /// terrain faster than posts are read one by one.
    static let longest = 2000.0
    /// Slant metres next to the target looked at when the whole stretch is longer than
    /// ``longest``: where they settle nothing, or prove clear only themselves (the walk then
    /// ends where they begin), a few hundred instructions are lost; where the ray surely runs
    /// below the terrain there, a walk of kilometres is saved. 300 m: 0.2–1.4 % fewer
    /// instructions than none on the benchmark's six terrains; 150 m about the same, 800 m up to
    /// 0.5 % more than 300.
    static let glance = 300.0

    /// The tail of the sightline from the eye (the origin of `frame`) to the target on the vertical
    /// `target` (at `latitude`, `longitude` degrees) `height` metres above the ellipsoid, `run`
    /// metres from the eye horizontally; `radius` the eye's mean radius of curvature.
    init(frame: LocalFrame, target: Ellipsoid.Vertical, latitude: Double, longitude: Double, height: Double, run: Double,
         refraction k: Double, radius: Double) {
        self.latitude = latitude
        self.longitude = longitude
        self.height = height
        self.run = run
        let eye = frame.originECEF
        tolerance = max(30, 0.005 * (eye - target.point(height: height)).length)
        // TargetSight's lift, from its second round (the third moves it by a few nanometres).
        let first = frame.enu(ofECEF: target.point(height: height + k * run * run / (2 * radius)))
        let lift = k * (first.x * first.x + first.y * first.y) / (2 * radius)
        let toEye = eye - target.point(height: height + lift)
        reach = toEye.length
        let cp = target.cosLatitude, sp = target.sinLatitude, cl = target.cosLongitude, sl = target.sinLongitude
        let up = toEye.dot(Vector3(cp * cl, cp * sl, sp))
        let east = toEye.dot(Vector3(-sl, cl, 0)), north = toEye.dot(Vector3(-sp * cl, -sp * sl, cp))
        let level = (east * east + north * north).squareRoot()
        let sinE = up / reach, cosE = level / reach
        let (sinA, cosA) = level > 0 ? (east / level, north / level) : (0.0, 1.0)
        // Radii of curvature at the target: prime vertical N and meridian M = N³(1 − e²)/a².
        let n = target.n, a = Ellipsoid.wgs84.semiMajorAxis
        let m = n * n * n * (1 - target.eccentricitySquared) / (a * a)
        let bend = (cosA * cosA / m + sinA * sinA / n) / (1 + height * (cosA * cosA / m + sinA * sinA / n))
        // The ray's horizontal share at the eye, over which refraction drops it (RayPath).
        let drop = toEye.dot(frame.up), horizontal = (reach * reach - drop * drop).squareRoot() / reach
        rise = Quadratic(a: cosE * cosE * bend / 2 - k * horizontal * horizontal / (2 * radius),
                         b: sinE + k * horizontal * horizontal * reach / radius, c: 0)
        latitudePerMetre = 180 / (.pi * m)
        longitudePerMetre = 180 / (.pi * n * max(cp, 1e-9))
        // A step along the tangent plane at the target's height moves its footpoint by ρ/(ρ + h) of it.
        latitudeStep = cosE * cosA * 180 / (.pi * (m + height))
        longitudeStep = cosE * sinA * 180 / (.pi * (n + height) * max(cp, 1e-9))
        tangentOfLatitude = abs(sp) / max(cp, 1e-9)
    }

    /// The ground point of the track `l` slant metres back from the target, degrees (longitude
    /// continuous from the target's).
    func groundPoint(back l: Double) -> (latitude: Double, longitude: Double) {
        (latitude + l * latitudeStep, longitude + l * longitudeStep)
    }

    /// How far, metres, the exact ground point `l` slant metres back may lie from
    /// ``groundPoint(back:)``: 5 cm, the ray model's `drift` per metre of horizontal run, the
    /// footpoint's share (the ray's rise over the target, over the ground's radius) and the track's bend
    /// (second order in l, faster toward the poles).
    func pad(back l: Double, drift: Double) -> Double {
        0.05 + drift * run + l * (abs(rise(l)) + 100) / 6.3e6 + l * l * (1 + tangentOfLatitude) / 6.3e6
    }

    /// How far, metres, the exact ray's height `l` slant metres back may lie from
    /// `height` + ``rise``(l): the model's 0.2 mm and the lift's convergence, a millimetre, the
    /// terms of third order and rounding.
    func heightMargin(back l: Double) -> Double { 0.003 + l * l * l / (6.3e6 * 6.3e6) + 1e-9 * reach }

    /// Whether a stretch from slant metres `clearTo` to `clearFrom` of a sightline `slant` metres
    /// long (to the unlifted target) may be short enough for ``verdict(from:to:undulation:undulationSlope:drift:over:)``
    /// to take whole (else its last ``glance`` metres are taken first): from the sightline's length
    /// alone, which the tail's reach and ``tolerance`` follow to a metre.
    static func mayCover(slant: Double, from clearTo: Double, to clearFrom: Double) -> Bool {
        slant - clearTo - max(30, 0.005 * slant, slant - clearFrom) <= longest + 1
    }

    /// `aim`'s answer for the target, when the terrain under the stretch of its walk from slant
    /// metres `clearTo` to `clearFrom` (or to its end, ``tolerance`` short of the target) settles
    /// it: true when the ray surely passes above every cell it may cross there, false when it
    /// surely runs below the terrain somewhere (the walk would meet the terrain there, or
    /// before), nil otherwise, or when the stretch is longer than ``longest``, leaves one grid or
    /// crosses a void. `undulation`: the geoid's at the target; `undulationSlope`: its steepest
    /// gradient around; `drift`: how far the ray's modelled track may stray from the exact one per
    /// metre of horizontal run (``Viewshed/trackDrift(latitude:)``).
    ///
    /// The track is cut where it crosses the grid's rows (or its columns, whichever it crosses
    /// more of), nearest the target first. In each band between two rows of posts it may cross
    /// the cells from the column where it enters the band to the one where it leaves, widened by
    /// ``pad(back:drift:)``: where the band's highest post stays below the ray's lowest point
    /// there, the band is clear. Elsewhere each cell is taken on its own, over the slant metres
    /// the track may spend in it: its bilinear terrain along the computed track, raised by its
    /// steepest slope times the pad (the exact track lies within the pad of it), against the ray.
    func verdict<T: TerrainGrids>(from clearTo: Double, to clearFrom: Double, undulation: Double, undulationSlope: Double,
                                  drift: Double, over terrain: inout T) -> Bool? {
        guard tangentOfLatitude < 10 else { return nil }
        // The walk's stretch as slant metres back from the target, a centimetre wider each way.
        let near = max(0, max(tolerance, reach - clearFrom) - 0.01), far = reach - clearTo + 0.01
        guard far > near else { return true }
        guard far - near <= Self.longest + 0.05 else { return nil }
        let pad = pad(back: far, drift: drift), margin = heightMargin(back: far)
        // The undulation anywhere the stretch may pass, from the target's and the slope.
        let spread = undulationSlope * (far + pad)
        let highestUndulation = undulation + spread, lowestUndulation = undulation - spread
        // The ray over the stretch as a quadratic in slant metres past `near`; `clearance`, its
        // height there less the highest undulation and the margin, is what terrain must stay below
        // at `near` (and the ray's rise past it, further on).
        let ray = Quadratic(a: rise.a, b: 2 * rise.a * near + rise.b, c: height + rise(near))
        let clearance = ray.c - highestUndulation - margin
        // A point of the stretch where the ray surely runs below the terrain: not at its ends.
        let span = far - near, inner = (0.02, span - 0.02)
        let farLatitude = latitude + far * latitudeStep, farLongitude = longitude + far * longitudeStep
        let latitude = latitude, longitude = longitude, latitudeStep = latitudeStep, longitudeStep = longitudeStep
        let latitudePerMetre = latitudePerMetre, longitudePerMetre = longitudePerMetre
        return terrain.withGrid(containing: farLatitude, longitude: farLongitude) { grid -> Bool? in
            guard !grid.maximumHeight.isNaN else { return nil }
            let shift = grid.longitudeShift(toward: farLongitude)
            // The track in fractional rows and columns at `near`, and per slant metre past it.
            let row = (grid.north - latitude - near * latitudeStep) / grid.latitudeSpacing
            let column = (longitude + near * longitudeStep + shift - grid.west) / grid.longitudeSpacing
            let rowRate = -latitudeStep / grid.latitudeSpacing, columnRate = longitudeStep / grid.longitudeSpacing
            let rowPad = pad * latitudePerMetre / grid.latitudeSpacing, columnPad = pad * longitudePerMetre / grid.longitudeSpacing
            // The track's box must lie within the grid.
            guard min(row, row + rowRate * span) - rowPad >= 0, max(row, row + rowRate * span) + rowPad + 1 <= Double(grid.rows - 1),
                  min(column, column + columnRate * span) - columnPad >= 0,
                  max(column, column + columnRate * span) + columnPad + 1 <= Double(grid.columns - 1) else { return nil }
            // Ground metres per row and per column, a hundredth less for the latitude's change over
            // the stretch.
            let rowMetres = grid.latitudeSpacing / latitudePerMetre / 1.01, columnMetres = grid.longitudeSpacing / longitudePerMetre / 1.01
            // Bands across the axis the track runs along more.
            let byRows = abs(rowRate) >= abs(columnRate)
            let (along, alongRate, alongPad) = byRows ? (row, rowRate, rowPad) : (column, columnRate, columnPad)
            let (across, acrossRate, acrossPad) = byRows ? (column, columnRate, columnPad) : (row, rowRate, rowPad)
            let columns = grid.columns
            // The slant metres past `near` (within [a, b]) over which `position` + `rate`·L lies in
            // [low, high].
            func stretch(_ position: Double, _ rate: Double, _ low: Double, _ high: Double, within a: Double, _ b: Double) -> (Double, Double) {
                guard rate != 0 else { return position >= low && position <= high ? (a, b) : (1, 0) }
                let p = (low - position) / rate, q = (high - position) / rate
                return (max(a, min(p, q)), min(b, max(p, q)))
            }
            // The bands from the one nearest the target on.
            let direction = alongRate >= 0 ? 1 : -1, lead = Double(direction) * alongPad
            let first = Int((along - lead).rounded(.down)), last = Int((along + alongRate * span + lead).rounded(.down))
            return grid.heights.withUnsafeBufferPointer { h -> Bool? in
                var band = first
                for _ in 0...abs(last - first) {
                    defer { band += direction }
                    let (l0, l1) = stretch(along, alongRate, Double(band) - alongPad, Double(band + 1) + alongPad, within: 0, span)
                    guard l0 <= l1 else { continue }
                    let x0 = across + acrossRate * l0, x1 = across + acrossRate * l1
                    let low = Int((min(x0, x1) - acrossPad).rounded(.down)), high = Int((max(x0, x1) + acrossPad).rounded(.down))
                    var highest: Float = -.infinity
                    for k in low...(high + 1) {
                        let i = byRows ? band * columns + k : k * columns + band
                        let j = byRows ? i + columns : i + 1
                        guard !(h[i] + h[j]).isNaN else { return nil }
                        highest = max(highest, h[i], h[j])
                    }
                    if Double(highest) < clearance + ray.minimum(from: l0, to: l1) - ray.c { continue }
                    // Cell by cell.
                    for k in low...high {
                        let (a, b) = stretch(across, acrossRate, Double(k) - acrossPad, Double(k + 1) + acrossPad, within: l0, l1)
                        guard a <= b else { continue }
                        let (r, c) = byRows ? (band, k) : (k, band)
                        let i = r * columns + c
                        let h00 = Double(h[i]), h01 = Double(h[i + 1]), h10 = Double(h[i + columns]), h11 = Double(h[i + columns + 1])
                        if max(max(h00, h01), max(h10, h11)) < clearance + ray.minimum(from: a, to: b) - ray.c { continue }
                        // The bilinear terrain along the computed track, as a quadratic in L.
                        let east = h01 - h00, south = h10 - h00, twist = h11 - h10 - h01 + h00
                        let tr = row - Double(r), tc = column - Double(c)
                        let terrain = Quadratic(a: twist * rowRate * columnRate,
                                                b: east * columnRate + south * rowRate + twist * (tr * columnRate + tc * rowRate),
                                                c: h00 + east * tc + south * tr + twist * tr * tc)
                        // Its steepest slope within a pad of the cell (the polynomial's, just outside).
                        let slope = (max(abs(east), abs(h11 - h10)) + abs(twist) * rowPad) / columnMetres
                            + (max(abs(south), abs(h11 - h01)) + abs(twist) * columnPad) / rowMetres
                        let allowance = slope * pad
                        let gap = Quadratic(a: ray.a - terrain.a, b: ray.b - terrain.b, c: ray.c - terrain.c)
                        if gap.minimum(from: a, to: b) - ray.c + clearance > allowance { continue }
                        // Where the computed track lies a pad inside the cell, so does the exact one:
                        // there the ray, at its highest, may run below the terrain at its lowest.
                        let (p, q) = stretch(along, alongRate, Double(band) + alongPad, Double(band + 1) - alongPad, within: max(a, inner.0), min(b, inner.1))
                        let (u, w) = stretch(across, acrossRate, Double(k) + acrossPad, Double(k + 1) - acrossPad, within: p, q)
                        if u <= w, gap.minimum(from: u, to: w) + margin - lowestUndulation + allowance < 0 { return false }
                        return nil
                    }
                }
                return true
            }
        } ?? nil
    }
}
