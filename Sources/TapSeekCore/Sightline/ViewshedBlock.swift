import Foundation

/// A block of a viewshed's cells proved hidden at once.
///
/// Most cells of a viewshed are hidden, and each was settled on its own by the first bound of
/// ``Viewshed``: its tangent t below a level ray's horizon, lowered by the wedge's slope times
/// the cell's azimuth offset, at the distance its sightline reaches before the target. A block
/// of ``side`` × ``side`` cells takes that bound once for all of them: the highest tangent any
/// of its cells can show (from the cells' own heights and a ball around the block holding
/// every cell) below the lowest horizon any of them can see over the wedges the ball spans.
/// Every quantity is bounded the way it errs safely, so a block proved hidden holds only cells
/// the per-cell bound would prove hidden with margins at least as wide; a block not proved is
/// judged cell by cell, as before.
struct ViewshedBlock {
    /// Cells a side of a block.
    static let side = 8
    /// Most wedges a block may span: nearer the eye a block spans more wedges than the cells'
    /// own look-ups would cost.
    static let widestSpan = 48

    /// The highest and lowest ellipsoidal height of the block's cells (targets included), metres.
    var highest: Double
    var lowest: Double
    /// The verticals through the four corner cells: north-west, north-east, south-west,
    /// south-east.
    var northWest: Ellipsoid.Vertical, northEast: Ellipsoid.Vertical
    var southWest: Ellipsoid.Vertical, southEast: Ellipsoid.Vertical

    /// Whether every cell of the block is hidden from the sweep's eye: the cells lie within the
    /// sweep's range and farther than twice ``Viewshed/nearCells``, the level rays around them
    /// hold (no void, no edge of the data) to beyond the farthest cell, and over every wedge the
    /// block can span, the lowest horizon a cell's own sightline can see, at the nearest distance
    /// any cell's bound reads it, stays above the highest tangent any cell can show, by the
    /// largest margin any cell takes.
    func isHidden(sweep: Viewshed.Sweep, tables: Viewshed.Sweep.Tables, profiles: UnsafeBufferPointer<HorizonProfile>,
                  frame: LocalFrame, radius: Double, curvature: Double, step: Double) -> Bool {
        let count = profiles.count
        // A ball holding every cell: around the corners' mean at the middle height; each cell
        // lies within half the height span of its point at that height, which lies within the
        // farthest corner's distance of the mean (a block of a few hundred metres bends from
        // its corners' span by centimetres: 0.1 % and a metre to spare).
        let middle = (highest + lowest) / 2
        let p0 = northWest.point(height: middle), p1 = northEast.point(height: middle)
        let p2 = southWest.point(height: middle), p3 = southEast.point(height: middle)
        let centre = 0.25 * (p0 + p1 + p2 + p3)
        let spread = max(max((p0 - centre).length, (p1 - centre).length), max((p2 - centre).length, (p3 - centre).length))
        let ball = spread * 1.001 + 1 + (highest - lowest) / 2
        let v = frame.enu(ofECEF: centre)
        let x = (v.x * v.x + v.y * v.y).squareRoot()
        // Horizontal distances and heights over the eye: the eye's frame's projection moves no
        // point farther than it is.
        let nearest = x - ball, farthest = x + ball
        guard nearest >= 2 * Viewshed.nearCells, farthest <= sweep.range else { return false }
        let rise = abs(v.z) + ball
        // Distance along a level ray over a cell's ground point (d = x + above·x/R, with
        // above = h_eye + x²/(2R) − h) and the share of it the sightline's end leaves untested
        // (a tolerance of max(30 m, 0.5 % of the slant range) against a reach of at least x).
        let eye = sweep.eye.height
        let aboveLow = eye + nearest * nearest / (2 * radius) - highest
        let aboveHigh = eye + farthest * farthest / (2 * radius) - lowest
        let dLow = nearest + min(aboveLow * nearest, aboveLow * farthest) / radius
        let dHigh = farthest + max(aboveHigh * nearest, aboveHigh * farthest) / radius
        let untested = max(30 / nearest, 0.005 * (1 + (rise / nearest) * (rise / nearest)).squareRoot())
        guard dLow > 0, untested < 0.5 else { return false }
        let slack = 1 + (max(abs(aboveLow), abs(aboveHigh)) + 100) * farthest / radius
        // Where the cells' bounds read the horizon (cut − slack), at its nearest, and how far
        // their sightlines reach (cut + slack), at its farthest.
        let near = dLow * (1 - untested) * (1 - 1e-9) - slack
        let far = (dHigh + slack) * (1 + 1e-9) + 1e-6
        // The cells' tangents (h − h_eye − c·d²)/d: largest and smallest at an end of the
        // distances or where the derivative −M/d² − c vanishes.
        func extreme(_ height: Double, largest: Bool) -> Double {
            let m = height - eye
            var best = largest ? -Double.infinity : Double.infinity
            func consider(_ d: Double) {
                let t = (m - curvature * d * d) / d
                best = largest ? max(best, t) : min(best, t)
            }
            consider(dLow)
            consider(dHigh)
            if curvature != 0, -m / curvature > 0 {
                let d = (-m / curvature).squareRoot()
                if d > dLow, d < dHigh { consider(d) }
            }
            return best
        }
        let tangent = extreme(highest, largest: true)
        let magnitude = max(abs(tangent), abs(extreme(lowest, largest: false)))
        // The wedges the ball spans, and one more each side (a cell's wedge is the floor of its
        // azimuth over the step, clamped below the last).
        var azimuth = atan2(v.x, v.y)
        if azimuth < 0 { azimuth += 2 * .pi }
        let half = asin(min(1, ball / x)) + 1e-9
        let first = Int(((azimuth - half) / step).rounded(.down)) - 1, last = Int(((azimuth + half) / step).rounded(.down)) + 1
        guard last - first + 1 <= Self.widestSpan else { return false }
        // Wedge and ray indices wrap round the circle: stepped on from the first, not taken
        // modulo the count each time (an integer division, dearer than the rest of a wedge's work).
        let firstRay = ((first % count) + count) % count
        @inline(__always) func next(_ i: Int) -> Int { i + 1 == count ? 0 : i + 1 }
        var curvatureMargin = 0.0, modelMargin = 0.0
        var w = firstRay
        for _ in first...last {
            curvatureMargin = max(curvatureMargin, tables.margins[w].curvature)
            modelMargin = max(modelMargin, tables.margins[w].model)
            w = next(w)
        }
        // A cell's sightline shows tangents up to its own plus the spread, at most at the farthest
        // distance, the steepest elevation tangent (within (x/R)·t², doubled, of the cell's t)
        // and the largest height difference from the eye (the eye's frame puts a point x²/(2R)
        // lower than its height says).
        let elevation = magnitude * (1 + 2 * magnitude * farthest / radius) + 1e-9
        let lineSpread = Viewshed.sightlineSpread(elevation: elevation, x: farthest, rise: rise + farthest * farthest / (2 * radius),
                                              radius: radius, refraction: sweep.refraction)
        let margin = modelMargin + curvatureMargin * farthest + 1e-6 * magnitude + lineSpread
        // Each level ray must hold to beyond the farthest sightline, as the per-cell bound asks.
        var lowerBounds = (previous: 0.0, current: 0.0)
        // Ray i, and the wedge before it (that of ray i − 1).
        var ray = firstRay, wedge = firstRay
        for i in first...(last + 1) {
            if i > first { (wedge, ray) = (ray, next(ray)) }
            let profile = profiles[ray]
            guard far < profile.validity, far + sweep.voidReach < profile.firstVoid else { return false }
            lowerBounds = (lowerBounds.current, profile.horizonBounds(at: near).lower)
            guard i > first else { continue }
            // Within wedge i − 1 a cell's own horizon at `near` is at least the better of its two
            // rays' less the wedge's slope times its offset from each: the least of that over
            // the offsets.
            let a = lowerBounds.previous, b = lowerBounds.current, slope = tables.lateral[wedge]
            let lowest = a + slope * step < b ? b - slope * step : (a - slope * step > b ? a - slope * step : (a + b - slope * step) / 2)
            guard tangent < lowest - margin - 1e-9 else { return false }
        }
        return true
    }
}
