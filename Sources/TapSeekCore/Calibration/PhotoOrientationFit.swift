import Foundation

/// The camera orientation of a photo, fitted from its detected skyline (``SkylineDetector``) to
/// the DEM's skyline (``SkylineProfile``): heading, pitch and roll, with their covariance.
///
/// A photo's metadata gives at best a compass heading (often 5–30° off) and never pitch or roll,
/// so the search is much wider than ``OrientationFit``'s for a traced skyline: heading within
/// ``Limits/heading`` of the file's, or all 360° when the file has none; pitch within ±25° and
/// roll within ±10° unless they are given. It runs in two stages:
/// 1. **Coarse**: at most ``coarsePoints`` of the points, levelled on a grid of pitch (5° apart)
///    and roll (1.25° apart), tried at every heading ``coarseHeadingStep`` apart; each is scored as
///    ``OrientationFit``'s coarse search scores (misfits after the median shift, squared in units of
///    ``OrientationFit/coarseTolerance`` and capped at 1, so clouds and foreground cost at most 1).
///    The grid's spacing keeps the levelling error under about 0.35° at the edge of a 65° image.
/// 2. **Fine**: from the best ``candidates`` distinct headings (at least 2° apart),
///    ``OrientationFit``'s robust Levenberg–Marquardt on all points.
///
/// **Judgement**, stricter than a traced skyline's, because a calibrated photo that is wrong is
/// the worst outcome and refusing is fine. Where the DEM does not settle the skyline (the search
/// left the DEM first, ``Panorama/Point/complete``), its angle is still a **lower bound**: terrain
/// beyond can only raise the skyline. A fit that puts more than ``maximumBelowBound`` of the
/// photo's points below such a bound is discarded before the best is chosen: a share of all the
/// points, not of those few, because a cloud or haze in front of a notch where the view leaves
/// the tile hides the skyline there and lowers every point it covers. A fit is refused (`no-fit`) when:
/// - fewer than ``minimumMatchedShare`` of the points with a settled DEM skyline behind them, or
///   fewer than ``minimumExplainedShare`` of all the points (or fewer than ``minimumMatched``), lie
///   within the match tolerance;
/// - the matched points lie more than ``maximumResidual`` rms from the DEM's skyline;
/// - the matched points span less than ``minimumSpan`` of the image's width;
/// - the DEM's skyline behind the matched points rises and falls by less than ``minimumRelief``
///   about the straight line that best follows it: pitch and roll tilt a straight skyline into
///   any other, so only its ups and downs can fix the heading;
/// - the heading's standard error (see **Covariance**) exceeds ``maximumImpreciseHeadingSigma``;
/// - the heading does not matter enough: turned by any of ``headingProbes`` beyond three of its
///   standard errors and refitted in pitch and roll, the skyline still matches ``rivalShare`` as
///   many points, with a residual at most twice the fit's (or 0.05° more), and putting that turn
///   at two standard errors would pass ``maximumImpreciseHeadingSigma`` (short of that, the
///   covariance widens so, and the answer is imprecise);
/// - another fit at a heading more than 1° (and three standard errors) away explains nearly as
///   many points (``rivalShare``): a skyline that repeats, or says too little;
/// - the fit lies on the edge of the search box.
///
/// A fit that passes all of these is unambiguous. When its heading's standard error exceeds
/// ``maximumHeadingSigma`` it is still the answer, only an imprecise one: ``Fit/imprecise`` is set
/// and the caller warns (`calibration-imprecise`) with the 1-σ heading; the covariance carries the
/// imprecision into the targets. A compass 3–20° off is what the user has otherwise.
///
/// Fits are ranked by their squared misfits, each capped at the tightest tolerance any fit
/// reached (``truncatedCost(fit:at:tolerance:)``).
///
/// Probes and rivals count their points within the best fit's tolerance, not their own: each
/// fit's tolerance follows its own misfits, so a worse fit would otherwise be judged more leniently.
///
/// **Covariance**: (Jᵀ W J)⁻¹ over the matched points, inflated as if only ``effectivePoints``
/// were independent: a detected skyline's errors are correlated over many neighbouring columns
/// (a ridge's haze, a row of trees), so treating 300 columns as 300 independent measurements
/// would make the fit look 3× surer than it is. Each point's weight is 1/σᵢ², where σᵢ combines
/// the fit's residual (at least ``Calibration/sigmaFloor``) with the angle the DEM's own height
/// error subtends at the distance of the skyline behind the point, ``demHeightError``/dᵢ. A
/// rendered photo matches its DEM exactly, but a real one does not: a skyline 100 m away is
/// uncertain by 3.5° from the DEM alone, 10 km away by 0.035°. So a photo of a hillside close by
/// is refused for its heading's standard error, however well its pixels fit. A floor
/// (``covarianceFloor``) stands for the errors no residual shows.
public enum PhotoOrientationFit {
    /// The search: how far from the given angles each goes, degrees; a nil heading searches all 360°.
    public struct Limits: Sendable, Hashable {
        public var heading: Double?
        public var pitch: Double
        public var roll: Double

        public init(heading: Double?, pitch: Double, roll: Double) {
            self.heading = heading
            self.pitch = pitch
            self.roll = roll
        }

        /// Compass errors reach 30° near metal (Nagy 2020); a tenth more is searched.
        public static let compassHeading = 35.0
        /// Pitch and roll when the photo does not give them.
        public static let unknownPitch = 25.0
        public static let unknownRoll = 10.0
        /// Pitch and roll when given (an option, a drone's gimbal).
        public static let givenTilt = 5.0
    }

    public static let coarsePoints = 64
    public static let coarseHeadingStep = 0.25
    /// At most this many points enter the fine fit (evenly chosen across the image).
    public static let finePoints = 300
    public static let candidates = 6
    public static let minimumMatchedShare = 0.6
    public static let minimumExplainedShare = 0.4
    public static let maximumBelowBound = 0.1
    public static let minimumMatched = 40
    public static let minimumSpan = 0.25
    public static let minimumRelief = 0.5
    /// Largest RMS misfit, degrees, of the matched points of a fit that is trusted. Within the
    /// widest match tolerance, 0.4°, the misfits of a skyline from elsewhere spread like chance:
    /// a real photo from elsewhere, given a position above Pangboche whose skyline is a hillside
    /// 1 km away, matched 178 of 284 points at 0.196° rms. Renders of the true place fit to
    /// hundredths of a degree.
    public static let maximumResidual = 0.15
    /// Heading offsets (degrees) at which a fit must explain clearly fewer points.
    public static let headingProbes = [-5.0, -3, -2, -1, 1, 2, 3, 5]
    public static let rivalShare = 0.8
    /// Largest 1-σ heading, degrees, of a fit reported without `calibration-imprecise`.
    public static let maximumHeadingSigma = 0.25
    /// Largest 1-σ heading, degrees, of a fit reported at all: three of them reach 3°, still ten
    /// times better than a compass near metal, and a render's answer stays within 1° of the truth.
    public static let maximumImpreciseHeadingSigma = 1.0
    public static let effectivePoints = 30.0
    /// Variances, degrees² (heading, pitch, roll), added to every fit's covariance for errors its
    /// residuals cannot show: the DEM's skyline is sampled every 0.05° of azimuth, the detected
    /// boundary has a sub-pixel bias, and the DEM's height error is correlated along a ridge, so
    /// no number of points averages them away. Without it a long, sharp skyline gave a heading
    /// 1-σ of 0.0003° while renders of it were off by 0.03–0.11° (8 of 67 calibrated answers of
    /// the accuracy benchmark beyond 3 σ); 1-σ floors of 0.04°, 0.02° and 0.04° held them. Over
    /// 25 scenes a tile, clear renders of some views came out 0.11–0.23° off in heading with a
    /// residual of a few thousandths of a degree (16 of 325 calibrated answers beyond 3 σ): the
    /// heading's floor is 0.08°, about a pixel of an 800-pixel photo 65° wide.
    public static let covarianceFloor = [0.08 * 0.08, 0.02 * 0.02, 0.04 * 0.04]
    /// The DEM's random height error, metres (1σ): SRTM's relative vertical accuracy is specified
    /// as 10 m at 90 % (Rodriguez et al. 2006, "A Global Assessment of the SRTM Performance"),
    /// 10/1.645 ≈ 6 m.
    public static let demHeightError = 6.0

    /// A fitted orientation and its covariance.
    public struct Fit: Sendable, Hashable {
        public var calibration: Calibration
        /// Indices (into the points given) of the points that match the fit.
        public var matchedPoints: [Int]
        /// The heading's 1-σ, degrees, when it exceeds ``maximumHeadingSigma`` (nil otherwise).
        public var imprecise: Double?
    }

    /// Fits the orientation of a camera whose skyline pixels are `points`.
    ///
    /// - Parameters:
    ///   - given: the orientation the file and options give (heading from true north; 0 when
    ///     unknown and `limits.heading` is nil).
    ///   - profile: the DEM's skyline over ``OrientationFit/azimuthWindow(given:camera:skyline:limits:)``
    ///     of the search (a whole turn for a 360° search), NaN where it is unknown or unsettled.
    ///   - lowerBounds: over the same azimuths, the unsettled skyline's angles (NaN elsewhere).
    ///   - distances: over the same azimuths, the skyline's distance from the camera, metres (in
    ///     the profile's `angles`); without it the DEM's height error is not counted.
    /// - Throws: ``CalibrationError`` `no-fit` with the reason.
    public static func fit(given: CameraOrientation, camera: PinholeCamera, points: [Reading.Pixel], profile: SkylineProfile,
                           lowerBounds: SkylineProfile? = nil, distances: SkylineProfile? = nil, limits: Limits) throws(CalibrationError) -> Fit {
        // Evenly chosen points across the image.
        let ordered = points.indices.sorted { points[$0].x < points[$1].x }
        let take = min(ordered.count, finePoints)
        guard take >= minimumMatched else {
            throw .noFit("only \(points.count) skyline points were found; at least \(minimumMatched) are needed")
        }
        let chosen = (0..<take).map { ordered[$0 * ordered.count / take] }
        let pixels = chosen.map { points[$0] }
        let fullCircle = limits.heading == nil
        let box = OrientationFit.Limits(heading: limits.heading ?? 180, pitch: limits.pitch, roll: limits.roll)
        let fit = OrientationFit(camera: camera, given: given, nominal: box,
                                 limits: fullCircle ? box : box.searched,
                                 skylineRays: pixels.map { camera.ray(throughPixelX: $0.x, y: $0.y) },
                                 landmarkRays: [], landmarks: [], profile: profile)
        let starts = coarseStarts(fit: fit, fullCircle: fullCircle)
        // Ranked by their truncated cost at one tolerance, the tightest any fit reached: each
        // fit's own tolerance follows its misfits, so a loose fit 0.5° off would count all the
        // points a tight one fits to 0.01°, and one more. Counting within the common tolerance
        // is not enough either, as it is at least 0.15°: a skyline slid 0.22° along itself keeps
        // as many points within it, only farther off.
        let refined = starts.map { fit.refine(from: $0, freeRoll: true) }
        let common = refined.map(\.tolerance).min() ?? OrientationFit.matchTolerance.lowerBound
        var fits = refined.map { ($0, truncatedCost(fit: fit, at: $0.angles, tolerance: common)) }
            .sorted { $0.1 < $1.1 }.map(\.0)
        let consistent = fits.filter { belowBoundShare(fit: fit, at: $0.angles, lowerBounds: lowerBounds, tolerance: $0.tolerance) <= maximumBelowBound }
        guard let best = consistent.first else {
            guard !fits.isEmpty else {
                // Most often the DEM settles the skyline behind too little of the photo (the view
                // reaches past the tiles loaded): then the fix is more DEM, and the reason says so.
                throw .noFit("no orientation within the search explains the skyline"
                             + fit.unsettledNote(.init(heading: given.heading, pitch: given.pitch, roll: given.roll)))
            }
            throw .noFit("every orientation that explains part of the skyline puts the rest of it below terrain the DEM shows")
        }
        fits = consistent

        let misfits = fit.misfits(best.angles)
        let known = misfits.filter { abs($0) < OrientationFit.missingMisfit }.count
        guard known >= minimumMatched else {
            throw .noFit("the DEM's skyline is unknown behind most of the photo (\(known) of \(pixels.count) points have one): the view reaches beyond the DEM")
        }
        let needed = max(minimumMatched, Int((minimumMatchedShare * Double(known)).rounded(.up)),
                         Int((minimumExplainedShare * Double(pixels.count)).rounded(.up)))
        guard best.matched >= needed else {
            throw .noFit("the skyline fits the DEM nowhere in the search: at best \(best.matched) of \(known) points lie within \(String(format: "%.2f", best.tolerance))° (wrong place, clouds or foreground on the skyline?)"
                         + (fullCircle ? "" : headingSearchHint(limits)))
        }
        let matched = misfits.indices.filter { abs(misfits[$0]) <= best.tolerance }
        let xs = matched.map { pixels[$0].x }
        let span = ((xs.max() ?? 0) - (xs.min() ?? 0)) / camera.imageWidth
        guard span >= minimumSpan else {
            throw .noFit(String(format: "the matched skyline spans only %.0f%% of the photo's width: too little to fix the orientation", span * 100))
        }
        let relief = Self.relief(fit: fit, at: best.angles, points: matched)
        guard relief >= minimumRelief else {
            throw .noFit(String(format: "the DEM's skyline behind the photo's is nearly straight (%.2f° of relief beyond a tilted line): it cannot fix the heading", relief))
        }
        let demErrors = Self.demErrors(fit: fit, at: best.angles, points: matched, distances: distances)
        let typicalDEMError = demErrors.sorted()[demErrors.count / 2]
        guard best.rms <= maximumResidual else {
            throw .noFit(String(format: "the matched points lie %.2f° rms from the DEM's skyline: too loose a match to tell from chance (wrong place, clouds or foreground on the skyline?)", best.rms))
        }
        var covariance = Self.covariance(fit: fit, at: best.angles, matched: matched, rms: best.rms, demErrors: demErrors)
        var headingSigma = covariance.map { $0[0][0].squareRoot() } ?? .infinity
        guard headingSigma <= maximumImpreciseHeadingSigma else {
            if typicalDEMError > max(best.rms, Calibration.sigmaFloor) {
                let distance = Self.demHeightError / tan(typicalDEMError * .pi / 180)
                throw .noFit(String(format: "the heading is ill-determined (±%.2f°): the skyline lies about %.1f km away, where the DEM's heights (±%.0f m) alone put it ±%.2f° off", headingSigma, distance / 1000, Self.demHeightError, typicalDEMError))
            }
            throw .noFit(String(format: "the heading is ill-determined (±%.2f°): the skyline is too featureless to fix it", headingSigma))
        }
        // Headings within three standard errors are the fit's own imprecision, not rivals. A
        // probe nearer than the rest that still fits shows the heading known only to about the
        // probe: the covariance widens to put it at two standard errors (an imprecise answer),
        // and only the probes beyond three of those must fail — unless that is too wide to answer.
        for probe in headingProbes.sorted(by: { abs($0) < abs($1) }) where abs(probe) > 3 * headingSigma {
            var turned = best.angles
            turned.heading += probe
            let refitted = matches(fit: fit, at: fit.refine(from: turned, free: [1, 2]).angles, tolerance: best.tolerance)
            if Double(refitted.count) >= rivalShare * Double(best.matched), refitted.rms <= max(2 * best.rms, best.rms + 0.05) {
                let widened = abs(probe) / 2
                guard widened <= maximumImpreciseHeadingSigma, let narrow = covariance else {
                    throw .noFit(String(format: "the heading is ill-determined: turned by %+.0f° the skyline still fits (%d of %d points, %.3f° rms against %.3f°)",
                                        probe, refitted.count, best.matched, refitted.rms, best.rms))
                }
                let scale = widened * widened / narrow[0][0]
                covariance = narrow.map { $0.map { $0 * scale } }
                headingSigma = widened
            }
        }
        let ownSpread = 3 * headingSigma
        for rival in fits.dropFirst() where abs(remainder(rival.angles.heading - best.angles.heading, 360)) > max(1, ownSpread) {
            let explained = matches(fit: fit, at: rival.angles, tolerance: best.tolerance).count
            if Double(explained) >= rivalShare * Double(best.matched) {
                throw .noFit(String(format: "ambiguous: headings %.1f° and %.1f° explain the skyline almost equally (%d and %d points)",
                                    normalizedAzimuth(best.angles.heading), normalizedAzimuth(rival.angles.heading), best.matched, explained))
            }
        }
        let d = OrientationFit.Angles(heading: remainder(best.angles.heading - given.heading, 360), pitch: best.angles.pitch - given.pitch,
                                      roll: best.angles.roll - given.roll)
        let edge = 0.02
        if (!fullCircle && abs(d.heading) > fit.limits.heading - edge) || abs(d.pitch) > fit.limits.pitch - edge || abs(d.roll) > fit.limits.roll - edge {
            let wider = fullCircle || abs(d.heading) <= fit.limits.heading - edge ? "" : headingSearchHint(limits)
            throw .noFit(String(format: "the best fit lies on the edge of the search (heading %+.1f°, pitch %+.1f°, roll %+.1f°): the photo is not from here, or tilted beyond the search", d.heading, d.pitch, d.roll) + wider)
        }
        var calibration = Calibration(heading: normalizedAzimuth(best.angles.heading), pitch: best.angles.pitch, roll: best.angles.roll,
                                      correction: .init(heading: d.heading, pitch: d.pitch, roll: d.roll), residual: best.rms,
                                      matched: best.matched, points: pixels.count)
        calibration.covariance = covariance
        return Fit(calibration: calibration, matchedPoints: matched.map { chosen[$0] },
                   imprecise: headingSigma > maximumHeadingSigma ? headingSigma : nil)
    }

    /// The end of a refusal where the answer may lie beyond the heading searched: the compass may
    /// be off by more, and what to give then.
    static func headingSearchHint(_ limits: Limits) -> String {
        String(format: "; the compass may be off by more than the ±%.0f° searched: give --heading, or widen the search with --heading-search DEG (180 searches all around)",
               limits.heading ?? 180)
    }

    /// How many of the points lie within `tolerance` of the DEM's skyline under the angles `a`,
    /// and their RMS misfit: rivals and probes are judged by the best fit's tolerance, not their own.
    static func matches(fit: OrientationFit, at a: OrientationFit.Angles, tolerance: Double) -> (count: Int, rms: Double) {
        let within = fit.misfits(a).prefix(fit.skylineRays.count).filter { abs($0) <= tolerance }
        let sum = within.reduce(0) { $0 + $1 * $1 }
        return (within.count, within.isEmpty ? .infinity : (sum / Double(within.count)).squareRoot())
    }

    /// The points' squared misfits under the angles `a`, each capped at `tolerance`², in units of
    /// it: a point within the tolerance costs by how far it lies, any other costs 1 (a cloud,
    /// foreground, or the skyline somewhere else).
    static func truncatedCost(fit: OrientationFit, at a: OrientationFit.Angles, tolerance: Double) -> Double {
        fit.misfits(a).prefix(fit.skylineRays.count).reduce(0) { $0 + min($1 * $1 / (tolerance * tolerance), 1) }
    }

    /// How far (degrees) the DEM's skyline behind `points` rises and falls about its least-squares
    /// straight line in azimuth: the 95th minus the 5th percentile of the residuals.
    static func relief(fit: OrientationFit, at a: OrientationFit.Angles, points: [Int]) -> Double {
        guard let profile = fit.profile, points.count >= 3 else { return 0 }
        let tilt = OrientationFit.Tilt(pitch: a.pitch, roll: a.roll)
        let samples = points.compactMap { i -> (Double, Double)? in
            let l = tilt.level(fit.skylineRays[i])
            let s = profile.angle(at: a.heading + l.azimuth)
            return s.isNaN ? nil : (l.azimuth, s)
        }
        guard samples.count >= 3 else { return 0 }
        let n = Double(samples.count)
        let mx = samples.reduce(0) { $0 + $1.0 } / n, my = samples.reduce(0) { $0 + $1.1 } / n
        let sxx = samples.reduce(0) { $0 + ($1.0 - mx) * ($1.0 - mx) }, sxy = samples.reduce(0) { $0 + ($1.0 - mx) * ($1.1 - my) }
        let slope = sxx > 0 ? sxy / sxx : 0
        let residuals = samples.map { $0.1 - my - slope * ($0.0 - mx) }.sorted()
        return residuals[residuals.count * 95 / 100] - residuals[residuals.count * 5 / 100]
    }

    /// The share of the points that lie, under the angles `a`, more than `tolerance` below the
    /// DEM's lower bound at their azimuth (where the DEM does not settle the skyline).
    static func belowBoundShare(fit: OrientationFit, at a: OrientationFit.Angles, lowerBounds: SkylineProfile?, tolerance: Double) -> Double {
        guard let lowerBounds, !fit.skylineRays.isEmpty else { return 0 }
        let tilt = OrientationFit.Tilt(pitch: a.pitch, roll: a.roll)
        let below = fit.skylineRays.count { ray in
            let l = tilt.level(ray)
            return l.elevation < lowerBounds.angle(at: a.heading + l.azimuth) - tolerance
        }
        return Double(below) / Double(fit.skylineRays.count)
    }

    /// The angle (degrees) the DEM's height error subtends at the skyline behind each of
    /// `points` under the angles `a`: ``demHeightError`` over the skyline's distance; 0 without
    /// distances or where the distance is unknown.
    static func demErrors(fit: OrientationFit, at a: OrientationFit.Angles, points: [Int], distances: SkylineProfile?) -> [Double] {
        guard let distances else { return points.map { _ in 0 } }
        let tilt = OrientationFit.Tilt(pitch: a.pitch, roll: a.roll)
        return points.map { i in
            let d = distances.angle(at: a.heading + tilt.level(fit.skylineRays[i]).azimuth)
            return d.isFinite && d > 0 ? atan(demHeightError / d) * 180 / .pi : 0
        }
    }

    /// (Jᵀ W J)⁻¹ over the matched points, each weighted by 1/σᵢ² with σᵢ² the residual (at
    /// least the floor) squared plus its `demErrors` squared, inflated to ``effectivePoints``;
    /// degrees², rows and columns heading, pitch, roll. Nil when singular.
    static func covariance(fit: OrientationFit, at a: OrientationFit.Angles, matched: [Int], rms: Double, demErrors: [Double]) -> [[Double]]? {
        let jacobian = fit.jacobian(at: a, free: [0, 1, 2])
        let sigma = max(rms.isFinite ? rms : 1, Calibration.sigmaFloor)
        var normal = [[Double]](repeating: [0, 0, 0], count: 3)
        for (i, dem) in zip(matched, demErrors) {
            let weight = 1 / (sigma * sigma + dem * dem)
            for p in 0..<3 { for q in 0..<3 { normal[p][q] += weight * jacobian[p][i] * jacobian[q][i] } }
        }
        let inflation = max(1, Double(matched.count) / effectivePoints)
        var columns: [[Double]] = []
        for k in 0..<3 {
            var unit = [0.0, 0, 0]
            unit[k] = 1
            guard var column = OrientationFit.solve(normal, unit) else { return nil }
            column = column.map { $0 * inflation }
            column[k] += covarianceFloor[k]
            columns.append(column)
        }
        return columns
    }

    /// The best few distinct starting orientations, best first (see the type's description).
    static func coarseStarts(fit: OrientationFit, fullCircle: Bool) -> [OrientationFit.Angles] {
        guard let profile = fit.profile else { return [] }
        let given = fit.given, limits = fit.limits
        let order = fit.skylineRays.indices.sorted { fit.skylineRays[$0].x < fit.skylineRays[$1].x }
        let take = min(order.count, coarsePoints)
        let rays = (0..<take).map { fit.skylineRays[order[$0 * order.count / take]] }
        let span = fullCircle ? 360 : 2 * limits.heading
        let steps = Int((span / coarseHeadingStep).rounded(.down))
        let first = fullCircle ? given.heading : given.heading - limits.heading
        func grid(_ limit: Double, _ step: Double) -> [Double] {
            let n = Int((limit / step).rounded(.down))
            return (-n...n).map { Double($0) * step }
        }
        let pitches = grid(limits.pitch, 5), rolls = grid(limits.roll, 1.25)
        var best = [(cost: Double, pitch: Double, roll: Double)](repeating: (.infinity, 0, 0), count: steps + 1)
        var misfits = [Double](repeating: 0, count: rays.count)
        var scratch = misfits
        let tolerance = OrientationFit.coarseTolerance
        for dp in pitches {
            let pitch = min(max(given.pitch + dp, -89), 89)
            for dr in rolls {
                let roll = given.roll + dr
                let tilt = OrientationFit.Tilt(pitch: pitch, roll: roll)
                let levelled = rays.map(tilt.level)
                for k in 0...steps {
                    let heading = first + Double(k) * coarseHeadingStep
                    var count = 0, missing = 0
                    for l in levelled {
                        let s = profile.angle(at: heading + l.azimuth)
                        if s.isNaN { missing += 1 } else {
                            misfits[count] = l.elevation - s
                            count += 1
                        }
                    }
                    guard count > rays.count / 2 else { continue }
                    for i in 0..<count { scratch[i] = misfits[i] }
                    let shift = scratch.kthSmallest(count / 2, among: count)
                    guard abs(dp - shift) <= limits.pitch else { continue }
                    let cost = OrientationFit.cappedCost(misfits, count: count, shift: shift, missing: missing, tolerance: tolerance)
                    if cost < best[k].cost { best[k] = (cost, pitch - shift, roll) }
                }
            }
        }
        // Local minima over heading, best first, at least 2° apart.
        let picked = OrientationFit.distinctMinima(best.map(\.cost), apart: Int((2 / coarseHeadingStep).rounded()), circular: fullCircle,
                                                   limit: candidates)
        return picked.map {
            OrientationFit.Angles(heading: first + Double($0) * coarseHeadingStep, pitch: best[$0].pitch, roll: best[$0].roll)
        }
    }
}
