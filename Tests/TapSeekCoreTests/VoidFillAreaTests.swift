import Foundation
import Testing
import TapSeekTestSupport
@testable import TapSeekCore

/// Filling only the voids a command reads (``VoidFillArea``) gives every post it fills the very
/// bits the whole tile's fill gives it, on the real voids of N46E008 (3 286 voids, some inside
/// others' boxes, 16 on the tile's edge), and fills every void post inside the area that the
/// whole fill fills.
struct VoidFillAreaTests {
    static let tile = SharedData.dem.appendingPathComponent("N46E008.tif")

    /// Every post the area's fill filled is bit-identical to the whole fill, every post of the
    /// area the whole fill filled is filled, and every other post is as read.
    static func expectAgrees(_ part: ElevationGrid, with whole: ElevationGrid, read: ElevationGrid, area: VoidFillArea,
                             _ label: String) -> Int {
        let wholeMask = whole.filled!
        var filled = 0, mismatches = 0, missed = 0
        for i in read.heights.indices {
            let r = i / read.columns, c = i % read.columns
            let latitude = read.north - Double(r) * read.latitudeSpacing, longitude = read.west + Double(c) * read.longitudeSpacing
            let inArea = latitude >= area.south && latitude <= area.north && longitude >= area.west && longitude <= area.east
            if part.filled?.contains(i) == true {
                filled += 1
                if part.heights[i].bitPattern != whole.heights[i].bitPattern || !wholeMask.contains(i) { mismatches += 1 }
            } else {
                if part.heights[i].bitPattern != read.heights[i].bitPattern { mismatches += 1 }
                if inArea, wholeMask.contains(i) { missed += 1 }
            }
        }
        #expect(mismatches == 0, "\(label): \(mismatches) posts differ from the whole fill")
        #expect(missed == 0, "\(label): \(missed) posts of the area left unfilled")
        return filled
    }

    @Test(.enabled(if: SharedData.available(SharedData.dem), "needs ../shared/dem"))
    func theVoidsOfAnAreaAreFilledToTheBitAsTheWholeTilesFillFillsThem() throws {
        try #require(SharedData.exists(Self.tile), Comment(rawValue: SharedData.missing(Self.tile)))
        let read = try GeoTIFFTile.readGrid(path: Self.tile.path)
        let whole = read.fillingVoids()
        let wholeMask = try #require(whole.filled)
        // One point in each of a few filled voids spread over the tile (as `elevation LAT LON`
        // asks), the 30 km around the Dammastock (a viewshed's), and an area holding the tile.
        let filledPosts = read.heights.indices.filter { wholeMask.contains($0) }
        var areas: [(String, VoidFillArea)] = []
        for k in [0, filledPosts.count / 3, filledPosts.count / 2, filledPosts.count - 1] {
            let i = filledPosts[k], r = i / read.columns, c = i % read.columns
            let area = try #require(VoidFillArea.around(latitude: read.north - Double(r) * read.latitudeSpacing,
                                                        longitude: read.west + Double(c) * read.longitudeSpacing, radius: 0))
            areas.append(("filled post \(i)", area))
        }
        areas.append(("30 km around the Dammastock", try #require(VoidFillArea.around(latitude: 46.6436, longitude: 8.4208, radius: 30_000))))
        for (label, area) in areas {
            let part = read.fillingVoids(area: area)
            let filled = Self.expectAgrees(part, with: whole, read: read, area: area, label)
            #expect(filled > 0, "\(label): nothing filled")
            #expect(filled < wholeMask.count, "\(label): the whole tile filled")
        }
        let all = read.fillingVoids(area: VoidFillArea(south: read.south - 1, west: read.west - 1, north: read.north + 1, east: read.east + 1))
        #expect(all.filled == whole.filled)
        #expect(all.heights.elementsEqual(whole.heights) { $0.bitPattern == $1.bitPattern })
    }

    @Test func anAreaWithNoVoidLeavesTheGridAsRead() {
        // A plane with one void post in its north-west corner; the area lies in the south-east.
        let rows = 50, columns = 50
        var heights = (0..<rows * columns).map { Float($0 % columns) + Float($0 / columns) * 2 }
        heights[columns + 1] = .nan
        let grid = ElevationGrid(north: 1, west: 0, latitudeSpacing: 0.01, longitudeSpacing: 0.01, rows: rows, columns: columns, heights: heights)
        let part = grid.fillingVoids(area: VoidFillArea(south: 0.55, west: 0.4, north: 0.6, east: 0.45))
        #expect(part.filled == nil)
        #expect(part.heights[columns + 1].isNaN)
        #expect(grid.fillingVoids().filled?.count == 1)
    }

    /// The area around a point holds every point within the radius, by the haversine distance
    /// on the Earth's mean sphere (not the area's own arithmetic), in eight directions, at the
    /// equator and far north.
    @Test func theAreaAroundAPointHoldsEveryPointWithinTheRadius() throws {
        let radius = 30_000.0, earth = 6_371_008.8
        for (latitude, longitude) in [(0.0, 10.0), (46.6436, 8.4208), (70.0, -150.0)] {
            let area = try #require(VoidFillArea.around(latitude: latitude, longitude: longitude, radius: radius))
            for k in 0..<8 {
                // The point `radius` away along bearing 45°·k on the sphere (direct problem).
                let bearing = Double(k) * .pi / 4, delta = radius / earth
                let phi1 = latitude * .pi / 180, lambda1 = longitude * .pi / 180
                let phi2 = asin(sin(phi1) * cos(delta) + cos(phi1) * sin(delta) * cos(bearing))
                let lambda2 = lambda1 + atan2(sin(bearing) * sin(delta) * cos(phi1), cos(delta) - sin(phi1) * sin(phi2))
                let lat = phi2 * 180 / .pi, lon = lambda2 * 180 / .pi
                #expect(lat >= area.south && lat <= area.north && lon >= area.west && lon <= area.east,
                        "(\(latitude), \(longitude)) bearing \(45 * k)°: (\(lat), \(lon)) outside \(area)")
            }
        }
        #expect(VoidFillArea.around(latitude: 89.9, longitude: 0, radius: radius) == nil)
        #expect(VoidFillArea.around(latitude: 0, longitude: 179.9, radius: radius) == nil)
    }
}
