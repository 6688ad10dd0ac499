import Foundation

/// Finds the camera orientation that best explains pixels of one image: skyline pixels against
/// the DEM's skyline (a ``SkylineProfile``), and landmark pixels against the directions of
/// known places.
///
/// The model: a pixel's camera ray turned by roll, pitch and heading (``CameraOrientation``)
/// has, in the level frame, an azimuth offset a₀(pitch, roll) and an elevation e(pitch, roll);
/// heading only adds to the azimuth. A skyline pixel's misfit is e − S(heading + a₀), S the
/// DEM's apparent skyline; a landmark's is its angular offset from the landmark's apparent
/// direction (east and up components).
///
/// The search, within ``Limits`` of the given orientation:
/// 1. **Coarse**: over a grid of pitch (3 values) and roll (5 values), every heading at
///    ``coarseHeadingStep``; for each, the vertical shift that best aligns the points is their
///    median misfit (a pitch change moves every point nearly alike), and the score counts each
///    point's squared misfit after that shift in units of ``coarseTolerance``, capped at 1 — so a
///    point on a foreground ridge or off the DEM's skyline costs at most 1, whatever its error.
/// 2. **Fine**: from the best few distinct headings of the coarse score, Levenberg–Marquardt
///    on heading, pitch and roll with Cauchy weights whose scale shrinks from 0.5° to the
///    misfits' own spread (iteratively reweighted least squares), so outliers stop pulling.
/// 3. **Judgement**: a fit is refused when fewer than ``minimumMatchedShare`` of the points (or
///    fewer than 3) match (a point where the profile has no angle — no data, or a skyline the
///    DEM does not settle — never matches, and a refusal says when most of them are so), when
///    the matched skyline points still miss by more than ``maximumResidual`` RMS (a trace from
///    elsewhere),
///    when it lies on the edge of the search, or when the heading is ill-determined (its
///    standard error over ``maximumHeadingSigma``: a featureless skyline); a second fit at
///    another heading (more than 1° away) explaining the points almost as well makes a warning.
///
/// Landmarks alone start from the closed-form aim of the first landmark
/// (``CameraOrientation/aiming(pixelX:y:of:roll:at:)``); with one landmark, or two less than
/// ``minimumLandmarkSpread`` apart, the roll is kept as given.
public struct OrientationFit: Sendable {
    /// How far from the given orientation the search goes, degrees.
    public struct Limits: Sendable, Hashable {
        public var heading: Double
        public var pitch: Double
        public var roll: Double

        public init(heading: Double = 30, pitch: Double = 5, roll: Double = 5) {
            self.heading = heading
            self.pitch = pitch
            self.roll = roll
        }

        /// The box actually searched: a tenth wider, so that an error of exactly the limit is
        /// found inside it rather than on its edge.
        var searched: Limits { Limits(heading: heading * 1.1, pitch: pitch * 1.1, roll: roll * 1.1) }
    }

    /// A landmark: the pixel where it is seen and its apparent direction from the eye.
    public struct Landmark: Sendable, Hashable {
        public var pixel: Reading.Pixel
        public var direction: ViewDirection

        public init(pixel: Reading.Pixel, direction: ViewDirection) {
            self.pixel = pixel
            self.direction = direction
        }
    }

    /// Degrees between headings of the coarse search.
    public static let coarseHeadingStep = 0.2
    /// The coarse score's misfit unit and cap, degrees.
    public static let coarseTolerance = 0.5
    /// At most this many skyline pixels enter the coarse search (evenly chosen across the image).
    public static let coarsePoints = 64
    /// Largest standard error of the fitted heading, degrees, before the fit is refused as
    /// ill-determined.
    public static let maximumHeadingSigma = 0.5
    /// A point matches when its misfit is within three robust sigmas of the fit, kept within
    /// these bounds, degrees.
    public static let matchTolerance: ClosedRange<Double> = 0.15...0.4
    /// Largest RMS misfit of the matched points, degrees, for a fit to a skyline trace to be
    /// trusted. A trace of the place's own skyline fits far closer: 0.03° with 3 pixels of
    /// jitter on a 64° view 4 032 pixels wide (0.1° is about 6 pixels there), and the DEM's
    /// vertical error (16 m at 90 %) moves a ridge 5 km away by less than 0.2° at worst, far
    /// less in RMS over a trace. A trace made a few kilometres away matches part of the skyline
    /// at a wrong heading and leaves 0.15–0.25° (the README's example moved 1–5 km).
    public static let maximumResidual = 0.1
    /// The smallest share of the points that must match for a fit to be trusted.
    public static let minimumMatchedShare = 0.6
    /// Two landmarks closer than this (degrees apart) cannot fix the roll.
    public static let minimumLandmarkSpread = 2.0
    /// The fewest skyline pixels a trace without landmarks needs.
    public static let minimumSkylinePoints = 3

    let camera: PinholeCamera
    let given: CameraOrientation
    /// The limits asked for, and the box searched (``Limits/searched``).
    let nominal: Limits
    let limits: Limits
    /// Camera-frame rays of the skyline pixels and of the landmarks' pixels.
    let skylineRays: [Vector3]
    let landmarkRays: [Vector3]
    let landmarks: [Landmark]
    let profile: SkylineProfile?

    /// The azimuths (degrees, continuous around `given.heading`) a profile must cover for the
    /// skyline pixels under every orientation of the search, with half a degree to spare.
    public static func azimuthWindow(given: CameraOrientation, camera: PinholeCamera, skyline: [Reading.Pixel],
                                     limits nominal: Limits = Limits()) -> ClosedRange<Double> {
        let limits = nominal.searched
        let rays = skyline.map { camera.ray(throughPixelX: $0.x, y: $0.y) }
        var low = 0.0, high = 0.0
        for dp in [-limits.pitch, 0, limits.pitch] {
            for dr in [-limits.roll, 0, limits.roll] {
                let tilt = Tilt(pitch: min(max(given.pitch + dp, -90), 90), roll: given.roll + dr)
                for ray in rays {
                    let a = tilt.level(ray).azimuth
                    low = min(low, a)
                    high = max(high, a)
                }
            }
        }
        let start = given.heading - limits.heading + low - 0.5
        let end = given.heading + limits.heading + high + 0.5
        return end - start >= 360 ? start...(start + 360) : start...end
    }

    /// Fits an orientation.
    ///
    /// - Parameters:
    ///   - given: the sensors' orientation (heading from true north), the search's centre.
    ///   - skyline: skyline pixels; they need `profile`.
    ///   - profile: the DEM's skyline over at least ``azimuthWindow(given:camera:skyline:limits:)``.
    /// - Throws: ``CalibrationError`` `bad-input` for unusable points, `no-fit` when nothing
    ///   within the limits explains them well enough.
    public static func fit(given: CameraOrientation, camera: PinholeCamera, skyline: [Reading.Pixel],
                           landmarks: [Landmark], profile: SkylineProfile?, limits: Limits = Limits()) throws(CalibrationError) -> Calibration {
        try validate(camera: camera, skyline: skyline, landmarks: landmarks)
        if !skyline.isEmpty, profile == nil {
            throw .badInput("a skyline trace needs the DEM's skyline profile")
        }
        let fit = OrientationFit(camera: camera, given: given, nominal: limits, limits: limits.searched,
                                 skylineRays: skyline.map { camera.ray(throughPixelX: $0.x, y: $0.y) },
                                 landmarkRays: landmarks.map { camera.ray(throughPixelX: $0.pixel.x, y: $0.pixel.y) },
                                 landmarks: landmarks, profile: profile)
        return try fit.solve()
    }

    /// Refuses unusable points: none at all, a trace of fewer than ``minimumSkylinePoints`` without
    /// landmarks, pixels outside the image or not finite, landmarks without a direction.
    public static func validate(camera: PinholeCamera, skyline: [Reading.Pixel], landmarks: [Landmark]) throws(CalibrationError) {
        if skyline.isEmpty && landmarks.isEmpty {
            throw .badInput("skyline and landmarks are both empty: nothing to calibrate against")
        }
        if landmarks.isEmpty, skyline.count < minimumSkylinePoints {
            throw .badInput("a skyline trace needs at least \(minimumSkylinePoints) points, got \(skyline.count)")
        }
        func check(_ x: Double, _ y: Double, _ path: String) throws(CalibrationError) {
            guard x.isFinite, y.isFinite else { throw .badInput("\(path) must be a finite pixel, got (\(x), \(y))") }
            guard camera.contains(pixelX: x, y: y) else {
                throw .badInput("\(path) (\(x), \(y)) lies outside the \(Int(camera.imageWidth))×\(Int(camera.imageHeight)) image")
            }
        }
        for (i, p) in skyline.enumerated() { try check(p.x, p.y, "skyline[\(i)]") }
        for (i, l) in landmarks.enumerated() {
            try check(l.pixel.x, l.pixel.y, "landmarks[\(i)]")
            guard l.direction.azimuth.isFinite, l.direction.elevation.isFinite else {
                throw .badInput("landmarks[\(i)] has no direction from the observer (it is the observer's own position?)")
            }
        }
    }

    // MARK: Geometry

    /// A camera's roll and pitch, as the sines and cosines that level its rays.
    struct Tilt {
        let cr: Double, sr: Double, cp: Double, sp: Double

        init(pitch: Double, roll: Double) {
            let r = radians(roll), p = radians(pitch)
            (cr, sr, cp, sp) = (cos(r), sin(r), cos(p), sin(p))
        }

        /// A camera-frame ray after roll and pitch: its azimuth offset from the heading and its
        /// elevation, degrees.
        @inline(__always)
        func level(_ c: Vector3) -> (azimuth: Double, elevation: Double) {
            let x = c.x * cr + c.y * sr
            let y = -c.x * sr + c.y * cr
            let yl = y * cp + c.z * sp
            let zl = -y * sp + c.z * cp
            return (degrees(atan2(x, zl)), degrees(asin(max(-1, min(1, yl)))))
        }
    }

    /// Parameters of a fit: heading, pitch, roll in degrees.
    struct Angles: Equatable {
        var heading: Double, pitch: Double, roll: Double

        subscript(i: Int) -> Double {
            get { i == 0 ? heading : i == 1 ? pitch : roll }
            set {
                switch i {
                case 0: heading = newValue
                case 1: pitch = newValue
                default: roll = newValue
                }
            }
        }
    }

    /// Misfit standing in for a skyline pixel whose azimuth has no DEM skyline, degrees: large,
    /// so that it counts as unmatched and its robust weight vanishes.
    static let missingMisfit = 10.0

    /// The misfits of every point, degrees: one per skyline pixel, then two per landmark (east,
    /// up).
    func misfits(_ a: Angles) -> [Double] {
        var out: [Double] = []
        out.reserveCapacity(skylineRays.count + 2 * landmarkRays.count)
        let tilt = Tilt(pitch: a.pitch, roll: a.roll)
        if let profile {
            for c in skylineRays {
                let l = tilt.level(c)
                let s = profile.angle(at: a.heading + l.azimuth)
                out.append(s.isNaN ? Self.missingMisfit : l.elevation - s)
            }
        }
        for (c, landmark) in zip(landmarkRays, landmarks) {
            let l = tilt.level(c)
            let dAzimuth = remainder(a.heading + l.azimuth - landmark.direction.azimuth, 360)
            out.append(dAzimuth * cos(radians(landmark.direction.elevation)))
            out.append(l.elevation - landmark.direction.elevation)
        }
        return out
    }

    // MARK: Search

    func solve() throws(CalibrationError) -> Calibration {
        let start = Angles(heading: given.heading, pitch: given.pitch, roll: given.roll)
        var starts: [Angles]
        if skylineRays.isEmpty {
            let first = landmarks[0]
            guard let aimed = CameraOrientation.aiming(pixelX: first.pixel.x, y: first.pixel.y, of: camera, roll: given.roll,
                                                       at: first.direction.enu) else {
                throw .noFit("landmarks[0] cannot be brought to its pixel by any pitch: check its pixel and coordinates")
            }
            var heading = aimed.heading
            heading = given.heading + remainder(heading - given.heading, 360)
            starts = [Angles(heading: heading, pitch: aimed.pitch, roll: given.roll)]
        } else {
            starts = coarseStarts()
        }
        let freeRoll = !skylineRays.isEmpty || landmarksSpread() >= Self.minimumLandmarkSpread
        var fits = starts.map { refine(from: $0, freeRoll: freeRoll) }
        fits.sort { ($0.matched, -$0.rms) > ($1.matched, -$1.rms) }
        guard let best = fits.first else { throw .noFit("no orientation within the search explains the points\(unsettledNote(start))") }
        let points = skylineRays.count + landmarks.count
        let tolerance = String(format: "%.2f", best.tolerance)
        guard best.matched >= max(Self.minimumSkylinePoints, Int((Self.minimumMatchedShare * Double(points)).rounded(.up))) || (skylineRays.isEmpty && best.matched == points) else {
            let what = skylineRays.isEmpty ? "landmarks" : "points"
            throw .noFit("the trace fits the DEM nowhere within ±\(Self.format(nominal.heading))° of heading and ±\(Self.format(nominal.pitch))° of pitch and roll: at best \(best.matched) of \(points) \(what) lie within \(tolerance)° (wrong place, or not the skyline?)\(unsettledNote(start))")
        }
        let d = Angles(heading: remainder(best.angles.heading - start.heading, 360), pitch: best.angles.pitch - start.pitch,
                       roll: best.angles.roll - start.roll)
        if !skylineRays.isEmpty, best.rms > Self.maximumResidual {
            throw .noFit(String(format: "the best fit (heading %+.1f°) still misses the matched points by %.2f° RMS, more than the %.2f° a trace of this place's skyline leaves: the trace is from elsewhere (a few kilometres away already), or not this skyline", d.heading, best.rms, Self.maximumResidual))
        }
        if best.headingSigma > Self.maximumHeadingSigma {
            throw .noFit(String(format: "the heading is ill-determined (±%.1f°): the traced skyline is too featureless to fix it", best.headingSigma))
        }
        let edge = 0.02
        if abs(d.heading) > limits.heading - edge || abs(d.pitch) > limits.pitch - edge || (freeRoll && abs(d.roll) > limits.roll - edge) {
            throw .noFit(String(format: "the best fit lies on the edge of the search (heading %+.1f°, pitch %+.1f°, roll %+.1f°): the sensors are further off than the search reaches, or the trace is not from here", d.heading, d.pitch, d.roll))
        }
        var warnings: [Warning] = []
        if let rival = fits.dropFirst().first(where: { abs(remainder($0.angles.heading - best.angles.heading, 360)) > 1 }),
           Double(rival.matched) >= 0.9 * Double(best.matched), rival.rms <= 1.5 * best.rms + 0.02 {
            warnings.append(Warning(.ambiguousCalibration, String(format: "ambiguous: headings %.1f° and %.1f° explain the trace almost equally (%d and %d points matched)",
                                   normalizedAzimuth(best.angles.heading), normalizedAzimuth(rival.angles.heading), best.matched, rival.matched)))
        }
        if !freeRoll, !landmarks.isEmpty {
            warnings.append(Warning(.rollKept, landmarks.count == 1 ? "roll kept as given: one landmark cannot fix it"
                                                                : "roll kept as given: the landmarks are too close together to fix it"))
        }
        return Calibration(heading: normalizedAzimuth(best.angles.heading), pitch: best.angles.pitch, roll: best.angles.roll,
                           correction: .init(heading: d.heading, pitch: d.pitch, roll: d.roll), residual: best.rms,
                           matched: best.matched, points: points, warnings: warnings)
    }

    /// The end of a refusal when, under `a` (the sensors' orientation), most skyline pixels fall
    /// on azimuths where the profile has no angle — no data, or a skyline the DEM does not
    /// settle (``SkylineProfile/init(points:step:)``) — so that the fix is more DEM, not a
    /// better trace; empty otherwise.
    func unsettledNote(_ a: Angles) -> String {
        guard let profile else { return "" }
        let tilt = Tilt(pitch: a.pitch, roll: a.roll)
        let unknown = skylineRays.filter { profile.angle(at: a.heading + tilt.level($0).azimuth).isNaN }.count
        guard unknown * 2 > skylineRays.count else { return "" }
        return "; \(unknown) of \(skylineRays.count) skyline points look where the DEM does not settle the skyline (it ends before the terrain beyond can be ruled out, or has no data): fetch the tiles around the view (tapseek dem fetch --bbox …) or state a smaller skyline range (--skyline-range M)"
    }

    /// The largest angle between two landmarks' directions, degrees.
    private func landmarksSpread() -> Double {
        var spread = 0.0
        for i in landmarks.indices {
            for j in landmarks.indices where j > i {
                let c = landmarks[i].direction.enu.dot(landmarks[j].direction.enu)
                spread = max(spread, degrees(acos(max(-1, min(1, c)))))
            }
        }
        return spread
    }

    /// The best few distinct starting orientations of the coarse search, best first.
    private func coarseStarts() -> [Angles] {
        guard let profile else { return [] }
        // Evenly chosen pixels across the image (by column), at most coarsePoints.
        let order = skylineRays.indices.sorted { skylineRays[$0].x < skylineRays[$1].x }
        let take = min(order.count, Self.coarsePoints)
        let rays = (0..<take).map { skylineRays[order[$0 * order.count / take]] }
        let steps = Int((2 * limits.heading / Self.coarseHeadingStep).rounded(.down))
        var best = [(cost: Double, pitch: Double, roll: Double)](repeating: (.infinity, 0, 0), count: steps + 1)
        var misfits = [Double](repeating: 0, count: rays.count)
        var sorted = misfits
        let tolerance = Self.coarseTolerance
        for pitchStep in -1...1 {
            let dp = Double(pitchStep) * limits.pitch * 2 / 3
            for rollStep in -2...2 {
                let dr = Double(rollStep) * limits.roll / 2
                let pitch = min(max(given.pitch + dp, -90), 90), roll = given.roll + dr
                let tilt = Tilt(pitch: pitch, roll: roll)
                let levelled = rays.map(tilt.level)
                for k in 0...steps {
                    let heading = given.heading - limits.heading + Double(k) * Self.coarseHeadingStep
                    var count = 0, missing = 0
                    for l in levelled {
                        let s = profile.angle(at: heading + l.azimuth)
                        if s.isNaN { missing += 1 } else {
                            misfits[count] = l.elevation - s
                            count += 1
                        }
                    }
                    guard count > 0 else { continue }
                    for i in 0..<count { sorted[i] = misfits[i] }
                    sorted[0..<count].sort()
                    // The shift lowers the points by their median misfit, within the pitch limits.
                    let shift = min(max(sorted[count / 2], dp - limits.pitch), dp + limits.pitch)
                    let cost = Self.cappedCost(misfits, count: count, shift: shift, missing: missing, tolerance: tolerance)
                    if cost < best[k].cost { best[k] = (cost, pitch - shift, roll) }
                }
            }
        }
        // Local minima of the cost over heading, best first, at least 1° apart.
        let chosen = Self.distinctMinima(best.map(\.cost), apart: Int((1 / Self.coarseHeadingStep).rounded()), circular: false, limit: 3)
        return chosen.map {
            Angles(heading: given.heading - limits.heading + Double($0) * Self.coarseHeadingStep, pitch: best[$0].pitch,
                   roll: best[$0].roll)
        }
    }

    /// A coarse score: each of the first `count` misfits after `shift`, squared in units of
    /// `tolerance` and capped at 1, plus 1 for each of `missing` points without a DEM skyline.
    static func cappedCost(_ misfits: [Double], count: Int, shift: Double, missing: Int, tolerance: Double) -> Double {
        var cost = Double(missing)
        for i in 0..<count {
            let e = (misfits[i] - shift) / tolerance
            cost += min(e * e, 1)
        }
        return cost
    }

    /// The local minima of `costs` (finite ones), lowest first, each at least `apart` indices from
    /// those before it (around the ends when `circular`), at most `limit` of them.
    static func distinctMinima(_ costs: [Double], apart: Int, circular: Bool, limit: Int) -> [Int] {
        let n = costs.count
        var minima: [Int] = []
        for k in 0..<n where costs[k].isFinite {
            let left = k > 0 ? costs[k - 1] : (circular ? costs[n - 1] : .infinity)
            let right = k < n - 1 ? costs[k + 1] : (circular ? costs[0] : .infinity)
            if costs[k] <= left, costs[k] <= right { minima.append(k) }
        }
        minima.sort { costs[$0] < costs[$1] }
        var chosen: [Int] = []
        for k in minima where chosen.allSatisfy({ let d = abs($0 - k); return (circular ? min(d, n - d) : d) >= apart }) {
            chosen.append(k)
            if chosen.count == limit { break }
        }
        return chosen
    }

    /// A refined fit: its angles, how many points match, their RMS misfit, and the heading's
    /// standard error.
    struct Refined {
        var angles: Angles
        var matched: Int
        var rms: Double
        var tolerance: Double
        var headingSigma: Double
    }

    /// Levenberg–Marquardt with Cauchy weights from `start`, the weights' scale shrinking from
    /// 0.5° to the misfits' robust spread; the angles kept within the limits.
    func refine(from start: Angles, freeRoll: Bool) -> Refined {
        refine(from: start, free: freeRoll ? [0, 1, 2] : [0, 1])
    }

    /// ``refine(from:freeRoll:)`` over the angles `free` (indices: 0 heading, 1 pitch, 2 roll);
    /// the others stay as in `start` (roll as given when not free).
    func refine(from start: Angles, free: [Int]) -> Refined {
        let parameters = free.count
        let freeRoll = free.contains(2)
        var a = start
        var scale = Self.coarseTolerance
        var lambda = 1e-3
        func clamped(_ x: Angles) -> Angles {
            var y = x
            y.heading = given.heading + min(max(remainder(x.heading - given.heading, 360), -limits.heading), limits.heading)
            y.pitch = min(max(x.pitch, max(given.pitch - limits.pitch, -90)), min(given.pitch + limits.pitch, 90))
            y.roll = freeRoll ? min(max(x.roll, given.roll - limits.roll), given.roll + limits.roll) : (free.contains(0) ? given.roll : start.roll)
            return y
        }
        func cost(_ e: [Double], _ s: Double) -> Double { e.reduce(0) { $0 + log1p($1 * $1 / (s * s)) } }
        var e = misfits(a)
        for _ in 0..<12 {
            for _ in 0..<10 {
                let jacobian = self.jacobian(at: a, free: free)
                // Normal equations with Cauchy weights w = 1/(1 + (e/s)²).
                var normal = [[Double]](repeating: [Double](repeating: 0, count: parameters), count: parameters)
                var gradient = [Double](repeating: 0, count: parameters)
                for i in e.indices {
                    let w = 1 / (1 + e[i] * e[i] / (scale * scale))
                    for p in 0..<parameters {
                        gradient[p] += w * jacobian[p][i] * e[i]
                        for q in 0..<parameters { normal[p][q] += w * jacobian[p][i] * jacobian[q][i] }
                    }
                }
                var improved = false
                let before = cost(e, scale)
                for _ in 0..<8 {
                    var damped = normal
                    for p in 0..<parameters { damped[p][p] += lambda * max(normal[p][p], 1e-9) }
                    guard let step = Self.solve(damped, gradient.map { -$0 }) else { lambda *= 10; continue }
                    var trial = a
                    for p in 0..<parameters { trial[free[p]] += step[p] }
                    trial = clamped(trial)
                    let te = misfits(trial)
                    if cost(te, scale) < before {
                        let moved = free.map { abs(trial[$0] - a[$0]) }.max() ?? 0
                        a = trial
                        e = te
                        lambda = max(lambda / 10, 1e-9)
                        improved = moved > 1e-7
                        break
                    }
                    lambda *= 10
                }
                if !improved { break }
            }
            // Shrink the scale toward the misfits' robust spread (1.4826 × median |e|).
            let spread = max(1.4826 * Self.median(e.map(abs)), 0.01)
            let next = max(min(scale / 2, spread), 0.01)
            if next >= scale { break }
            scale = next
        }
        return judged(a, misfits: e, free: free)
    }

    /// How well `a` fits: matched points, their RMS misfit, the heading's standard error.
    private func judged(_ a: Angles, misfits e: [Double], free: [Int]) -> Refined {
        let parameters = free.count
        let tolerance = min(max(3 * 1.4826 * Self.median(e.map(abs)), Self.matchTolerance.lowerBound), Self.matchTolerance.upperBound)
        var matched = 0, sum = 0.0, inlierTerms = 0
        let skyline = profile == nil ? 0 : skylineRays.count
        var inlier = [Bool](repeating: false, count: e.count)
        for i in 0..<skyline where abs(e[i]) <= tolerance {
            matched += 1
            sum += e[i] * e[i]
            inlier[i] = true
            inlierTerms += 1
        }
        for k in landmarks.indices {
            let east = e[skyline + 2 * k], up = e[skyline + 2 * k + 1]
            if (east * east + up * up).squareRoot() <= tolerance {
                matched += 1
                sum += east * east + up * up
                inlier[skyline + 2 * k] = true
                inlier[skyline + 2 * k + 1] = true
                inlierTerms += 2
            }
        }
        let rms = matched > 0 ? (sum / Double(matched)).squareRoot() : .infinity
        // Covariance of the least-squares fit over the matched points: σ²·(JᵀJ)⁻¹, σ at least
        // the calibration's floor (the skyline's own sampling).
        let jacobian = self.jacobian(at: a, free: free)
        var normal = [[Double]](repeating: [Double](repeating: 0, count: parameters), count: parameters)
        for i in e.indices where inlier[i] {
            for p in 0..<parameters { for q in 0..<parameters { normal[p][q] += jacobian[p][i] * jacobian[q][i] } }
        }
        let sigma = max(rms.isFinite ? rms : 1, Calibration.sigmaFloor)
        var headingSigma = Double.infinity
        if free.first == 0, let column = Self.solve(normal, [1] + [Double](repeating: 0, count: parameters - 1)), column[0] > 0 {
            headingSigma = sigma * column[0].squareRoot()
        }
        return Refined(angles: a, matched: matched, rms: rms, tolerance: tolerance, headingSigma: headingSigma)
    }

    /// ∂misfits/∂angle by central differences of 0.005° (the profile is linear between its
    /// 0.05° samples); one row per parameter.
    func jacobian(at a: Angles, free: [Int]) -> [[Double]] {
        let h = 0.005
        var rows: [[Double]] = []
        for p in free {
            var plus = a, minus = a
            plus[p] += h
            minus[p] -= h
            let ep = misfits(plus), em = misfits(minus)
            rows.append(zip(ep, em).map { ($0 - $1) / (2 * h) })
        }
        return rows
    }

    /// Solves a small linear system by Gaussian elimination with partial pivoting; nil when
    /// singular.
    static func solve(_ matrix: [[Double]], _ rhs: [Double]) -> [Double]? {
        let n = rhs.count
        var m = matrix, b = rhs
        for c in 0..<n {
            guard let pivot = (c..<n).max(by: { abs(m[$0][c]) < abs(m[$1][c]) }), abs(m[pivot][c]) > 1e-12 else { return nil }
            m.swapAt(c, pivot)
            b.swapAt(c, pivot)
            for r in (c + 1)..<n {
                let f = m[r][c] / m[c][c]
                for k in c..<n { m[r][k] -= f * m[c][k] }
                b[r] -= f * b[c]
            }
        }
        var x = [Double](repeating: 0, count: n)
        for r in stride(from: n - 1, through: 0, by: -1) {
            var s = b[r]
            for k in (r + 1)..<n { s -= m[r][k] * x[k] }
            x[r] = s / m[r][r]
        }
        return x
    }

    static func median(_ values: [Double]) -> Double {
        guard !values.isEmpty else { return .nan }
        let s = values.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }

    static func format(_ v: Double) -> String { v == v.rounded() ? String(Int(v)) : String(v) }
}
