import Foundation

/// A picture of the terrain of a latitude/longitude box: hypsometric tint (colour by height)
/// shaded by a hillshade, drawn from a DEM as an RGBA image, the map under `tapseek report`.
///
/// The image is equirectangular over the box: column x covers longitudes west + (x + ½)·Δλ,
/// row y latitudes north − (y + ½)·Δφ, each pixel its centre's bilinear DEM height. Its sides
/// keep the box's ground aspect (Δλ·cos φ_mid : Δφ), so a circle on the ground stays nearly a
/// circle on the map (to the cosine's change across the box: under 1 % for boxes under 1° high
/// at mid-latitudes). Pixels no tile covers are transparent; voids are drawn grey-blue.
public struct ReliefImage: Sendable {
    /// South, west, north, east edges of the image, WGS84 degrees.
    public var south: Double, west: Double, north: Double, east: Double
    public var width: Int, height: Int
    /// Heights of the pixels' centres, row by row from the north, metres above mean sea level;
    /// NaN where no tile covers the point or the DEM has a void.
    public var heights: [Float]
    /// Lowest and highest height drawn (the tint's ends); nil when no pixel has a height.
    public var range: ClosedRange<Double>?
    /// Share of the pixels some tile covers (a height or a void), 0…1: 0 when the DEM has no
    /// tile in the box, which a map must say rather than show an empty picture.
    public var coveredShare: Double

    /// Samples the DEM over the box at a resolution whose longest side is `maximumSide` pixels.
    /// - Precondition: south < north, west < east (degrees, east may exceed 180 for a box over
    ///   the antimeridian), `maximumSide` ≥ 2.
    public init(catalog: ElevationCatalog, south: Double, west: Double, north: Double, east: Double, maximumSide: Int = 1200) {
        precondition(south < north && west < east && maximumSide >= 2, "relief: empty box")
        self.south = south
        self.west = west
        self.north = north
        self.east = east
        (width, height) = Self.pictureSize(south: south, west: west, north: north, east: east, maximumSide: maximumSide)
        var terrain = TerrainSampler(catalog: catalog)
        var heights = [Float](repeating: .nan, count: width * height)
        var low = Double.infinity, high = -Double.infinity
        var voids = [Bool](repeating: false, count: width * height)
        for y in 0..<height {
            let latitude = north - (Double(y) + 0.5) * (north - south) / Double(height)
            for x in 0..<width {
                let longitude = west + (Double(x) + 0.5) * (east - west) / Double(width)
                switch terrain.sample(latitude: latitude, longitude: longitude) {
                case .height(let h):
                    heights[y * width + x] = Float(h)
                    low = min(low, h)
                    high = max(high, h)
                case .void: voids[y * width + x] = true
                case .outside: break
                }
            }
        }
        self.heights = heights
        self.voids = voids
        coveredShare = Double(zip(heights, voids).reduce(0) { $0 + (!$1.0.isNaN || $1.1 ? 1 : 0) }) / Double(heights.count)
        range = low <= high ? low...high : nil
    }

    private var voids: [Bool]

    /// Pixels of a picture of the box whose longest side is `maximumSide` and whose sides keep
    /// the box's ground aspect (Δλ·cos φ_mid : Δφ); at least 2 a side. Shared with ``BorderMap``
    /// so that the two pictures of one box line up pixel for pixel.
    static func pictureSize(south: Double, west: Double, north: Double, east: Double, maximumSide: Int) -> (width: Int, height: Int) {
        let aspect = (east - west) * cos((south + north) / 2 * .pi / 180) / (north - south)
        if aspect >= 1 { return (maximumSide, max(2, Int((Double(maximumSide) / aspect).rounded()))) }
        return (max(2, Int((Double(maximumSide) * aspect).rounded())), maximumSide)
    }

    /// Metres a pixel spans east–west and north–south, on a sphere of the WGS84 mean radius.
    public var pixelSize: (east: Double, north: Double) {
        let metresPerDegree = 6_371_008.8 * .pi / 180
        return ((east - west) / Double(width) * metresPerDegree * cos((south + north) / 2 * .pi / 180),
                (north - south) / Double(height) * metresPerDegree)
    }

    /// Tint stops from the lowest (0) to the highest (1) height: green lowlands, tan slopes,
    /// pale summits. Each stop is lighter than the one before (Rec. 601 luma 93, 143, 183, 214,
    /// 250), so with `shading` 0 the lightest pixel is where the terrain is highest.
    static let tint: [(t: Double, r: Double, g: Double, b: Double)] = [
        (0.0, 56, 112, 60), (0.3, 120, 160, 90), (0.6, 200, 184, 128), (0.85, 226, 212, 190), (1.0, 250, 250, 250),
    ]

    /// The tint of a height's place `t` within the range, 0…1.
    static func tint(at t: Double) -> (Double, Double, Double) {
        let t = min(max(t, 0), 1)
        var i = 1
        while i < tint.count - 1, tint[i].t < t { i += 1 }
        let a = tint[i - 1], b = tint[i]
        let f = (t - a.t) / (b.t - a.t)
        return (a.r + (b.r - a.r) * f, a.g + (b.g - a.g) * f, a.b + (b.b - a.b) * f)
    }

    /// RGBA pixels, rows from the north: the tint of each height darkened by the hillshade of a
    /// sun in the north-west 45° high (the cartographers' convention, so that ridges read as
    /// raised), weighted by `shading` (0: tint alone, 1: full shade on slopes facing away).
    public func rgba(shading: Double = 0.55) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height * 4)
        let (dx, dy) = pixelSize
        let span = range.map { max($0.upperBound - $0.lowerBound, 1) } ?? 1
        let low = range?.lowerBound ?? 0
        // Sun: azimuth 315°, altitude 45°, as a unit vector (east, north, up).
        let sunAltitude = 45.0 * .pi / 180, sunAzimuth = 315.0 * .pi / 180
        let sun = (cos(sunAltitude) * sin(sunAzimuth), cos(sunAltitude) * cos(sunAzimuth), sin(sunAltitude))
        func h(_ x: Int, _ y: Int, _ fallback: Float) -> Double {
            let v = heights[min(max(y, 0), height - 1) * width + min(max(x, 0), width - 1)]
            return Double(v.isNaN ? fallback : v)
        }
        for y in 0..<height {
            for x in 0..<width {
                let i = y * width + x, o = i * 4
                let v = heights[i]
                if v.isNaN {
                    if voids[i] { out[o] = 196; out[o + 1] = 204; out[o + 2] = 216; out[o + 3] = 255 }
                    continue
                }
                var (r, g, b) = Self.tint(at: (Double(v) - low) / span)
                if shading > 0 {
                    // Horn's gradient would weigh diagonals too; central differences suffice at
                    // a picture's resolution.
                    let gx = (h(x + 1, y, v) - h(x - 1, y, v)) / (2 * dx)
                    let gy = (h(x, y - 1, v) - h(x, y + 1, v)) / (2 * dy)
                    let norm = (1 + gx * gx + gy * gy).squareRoot()
                    let lit = max(0, (-gx * sun.0 - gy * sun.1 + sun.2) / norm)
                    // lit of flat ground is sin 45°: it keeps its tint.
                    let factor = 1 - shading * max(0, sin(sunAltitude) - lit) / sin(sunAltitude) + shading * 0.25 * max(0, lit - sin(sunAltitude))
                    r = min(255, r * factor); g = min(255, g * factor); b = min(255, b * factor)
                }
                out[o] = UInt8(r.rounded()); out[o + 1] = UInt8(g.rounded()); out[o + 2] = UInt8(b.rounded()); out[o + 3] = 255
            }
        }
        return out
    }

    /// The image as a PNG file (``PNGEncoder``).
    public func png(shading: Double = 0.55) -> [UInt8] {
        PNGEncoder.encode(rgba: rgba(shading: shading), width: width, height: height)
    }
}
