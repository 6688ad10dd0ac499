import Foundation

/// The sky/terrain boundary of a photo, column by column, found in its pixels.
///
/// The image is worked on at about ``workingWidth`` pixels across. Every column's boundary is the
/// row that splits it into sky above and terrain below at the least cost, all columns chosen
/// together by dynamic programming so that the boundary is continuous where the evidence is weak:
/// - **colour**: each pixel costs the difference of its negative log-likelihoods under a sky
///   and a terrain colour model (Gaussians in RGB with full covariance), capped at
///   ±``pixelCostCap`` so that no single pixel (a cloud, a bird) dominates. The first models come
///   from brightness and blueness (sky is brighter and bluer than land by day); each of
///   ``iterations`` passes refits them to the boundary found before;
/// - **edges**: a boundary on a strong vertical colour change, in units of the image's noise,
///   costs less (weight ``edgeWeight``);
/// - **continuity**: moving the boundary by d rows from one column to the next costs
///   ``jumpCost``·min(d, ``jumpCap``): a truncated L1 penalty, solved exactly per column by a
///   distance transform (Felzenszwalb & Huttenlocher 2012), so the pass is linear in the pixels;
/// - **departure from the sky**: the sky is then modelled from the top of the frame and what
///   departs from it going down, darker, costs as terrain
///   (``ColourPlanes/addSkyDeparture(to:boundary:edges:noise:skyNoise:)``), measured against the
///   sky's own noise, not the frame's (a forest's texture inflates that tenfold).
///
/// Each column then gets a **confidence** from the contrast across its boundary (in noise units;
/// a sharp step from a level sky also in units of the sky's own noise) and from how sky-like
/// above and terrain-like below its neighbourhood is. Columns where the
/// boundary is not trustworthy are left out rather than guessed: low contrast (haze, fog, a
/// cloud on the ridge), a column of all sky or all terrain, and narrow spikes that rise abruptly
/// above both neighbours (a pole, a tree, a person). A photo whose confident columns cover less
/// than ``minimumCoverage`` of its width has no skyline.
///
/// Rows of the boundary are refined to a fraction of a working pixel from the colours across it
/// (the share of sky colour in the rows around the step), then reported in full-size pixels.
public enum SkylineDetector {
    /// The width the detection works at, pixels.
    public static let workingWidth = 1000
    /// Fewest share of columns with a confident boundary for a photo to have a skyline.
    public static let minimumCoverage = 0.15
    /// Least confidence of a column kept.
    public static let minimumConfidence = 0.5
    static let iterations = 3
    static let pixelCostCap: Float = 3
    static let edgeWeight: Float = 1.5
    static let jumpCost: Float = 0.6
    static let jumpCap: Float = 40
    /// The share of each column's sky, from the top, that the sky's colour lines are fitted to:
    /// the upper third, so that a hazy far ridge the first boundary took for sky (it stops at the
    /// forest below) stays out of the fit (at 0.7 the line was fitted to the ridge itself).
    static let skyFitShare = 0.35
    /// Departure from the sky's line (in its spreads, RMS over the channels) where a pixel
    /// starts to cost as terrain, and over how many more it reaches the cap.
    static let departureStart: Float = 3
    static let departureWidth: Float = 3
    /// A run of fully departed rows this share of the height (1/n) is terrain enough that
    /// nothing below it is sky.
    static let terrainRunShare = 40
    /// Edge strength (``ColourPlanes/edgeStrength(noise:)``, 0…6) that ends the sky a column's
    /// line is fitted to.
    static let skyEdge: Float = 3
    /// Below the fitted part, the sky is followed down the column as it drifts (a pale or
    /// reddened band at the horizon): a pixel within ``followWithin`` spreads of the sky followed
    /// so far, in smooth surroundings (``ColourPlanes/isSmooth(x:y:noise:)``),
    /// moves the sky toward its colour by 1/(``followShare``·height) per row.
    static let followWithin: Float = 2
    /// In units of the sky's noise (``ColourPlanes/skyNoise()``): noise alone gives a second
    /// difference of √6 ≈ 2.45 times the noise, so about four times that. The frame's noise,
    /// inflated by a forest's texture, would let a ridge's blurred edge pass as smooth.
    static let smoothCurvature: Float = 10
    static let followShare: Float = 0.01
    /// ... and changing by at most this many times the sky's noise per row (the slope down the
    /// column, RMS over the channels): a pale band at the horizon drifts by a level or two a row,
    /// a hazy ridge's edge blurred over three or four rows (a web photo scaled up) falls by ten
    /// to twenty a row, each row's second difference small. Followed down such a ramp, with the
    /// frame's noise (a forest's texture) letting each row pass as near, the sky became the ridge.
    static let smoothSlope: Float = 8
    /// A column's boundary is also confident when its step is a sharp one against the sky's noise
    /// (see ``confidences(boundary:colours:cost:noise:skyNoise:)``): the step (colour difference
    /// of the few rows either side, as for the frame's contrast) is measured in units of this many
    /// times the sky's noise, ...
    static let sharpContrastNoise: Double = 3
    /// ... and is sharp when the sky in the ``sharpLevel`` rows a row above those changes by at most
    /// this share of the step on its way to the boundary (fully unsure at 1.6 times it): a
    /// ridge's edge is a step from a level sky (web_046: under 0.2), a haze layer's top a
    /// blend over several rows (web_050: 0.4–1).
    static let sharpPaling: Double = 0.25
    static let sharpLevel = 3
    /// A cloud, in the column's run down from the sky, is a pixel brighter than the sky followed
    /// there by this many times the frame's noise and whiter than it (``ColourPlanes/isCloud(x:y:sky:noise:)``).
    /// What darkens from a cloud gradually (``ColourPlanes/isGradual(x:y:noise:)``), with no step,
    /// is its shaded underside, not terrain, however much darker than the sky: the veil of grey
    /// under a cumulus over clear sky (web_034). At 3 units the grey body of a hazy far ridge,
    /// brighter than a deep blue sky, passed as cloud (web_066); from 3 to 10 units the real
    /// photographs score the same.
    static let cloudBrighter: Float = 6

    /// A detected skyline.
    public struct Result: Sendable, Hashable {
        /// One point per confident column, left to right: x at the column's centre and y on the
        /// boundary, in pixels of the full-size image (as displayed).
        public var points: [Point]
        /// The share of the image's columns with a confident boundary, 0…1.
        public var coverage: Double
        /// For the points under a white crest, snow's or a cloud's (``ColourPlanes/whiteCrests(boundary:noise:)``),
        /// the crest's top in the same column: the skyline if the crest is snow, the point's own
        /// row if it is a cloud's foot on the ridge.
        public var crestTops: [Point]

        public init(points: [Point], coverage: Double, crestTops: [Point] = []) {
            self.points = points
            self.coverage = coverage
            self.crestTops = crestTops
        }
    }

    /// A boundary point: pixels, and a confidence in 0…1.
    public struct Point: Sendable, Hashable {
        public var x: Double
        public var y: Double
        public var confidence: Double

        public init(x: Double, y: Double, confidence: Double) {
            self.x = x
            self.y = y
            self.confidence = confidence
        }
    }

    /// Finds the skyline of `image` (any size; shrunk to ``workingWidth`` first), reporting pixels
    /// of a full-size image of `fullWidth` × `fullHeight` (by default the image's own size).
    public static func detect(in image: PixelImage, fullWidth: Int? = nil, fullHeight: Int? = nil) -> Result {
        let small = image.downscaled(toWidth: workingWidth)
        let w = small.width, h = small.height
        guard w >= 8, h >= 8 else { return Result(points: [], coverage: 0) }
        let scaleX = Double(fullWidth ?? image.width) / Double(w)
        let scaleY = Double(fullHeight ?? image.height) / Double(h)
        let colours = ColourPlanes(small)
        let noise = colours.noise()

        // First costs from brightness and blueness, then colour models refitted to each boundary.
        var cost = colours.initialCost()
        var boundary = [Int](repeating: 0, count: w)
        let edges = colours.edgeStrength(noise: noise)
        for pass in 0..<iterations {
            boundary = bestBoundary(cost: cost, edges: edges, width: w, height: h)
            if pass + 1 < iterations, let next = colours.modelCost(boundary: boundary) { cost = next }
        }
        // The sky as the top of the frame shows it, column band by band: what departs from it
        // going down is terrain, even where the colour models call it sky (a hazy far ridge
        // above a forest whose edge is stronger).
        if colours.addSkyDeparture(to: &cost, boundary: boundary, edges: edges, noise: noise, skyNoise: colours.skyNoise()) {
            boundary = bestBoundary(cost: cost, edges: edges, width: w, height: h)
        }

        var points: [Point] = []
        let confidence = confidences(boundary: boundary, colours: colours, cost: cost, noise: noise, skyNoise: colours.skyNoise())
        let crests = colours.whiteCrests(boundary: boundary, noise: noise)
        var crestTops: [Point] = []
        for x in 0..<w where confidence[x] >= minimumConfidence {
            let y = colours.subpixelBoundary(column: x, row: boundary[x])
            points.append(Point(x: (Double(x) + 0.5) * scaleX, y: y * scaleY, confidence: confidence[x]))
            if let top = crests[x] {
                crestTops.append(Point(x: (Double(x) + 0.5) * scaleX, y: colours.subpixelBoundary(column: x, row: top) * scaleY,
                                       confidence: confidence[x]))
            }
        }
        let coverage = Double(points.count) / Double(w)
        return coverage >= minimumCoverage ? Result(points: points, coverage: coverage, crestTops: crestTops) : Result(points: [], coverage: coverage)
    }

    /// The boundary row of every column (0: all terrain … h: all sky) of least total cost.
    static func bestBoundary(cost: [Float], edges: [Float], width w: Int, height h: Int) -> [Int] {
        let states = h + 1
        var previous = [Float](repeating: 0, count: states)
        var current = previous
        var from = [Int32](repeating: 0, count: w * states)
        var unary = [Float](repeating: 0, count: states)
        var transformed = [Float](repeating: 0, count: states)
        var argument = [Int32](repeating: 0, count: states)
        for x in 0..<w {
            // Unary: the sky cost of the rows above the boundary (prefix sums down the column),
            // less the edge bonus at the boundary.
            var sum: Float = 0
            unary[0] = 0
            for y in 0..<h {
                sum += cost[y * w + x]
                unary[y + 1] = sum
            }
            for y in 1..<h { unary[y] -= edgeWeight * edges[y * w + x] }
            if x == 0 {
                previous = unary
                continue
            }
            // Truncated L1 distance transform of the previous column, with its arguments.
            for y in 0..<states {
                transformed[y] = previous[y]
                argument[y] = Int32(y)
            }
            for y in 1..<states where transformed[y - 1] + jumpCost < transformed[y] {
                transformed[y] = transformed[y - 1] + jumpCost
                argument[y] = argument[y - 1]
            }
            for y in stride(from: states - 2, through: 0, by: -1) where transformed[y + 1] + jumpCost < transformed[y] {
                transformed[y] = transformed[y + 1] + jumpCost
                argument[y] = argument[y + 1]
            }
            var lowest = previous[0], lowestAt = 0
            for y in 1..<states where previous[y] < lowest {
                lowest = previous[y]
                lowestAt = y
            }
            let capped = lowest + jumpCost * jumpCap
            for y in 0..<states {
                var best = transformed[y], arg = argument[y]
                if capped < best {
                    best = capped
                    arg = Int32(lowestAt)
                }
                current[y] = unary[y] + best
                from[x * states + y] = arg
            }
            swap(&previous, &current)
        }
        var y = (0..<states).min { previous[$0] < previous[$1] } ?? 0
        var boundary = [Int](repeating: 0, count: w)
        for x in stride(from: w - 1, through: 0, by: -1) {
            boundary[x] = y
            if x > 0 { y = Int(from[x * states + y]) }
        }
        return boundary
    }

    /// Each column's confidence in 0…1 (see the type's description).
    static func confidences(boundary: [Int], colours: ColourPlanes, cost: [Float], noise: Float, skyNoise: Float) -> [Double] {
        let w = colours.width, h = colours.height
        let band = max(2, h / 150)
        var confidence = [Double](repeating: 0, count: w)
        for x in 0..<w {
            let b = boundary[x]
            guard b >= band, b <= h - band else { continue }
            let above = colours.mean(column: x, rows: (b - band)..<b), below = colours.mean(column: x, rows: b..<(b + band))
            let contrast = (0..<3).map { Double(above[$0] - below[$0]) }.reduce(0) { $0 + $1 * $1 }.squareRoot() / Double(noise)
            var agree = 0
            for y in (b - band)..<b where cost[y * w + x] < 0 { agree += 1 }
            for y in b..<(b + band) where cost[y * w + x] > 0 { agree += 1 }
            let sides = Double(agree) / Double(2 * band)
            confidence[x] = smoothstep(4, 10, contrast) * sides
            // A sharp step is as sure against the sky's own noise: in a photo full of forest or
            // olive groves the frame's noise is the texture, and a hazy ridge 60 levels darker
            // than the sky stays under 10 of its units. A soft step (the top of a haze layer,
            // the sky already changing just above it) is held to the frame's noise.
            if b >= band + 1 + sharpLevel {
                let level = colours.mean(column: x, rows: (b - band - 1 - sharpLevel)..<(b - band - 1))
                let paling = (0..<3).map { Double(above[$0] - level[$0]) }.reduce(0) { $0 + $1 * $1 }.squareRoot()
                let step = contrast * Double(noise)
                let sharp = 1 - smoothstep(sharpPaling, 1.6 * sharpPaling, paling / max(step, 1))
                let skyContrast = step / (sharpContrastNoise * Double(skyNoise))
                confidence[x] = max(confidence[x], smoothstep(4, 10, skyContrast) * sides * sharp)
            }
        }
        // Narrow spikes: runs between two jumps that rise above both neighbours.
        let jump = max(6, h / 40), widest = max(3, w / 40)
        var start = 0
        for x in 1...w {
            guard x == w || abs(boundary[x] - boundary[x - 1]) > jump else { continue }
            if start > 0, x < w, x - start <= widest,
               boundary[start] < boundary[start - 1] - jump, boundary[x - 1] < boundary[x] - jump {
                for i in start..<x { confidence[i] = 0 }
            }
            // The columns at a jump have no single boundary.
            if x < w {
                confidence[x - 1] = 0
                confidence[x] = 0
            }
            start = x
        }
        return confidence
    }

    static func smoothstep(_ low: Double, _ high: Double, _ x: Double) -> Double {
        let t = min(max((x - low) / (high - low), 0), 1)
        return t * t * (3 - 2 * t)
    }
}

/// The working image as three planes of floats, with the statistics the detector needs.
struct ColourPlanes {
    let width: Int
    let height: Int
    /// R, G, B planes, row-major.
    let planes: [[Float]]

    init(_ image: PixelImage) {
        width = image.width
        height = image.height
        var r = [Float](repeating: 0, count: width * height), g = r, b = r
        for i in 0..<(width * height) {
            r[i] = Float(image.rgb[3 * i])
            g[i] = Float(image.rgb[3 * i + 1])
            b[i] = Float(image.rgb[3 * i + 2])
        }
        planes = [r, g, b]
    }

    /// The image's noise: the robust spread of differences between vertical neighbours, per
    /// channel and pixel (1.4826·median/√2), at least 1.
    func noise() -> Float {
        var differences: [Float] = []
        differences.reserveCapacity(width * height / 4)
        for y in stride(from: 1, to: height, by: 2) {
            for x in stride(from: 0, to: width, by: 2) {
                let i = y * width + x
                differences.append(abs(planes[1][i] - planes[1][i - width]))
            }
        }
        guard !differences.isEmpty else { return 1 }
        let median = differences.kthSmallest(differences.count / 2, among: differences.count)
        return max(1, 1.4826 * median / 2.0.squareRoot().float)
    }

    /// The noise of the sky itself: the mean absolute difference between vertical neighbours
    /// over the top rows of the frame (sky in nearly every landscape photo), each difference
    /// clipped so that a cloud's edge does not count as noise, over 1.128 (E|d| of a Gaussian
    /// difference is 1.128 σ); at least 0.5. ``noise()`` is the texture of the whole frame and
    /// can be ten times more in a photo full of forest.
    func skyNoise() -> Float {
        let rows = max(2, height / 5)
        var sum: Float = 0, count: Float = 0
        for y in 1..<rows {
            for x in stride(from: 0, to: width, by: 2) {
                let i = y * width + x
                for p in planes { sum += min(abs(p[i] - p[i - width]), 8); count += 1 }
            }
        }
        return max(0.5, sum / max(count, 1) / 1.128)
    }

    /// The first per-pixel sky cost (negative: sky-like) from brightness and blueness, scaled by
    /// their spread over the image and centred on their middle.
    func initialCost() -> [Float] {
        let n = width * height
        var score = [Float](repeating: 0, count: n)
        for i in 0..<n {
            let r = planes[0][i], g = planes[1][i], b = planes[2][i]
            let brightness = (r + g + b) / 3, blueness = b - (r + g) / 2
            score[i] = brightness + 1.5 * blueness
        }
        var sorted = stride(from: 0, to: n, by: 7).map { score[$0] }
        sorted.sort()
        let low = sorted[sorted.count / 10], high = sorted[sorted.count * 9 / 10]
        let middle = (low + high) / 2, spread = max((high - low) / 4, 1)
        return score.map { min(max((middle - $0) / spread, -SkylineDetector.pixelCostCap), SkylineDetector.pixelCostCap) }
    }

    /// Per-pixel sky cost from colour models fitted to the pixels well above (sky) and below
    /// (terrain) `boundary`; nil when either side has too few pixels.
    func modelCost(boundary: [Int]) -> [Float]? {
        let margin = max(2, height / 100)
        var sky = GaussianColour(), ground = GaussianColour()
        for x in stride(from: 0, to: width, by: 2) {
            for y in stride(from: 0, to: height, by: 2) {
                let i = y * width + x
                if y < boundary[x] - margin { sky.add(planes[0][i], planes[1][i], planes[2][i]) }
                if y >= boundary[x] + margin { ground.add(planes[0][i], planes[1][i], planes[2][i]) }
            }
        }
        guard sky.count >= 50, ground.count >= 50, let s = sky.model(), let g = ground.model() else { return nil }
        let cap = SkylineDetector.pixelCostCap
        var cost = [Float](repeating: 0, count: width * height)
        for i in cost.indices {
            let r = planes[0][i], gr = planes[1][i], b = planes[2][i]
            let d = s.negativeLogLikelihood(r, gr, b) - g.negativeLogLikelihood(r, gr, b)
            cost[i] = min(max(Float(d), -cap), cap)
        }
        return cost
    }

    /// Raises the cost of darker pixels that depart from the sky above them: per band of columns, each
    /// channel of the sky is fitted as a straight line in the row over the upper part of the sky
    /// the `boundary` leaves (its upper ``SkylineDetector/skyFitShare``), and a pixel whose colour
    /// lies more than ``SkylineDetector/departureStart`` spreads from that line (the fit's own
    /// residual, at least twice the sky's noise `skyNoise`: a hazy ridge 60 levels darker than a
    /// clear sky departs even in a photo whose forest makes the frame's `noise` ten levels) costs
    /// as terrain, up to the cap. Below the fitted rows the line's end is followed down the
    /// column where the sky drifts slowly and smoothly (within ``SkylineDetector/followWithin``
    /// spreads of the frame's noise, smooth in units of the sky's), so only a step departs; and
    /// what darkens gradually from a cloud (its shaded underside) does not depart at all.
    /// False when no band has enough sky to fit.
    func addSkyDeparture(to cost: inout [Float], boundary: [Int], edges: [Float], noise: Float, skyNoise: Float) -> Bool {
        let bands = max(1, width / 50)
        // The sky each column's line is fitted to: the upper part of the sky the boundary leaves,
        // and never past the column's first strong edge (a boundary that went down to a lake
        // would otherwise fit the sky to the forest above it).
        let top = (0..<width).map { x -> Int in
            let share = Int(Double(boundary[x]) * SkylineDetector.skyFitShare)
            var y = 2
            while y < share, edges[y * width + x] < SkylineDetector.skyEdge { y += 1 }
            return min(share, y)
        }
        var fitted = false
        var lines = [(a: [Float], b: [Float], spread: [Float], tight: [Float], low: [Float], high: [Float])?](repeating: nil, count: bands)
        for band in 0..<bands {
            let x0 = band * width / bands, x1 = (band + 1) * width / bands
            var n: Float = 0, sy: Float = 0, syy: Float = 0
            var sc: [Float] = [0, 0, 0], syc: [Float] = [0, 0, 0]
            var samples: [(Int, Int)] = []
            var deepest = 0
            for x in stride(from: x0, to: x1, by: 2) {
                deepest = max(deepest, top[x] - 1)
                for y in stride(from: 0, to: top[x], by: 2) {
                    let i = y * width + x
                    let fy = Float(y)
                    n += 1; sy += fy; syy += fy * fy
                    for c in 0..<3 { sc[c] += planes[c][i]; syc[c] += fy * planes[c][i] }
                    samples.append((x, y))
                }
            }
            guard n >= 40 else { continue }
            let denominator = n * syy - sy * sy
            var a: [Float] = [0, 0, 0], b: [Float] = [0, 0, 0]
            for c in 0..<3 {
                b[c] = denominator > 1e-3 ? (n * syc[c] - sy * sc[c]) / denominator : 0
                a[c] = (sc[c] - b[c] * sy) / n
            }
            var residual: [Float] = [0, 0, 0]
            for (x, y) in samples {
                let i = y * width + x
                for c in 0..<3 {
                    let r = planes[c][i] - a[c] - b[c] * Float(y)
                    residual[c] += r * r
                }
            }
            let spread = residual.map { max(($0 / n).squareRoot(), 2 * noise) }
            let tight = residual.map { max(($0 / n).squareRoot(), 2 * skyNoise) }
            // The line holds over the rows it was fitted to; below them the sky is taken as no
            // brighter or darker than there (a sky that pales toward the horizon levels off: its
            // line carried on would call the pale sky near the horizon darker than itself).
            let ends = (0..<3).map { (a[$0], a[$0] + b[$0] * Float(deepest)) }
            lines[band] = (a, b, spread, tight, ends.map { min($0.0, $0.1) }, ends.map { max($0.0, $0.1) })
            fitted = true
        }
        guard fitted else { return false }
        // Bands without enough sky borrow the nearest band's line.
        for band in 0..<bands where lines[band] == nil {
            let nearest = (0..<bands).filter { lines[$0] != nil }.min { abs($0 - band) < abs($1 - band) }!
            lines[band] = lines[nearest]
        }
        let cap = SkylineDetector.pixelCostCap
        let run = max(3, height / SkylineDetector.terrainRunShare)
        for x in 0..<width {
            guard let line = lines[min(x * bands / width, bands - 1)] else { continue }
            // Rows of full departure in a row, and whether such a run has been passed: below the
            // first solid stretch of terrain nothing is sky (a lake, sky-blue water, a bright
            // rock in the foreground), however sky-like its colour.
            var departed = 0, beneath = false
            // Whether the pixel is the shaded underside of a cloud: reached going down from
            // pixels brighter than the sky (a cloud) by a gradual darkening, with no step between.
            var shade = false
            // The part the lines were fitted to is sky by assumption; what lies below it is judged
            // against the sky followed down from the line's end: a sky that drifts over tens of rows
            // (a pale band at the horizon, a sunset's colours) is followed, a step is not, and
            // neither is a departed or textured pixel (a hazy ridge as pale as the sky keeps its
            // rock's texture), so that a ridge stays departed however long it is.
            let start = Float(top[x])
            var sky = (0..<3).map { min(max(line.a[$0] + line.b[$0] * start, line.low[$0]), line.high[$0]) }
            let rate = 1 / max(1, SkylineDetector.followShare * Float(height))
            for y in top[x]..<height {
                let i = y * width + x
                if beneath {
                    cost[i] = max(cost[i], 0)
                    continue
                }
                var d2: Float = 0, t2: Float = 0, darker: Float = 0, spread: Float = 0
                for c in 0..<3 {
                    let r = (planes[c][i] - sky[c]) / line.spread[c]
                    d2 += r * r
                    let t = (planes[c][i] - sky[c]) / line.tight[c]
                    t2 += t * t
                    darker -= planes[c][i] - sky[c]
                    spread += line.tight[c]
                }
                let near = (d2 / 3).squareRoot(), distance = (t2 / 3).squareRoot()
                if near < SkylineDetector.followWithin, isSmooth(x: x, y: y, noise: skyNoise) {
                    for c in 0..<3 { sky[c] += (planes[c][i] - sky[c]) * rate }
                }
                // Only what is darker than the sky there (by the sum of its spreads against the
                // sky's noise): clouds are as bright or brighter, and their shaded undersides,
                // darker than the sky, are reached from them by a gradual darkening, not a step.
                let departure = (distance - SkylineDetector.departureStart) / SkylineDetector.departureWidth
                if isCloud(x: x, y: y, sky: sky, noise: noise) {
                    shade = true
                } else if shade, !isGradual(x: x, y: y, noise: skyNoise) {
                    shade = false
                }
                guard darker > spread, !shade else {
                    departed = 0
                    continue
                }
                if departure > 0 { cost[i] = max(cost[i], min(departure, 1) * cap) }
                departed = departure >= 1 ? departed + 1 : 0
                if departed >= run { beneath = true }
            }
        }
        return true
    }

    /// Whether the pixel at (x, y) lies in smooth surroundings, as sky does: its colour's second
    /// difference down and across the column (a step or texture; a steady gradient has none), RMS
    /// over the channels, within ``SkylineDetector/smoothCurvature`` times the noise, and its
    /// slope down the column within ``SkylineDetector/smoothSlope`` times it (a blurred step is a
    /// steep ramp whose second differences are small).
    func isSmooth(x: Int, y: Int, noise: Float) -> Bool {
        guard y >= 1, y + 1 < height, x >= 1, x + 1 < width else { return true }
        let i = y * width + x
        var down: Float = 0, across: Float = 0
        for p in planes {
            let v = p[i - width] - 2 * p[i] + p[i + width], h = p[i - 1] - 2 * p[i] + p[i + 1]
            down += v * v
            across += h * h
        }
        let limit = SkylineDetector.smoothCurvature * noise
        return (down / 3).squareRoot() < limit && (across / 3).squareRoot() < limit && isGradual(x: x, y: y, noise: noise)
    }

    /// Whether the pixel at (x, y) is a cloud's: brighter than the `sky` there by
    /// ``SkylineDetector/cloudBrighter`` times the `noise` (mean of the channels) and whiter
    /// (saturation under ``whiteSaturation`` or under ``snowSaturation`` of the sky's: a cloud in
    /// a deep blue sky takes a blue tint where it thins).
    func isCloud(x: Int, y: Int, sky: [Float], noise: Float) -> Bool {
        let i = y * width + x
        let c = SIMD3(planes[0][i], planes[1][i], planes[2][i]), s = SIMD3(sky[0], sky[1], sky[2])
        guard c.sum() > s.sum() + 3 * SkylineDetector.cloudBrighter * noise else { return false }
        return saturation(c) < max(Self.whiteSaturation, Self.snowSaturation * saturation(s))
    }

    /// Whether the colour changes gradually down the column at (x, y): its slope (RMS over the
    /// channels) within ``SkylineDetector/smoothSlope`` times the noise a row, as a cloud's
    /// shading darkens toward its base; a ridge's edge, even blurred, is a steeper step.
    func isGradual(x: Int, y: Int, noise: Float) -> Bool {
        guard y >= 1, y + 1 < height else { return true }
        let i = y * width + x
        var slope: Float = 0
        for p in planes {
            let d = (p[i + width] - p[i - width]) / 2
            slope += d * d
        }
        return (slope / 3).squareRoot() < SkylineDetector.smoothSlope * noise
    }

    /// Strength of a boundary between rows y − 1 and y: the colour difference of the two rows
    /// above and the two below, in units of the noise, capped at 6 (0 for rows 0 and the last).
    func edgeStrength(noise: Float) -> [Float] {
        var edges = [Float](repeating: 0, count: width * height)
        guard height >= 4 else { return edges }
        for y in 2..<(height - 1) {
            for x in 0..<width {
                var d2: Float = 0
                for p in planes {
                    let above = (p[(y - 1) * width + x] + p[(y - 2) * width + x]) / 2
                    let below = (p[y * width + x] + p[(y + 1) * width + x]) / 2
                    d2 += (above - below) * (above - below)
                }
                edges[y * width + x] = min(d2.squareRoot() / (4 * noise), 6)
            }
        }
        return edges
    }

    /// The mean colour of `rows` of column `x`.
    func mean(column x: Int, rows: Range<Int>) -> [Float] {
        var sum: [Float] = [0, 0, 0]
        for y in rows { for c in 0..<3 { sum[c] += planes[c][y * width + x] } }
        return sum.map { $0 / Float(max(rows.count, 1)) }
    }

    /// The boundary of column `x` near `row` to a fraction of a row: with the mean sky colour
    /// a (3 rows above) and terrain colour c (3 rows below), each of the four rows around the step
    /// counts by its share of sky colour, (p − c)·(a − c)/|a − c|², clamped to 0…1.
    func subpixelBoundary(column x: Int, row: Int) -> Double {
        guard row >= 5, row + 5 <= height else { return Double(row) }
        let a = mean(column: x, rows: (row - 5)..<(row - 2)), c = mean(column: x, rows: (row + 2)..<(row + 5))
        let d = (0..<3).map { a[$0] - c[$0] }
        let d2 = d.reduce(0) { $0 + $1 * $1 }
        guard d2 > 1 else { return Double(row) }
        var sky: Float = 0
        for y in (row - 2)..<(row + 2) {
            var t: Float = 0
            for k in 0..<3 { t += (planes[k][y * width + x] - c[k]) * d[k] }
            sky += min(max(t / d2, 0), 1)
        }
        return Double(row - 2) + Double(sky)
    }
}

/// A colour distribution: a Gaussian in RGB with full covariance, accumulated from samples.
struct GaussianColour {
    var count = 0
    var sum = [Double](repeating: 0, count: 3)
    var products = [Double](repeating: 0, count: 9)

    mutating func add(_ r: Float, _ g: Float, _ b: Float) {
        let v = [Double(r), Double(g), Double(b)]
        count += 1
        for i in 0..<3 {
            sum[i] += v[i]
            for j in 0..<3 { products[i * 3 + j] += v[i] * v[j] }
        }
    }

    /// The fitted model: mean, inverse covariance and log-determinant; the covariance is
    /// widened by a floor of 9 (3 levels of noise) so that a flat sky is not infinitely sure.
    func model() -> Model? {
        let n = Double(count)
        let mean = sum.map { $0 / n }
        var c = [Double](repeating: 0, count: 9)
        for i in 0..<3 { for j in 0..<3 { c[i * 3 + j] = products[i * 3 + j] / n - mean[i] * mean[j] + (i == j ? 9 : 0) } }
        let det = c[0] * (c[4] * c[8] - c[5] * c[7]) - c[1] * (c[3] * c[8] - c[5] * c[6]) + c[2] * (c[3] * c[7] - c[4] * c[6])
        guard det > 0, det.isFinite else { return nil }
        let inverse = [
            (c[4] * c[8] - c[5] * c[7]) / det, (c[2] * c[7] - c[1] * c[8]) / det, (c[1] * c[5] - c[2] * c[4]) / det,
            (c[5] * c[6] - c[3] * c[8]) / det, (c[0] * c[8] - c[2] * c[6]) / det, (c[2] * c[3] - c[0] * c[5]) / det,
            (c[3] * c[7] - c[4] * c[6]) / det, (c[1] * c[6] - c[0] * c[7]) / det, (c[0] * c[4] - c[1] * c[3]) / det,
        ]
        return Model(m0: mean[0], m1: mean[1], m2: mean[2], i00: inverse[0], i01: inverse[1] + inverse[3],
                     i02: inverse[2] + inverse[6], i11: inverse[4], i12: inverse[5] + inverse[7], i22: inverse[8],
                     halfLogDeterminant: 0.5 * log(det))
    }

    /// Mean and the upper triangle of the inverse covariance (off-diagonal terms doubled).
    struct Model {
        let m0: Double, m1: Double, m2: Double
        let i00: Double, i01: Double, i02: Double, i11: Double, i12: Double, i22: Double
        let halfLogDeterminant: Double

        @inline(__always)
        func negativeLogLikelihood(_ r: Float, _ g: Float, _ b: Float) -> Double {
            let d0 = Double(r) - m0, d1 = Double(g) - m1, d2 = Double(b) - m2
            let q = i00 * d0 * d0 + i11 * d1 * d1 + i22 * d2 * d2 + i01 * d0 * d1 + i02 * d0 * d2 + i12 * d1 * d2
            return 0.5 * q + halfLogDeterminant
        }
    }
}

private extension Double {
    var float: Float { Float(self) }
}
