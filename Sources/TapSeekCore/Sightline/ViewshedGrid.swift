import Foundation

/// A viewshed as a raster on a latitude–longitude lattice (EPSG:4326): one byte a cell,
/// ``visible``, ``hidden`` or ``noData``, rows from north to south.
///
/// Each cell is judged at its centre: the centre of the cell in row r, column c lies at
/// latitude `north − r·latitudeSpacing` and longitude `west + c·longitudeSpacing`; the cell
/// spans half a spacing either way (pixel-is-area around the point, so that at the DEM's own
/// resolution every cell is centred on a DEM post).
public struct ViewshedGrid: Sendable, Hashable {
    /// Latitude and longitude of the centre of the north-west cell, degrees.
    public var north: Double
    public var west: Double
    /// Degrees between cell centres.
    public var latitudeSpacing: Double
    public var longitudeSpacing: Double
    public var rows: Int
    public var columns: Int
    /// Row-major, north row first.
    public var values: [UInt8]

    /// The centre of the cell can be seen.
    public static let visible: UInt8 = 1
    /// Terrain hides the centre of the cell.
    public static let hidden: UInt8 = 0
    /// Not judged: no terrain data at the centre, or beyond the range.
    public static let noData: UInt8 = 255

    public init(north: Double, west: Double, latitudeSpacing: Double, longitudeSpacing: Double, rows: Int, columns: Int,
                values: [UInt8]) {
        precondition(values.count == rows * columns, "a viewshed grid needs rows × columns values")
        self.north = north
        self.west = west
        self.latitudeSpacing = latitudeSpacing
        self.longitudeSpacing = longitudeSpacing
        self.rows = rows
        self.columns = columns
        self.values = values
    }

    /// Latitude of the centres of row r, degrees.
    public func latitude(row r: Int) -> Double { north - Double(r) * latitudeSpacing }
    /// Longitude of the centres of column c, degrees (may pass ±180 across the antimeridian).
    public func longitude(column c: Int) -> Double { west + Double(c) * longitudeSpacing }

    /// The value of the cell holding a point, or nil outside the grid.
    public func value(latitude: Double, longitude: Double) -> UInt8? {
        let r = ((north - latitude) / latitudeSpacing).rounded(), c = ((longitude - west) / longitudeSpacing).rounded()
        guard r >= 0, c >= 0, r < Double(rows), c < Double(columns) else { return nil }
        return values[Int(r) * columns + Int(c)]
    }

    /// Cells judged (visible or hidden).
    public var cells: Int { values.count - Self.count(Self.noData, in: values[...]) }
    /// Cells seen.
    public var visibleCells: Int { Self.count(Self.visible, in: values[...]) }

    /// Area of the visible cells on the WGS84 ellipsoid, m².
    public var visibleArea: Double {
        var area = 0.0
        for r in 0..<rows {
            let count = Self.count(Self.visible, in: values[(r * columns)..<((r + 1) * columns)])
            if count > 0 { area += Double(count) * cellArea(row: r) }
        }
        return area
    }

    /// How many of `values` equal `value`, eight at a time: the bytes of a word that equal it
    /// are those of `x = w ^ value·0x0101…` that are zero, and a zero byte z is the one whose
    /// `((z & 0x7F) + 0x7F) | z` lacks its top bit (exact, with no carry between bytes). Those
    /// bits, shifted to each byte's lowest, add up lane by lane for up to 255 words, then the
    /// lanes are summed. A byte-by-byte loop, which the compiler did not vectorise, took 3.4 M
    /// instructions a pass over a 30 km grid, and a summary makes three (the baseline x86-64
    /// has no population count instruction, which a count per word would need).
    static func count(_ value: UInt8, in values: ArraySlice<UInt8>) -> Int {
        values.withUnsafeBufferPointer { b in
            let ones: UInt64 = 0x0101_0101_0101_0101, low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
            let pattern = UInt64(value) &* ones
            var n = 0, i = 0
            if let base = b.baseAddress {
                let raw = UnsafeRawPointer(base)
                while i + 8 <= b.count {
                    // Each byte lane of `lanes` counts its matches, at most 255 words at a time.
                    var lanes: UInt64 = 0, words = 0
                    while words < 255, i + 8 <= b.count {
                        let x = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ pattern
                        lanes &+= (~(((x & low) &+ low) | x | low)) >> 7
                        i += 8
                        words += 1
                    }
                    // Pairs of lanes into 16 bits (≤ 510), then the four sums (≤ 2 040) by a product.
                    let pairs = (lanes & 0x00FF_00FF_00FF_00FF) &+ ((lanes >> 8) & 0x00FF_00FF_00FF_00FF)
                    n &+= Int((pairs &* 0x0001_0001_0001_0001) >> 48)
                }
            }
            while i < b.count {
                n &+= b[i] == value ? 1 : 0
                i += 1
            }
            return n
        }
    }

    /// Area of one cell of row r on the WGS84 ellipsoid, m²: the exact area of the zone between
    /// its two parallels, times its share of the full turn of longitude.
    public func cellArea(row r: Int) -> Double {
        let lat = latitude(row: r)
        let top = min(lat + latitudeSpacing / 2, 90), bottom = max(lat - latitudeSpacing / 2, -90)
        return Self.zoneArea(from: bottom, to: top) * longitudeSpacing / 360
    }

    /// Area of the ellipsoid between two parallels (degrees), m²: 2πb²·[q(φ)] with
    /// q(φ) = sinφ/(2(1 − e²sin²φ)) + atanh(e·sinφ)/(2e) (the authalic integral).
    static func zoneArea(from south: Double, to north: Double) -> Double {
        let e2 = Ellipsoid.wgs84.eccentricitySquared, e = e2.squareRoot(), b = Ellipsoid.wgs84.semiMinorAxis
        func q(_ phi: Double) -> Double {
            let s = sin(radians(phi))
            return s / (2 * (1 - e2 * s * s)) + atanh(e * s) / (2 * e)
        }
        return 2 * .pi * b * b * (q(north) - q(south))
    }
}
