import Dispatch
import Foundation

/// Land, countries and first-level regions over a latitude/longitude box, as a picture made
/// from the geocoder index alone (no network, no other data): each pixel names the Natural
/// Earth admin-1 region whose polygon holds its centre, or none where there is water. The map
/// under `tapseek report` draws coastlines where land pixels meet water, country borders where
/// neighbouring pixels' countries differ, and region borders where only their regions do.
///
/// The geometry is ``ReliefImage``'s for the same box and side, so the two line up pixel for
/// pixel: column x covers longitudes west + (x + ½)·Δλ, row y latitudes north − (y + ½)·Δφ.
/// Borders are those of the index, Natural Earth at 1:10 000 000: good to a pixel of a map
/// 1 000 pixels across down to a box about 100 km wide; closer in they are a kilometre or
/// two off, which the relief then shows.
public struct BorderMap: Sendable {
    /// What a land pixel belongs to.
    public struct Area: Sendable, Hashable {
        /// ISO 3166-1 alpha-2 code of the country; empty when the region belongs to none.
        public var countryCode: String
        public var country: String?
        /// The first-level region's name (state, canton, province).
        public var region: String?
    }

    /// South, west, north, east edges, WGS84 degrees (east may exceed 180 over the antimeridian).
    public var south: Double, west: Double, north: Double, east: Double
    public var width: Int, height: Int
    /// Per pixel, rows from the north: 0 for water, else 1 + an index into ``areas``.
    public var pixels: [UInt16]
    /// The areas the pixels name, in order of first appearance.
    public var areas: [Area]

    /// Looks up every pixel's centre in the index's region layer (rows on all cores).
    /// - Precondition: south < north within ±90, west < east, `maximumSide` ≥ 2.
    public init(index: GeocoderIndex, south: Double, west: Double, north: Double, east: Double, maximumSide: Int = 1000) {
        precondition(south < north && west < east && south >= -90 && north <= 90 && maximumSide >= 2, "border map: empty box")
        self.south = south
        self.west = west
        self.north = north
        self.east = east
        let (width, height) = ReliefImage.pictureSize(south: south, west: west, north: north, east: east, maximumSide: maximumSide)
        self.width = width
        self.height = height
        let longitudes = (0..<width).map { west + (Double($0) + 0.5) * (east - west) / Double(width) }
        let owners = Locked([Int32](repeating: -1, count: width * height))
        let bands = min(height, 64)
        DispatchQueue.concurrentPerform(iterations: bands) { band in
            var row = [Int32](repeating: -1, count: width)
            for y in stride(from: band, to: height, by: bands) {
                let latitude = north - (Double(y) + 0.5) * (north - south) / Double(height)
                index.landRegions(latitude: latitude, longitudes: longitudes, into: &row)
                owners.withLock { $0.replaceSubrange((y * width)..<((y + 1) * width), with: row) }
            }
        }
        var local: [Int32: UInt16] = [:]
        var areas: [Area] = []
        var pixels = [UInt16](repeating: 0, count: width * height)
        for (i, r) in owners.withLock({ $0 }).enumerated() where r >= 0 {
            if let known = local[r] {
                pixels[i] = known
                continue
            }
            let country = index.regionCountryCodeAndName(Int(r))
            areas.append(Area(countryCode: country?.code ?? "", country: country?.name, region: index.regionName(Int(r))))
            let number = UInt16(areas.count)
            local[r] = number
            pixels[i] = number
        }
        self.pixels = pixels
        self.areas = areas
    }

    /// The area at pixel (x, y), nil over water or outside the picture.
    public func area(x: Int, y: Int) -> Area? {
        guard x >= 0, x < width, y >= 0, y < height else { return nil }
        let p = Int(pixels[y * width + x])
        return p == 0 ? nil : areas[p - 1]
    }

    /// The area at a point of the box (the pixel holding it), nil over water or outside.
    public func area(latitude: Double, longitude: Double) -> Area? {
        let x = Int(((longitude - west) / (east - west) * Double(width)).rounded(.down))
        let y = Int(((north - latitude) / (north - south) * Double(height)).rounded(.down))
        return area(x: x, y: y)
    }

    /// Row by row, the pixels as runs `[value, count, value, count, …]` (value as in
    /// ``pixels``): the compact form a web page rebuilds the picture from; a map's rows hold a
    /// few dozen runs where a picture holds a thousand pixels.
    public var runs: [[Int]] {
        (0..<height).map { y in
            var row: [Int] = []
            var x = 0
            while x < width {
                let value = pixels[y * width + x]
                var end = x + 1
                while end < width, pixels[y * width + end] == value { end += 1 }
                row.append(Int(value))
                row.append(end - x)
                x = end
            }
            return row
        }
    }
}
