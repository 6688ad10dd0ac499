import Foundation

/// A picture of the terrain under a sightline: a self-contained SVG document (no fonts, scripts
/// or images from elsewhere) that any browser opens.
///
/// The picture shows what the ray sees. Every height h at ground distance d is drawn as
/// h − δ(d) with δ(d) = d²·(1 − k) / (2R), the combined drop of the Earth's curvature and
/// refraction (R: Gaussian mean radius at the observer, k: the march's refraction coefficient).
/// In that frame the observer's horizontal is a level line at eye height and the refracted ray
/// is straight, while the margin between ray and terrain at every distance is exactly the
/// march's. The drop uses a sphere of radius R, so the drawn ray bends from straight by at most
/// about 0.5 % of δ (the ellipsoid's radius along an azimuth differs from R by that much) plus
/// the change of the geoid along the way: a few metres at 100 km.
///
/// Drawn: the terrain as a filled area (gaps where the DEM has voids, with a light "no data"
/// band), the ray from the observer's eye to the hit, the eye-level line, the observer and
/// target markers, and axes of ground distance (km) and height (m above mean sea level, drop
/// applied) with ticks. When the target is a skyline point the ray is drawn to the end of the
/// march and on (dashed) to the edge, with the line of sight from the eye to the skyline point.
///
/// Ground distances are great-circle distances on the sphere of radius R from the observer's
/// ground point, for the samples and the markers alike, so that they line up; they differ from
/// the result's geodesic `distance` by up to about 0.5 %. On the real Cross Mountain sightline
/// (16 km) the drawn ray is straight to 0.1 SVG unit, the coordinates' rounding.
public struct ProfilePlot: Sendable {
    /// A point of the picture: WGS84 degrees and metres above mean sea level (EGM96).
    public struct Position: Sendable, Hashable {
        public var latitude: Double
        public var longitude: Double
        public var height: Double

        public init(latitude: Double, longitude: Double, height: Double) {
            self.latitude = latitude
            self.longitude = longitude
            self.height = height
        }
    }

    /// The observer's eye.
    public var observer: Position
    /// The hit or skyline point, on the terrain; nil when the march found none.
    public var target: Position?
    /// Whether ``target`` is a hit (the ray ends there) rather than a skyline point (the ray
    /// passes above it and goes on to the end of the march).
    public var targetIsHit: Bool
    /// The first terrain in the way of a target that terrain hides (`aim`): marked with a cross,
    /// and the target then is "target (hidden)" rather than a hit. Nil otherwise.
    public var blockedBy: Position?
    /// The march's samples under the ray, in order of slant distance.
    public var samples: [SightlineMarch.ProfileSample]
    /// Refraction coefficient k of the march.
    public var refraction: Double
    /// First line of the picture's heading, e.g. the reading's id.
    public var title: String
    /// The spread of sampled hit distances (``locate --uncertainty``): ground metres of the
    /// 2.5 %, 50 % and 97.5 % quantiles, drawn as a band with its median; nil: none.
    public var spread: (low: Double, median: Double, high: Double)?
    /// Width of the picture in SVG user units (CSS pixels).
    public var width: Double = 960
    /// Height of the picture in SVG user units (CSS pixels).
    public var height: Double = 540

    /// - Parameters:
    ///   - observer: the eye, degrees and metres above mean sea level.
    ///   - target: the hit or skyline point on the terrain, if any.
    ///   - targetIsHit: true for a hit, false for a skyline point.
    ///   - samples: ``SightlineMarch/Result/profile`` of the march.
    ///   - refraction: the march's k.
    ///   - title: shown at the top; escaped for XML here.
    public init(observer: Position, target: Position?, targetIsHit: Bool, samples: [SightlineMarch.ProfileSample],
                refraction: Double, title: String = "Sightline profile") {
        self.observer = observer
        self.target = target
        self.targetIsHit = targetIsHit
        self.samples = samples
        self.refraction = refraction
        self.title = title
    }

    // MARK: Colours (the tests find the picture's parts by them)

    /// Fill of the terrain.
    public static let terrainColour = "#6b8e3a"
    /// The ray.
    public static let rayColour = "#d62728"
    /// The observer's marker.
    public static let observerColour = "#1f4fd6"
    /// The target's marker.
    public static let targetColour = "#ff8c00"
    /// The band over a void.
    public static let voidColour = "#ececec"
    /// Axis lines, ticks and labels.
    static let axisColour = "#222222"
    static let gridColour = "#dddddd"
    static let eyeLevelColour = "#888888"

    /// Margins around the plotting area: room for the heading (top), tick labels and axis
    /// titles (left, bottom) and the legend (bottom).
    static let margin = (left: 78.0, right: 24.0, top: 56.0, bottom: 82.0)
    /// Radius of the observer and target markers.
    static let markerRadius = 5.0
    /// About this many ticks along the distance axis (wide) and the height axis (narrower);
    /// enough that the round end of the axis overshoots the data by little.
    static let distanceTicks = 10.0
    static let heightTicks = 8.0

    // MARK: Geometry

    /// Gaussian mean radius at the observer, metres.
    var radius: Double { Ellipsoid.wgs84.meanRadius(latitude: radians(observer.latitude)) }

    /// Combined curvature and refraction drop at ground distance `d` metres, metres.
    func drop(_ d: Double) -> Double { d * d * (1 - refraction) / (2 * radius) }

    /// Great-circle distance from the observer's ground point, metres (haversine).
    func groundDistance(latitude: Double, longitude: Double) -> Double {
        let phi1 = radians(observer.latitude), phi2 = radians(latitude)
        let dPhi = phi2 - phi1, dLambda = radians(normalizedLongitude(longitude - observer.longitude))
        let h = sin(dPhi / 2) * sin(dPhi / 2) + cos(phi1) * cos(phi2) * sin(dLambda / 2) * sin(dLambda / 2)
        return 2 * radius * asin(min(1, h.squareRoot()))
    }

    /// A point of the picture in data units: ground distance and apparent height, metres.
    struct Point { var d: Double; var h: Double }

    /// What is drawn, in data units.
    struct Figure {
        /// Runs of known terrain between voids.
        var terrainRuns: [[Point]] = []
        /// Ground-distance ranges with no terrain data.
        var voids: [ClosedRange<Double>] = []
        /// The ray from the eye.
        var ray: [Point] = []
        var eye: Point
        var target: Point?
        var blockedBy: Point?
    }

    func figure() -> Figure {
        let eye = Point(d: 0, h: observer.height)
        var figure = Figure(eye: eye)
        var targetPoint: Point?
        if let target, target.latitude.isFinite, target.longitude.isFinite, target.height.isFinite {
            let d = groundDistance(latitude: target.latitude, longitude: target.longitude)
            targetPoint = Point(d: d, h: target.height - drop(d))
        }
        figure.target = targetPoint
        if let b = blockedBy {
            let d = groundDistance(latitude: b.latitude, longitude: b.longitude)
            figure.blockedBy = Point(d: d, h: b.height - drop(d))
        }

        var run: [Point] = []
        var lastKnown: Double? = nil
        var voidStart: Double? = nil
        figure.ray = [eye]
        for sample in samples where sample.ray.isFinite {
            let d = groundDistance(latitude: sample.latitude, longitude: sample.longitude)
            if targetIsHit, let t = targetPoint {
                if d < t.d { figure.ray.append(Point(d: d, h: sample.ray - drop(d))) }
            } else {
                figure.ray.append(Point(d: d, h: sample.ray - drop(d)))
            }
            if let terrain = sample.terrain, terrain.isFinite {
                if let start = voidStart {
                    figure.voids.append(start...d)
                    voidStart = nil
                }
                run.append(Point(d: d, h: terrain - drop(d)))
                lastKnown = d
            } else {
                if voidStart == nil { voidStart = lastKnown ?? 0 }
                if !run.isEmpty { figure.terrainRuns.append(run) }
                run = []
            }
        }
        if !run.isEmpty { figure.terrainRuns.append(run) }
        if let start = voidStart, let last = samples.last {
            figure.voids.append(start...max(start, groundDistance(latitude: last.latitude, longitude: last.longitude)))
        }
        if targetIsHit, let t = targetPoint { figure.ray.append(t) }
        return figure
    }

    // MARK: Axes

    /// A linear axis from `lower` to `upper` (data units) onto `start`…`end` (SVG units), with
    /// ticks at multiples of `step` (1, 2 or 5 × 10ⁿ).
    struct Axis {
        var lower: Double, upper: Double, step: Double
        var start: Double, end: Double

        /// An axis covering `low…high` with round ends.
        init(covering low: Double, _ high: Double, from start: Double, to end: Double, ticks: Double) {
            let span = max(high - low, 1e-9)
            step = Axis.niceStep(span / ticks)
            lower = (low / step).rounded(.down) * step
            upper = (high / step).rounded(.up) * step
            if upper <= lower { upper = lower + step }
            self.start = start
            self.end = end
        }

        func position(_ value: Double) -> Double { start + (value - lower) / (upper - lower) * (end - start) }

        var ticks: [Double] {
            let count = Int(((upper - lower) / step).rounded())
            return (0...count).map { lower + Double($0) * step }
        }

        /// Decimals needed to tell ticks apart when values are divided by `unit`.
        func decimals(unit: Double) -> Int { max(0, Int((-log10(step / unit)).rounded(.up))) }

        /// The round step nearest above `raw`: 1, 2 or 5 × 10ⁿ.
        static func niceStep(_ raw: Double) -> Double {
            let magnitude = pow(10, (log10(raw)).rounded(.down))
            let normalized = raw / magnitude
            let factor: Double = normalized <= 1 ? 1 : normalized <= 2 ? 2 : normalized <= 5 ? 5 : 10
            return factor * magnitude
        }
    }

    // MARK: SVG

    /// The SVG document.
    public func svg() -> String {
        let fig = figure()
        let left = Self.margin.left, right = width - Self.margin.right
        let top = Self.margin.top, bottom = height - Self.margin.bottom

        var farthest = fig.target?.d ?? 0
        for run in fig.terrainRuns { farthest = max(farthest, run.last?.d ?? 0) }
        for v in fig.voids { farthest = max(farthest, v.upperBound) }
        farthest = max(farthest, fig.ray.last?.d ?? 0, 1)
        let x = Axis(covering: 0, farthest, from: left, to: right, ticks: Self.distanceTicks)

        var heights = [fig.eye.h]
        for run in fig.terrainRuns { heights.append(contentsOf: run.map(\.h)) }
        heights.append(contentsOf: fig.ray.filter { $0.d <= x.upper }.map(\.h))
        if let t = fig.target { heights.append(t.h) }
        let lowest = heights.min() ?? 0, highest = heights.max() ?? 1
        let pad = max((highest - lowest) * 0.05, 10)
        let y = Axis(covering: lowest - pad, highest + pad, from: bottom, to: top, ticks: Self.heightTicks)

        var s = ""
        s.reserveCapacity(16_384)
        s += #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        s += #"<svg xmlns="http://www.w3.org/2000/svg" width="\#(n(width))" height="\#(n(height))" viewBox="0 0 \#(n(width)) \#(n(height))" font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="12">"# + "\n"
        s += "<title>\(Self.escaped(title))</title>\n"
        s += #"<rect width="100%" height="100%" fill="white"/>"# + "\n"
        s += #"<defs><clipPath id="plot-area"><rect x="\#(n(left))" y="\#(n(top))" width="\#(n(right - left))" height="\#(n(bottom - top))"/></clipPath></defs>"# + "\n"

        // Heading.
        s += #"<text id="title" x="\#(n(left))" y="22" font-size="15" font-weight="bold" fill="\#(Self.axisColour)">\#(Self.escaped(title))</text>"# + "\n"
        let exaggeration = ((bottom - top) / (y.upper - y.lower)) / ((right - left) / (x.upper - x.lower))
        let subtitle = "Heights less the curvature and refraction drop d²(1−k)/2R, k = \(String(format: "%g", refraction)): "
            + "the ray is straight. Vertical exaggeration ×\(exaggeration.formatted(decimals: exaggeration < 10 ? 1 : 0))."
        s += #"<text x="\#(n(left))" y="42" fill="\#(Self.axisColour)">\#(Self.escaped(subtitle))</text>"# + "\n"

        // Grid and void bands under everything else.
        s += #"<g stroke="\#(Self.gridColour)" stroke-width="1" shape-rendering="crispEdges">"#
        for t in x.ticks { s += #"<line x1="\#(n(x.position(t)))" y1="\#(n(top))" x2="\#(n(x.position(t)))" y2="\#(n(bottom))"/>"# }
        for t in y.ticks { s += #"<line x1="\#(n(left))" y1="\#(n(y.position(t)))" x2="\#(n(right))" y2="\#(n(y.position(t)))"/>"# }
        s += "</g>\n"
        s += #"<g id="voids" clip-path="url(#plot-area)">"#
        for v in fig.voids {
            let x0 = x.position(v.lowerBound), x1 = x.position(v.upperBound)
            s += #"<rect x="\#(n(x0))" y="\#(n(top))" width="\#(n(max(x1 - x0, 0)))" height="\#(n(bottom - top))" fill="\#(Self.voidColour)"/>"#
            if x1 - x0 > 40 {
                s += #"<text x="\#(n((x0 + x1) / 2))" y="\#(n(bottom - 8))" text-anchor="middle" fill="\#(Self.eyeLevelColour)">no data</text>"#
            }
        }
        s += "</g>\n"

        // Terrain: one closed area per run of known samples, down to the bottom of the plot.
        // Samples closer than half a unit are merged keeping the highest, so that crests survive.
        s += #"<g id="terrain" clip-path="url(#plot-area)" fill="\#(Self.terrainColour)" stroke="none">"#
        for run in fig.terrainRuns {
            let points = Self.merged(run, x: x, keepHighest: true)
            guard let first = points.first, let last = points.last else { continue }
            var d = "M\(n(x.position(first.d))),\(n(bottom))"
            for p in points { d += "L\(n(x.position(p.d))),\(n(y.position(p.h)))" }
            d += "L\(n(x.position(last.d))),\(n(bottom))Z"
            s += #"<path d="\#(d)"/>"#
        }
        s += "</g>\n"

        // Eye level: the observer's horizontal.
        s += #"<line id="eye-level" x1="\#(n(left))" y1="\#(n(y.position(fig.eye.h)))" x2="\#(n(right))" y2="\#(n(y.position(fig.eye.h)))" stroke="\#(Self.eyeLevelColour)" stroke-width="1" stroke-dasharray="6 4" clip-path="url(#plot-area)"/>"# + "\n"

        // The ray.
        let ray = Self.merged(fig.ray, x: x, keepHighest: false)
        let rayPoints = ray.map { "\(n(x.position($0.d))),\(n(y.position($0.h)))" }.joined(separator: " ")
        s += #"<polyline id="ray" points="\#(rayPoints)" fill="none" stroke="\#(Self.rayColour)" stroke-width="2" stroke-linejoin="round" clip-path="url(#plot-area)"/>"# + "\n"
        if !targetIsHit, let t = fig.target {
            // Without a hit the march stops once the ray is above all terrain, and the skyline
            // point may lie beyond, found by a scan along the azimuth that records no profile.
            // In this frame the ray is straight, so it goes on as the line through the eye and
            // its last sample; the line of sight to the skyline point shows what the eye sees.
            if let end = ray.last, end.d > 0, end.d < x.upper {
                let slope = (end.h - fig.eye.h) / end.d
                s += #"<line id="ray-beyond" x1="\#(n(x.position(end.d)))" y1="\#(n(y.position(end.h)))" x2="\#(n(x.position(x.upper)))" y2="\#(n(y.position(fig.eye.h + slope * x.upper)))" stroke="\#(Self.rayColour)" stroke-width="2" stroke-dasharray="8 5" clip-path="url(#plot-area)"/>"# + "\n"
            }
            s += #"<line id="line-of-sight" x1="\#(n(x.position(fig.eye.d)))" y1="\#(n(y.position(fig.eye.h)))" x2="\#(n(x.position(t.d)))" y2="\#(n(y.position(t.h)))" stroke="\#(Self.targetColour)" stroke-width="1.5" stroke-dasharray="3 3" clip-path="url(#plot-area)"/>"# + "\n"
            let profileEnd = max(fig.terrainRuns.last?.last?.d ?? 0, fig.voids.last?.upperBound ?? 0)
            if t.d - profileEnd > 0.1 * (x.upper - x.lower) {
                let middle = (x.position(profileEnd) + x.position(t.d)) / 2
                s += #"<text id="unsampled" x="\#(n(middle))" y="\#(n(bottom - 8))" text-anchor="middle" fill="\#(Self.eyeLevelColour)">terrain here not in the profile (the ray was above it all)</text>"# + "\n"
            }
        }

        // The spread of the sampled targets' distances.
        if let spread, spread.low.isFinite, spread.high.isFinite {
            let a = x.position(min(max(spread.low, x.lower), x.upper)), b = x.position(min(max(spread.high, x.lower), x.upper))
            let m = x.position(min(max(spread.median, x.lower), x.upper))
            s += #"<g id="spread"><rect x="\#(n(a))" y="\#(n(top))" width="\#(n(max(b - a, 1)))" height="\#(n(bottom - top))" fill="\#(Self.targetColour)" fill-opacity="0.18"/>"#
            s += #"<line x1="\#(n(m))" y1="\#(n(top))" x2="\#(n(m))" y2="\#(n(bottom))" stroke="\#(Self.targetColour)" stroke-width="1.5" stroke-dasharray="2 3"/>"#
            s += #"<text x="\#(n(min(b + 4, right - 4)))" y="\#(n(top + 14))" text-anchor="\#(b + 4 > right - 120 ? "end" : "start")" fill="\#(Self.axisColour)">95 % of sampled targets</text></g>"# + "\n"
        }

        // Axes, ticks and labels.
        s += #"<g stroke="\#(Self.axisColour)" stroke-width="1" fill="none" shape-rendering="crispEdges">"#
        s += #"<line x1="\#(n(left))" y1="\#(n(bottom))" x2="\#(n(right))" y2="\#(n(bottom))"/>"#
        s += #"<line x1="\#(n(left))" y1="\#(n(top))" x2="\#(n(left))" y2="\#(n(bottom))"/>"#
        for t in x.ticks { s += #"<line x1="\#(n(x.position(t)))" y1="\#(n(bottom))" x2="\#(n(x.position(t)))" y2="\#(n(bottom + 5))"/>"# }
        for t in y.ticks { s += #"<line x1="\#(n(left - 5))" y1="\#(n(y.position(t)))" x2="\#(n(left))" y2="\#(n(y.position(t)))"/>"# }
        s += "</g>\n"
        s += #"<g id="x-ticks" fill="\#(Self.axisColour)" text-anchor="middle">"#
        let kmDecimals = x.decimals(unit: 1000)
        for t in x.ticks {
            s += #"<text x="\#(n(x.position(t)))" y="\#(n(bottom + 19))">\#((t / 1000).formatted(decimals: kmDecimals))</text>"#
        }
        s += "</g>\n"
        s += #"<g id="y-ticks" fill="\#(Self.axisColour)" text-anchor="end">"#
        let mDecimals = y.decimals(unit: 1)
        for t in y.ticks {
            s += #"<text x="\#(n(left - 8))" y="\#(n(y.position(t) + 4))">\#(t.formatted(decimals: mDecimals))</text>"#
        }
        s += "</g>\n"
        s += #"<text id="x-title" x="\#(n((left + right) / 2))" y="\#(n(bottom + 38))" text-anchor="middle" fill="\#(Self.axisColour)">distance (km)</text>"# + "\n"
        let yMiddle = (top + bottom) / 2
        s += #"<text id="y-title" x="18" y="\#(n(yMiddle))" text-anchor="middle" transform="rotate(-90 18 \#(n(yMiddle)))" fill="\#(Self.axisColour)">height (m)</text>"# + "\n"

        // Markers above everything.
        s += #"<circle id="observer" cx="\#(n(x.position(fig.eye.d)))" cy="\#(n(y.position(fig.eye.h)))" r="\#(n(Self.markerRadius))" fill="\#(Self.observerColour)"/>"# + "\n"
        if let t = fig.target {
            s += #"<circle id="target" cx="\#(n(x.position(t.d)))" cy="\#(n(y.position(t.h)))" r="\#(n(Self.markerRadius))" fill="\#(Self.targetColour)"/>"# + "\n"
        }
        if let b = fig.blockedBy {
            let bx = x.position(b.d), by = y.position(b.h), r = Self.markerRadius
            s += #"<path id="blocked-by" d="M\#(n(bx - r)),\#(n(by - r)) L\#(n(bx + r)),\#(n(by + r)) M\#(n(bx - r)),\#(n(by + r)) L\#(n(bx + r)),\#(n(by - r))" stroke="\#(Self.axisColour)" stroke-width="2.5"/>"# + "\n"
        }

        s += legend(y: height - 18, left: left, hasVoids: !fig.voids.isEmpty, targetLabel: blockedBy != nil ? "target (hidden)" : (targetIsHit ? "hit" : "skyline point"))
        s += "</svg>\n"
        return s
    }

    /// One row of swatches and names at the bottom.
    /// The band of sampled targets and its median are listed when drawn, the void swatch only
    /// when the profile crosses a void: the row must fit the picture's width.
    private func legend(y: Double, left: Double, hasVoids: Bool, targetLabel: String) -> String {
        var s = #"<g id="legend" fill="\#(Self.axisColour)">"#
        var x = left
        func entry(_ swatch: String, _ label: String) {
            s += swatch
            s += #"<text x="\#(n(x + 22))" y="\#(n(y + 4))">\#(label)</text>"#
            x += 22 + Double(label.count) * 7 + 24
        }
        entry(#"<rect x="\#(n(x))" y="\#(n(y - 6))" width="16" height="12" fill="\#(Self.terrainColour)"/>"#, "terrain")
        entry(#"<line x1="\#(n(x))" y1="\#(n(y))" x2="\#(n(x + 16))" y2="\#(n(y))" stroke="\#(Self.rayColour)" stroke-width="2"/>"#, "ray")
        entry(#"<line x1="\#(n(x))" y1="\#(n(y))" x2="\#(n(x + 16))" y2="\#(n(y))" stroke="\#(Self.eyeLevelColour)" stroke-dasharray="4 3"/>"#, "eye level")
        entry(#"<circle cx="\#(n(x + 8))" cy="\#(n(y))" r="\#(n(Self.markerRadius))" fill="\#(Self.observerColour)"/>"#, "observer")
        // Without a target (a sightline into a void kept unknown) there is none to name.
        let hasTarget = target != nil
        if hasTarget {
            entry(#"<circle cx="\#(n(x + 8))" cy="\#(n(y))" r="\#(n(Self.markerRadius))" fill="\#(Self.targetColour)"/>"#, targetLabel)
        }
        if blockedBy != nil {
            entry(#"<path d="M\#(n(x + 3)),\#(n(y - 5)) L\#(n(x + 13)),\#(n(y + 5)) M\#(n(x + 3)),\#(n(y + 5)) L\#(n(x + 13)),\#(n(y - 5))" stroke="\#(Self.axisColour)" stroke-width="2.5"/>"#, "blocked by terrain")
        }
        if hasTarget, !targetIsHit {
            entry(#"<line x1="\#(n(x))" y1="\#(n(y))" x2="\#(n(x + 16))" y2="\#(n(y))" stroke="\#(Self.targetColour)" stroke-width="1.5" stroke-dasharray="3 3"/>"#, "line of sight")
        }
        if spread != nil {
            entry(#"<rect x="\#(n(x))" y="\#(n(y - 6))" width="16" height="12" fill="\#(Self.targetColour)" fill-opacity="0.18"/>"#, "95 % band")
            entry(#"<line x1="\#(n(x))" y1="\#(n(y))" x2="\#(n(x + 16))" y2="\#(n(y))" stroke="\#(Self.targetColour)" stroke-width="1.5" stroke-dasharray="2 3"/>"#, "median target")
        }
        if hasVoids { entry(#"<rect x="\#(n(x))" y="\#(n(y - 6))" width="16" height="12" fill="\#(Self.voidColour)" stroke="\#(Self.gridColour)"/>"#, "no data (DEM void)") }
        s += "</g>\n"
        return s
    }

    /// Points closer than half an SVG unit along x merged into one: the highest when
    /// `keepHighest` (terrain crests survive), else the first. The last point is always kept.
    private static func merged(_ points: [Point], x: Axis, keepHighest: Bool) -> [Point] {
        var out: [Point] = []
        out.reserveCapacity(min(points.count, 4096))
        for p in points {
            if let last = out.last, abs(x.position(p.d) - x.position(last.d)) < 0.5 {
                if keepHighest, p.h > last.h { out[out.count - 1].h = p.h }
                continue
            }
            out.append(p)
        }
        if let last = points.last, let kept = out.last, kept.d != last.d, !keepHighest { out.append(last) }
        return out
    }

    /// A coordinate to 0.1 unit (a tenth of a pixel at 1:1).
    private func n(_ value: Double) -> String { value.formatted(decimals: 1) }

    /// Text with XML's special characters escaped.
    static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            // XML 1.0 allows no other control characters, even escaped.
            case _ where c.unicodeScalars.allSatisfy({ $0.value < 0x20 }): out += " "
            default: out.append(c)
            }
        }
        return out
    }
}

private extension Double {
    /// Fixed decimals in the POSIX style (`12.5`, `-3`, never `-0`), whatever the locale.
    func formatted(decimals: Int) -> String {
        guard isFinite else { return "0" }
        let scale = pow(10, Double(decimals))
        let value = (self * scale).rounded() == 0 ? 0 : self
        return String(format: "%.\(decimals)f", value)
    }
}
