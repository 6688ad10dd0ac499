import Foundation

/// The steepest slope of the terrain within each wedge of a viewshed's sweep (between level rays
/// i and i + 1) and each band of distance from the eye, metres per metre: how fast the terrain
/// can change sideways there, which bounds how far a cell's own horizon can stray from the
/// level rays' on either side (``Viewshed``).
///
/// Per band, because one steep slope anywhere along a wedge — above all the ground around the
/// eye, which reaches every wedge — must not loosen the bounds everywhere else along it: a
/// sightline's terrain at distance d differs from a level ray's at d by at most the slope there
/// times the lateral distance between them. On a plain or a coast with the observer on a slope,
/// the wedge's single steepest slope left nearly every visible cell to a sightline of its own.
struct WedgeSlopes: Sendable {
    /// Number of wedges (level rays) and of distance bands.
    let wedges: Int
    let bands: Int
    /// Metres of distance from the eye per band: band k holds distances [k·L, (k + 1)·L), the
    /// last one everything beyond.
    let bandLength: Double
    /// Slopes, wedge-major: `values[w * bands + k]`.
    private(set) var values: [Double]
    /// The steepest gradient of the bilinear terrain within each wedge, in any direction, metres
    /// per metre: how much a point's height can change where a ray's modelled track strays from
    /// the exact one (``Viewshed/trackDrift(latitude:)``).
    private(set) var gradients: [Double]

    /// DEM cells a side of the blocks whose steepest slope is spread over the wedges and bands
    /// they reach.
    static let block = 4
    /// Bands of a sweep: enough that a band is a few kilometres at most, few enough that
    /// bounding a cell over all of them costs little beside one sightline.
    static let bandCount = 32

    /// The length of each of the ``bandCount`` bands over `range` metres.
    static func bandLength(range: Double) -> Double { range / Double(bandCount) }

    init(wedges: Int, bands: Int, bandLength: Double, values: [Double], gradients: [Double]) {
        precondition(values.count == wedges * bands && gradients.count == wedges, "wedges × bands slopes, a gradient per wedge")
        self.wedges = wedges
        self.bands = bands
        self.bandLength = bandLength
        self.values = values
        self.gradients = gradients
    }

    /// The band holding slant distance d (distances past the last band are in it).
    @inline(__always)
    func band(_ d: Double) -> Int { min(max(Int(d / bandLength), 0), bands - 1) }

    /// The steepest slope of each wedge over all its bands.
    var wedgeMaxima: [Double] {
        (0..<wedges).map { w in values[(w * bands)..<((w + 1) * bands)].max() ?? 0 }
    }

    /// The slopes of the sweep of `count` level rays to `range` metres, from every block of
    /// ``block`` × ``block`` DEM cells of `grids` within the box (degrees): the largest derivative
    /// of the bilinear surface across the rays through the block (perpendicular to the azimuth
    /// from the eye: only that way does terrain differ between a cell's sightline and a level ray
    /// at the same distance), plus the steepest gradient times the angle by which that
    /// direction can turn over the block, spread over the wedges within the angle its half
    /// diagonal subtends at its centre's distance from the eye (all of them, with the steepest
    /// gradient, when it is that near), and over the bands of its distances, widened by 1 % and 200 m for what separates a
    /// level ray's slant distance from a sightline's over the same ground (``Viewshed``'s slack,
    /// at most tens of metres).
    static func measure(of grids: [ElevationGrid], south: Double, north: Double, west: Double, east: Double,
                        eye: GeodeticPosition, count: Int, range: Double) -> WedgeSlopes {
        let bands = bandCount
        let bandLength = Self.bandLength(range: range)
        // Band-major while blocks are spread (a block raises a run of wedges in a band or two:
        // contiguous here, a stride apart in the wedge-major table), turned wedge-major at the end.
        var byBand = [Double](repeating: 0, count: count * bands)
        var gradients = [Double](repeating: 0, count: count)
        func band(_ d: Double) -> Int { min(max(Int(d / bandLength), 0), bands - 1) }
        let frame = LocalFrame(origin: eye)
        let step = 2 * Double.pi / Double(count)
        let a = Ellipsoid.wgs84.semiMajorAxis, e2 = Ellipsoid.wgs84.eccentricitySquared
        let size = block
        let eyeLongitude = radians(eye.longitude), eyeSine = abs(sin(radians(eye.latitude)))
        for g in grids {
            let shift = g.longitudeShift(toward: (west + east) / 2)
            let r0 = max(0, Int(((g.north - north) / g.latitudeSpacing).rounded(.down)) - 1)
            let r1 = min(g.rows - 1, Int(((g.north - south) / g.latitudeSpacing).rounded(.up)) + 1)
            let c0 = max(0, Int(((west - shift - g.west) / g.longitudeSpacing).rounded(.down)) - 1)
            let c1 = min(g.columns - 1, Int(((east - shift - g.west) / g.longitudeSpacing).rounded(.up)) + 1)
            guard r0 < r1, c0 < c1 else { continue }
            let blockColumns = (c1 - c0 + size - 1) / size
            var blocks = [Double](repeating: 0, count: blockColumns)
            // The blocks' centres on the ellipsoid, from each block column's and row's sines
            // and cosines (trigonometry per block cost more than the block's slopes).
            let centreLongitudes = (0..<blockColumns).map {
                radians(g.west + (Double(c0 + $0 * size) + Double(size) / 2) * g.longitudeSpacing + shift)
            }
            let cosines = centreLongitudes.map { cos($0) }, sines = centreLongitudes.map { sin($0) }
            var lateral = [Double](repeating: 0, count: blockColumns)
            // Each block's place seen from the eye: horizontal distance, azimuth, and the
            // direction across the rays there (east and south components).
            var distances = [Double](repeating: 0, count: blockColumns), azimuths = distances
            var across = [(east: Double, south: Double)](repeating: (0, 0), count: blockColumns)
            g.heights.withUnsafeBufferPointer { h in
                byBand.withUnsafeMutableBufferPointer { byBand in gradients.withUnsafeMutableBufferPointer { gradients in
                    // Raises wedges `wedges` in bands `reach` to `slope`, and their gradients to `gradient`.
                    func raise(_ wedges: Range<Int>, bands reach: ClosedRange<Int>, slope: Double, gradient: Double) {
                        for k in reach {
                            let row = byBand.baseAddress! + k * count
                            for w in wedges { row[w] = max(row[w], slope) }
                        }
                        let g = gradients.baseAddress!
                        for w in wedges { g[w] = max(g[w], gradient) }
                    }
                    var r = r0
                    while r < r1 {
                        for i in blocks.indices { blocks[i] = 0; lateral[i] = 0 }
                        let rEnd = min(r + size, r1)
                        let lat = radians(max(abs(g.north - Double(r) * g.latitudeSpacing), abs(g.north - Double(rEnd) * g.latitudeSpacing)))
                        let w2 = 1 - e2 * sin(lat) * sin(lat)
                        let dx = radians(g.longitudeSpacing) * a / w2.squareRoot() * cos(lat)
                        let dy = radians(g.latitudeSpacing) * a * (1 - e2) / (w2 * w2.squareRoot()) * 0.999
                        let ex = 1 / (dx * dx), ey = 1 / (dy * dy), stride = g.columns
                        let ix = 1 / dx, iy = 1 / dy
                        let centreLatitude = radians(g.north - (Double(r + rEnd) / 2) * g.latitudeSpacing)
                        let sinPhi = sin(centreLatitude), cosPhi = cos(centreLatitude)
                        let n = Ellipsoid.wgs84.primeVerticalRadius(sinLatitude: sinPhi)
                        // Azimuths along the row from each block's neighbour (Bearing: a series
                        // where the turn is small, atan2 else).
                        var bearing = Bearing()
                        for b in blocks.indices {
                            let v = frame.enu(ofECEF: Vector3(n * cosPhi * cosines[b], n * cosPhi * sines[b], n * (1 - e2) * sinPhi))
                            let x = (v.x * v.x + v.y * v.y).squareRoot()
                            distances[b] = x
                            azimuths[b] = bearing.next(east: v.x, north: v.y)
                            // Across the ray (east, north) = (cos α, −sin α): south component
                            // +sin α, with cos α = north/x and sin α = east/x (no block by the
                            // eye reads it: those take the steepest slope).
                            across[b] = x > 0 ? (v.y / x, v.x / x) : (1, 0)
                        }
                        let halfDiagonal = 0.5 * ((Double(rEnd - r) * dy) * (Double(rEnd - r) * dy) + Double(size * size) * dx * dx).squareRoot() * 1.01
                        // Each cell's west edge is the east edge of the cell before it in the
                        // row: its two posts and their difference are carried, not read again.
                        blocks.withUnsafeMutableBufferPointer { blocks in
                        lateral.withUnsafeMutableBufferPointer { lateral in
                        for rr in r..<rEnd {
                            let top = h.baseAddress! + rr * stride, bottom = top + stride
                            var c = c0
                            for b in blocks.indices {
                                let cEnd = min(c + size, c1)
                                // A block wholly beyond `range` (the level rays' and so every
                                // sightline's reach) bounds nothing: the window is a square
                                // around the range's circle.
                                guard distances[b] - (halfDiagonal + 0.01 * distances[b] + 200) <= range else {
                                    c = cEnd
                                    continue
                                }
                                var steepest = blocks[b], side = lateral[b]
                                let (ce, cs) = across[b]
                                var h00 = top[c], h10 = bottom[c], south = h10 - h00
                                while c < cEnd {
                                    let h01 = top[c + 1], h11 = bottom[c + 1]
                                    let east0 = h01 - h00, east1 = h11 - h10, south1 = h11 - h01
                                    let gx = Double(max(abs(east0), abs(east1))), gy = Double(max(abs(south), abs(south1)))
                                    // NaN (a void) compares false: such a cell is unknown, not terrain.
                                    let s = gx * gx * ex + gy * gy * ey
                                    if s > steepest { steepest = s }
                                    // The derivative across the ray is bilinear over the cell: largest at a
                                    // corner, where the east and south derivatives are the edges'.
                                    let e0 = Double(east0) * ix * ce, e1 = Double(east1) * ix * ce
                                    let s0 = Double(south) * iy * cs, s1 = Double(south1) * iy * cs
                                    let m = max(max(abs(e0 + s0), abs(e0 + s1)), max(abs(e1 + s0), abs(e1 + s1)))
                                    if m > side { side = m }
                                    h00 = h01
                                    h10 = h11
                                    south = south1
                                    c += 1
                                }
                                blocks[b] = steepest
                                lateral[b] = side
                            }
                        }
                        }
                        }
                        for b in blocks.indices where blocks[b] > 0 {
                            let steepest = blocks[b].squareRoot()
                            let d = distances[b]
                            let margin = halfDiagonal + 0.01 * d + 200
                            let nearest = band(d - margin), farthest = band(d + margin)
                            guard d > 2 * halfDiagonal else {
                                raise(0..<count, bands: nearest...farthest, slope: steepest, gradient: steepest)
                                continue
                            }
                            let azimuth = azimuths[b]
                            let half = asin(halfDiagonal / d) * 1.01
                            // The rays through the block turn by up to `half` from its centre's, and the
                            // block's east and north turn from the eye's by the meridians' convergence
                            // (Δλ·sin φ, with 10⁻³ to spare): the derivative across them changes by at
                            // most that angle times the steepest gradient.
                            let convergence = abs(centreLongitudes[b] - eyeLongitude) * max(abs(sinPhi), eyeSine) + 1e-3
                            let slope = min(steepest, lateral[b] + (half + convergence) * steepest)
                            let first = Int(((azimuth - half) / step).rounded(.down)), last = Int(((azimuth + half) / step).rounded(.down))
                            // Wedges first...last modulo the count: at most two runs (a block subtends under π).
                            let w0 = ((first % count) + count) % count, w1 = w0 + (last - first)
                            raise(w0..<min(w1 + 1, count), bands: nearest...farthest, slope: slope, gradient: steepest)
                            if w1 >= count { raise(0..<min(w1 + 1 - count, count), bands: nearest...farthest, slope: slope, gradient: steepest) }
                        }
                        r = rEnd
                    }
                } }
            }
        }
        let slopes = [Double](unsafeUninitializedCapacity: count * bands) { slopes, written in
            for w in 0..<count {
                for k in 0..<bands { slopes[w * bands + k] = byBand[k * count + w] }
            }
            written = count * bands
        }
        return WedgeSlopes(wedges: count, bands: bands, bandLength: bandLength, values: slopes, gradients: gradients)
    }
}

extension WedgeSlopes {
    /// The slopes of the wedges that every `stride` of these make together: in each band, the
    /// steepest of theirs.
    func coarsened(by stride: Int) -> WedgeSlopes {
        precondition(stride >= 1 && wedges % stride == 0, "whole wedges")
        guard stride > 1 else { return self }
        let coarse = [Double](unsafeUninitializedCapacity: wedges / stride * bands) { coarse, written in
            values.withUnsafeBufferPointer { fine in
                for w in 0..<(wedges / stride) {
                    let row = w * bands, first = w * stride * bands
                    for k in 0..<bands {
                        var steepest = fine[first + k]
                        for j in 1..<stride { steepest = max(steepest, fine[first + j * bands + k]) }
                        coarse[row + k] = steepest
                    }
                }
            }
            written = wedges / stride * bands
        }
        let gradients = (0..<(wedges / stride)).map { w in self.gradients[(w * stride)..<((w + 1) * stride)].max() ?? 0 }
        return WedgeSlopes(wedges: wedges / stride, bands: bands, bandLength: bandLength, values: coarse, gradients: gradients)
    }
}
