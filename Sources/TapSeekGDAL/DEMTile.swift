import Foundation

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

extension DEMTile {
    /// A plain SRTM `.hgt` file described from its name and size alone, without opening it:
    /// `N27E086.hgt` of 1201² or 3601² big-endian int16 posts covers 27–28° N, 86–87° E, posts
    /// on whole degrees (pixel-is-point). Indexing a directory of tiles then costs no GDAL open;
    /// a damaged file is still found, and skipped with a warning, when it is loaded. nil for any
    /// other file, which GDAL then describes.
    init?(srtmPath path: String) {
        let name = (path as NSString).lastPathComponent.uppercased()
        let bytes = name.utf8.map { $0 }
        guard bytes.count == 11, name.hasSuffix(".HGT"),
              bytes[0] == UInt8(ascii: "N") || bytes[0] == UInt8(ascii: "S"),
              bytes[3] == UInt8(ascii: "E") || bytes[3] == UInt8(ascii: "W"),
              let lat = Int(name.dropFirst(1).prefix(2)), let lon = Int(name.dropFirst(4).prefix(3)),
              let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int else { return nil }
        let posts: Int
        switch size {
        case 1201 * 1201 * 2: posts = 1201
        case 3601 * 3601 * 2: posts = 3601
        default: return nil
        }
        let south = Double(bytes[0] == UInt8(ascii: "N") ? lat : -lat)
        let west = Double(bytes[3] == UInt8(ascii: "E") ? lon : -lon)
        let spacing = 1 / Double(posts - 1)
        self.init(path: path, driver: "SRTMHGT", isProjected: false, north: south + 1, west: west,
                  latitudeSpacing: spacing, longitudeSpacing: spacing, rows: posts, columns: posts)
    }
}
