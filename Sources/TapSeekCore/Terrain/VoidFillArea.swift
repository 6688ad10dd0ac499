import Foundation

/// The part of the world a command will read terrain in (WGS84 degrees, edges included): a
/// catalog given one fills only the voids that reach into it (``VoidFill``), each as the whole
/// tile's fill would, so that one point's elevation or a 30 km viewshed in a large tile does not
/// pay for every void of the tile. Posts of the other voids stay unknown: a command must not
/// read outside its area.
public struct VoidFillArea: Sendable, Equatable {
    public var south: Double
    public var west: Double
    public var north: Double
    public var east: Double

    public init(south: Double, west: Double, north: Double, east: Double) {
        self.south = south
        self.west = west
        self.north = north
        self.east = east
    }

    /// Metres per degree of latitude, taken short (the Earth's polar meridian gives 110 574 m
    /// at the equator): the area errs large.
    private static let metresPerDegree = 110_000.0

    /// The square around a point holding every point within `radius` metres of ground distance
    /// (and one kilometre more, for the posts around the last cells read); nil where that square
    /// would cross the antimeridian or reach a pole (there the whole tile is filled).
    public static func around(latitude: Double, longitude: Double, radius: Double) -> VoidFillArea? {
        guard latitude.isFinite, longitude.isFinite, radius.isFinite, radius >= 0 else { return nil }
        let reach = (radius + 1000) / metresPerDegree
        let north = latitude + reach, south = latitude - reach
        guard north < 89, south > -89 else { return nil }
        // The parallel farthest from the equator has the shortest degrees of longitude.
        let widest = reach / cos(max(abs(north), abs(south)) * .pi / 180)
        let lon = normalizedLongitude(longitude)
        guard lon - widest > -180, lon + widest < 180 else { return nil }
        return VoidFillArea(south: south, west: lon - widest, north: north, east: lon + widest)
    }
}
