import Foundation

/// The geoid as a global grid of undulations N (metres of the geoid above the WGS84 ellipsoid),
/// so that ellipsoidal height h = orthometric height H + N.
///
/// The grid is read from the EGM96 15′ file that PROJ ships (`egm96_15.gtx`, 721 × 1441 posts,
/// −90…90°, −180…180°) and interpolated bilinearly; longitudes wrap.
public struct Geoid: Sendable {
    /// Undulations on a regular global lattice: row 0 at `north`, column 0 at `west`.
    public let grid: ElevationGrid

    public init(grid: ElevationGrid) { self.grid = grid }

    /// EGM96 undulation at a point, metres (−107 … +85 on Earth). Degrees in; any longitude.
    public func undulation(latitude: Double, longitude: Double) -> Double {
        let lat = min(max(latitude, grid.south), grid.north)
        var lon = longitude
        let span = grid.east - grid.west
        // Bring the longitude into the grid's span; the grid repeats every 360°.
        lon = grid.west + (lon - grid.west).truncatingRemainder(dividingBy: 360)
        if lon < grid.west { lon += 360 }
        if lon > grid.east { lon -= 360 }
        if lon < grid.west, span >= 360 - grid.longitudeSpacing { lon = grid.west }
        let n = grid.interpolate(latitude: lat, longitude: min(max(lon, grid.west), grid.east))
        return n.isNaN ? 0 : n
    }

    /// Mean-sea-level height → ellipsoidal height at a point, metres.
    public func ellipsoidalHeight(orthometric h: Double, latitude: Double, longitude: Double) -> Double {
        h + undulation(latitude: latitude, longitude: longitude)
    }

    /// Ellipsoidal height → mean-sea-level height at a point, metres.
    public func orthometricHeight(ellipsoidal h: Double, latitude: Double, longitude: Double) -> Double {
        h - undulation(latitude: latitude, longitude: longitude)
    }
}
