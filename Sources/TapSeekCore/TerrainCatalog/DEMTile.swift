import Foundation

/// One elevation raster of a catalog, described without reading its heights.
///
/// The footprint is the rectangle spanned by the posts (pixel-is-point), in WGS84 degrees; for
/// a projected raster, that of its WGS84 reprojection.
public struct DEMTile: Sendable, Hashable {
    /// The file.
    public let path: String
    /// The format: `SRTMHGT` for the tiles TapSeekCore reads itself, otherwise the name the
    /// ``RasterReader`` gives it (GDAL's driver short name: `GTiff`, `DTED`, `VRT`, …).
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
    /// What the file's heights are measured from: EGM2008 for Copernicus tiles (known by their
    /// names), EGM96 for everything else.
    public internal(set) var verticalDatum: VerticalDatum = .egm96
    /// The posts of the file this tile is, when the file is too large to read whole and is read
    /// window by window as sightlines reach them; nil for the whole file.
    public internal(set) var window: Window?
    /// The pure-Swift reader that reads the file; nil for the catalog's ``RasterReader``.
    let nativeReader: NativeReader?

    /// A rectangle of a file's posts: its first row and column (from the file's first post)
    /// and how many of each.
    public struct Window: Sendable, Hashable {
        public let row: Int, column: Int, rows: Int, columns: Int

        public init(row: Int, column: Int, rows: Int, columns: Int) {
            self.row = row
            self.column = column
            self.rows = rows
            self.columns = columns
        }
    }

    /// The formats TapSeekCore reads itself.
    enum NativeReader: Sendable, Hashable {
        case srtm, geoTIFF
    }

    /// Latitude of the southern row of posts, degrees.
    public var south: Double { north - Double(rows - 1) * latitudeSpacing }
    /// Longitude of the eastern column of posts, degrees.
    public var east: Double { west + Double(columns - 1) * longitudeSpacing }
    /// Bytes the loaded grid takes (4 per post).
    public var gridByteCount: Int { rows * columns * MemoryLayout<Float>.stride }

    public init(path: String, driver: String, isProjected: Bool, north: Double, west: Double,
                latitudeSpacing: Double, longitudeSpacing: Double, rows: Int, columns: Int) {
        self.init(path: path, driver: driver, isProjected: isProjected, north: north, west: west, latitudeSpacing: latitudeSpacing,
                  longitudeSpacing: longitudeSpacing, rows: rows, columns: columns, nativeReader: nil)
    }

    init(path: String, driver: String, isProjected: Bool, north: Double, west: Double, latitudeSpacing: Double,
         longitudeSpacing: Double, rows: Int, columns: Int, nativeReader: NativeReader?) {
        self.path = path
        self.driver = driver
        self.isProjected = isProjected
        self.north = north
        self.west = west
        self.latitudeSpacing = latitudeSpacing
        self.longitudeSpacing = longitudeSpacing
        self.rows = rows
        self.columns = columns
        self.nativeReader = nativeReader
    }

    /// The tile that is this file's window `w` (counted in this tile's posts).
    func cut(_ w: Window) -> DEMTile {
        var part = DEMTile(path: path, driver: driver, isProjected: isProjected,
                           north: north - Double(w.row) * latitudeSpacing, west: west + Double(w.column) * longitudeSpacing,
                           latitudeSpacing: latitudeSpacing, longitudeSpacing: longitudeSpacing,
                           rows: w.rows, columns: w.columns, nativeReader: nativeReader)
        part.verticalDatum = verticalDatum
        part.window = w
        return part
    }

    /// The windows of about `rows × columns` posts that cover the tile's posts with no gap,
    /// neighbours sharing no post (the catalog's sampler gathers the four posts around a point
    /// between two of them, as between tiles that do not overlap). A last row or column of one
    /// post joins the window before it: a grid has at least 2 × 2 posts.
    public func windows(rows height: Int, columns width: Int) -> [Window] {
        func spans(_ total: Int, _ size: Int) -> [(start: Int, count: Int)] {
            var starts = Array(stride(from: 0, to: total, by: size))
            if starts.count > 1, total - starts.last! < 2 { starts.removeLast() }
            return starts.enumerated().map { k, start in (start, (k + 1 < starts.count ? starts[k + 1] : total) - start) }
        }
        return spans(rows, height).flatMap { r in
            spans(columns, width).map { c in Window(row: r.start, column: c.start, rows: r.count, columns: c.count) }
        }
    }

    /// Whether the point is inside the posts' rectangle (edges included).
    public func contains(latitude: Double, longitude: Double) -> Bool {
        latitude <= north && latitude >= south && longitude >= west && longitude <= east
    }
}

extension DEMTile {
    /// The driver name of tiles the catalog reads with the pure-Swift ``SRTMTile`` reader; the
    /// name GDAL's own driver for the format has.
    static let srtmDriver = "SRTMHGT"

    /// An SRTM tile (`N27E086.hgt`, or `N27E086.hgt.zip`) described from its name and size
    /// alone (for a zip, the size its directory gives the `.hgt` member), reading no heights: 1201² or
    /// 3601² posts covering 27–28° N, 86–87° E, posts on whole degrees (pixel-is-point).
    /// Indexing a directory of tiles then opens no file beyond its size; a damaged file is still found,
    /// and skipped with a warning, when it is loaded. nil for any other file, which the
    /// catalog's ``RasterReader`` then describes.
    init?(srtmPath path: String) {
        let name = (path as NSString).lastPathComponent
        guard let tile = SRTMTile(fileName: name), let posts = SRTMTile.postsPerSide(ofFile: path) else { return nil }
        let spacing = 1 / Double(posts - 1)
        self.init(path: path, driver: Self.srtmDriver, isProjected: false, north: Double(tile.south) + 1, west: Double(tile.west),
                  latitudeSpacing: spacing, longitudeSpacing: spacing, rows: posts, columns: posts, nativeReader: .srtm)
    }
}
