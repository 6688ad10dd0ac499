/// One elevation raster of a catalog, described without reading its heights.
///
/// The footprint is the rectangle spanned by the posts (pixel-is-point), in WGS84 degrees; for
/// a projected raster, that of its WGS84 reprojection.
public struct DEMTile: Sendable, Hashable {
    /// The file, as GDAL opens it.
    public let path: String
    /// GDAL's driver short name (`SRTMHGT`, `GTiff`, `DTED`, `VRT`, …).
    public let driver: String
    /// Whether the file is in a projected CRS and is reprojected to WGS84 when loaded.
    public let isProjected: Bool
    /// Latitude of the northern row and longitude of the western column of posts, degrees.
    public let north: Double
    public let west: Double
    /// Post spacing, degrees.
    public let latitudeSpacing: Double
    public let longitudeSpacing: Double
    public let rows: Int
    public let columns: Int

    /// Latitude of the southern row of posts, degrees.
    public var south: Double { north - Double(rows - 1) * latitudeSpacing }
    /// Longitude of the eastern column of posts, degrees.
    public var east: Double { west + Double(columns - 1) * longitudeSpacing }
    /// Bytes the loaded grid takes (4 per post).
    public var gridByteCount: Int { rows * columns * MemoryLayout<Float>.stride }

    /// Whether the point is inside the posts' rectangle (edges included).
    public func contains(latitude: Double, longitude: Double) -> Bool {
        latitude <= north && latitude >= south && longitude >= west && longitude <= east
    }
}
