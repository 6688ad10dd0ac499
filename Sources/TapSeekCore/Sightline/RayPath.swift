import Foundation

/// A sightline as functions of the slant distance s along it: a straight line in ECEF from the
/// eye, bent toward the Earth by refraction (at horizontal distance d it lies k·d²/(2R) below
/// the line, along the vertical, so its latitude and longitude are the line's).
///
/// The ray is cut into segments of ``segmentLength`` (5 km for sightlines). On each, latitude, longitude and height
/// above the ellipsoid are quadratics in s through three exactly converted points (start,
/// middle, end). What the quadratics leave out is the third derivative of the track and of
/// the height, of order L³/(72√3·R²)·sec²φ: tests find the ground point within 1 mm (0.3 mm
/// seen at 66°) and the height within 0.2 mm of the exact line up to 70° of latitude. Refraction's drop is a
/// quadratic in s and is added exactly.
///
/// The geoid is not folded into the quadratics: its bilinear grid has kinks every 15′. Each
/// segment carries a bound on the undulation over its whole length instead (for proofs that a
/// ray is clear), and exact look-ups are made where the ray is compared with a terrain cell.
struct RayPath {
    /// One piece of the ray: `f(u) = a·u² + b·u + c` with u = s − start, metres.
    struct Segment {
        var start: Double
        var latitude: Quadratic
        var longitude: Quadratic
        /// Height of the refracted ray above the ellipsoid, metres.
        var height: Quadratic
        /// Lowest and highest undulation anywhere under the segment, metres.
        var lowestUndulation: Double
        var highestUndulation: Double
    }

    /// Length of a segment of a sightline, metres: two geodetic conversions and geoid look-ups
    /// each.
    static let sightlineSegment = 5000.0
    /// Length of a segment of a level ray searched for the skyline, metres. Its model errs by
    /// (20/5)³ = 64 times more, about 1.3 cm in height at worst, which moves an elevation angle
    /// by under 0.001° a kilometre away; a panorama ray of 30 km then costs 4 conversions, not 12.
    static let skylineSegment = 20_000.0
    /// Allowance for what the quadratics leave out, metres (five times the height error above).
    static let modelTolerance = 0.001

    /// Length of each segment, metres.
    let segmentLength: Double
    let frame: LocalFrame
    /// Unit direction in ECEF and in the eye's East-North-Up frame.
    private(set) var direction: Vector3
    private(set) var enuDirection: Vector3
    let geoid: Geoid
    let refraction: Double
    /// Mean radius of curvature at the eye, metres.
    let radius: Double
    /// How far the undulation may stray from the three looked up on a segment, metres:
    /// `steepestGradient` is read under a lock, a few hundred instructions that every segment
    /// of every sightline paid.
    private let undulationSlack: Double
    /// cos of the ray's elevation: refraction acts over the horizontal part of the path.
    private(set) var horizontalFraction: Double
    private(set) var segments: [Segment] = []
    /// The index of `segments[0]`: 0 unless ``startSegments(at:)`` skipped those before.
    private var firstSegment = 0
    /// Whether the exact points take their longitude from `atan` (see the initialiser).
    private let longitudeByArctangent: Bool
    /// The last exactly converted point, to continue longitudes across the antimeridian.
    private var lastLongitude: Double
    /// The geoid's cell looked up last by ``exactPoint(at:)``: a ray's segments stay in a 15′ cell
    /// for tens of kilometres.
    private var geoidCell = Geoid.Cell()
    /// The end of the last segment: the start of the next.
    private var segmentEnd: (latitude: Double, longitude: Double, height: Double, undulation: Double)?

    /// `frame`: the eye's (``LocalFrame/init(origin:ellipsoid:)``), when the caller has it.
    ///
    /// `longitudeByArctangent`: the exact points' longitudes from one `atan`
    /// (``Ellipsoid/geodeticOnRay(_:)``, 130 instructions fewer a point) rather than `atan2`,
    /// for a located reading's rays (``SightlineMarch``), an aim's sightline (``TargetSight``)
    /// and a viewshed cell's, which must stay the aim's; they may differ by a few ulps, which
    /// moves answers by under 10⁻⁷ m (the six viewsheds of scripts/bench-terrains.sh stayed the
    /// same to the bit, 1 % fewer instructions). Level rays, a viewshed's and a panorama's, keep
    /// `atan2`'s: with the other, a viewshed's count of own sightlines moved by 4 in 3 685.
    init(eye: GeodeticPosition, direction enu: Vector3, geoid: Geoid, refraction: Double,
         segmentLength: Double = RayPath.sightlineSegment, frame: LocalFrame? = nil, longitudeByArctangent: Bool = false) {
        self.longitudeByArctangent = longitudeByArctangent
        self.segmentLength = segmentLength
        self.frame = frame ?? LocalFrame(origin: eye)
        let d = enu.normalized
        enuDirection = d
        direction = self.frame.ecefVector(fromENU: d)
        self.geoid = geoid
        self.refraction = refraction
        radius = Ellipsoid.wgs84.meanRadius(latitude: radians(eye.latitude))
        // Every point of a segment lies within a quarter segment of one of the three looked
        // up, and the undulation changes by at most `steepestGradient` per metre of ground
        // (≤ slant).
        undulationSlack = geoid.steepestGradient * segmentLength / 4 * 1.001 + Self.modelTolerance
        horizontalFraction = (d.x * d.x + d.y * d.y).squareRoot()
        lastLongitude = eye.longitude
        // Room for the segments of most rays at once: grown from empty, a sightline's array was
        // reallocated and copied four times (3 000 instructions of a located reading).
        segments.reserveCapacity(Self.reservedSegments)
    }

    /// Segments a new ray makes room for: 80 km of a sightline, 320 km of a level ray.
    static let reservedSegments = 16

    /// Makes this the ray from the same eye in another direction, as
    /// ``init(eye:direction:geoid:refraction:segmentLength:frame:)`` would, keeping the segments'
    /// storage: a viewshed's thousands of sightlines then copy and release no geoid and
    /// allocate no segments each.
    mutating func restart(direction enu: Vector3) {
        let d = enu.normalized
        enuDirection = d
        direction = frame.ecefVector(fromENU: d)
        horizontalFraction = (d.x * d.x + d.y * d.y).squareRoot()
        lastLongitude = frame.origin.longitude
        segments.removeAll(keepingCapacity: true)
        firstSegment = 0
        segmentEnd = nil
    }

    /// Refraction's drop below the straight line at slant distance s, metres: k·(s·cos e)²/(2R).
    var dropPerSquareMetre: Double { refraction * horizontalFraction * horizontalFraction / (2 * radius) }

    /// The segment holding slant distance s ≥ 0, made on first use.
    mutating func segment(at s: Double) -> Segment {
        let i = index(of: s)
        while firstSegment + segments.count <= i { appendSegment() }
        return segments[i - firstSegment]
    }

    /// Makes the first segment the one holding slant distance s, for a walk that starts there:
    /// the segments before it are never made (each costs two exact conversions and geoid
    /// look-ups). The segments made are the same to the bit as when made one after another
    /// from the eye, provided the track's longitude stays within 180° of the eye's, as it
    /// does on any ray that does not pass over a pole. Only before the first segment is made.
    mutating func startSegments(at s: Double) {
        guard segments.isEmpty, s > 0 else { return }
        firstSegment = index(of: s)
    }

    /// Makes room at once for the segments up to slant distance s: a sightline's few segments
    /// otherwise grow the array by reallocations and copies.
    mutating func reserveSegments(through s: Double) {
        segments.reserveCapacity(max(segments.count, index(of: s) - firstSegment + 1))
    }

    /// Index of the segment holding s.
    func index(of s: Double) -> Int { Int(s / segmentLength) }

    private mutating func appendSegment() {
        let length = segmentLength
        let start = Double(firstSegment + segments.count) * length
        let p0 = segmentEnd ?? exactPoint(at: start), pm = exactPoint(at: start + length / 2), p1 = exactPoint(at: start + length)
        segmentEnd = p1
        let k = dropPerSquareMetre
        var height = Quadratic(through: p0.height, pm.height, p1.height, length: length)
        // drop(start + u) = k·(start² + 2·start·u + u²)
        height.a -= k
        height.b -= 2 * k * start
        height.c -= k * start * start
        let slack = undulationSlack
        segments.append(Segment(start: start,
                                latitude: Quadratic(through: p0.latitude, pm.latitude, p1.latitude, length: length),
                                longitude: Quadratic(through: p0.longitude, pm.longitude, p1.longitude, length: length),
                                height: height,
                                lowestUndulation: smallest(p0.undulation, pm.undulation, p1.undulation) - slack,
                                highestUndulation: largest(p0.undulation, pm.undulation, p1.undulation) + slack))
    }

    /// The geoid's undulation at a point, metres, through the geoid's cell looked up last along
    /// this ray (a ray's points stay in one for tens of kilometres).
    mutating func undulation(latitude: Double, longitude: Double) -> Double {
        geoid.undulation(latitude: latitude, longitude: longitude, cell: &geoidCell)
    }

    /// The straight line's point at slant distance s, converted exactly; longitude continued from
    /// the previous point across the antimeridian.
    private mutating func exactPoint(at s: Double) -> (latitude: Double, longitude: Double, height: Double, undulation: Double) {
        let v = frame.originECEF + s * direction
        let p = longitudeByArctangent ? Ellipsoid.wgs84.geodeticOnRay(v) : Ellipsoid.wgs84.geodetic(v)
        var longitude = p.longitude
        while longitude - lastLongitude > 180 { longitude -= 360 }
        while longitude - lastLongitude < -180 { longitude += 360 }
        lastLongitude = longitude
        return (p.latitude, longitude, p.height, geoid.undulation(latitude: p.latitude, longitude: p.longitude, cell: &geoidCell))
    }

    /// Ground position (degrees; longitude continuous along the ray) and height of the refracted
    /// ray above the ellipsoid (metres) at slant distance s.
    mutating func point(at s: Double) -> (latitude: Double, longitude: Double, height: Double) {
        let segment = segment(at: s)
        let u = s - segment.start
        return (segment.latitude(u), segment.longitude(u), segment.height(u))
    }

    /// The ground position of ``point(at:)`` alone (degrees; longitude continuous along the
    /// ray), read from the segment in place: for the many points of a track or of the skyline's
    /// seeds, each of which copied its segment out of the array (the same arithmetic, so the
    /// same bits).
    @inline(__always) mutating func groundPoint(at s: Double) -> (latitude: Double, longitude: Double) {
        let i = index(of: s)
        while firstSegment + segments.count <= i { appendSegment() }
        return segments.withUnsafeBufferPointer { stored in
            let u = s - stored[i - firstSegment].start
            return (stored[i - firstSegment].latitude(u), stored[i - firstSegment].longitude(u))
        }
    }

    /// ``groundPoint(at:)`` and the highest undulation under the segment holding s
    /// (``Segment/highestUndulation``, metres): for the skyline's seeds, which look the geoid up
    /// only where the bound says a point could matter.
    @inline(__always) mutating func groundPointAndHighestUndulation(at s: Double) -> (latitude: Double, longitude: Double, highestUndulation: Double) {
        let i = index(of: s)
        while firstSegment + segments.count <= i { appendSegment() }
        return segments.withUnsafeBufferPointer { stored in
            let u = s - stored[i - firstSegment].start
            return (stored[i - firstSegment].latitude(u), stored[i - firstSegment].longitude(u), stored[i - firstSegment].highestUndulation)
        }
    }

    /// Appends the ground positions at slant distances k·`spacing` below `s` (k = 1, 2, …),
    /// longitudes normalised to ±180°, each as ``point(at:)`` gives it: a ray's track. The
    /// segments are made first and read in place, a point costing its two quadratics.
    mutating func appendGroundTrack(every spacing: Double, below s: Double, to points: inout [Polyline.Coordinate]) {
        let count = groundTrackCount(every: spacing, below: s)
        guard count > 0 else { return }
        points.append(contentsOf: [Polyline.Coordinate](unsafeUninitializedCapacity: count) { buffer, initialized in
            writeGroundTrack(every: spacing, count: count, to: buffer.baseAddress!)
            initialized = count
        })
    }

    /// How many points ``appendGroundTrack(every:below:to:)`` appends: the last k with
    /// k·`spacing` < s, as the products compare (the quotient may round); 0 for no track.
    func groundTrackCount(every spacing: Double, below s: Double) -> Int {
        guard s.isFinite, spacing < s else { return 0 }
        var last = Int(s / spacing)
        while last > 0, Double(last) * spacing >= s { last -= 1 }
        while Double(last + 1) * spacing < s { last += 1 }
        return max(last, 0)
    }

    /// Writes the track's points k = 1…`count` (``appendGroundTrack(every:below:to:)``) to
    /// `out`, which has room for them: a located reading's track is written straight into its
    /// array (``SightlineMarch``). Appended one by one, each point paid the array's uniqueness
    /// and capacity checks and the segments' bounds checks, two fifths of its 50 instructions.
    /// The same arithmetic as ``point(at:)``, so the same bits.
    ///
    /// The segment of each point is ``index(of:)``'s, ⌊d / L⌋ of the rounded quotient, followed
    /// along the track as a double rather than converted at every point (a checked conversion,
    /// 15 instructions): ⌊q⌋ > j exactly when q ≥ j + 1 for a whole j, and q never falls as d
    /// grows.
    mutating func writeGroundTrack(every spacing: Double, count: Int, to out: UnsafeMutablePointer<Polyline.Coordinate>) {
        guard count > 0 else { return }
        let i = index(of: Double(count) * spacing)
        while firstSegment + segments.count <= i { appendSegment() }
        let length = segmentLength
        var index = Double(firstSegment)
        segments.withUnsafeBufferPointer { stored in
            var segment = stored.baseAddress!
            for k in 1...count {
                let d = Double(k) * spacing
                let quotient = d / length
                while quotient >= index + 1 {
                    index += 1
                    segment += 1
                }
                let u = d - segment.pointee.start
                (out + (k - 1)).initialize(to: .init(latitude: segment.pointee.latitude(u),
                                                     longitude: normalizedLongitude(segment.pointee.longitude(u))))
            }
        }
    }

    /// Height of the refracted ray above mean sea level at slant distance s, metres.
    mutating func heightAboveSeaLevel(at s: Double) -> Double {
        let p = point(at: s)
        return p.height - geoid.undulation(latitude: p.latitude, longitude: p.longitude)
    }
}

/// The standard library's three-argument `min`, `min(min(x, y), z)`, without its variadic
/// fourth: called with three, it made (and released) an empty array for it every time, which
/// every block and cell of a walk paid.
@inline(__always) func smallest(_ x: Double, _ y: Double, _ z: Double) -> Double { min(min(x, y), z) }

/// `max(max(x, y), z)`, as ``smallest(_:_:_:)`` is to `min`.
@inline(__always) func largest(_ x: Double, _ y: Double, _ z: Double) -> Double { max(max(x, y), z) }

/// `a·u² + b·u + c`.
struct Quadratic {
    var a: Double, b: Double, c: Double

    init(a: Double, b: Double, c: Double) {
        self.a = a
        self.b = b
        self.c = c
    }

    /// The quadratic through f(0) = f0, f(L/2) = fm and f(L) = f1.
    init(through f0: Double, _ fm: Double, _ f1: Double, length: Double) {
        a = 2 * (f0 + f1 - 2 * fm) / (length * length)
        b = (f1 - f0) / length - a * length
        c = f0
    }

    @inline(__always) func callAsFunction(_ u: Double) -> Double { (a * u + b) * u + c }

    /// The derivative at u.
    @inline(__always) func slope(_ u: Double) -> Double { 2 * a * u + b }

    /// The smallest value over [u0, u1].
    func minimum(from u0: Double, to u1: Double) -> Double {
        var low = min(self(u0), self(u1))
        if a > 0 {
            let vertex = -b / (2 * a)
            if vertex > u0, vertex < u1 { low = min(low, self(vertex)) }
        }
        return low
    }

    /// The affine image `scale·f + offset`.
    func scaled(_ scale: Double, plus offset: Double) -> Quadratic {
        Quadratic(a: a * scale, b: b * scale, c: c * scale + offset)
    }

    /// The smallest u in (after, limit] where the quadratic equals `value`; +∞ when none.
    @inline(__always) func firstCrossing(of value: Double, after: Double, limit: Double) -> Double {
        let c0 = c - value
        if a == 0 {
            guard b != 0 else { return .infinity }
            let u = -c0 / b
            return u > after && u <= limit ? u : .infinity
        }
        let discriminant = b * b - 4 * a * c0
        guard discriminant >= 0 else { return .infinity }
        // The stable pair of roots: q/a and c0/q.
        let q = -0.5 * (b + (b >= 0 ? discriminant.squareRoot() : -discriminant.squareRoot()))
        var best = Double.infinity
        let r1 = q / a
        if r1 > after, r1 <= limit { best = r1 }
        if q != 0 {
            let r2 = c0 / q
            if r2 > after, r2 <= limit, r2 < best { best = r2 }
        }
        return best
    }

    /// The smallest u in (after, limit] where the quadratic leaves (low, high); +∞ when none.
    @inline(__always) func exit(from low: Double, _ high: Double, after: Double, limit: Double) -> Double {
        min(firstCrossing(of: low, after: after, limit: limit), firstCrossing(of: high, after: after, limit: limit))
    }

    /// Where a monotonic quadratic heads over a stretch [u0, u1]: +1 rising, −1 falling, 0 when it
    /// turns inside the stretch (or is constant), for ``exit(from:_:after:limit:heading:)``.
    func heading(from u0: Double, to u1: Double) -> Int {
        if a != 0 {
            let vertex = -b / (2 * a)
            if vertex > u0, vertex < u1 { return 0 }
        }
        let m = slope((u0 + u1) / 2)
        return m > 0 ? 1 : (m < 0 ? -1 : 0)
    }

    /// ``exit(from:_:after:limit:)`` knowing the heading: a monotonic quadratic can only leave
    /// through the bound it moves toward, found by two Newton steps from `after` (a track's
    /// quadratic bends by about 10⁻⁶ of its slope per metre, so two steps leave an error of
    /// order 10⁻¹⁸ of the distance, far below rounding).
    @inline(__always) func exit(from low: Double, _ high: Double, after: Double, limit: Double, heading: Int) -> Double {
        guard heading != 0 else { return exit(from: low, high, after: after, limit: limit) }
        let target = heading > 0 ? high : low
        var u = after
        for _ in 0..<2 {
            let m = slope(u)
            guard m * Double(heading) > 0 else { return firstCrossing(of: target, after: after, limit: limit) }
            u += (target - self(u)) / m
        }
        return u > after && u <= limit ? u : (u > limit ? .infinity : firstCrossing(of: target, after: after, limit: limit))
    }
}
