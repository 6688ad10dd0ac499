import Foundation

/// Every elevation raster in a directory tree — SRTM `.hgt`/`.hgt.zip` (1″ and 3″), and with a
/// ``RasterReader`` GeoTIFF (geographic or projected), DTED, VRT, … — indexed by footprint and
/// loaded lazily.
///
/// SRTM tiles named like `N27E086.hgt` or `N27E086.hgt.zip` and GeoTIFFs in EPSG:4326 are
/// indexed and read by the pure-Swift ``SRTMTile`` and ``GeoTIFFTile`` readers (the same posts
/// GDAL reads, to the bit); every other raster through the catalog's ``rasterReader`` (`.gdal`
/// from the `TapSeek` library), or skipped with a warning when it has none. A directory of SRTM
/// tiles and such GeoTIFFs needs no reader at all.
///
/// Loaded tiles are immutable ``ElevationGrid`` values that any number of threads share; a cache
/// with a memory budget evicts the least recently used. The catalog is `Sendable`: build one
/// and give each thread its own ``TerrainSampler``.
public final class ElevationCatalog: Sendable {
    /// The directory the catalog was built from.
    public let directory: String
    /// The tiles found, in path order.
    public let tiles: [DEMTile]
    /// One line per file that looked like a raster but could not be opened (it is skipped).
    public let warnings: [Warning]
    /// Bytes of loaded grids the cache keeps before it evicts.
    public let memoryBudget: Int
    /// Reads the rasters that are not SRTM tiles; nil skips them.
    public let rasterReader: (any RasterReader)?
    /// The EGM2008 geoid grid that converts the heights of Copernicus tiles to EGM96, if given.
    public let egm2008GeoidPath: String?
    /// Whether a tile's voids are filled from the posts around them when it loads
    /// (``ElevationGrid/fillingVoids(within:)``, voids up to ``VoidFill/maximumReach``); the
    /// grids then mark the filled posts. Tiles without voids (Copernicus) are left as read.
    public let fillsVoids: Bool
    /// Where the command will read terrain, when it said: then only the voids reaching into it
    /// are filled (``VoidFillArea``); nil fills every void of a tile.
    public let voidFillArea: VoidFillArea?
    /// Where each tile's filled voids are kept once solved (``VoidFillCache``), so that a later
    /// load applies them instead of filling again; nil fills on every load.
    public let voidFillCache: VoidFillCache?
    /// How many threads decode a compressed GeoTIFF's blocks (nil: all cores): the CLI passes a
    /// command's `--jobs`, so that `--jobs 1` decodes on the calling thread alone.
    public let decodeThreads: Int?

    /// Tile indices per 1° cell of the world: `cells[(lat + 90) * 360 + (lon + 180)]`.
    private let cells: [[Int32]]
    private let cache: Locked<Cache>
    /// The two geoids, loaded when the first EGM2008 tile is read.
    private let conversion = Locked<Result<EGM2008Conversion, TerrainFileError>?>(nil)

    /// The default cache budget: 1 GiB holds ~180 3″ tiles or ~20 1″ tiles.
    public static let defaultMemoryBudget = 1 << 30
    /// GeoTIFFs whose grid would exceed this are read window by window: 64 MiB, more than a 1°
    /// tile at 1″ (3 601² posts, 49.5 MiB).
    public static let defaultWindowedAbove = 64 << 20

    /// File name endings treated as elevation rasters; anything else in the directory is ignored.
    static let rasterSuffixes = [".hgt", ".hgt.zip", ".tif", ".tiff", ".dt0", ".dt1", ".dt2", ".vrt",
                                 ".asc", ".img", ".bil", ".flt", ".nc"]

    /// Scans `directory` (recursively) and indexes every raster's footprint; reads no heights.
    /// - Parameters:
    ///   - rasterReader: reads the files that are not SRTM tiles (`.gdal` with the `TapSeek`
    ///     library); without one they are skipped, each with a warning.
    ///   - windowedAbove: a GeoTIFF in EPSG:4326 whose grid would take more bytes than this is
    ///     indexed as windows of about 2 048 × 2 048 posts, each read (only the file's blocks it
    ///     needs, from the mapped file) when a look-up first reaches it; default 64 MiB, so a 1°
    ///     tile at 1″ is read whole and a mosaic of many is not. Such a file may be larger than
    ///     the cache.
    ///   - egm2008GeoidPath: a grid of EGM2008 undulations (GTX, or a GeoTIFF in EPSG:4326, such
    ///     as PROJ's `us_nga_egm08_25.tif`), read with the EGM96 grid when the first EGM2008 tile
    ///     loads; without one such tiles are read as if above EGM96, with a warning.
    ///   - fillsVoids: fill each tile's voids when it loads (the default); false keeps them
    ///     unknown.
    ///   - voidFillArea: where the command will read terrain: only the voids reaching into it
    ///     are filled, each as the whole tile's fill would (nil: every void). Reading outside it
    ///     finds the other voids unknown.
    ///   - voidFillCache: where tiles' filled voids are kept (``VoidFillCache``; nil, the
    ///     default: none). A tile with a valid patch there is patched, whatever the area (every
    ///     void filled, each to the bit as the area's fill fills it); one without is filled, and
    ///     its patch written when the fill is of the whole tile.
    ///   - decodeThreads: how many threads decode the blocks of a compressed GeoTIFF (nil, the
    ///     default: all cores, when it has several large blocks).
    /// - Throws: ``CatalogError`` when the directory is missing, unreadable or holds no raster
    ///   that can be read. Individual unreadable files only add a warning.
    public init(directory: String, memoryBudget: Int = ElevationCatalog.defaultMemoryBudget,
                rasterReader: (any RasterReader)? = nil, windowedAbove: Int = ElevationCatalog.defaultWindowedAbove,
                egm2008GeoidPath: String? = nil, fillsVoids: Bool = true, voidFillArea: VoidFillArea? = nil,
                voidFillCache: VoidFillCache? = nil, decodeThreads: Int? = nil) throws(CatalogError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) else {
            throw CatalogError("DEM directory \(directory) does not exist")
        }
        guard isDirectory.boolValue else { throw CatalogError("DEM path \(directory) is not a directory") }
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else {
            throw CatalogError("DEM directory \(directory) cannot be read")
        }
        var paths: [String] = []
        for case let name as String in enumerator {
            let lower = name.lowercased()
            if Self.rasterSuffixes.contains(where: { lower.hasSuffix($0) }) {
                paths.append((directory as NSString).appendingPathComponent(name))
            }
        }
        paths.sort()
        var tiles: [DEMTile] = [], warnings: [Warning] = []
        for path in paths {
            // A FIFO, socket or device named like a raster would block or never end a read.
            // Links are followed: a link to a regular file is a tile.
            guard Self.isRegularFile(path) else {
                warnings.append(Warning(.skippedFile, "skipping \(path): not a regular file"))
                continue
            }
            if let tile = DEMTile(srtmPath: path) {
                tiles.append(tile)
                continue
            }
            let lower = path.lowercased()
            if lower.hasSuffix(".tif") || lower.hasSuffix(".tiff") {
                do {
                    if let found = try GeoTIFFTile.tiles(path: path, windowedAbove: windowedAbove) {
                        // One tile of a grid no larger than `windowedAbove`, or windows.
                        if found.count == 1, let refusal = Self.refusal(of: found[0], budget: memoryBudget) {
                            warnings.append(refusal)
                        } else {
                            tiles += found
                        }
                        continue
                    }
                } catch where rasterReader == nil {
                    warnings.append(Warning(.skippedFile, "skipping \(error.description)"))
                    continue
                } catch {
                    // A file libtiff may still read (a missing byte-count tag, say): the raster
                    // reader has the last word, and its error, if any, is the warning.
                }
            }
            guard let rasterReader else {
                warnings.append(Warning(.skippedFile, "skipping \(path): not an SRTM tile (N27E086.hgt) or a GeoTIFF in EPSG:4326; other rasters need a raster reader (TapSeek's .gdal)"))
                continue
            }
            do {
                let tile = try rasterReader.describe(path: path)
                if let refusal = Self.refusal(of: tile, budget: memoryBudget) {
                    warnings.append(refusal)
                    continue
                }
                tiles.append(tile)
            } catch {
                warnings.append(Warning(.skippedFile, "skipping \(error.description)"))
            }
        }
        for i in tiles.indices where CopernicusTileName.parse(tiles[i].path) != nil {
            tiles[i].verticalDatum = .egm2008
        }
        let egm2008Tiles = tiles.filter { $0.verticalDatum == .egm2008 }
        if egm2008GeoidPath == nil, let first = egm2008Tiles.first {
            let name = (first.path as NSString).lastPathComponent
            let others = egm2008Tiles.count > 1 ? " and \(egm2008Tiles.count - 1) more give" : " gives"
            warnings.append(Warning(.verticalDatum, "\(name)\(others) heights above EGM2008; no EGM2008 geoid grid was given, so they are read as above EGM96, off by EGM2008 − EGM96 there: about 0.5 m RMS, up to about 10 m"))
        }
        guard !tiles.isEmpty else {
            let detail = warnings.isEmpty ? "no elevation raster" : "no readable elevation raster (\(warnings.count) skipped)"
            throw CatalogError("DEM directory \(directory) holds \(detail)")
        }
        self.directory = directory
        self.tiles = tiles
        self.warnings = warnings
        self.memoryBudget = memoryBudget
        self.rasterReader = rasterReader
        self.egm2008GeoidPath = egm2008GeoidPath
        self.fillsVoids = fillsVoids
        self.voidFillArea = voidFillArea
        self.voidFillCache = voidFillCache
        self.decodeThreads = decodeThreads
        var cells = [[Int32]](repeating: [], count: 180 * 360)
        for (i, t) in tiles.enumerated() {
            for key in Self.cellKeys(south: t.south, north: t.north, west: t.west, east: t.east) {
                cells[key].append(Int32(i))
            }
        }
        self.cells = cells
        cache = Locked(Cache())
    }

    /// Why a raster bigger than the whole cache (a national DEM as one file) is refused: it would
    /// exhaust memory when first read. nil when it fits.
    private static func refusal(of tile: DEMTile, budget: Int) -> Warning? {
        guard tile.gridByteCount > budget else { return nil }
        return Warning(.skippedFile, "skipping \(tile.path): its \(tile.columns)×\(tile.rows) posts need \(tile.gridByteCount >> 20) MiB, more than the tile cache's \(budget >> 20) MiB (--cache-mb); cut it into 1° tiles, e.g. with gdal_retile.py")
    }

    /// Whether a path (links followed) is a regular file.
    static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    /// The keys of the 1° cells a rectangle touches; longitudes beyond ±180 fold back.
    private static func cellKeys(south: Double, north: Double, west: Double, east: Double) -> [Int] {
        let r0 = max(Int(floor(south)), -90), r1 = min(Int(floor(north)), 89)
        let c0 = Int(floor(west)), c1 = Int(floor(east))
        guard r0 <= r1, c1 - c0 < 360 else {
            return r0 <= r1 ? (r0...r1).flatMap { r in (-180..<180).map { (r + 90) * 360 + $0 + 180 } } : []
        }
        var keys: [Int] = []
        for r in r0...r1 {
            for c in c0...c1 {
                let wrapped = ((c + 180) % 360 + 360) % 360
                keys.append((r + 90) * 360 + wrapped)
            }
        }
        return keys
    }

    /// Indices of the tiles whose 1° cells include the point.
    func candidates(latitude: Double, longitude: Double) -> [Int32] {
        guard latitude >= -90, latitude <= 90, longitude.isFinite else { return [] }
        let r = min(Int(floor(latitude)), 89) + 90
        let c = ((Int(floor(longitude)) + 180) % 360 + 360) % 360
        return cells[r * 360 + c]
    }

    /// The grid of a tile, loading it on first use; nil (with the reason recorded in
    /// ``loadFailures``) when the file cannot be read.
    public func grid(tile index: Int) -> ElevationGrid? {
        let cached: ElevationGrid?? = cache.withLock { $0.grid(index) }
        if let cached { return cached }
        let loaded = read(tiles[index])
        return cache.withLock { $0.store(index, loaded, budget: memoryBudget) }
    }

    /// Reads a tile's grid: SRTM tiles and GeoTIFFs in EPSG:4326 by the pure-Swift readers that
    /// described them, everything else through the raster reader that described it; heights
    /// above EGM2008 become heights above EGM96 when a grid of it was given; voids are filled
    /// when the catalog ``fillsVoids``.
    private func read(_ tile: DEMTile) -> Result<ElevationGrid, TerrainFileError> {
        Result { () throws(TerrainFileError) in
            // A tile to fill is read without its pyramid, which is built once, over the filled
            // posts (a Copernicus tile's conversion to EGM96 builds it, as it makes a new grid).
            let grid = try readInEGM96(tile, boundsTerrain: !fillsVoids)
            guard fillsVoids else { return grid }
            return fillingVoids(of: consume grid, from: tile).boundingTerrain()
        }
    }

    /// `grid`, read from `tile`, with its voids (those of ``voidFillArea``) filled: from the
    /// tile's patch in the ``voidFillCache`` when it has a valid one; else by ``VoidFill``, and
    /// when that fill is the whole tile's, its patch written for the next load. `grid` is
    /// consumed: a patch from the cache is written into its posts in place.
    private func fillingVoids(of grid: consuming ElevationGrid, from tile: DEMTile) -> ElevationGrid {
        guard grid.voidFraction > 0, let cache = voidFillCache else { return grid.fillingVoids(area: voidFillArea) }
        // Heights converted from EGM2008 depend on the geoid grids too.
        let datumFiles = tile.verticalDatum == .egm2008 && egm2008GeoidPath != nil ? [egm2008GeoidPath!, Geoid.defaultPath] : []
        guard let key = VoidFillCache.key(path: tile.path, window: tile.window, datumFiles: datumFiles, grid: grid) else {
            return grid.fillingVoids(area: voidFillArea)
        }
        if let patch = cache.patch(fitting: grid, key: key) { return patch.applied(to: consume grid) }
        // A small area (one point's elevation) must not pay for the whole tile to write a patch.
        guard grid.voidFillCoversGrid(area: voidFillArea) else { return grid.fillingVoids(area: voidFillArea) }
        let filled = grid.fillingVoids()
        cache.store(filled, readAs: grid, key: key)
        return filled
    }

    private func readInEGM96(_ tile: DEMTile, boundsTerrain: Bool) throws(TerrainFileError) -> ElevationGrid {
        let grid = try readAsStored(tile, boundsTerrain: boundsTerrain)
        guard tile.verticalDatum == .egm2008, let egm2008GeoidPath else { return grid }
        let geoids = conversion.withLock { loaded in
            if loaded == nil { loaded = Result { () throws(TerrainFileError) in try EGM2008Conversion(egm2008Path: egm2008GeoidPath) } }
            return loaded!
        }
        switch geoids {
        case .success(let geoids): return geoids.toEGM96(grid)
        case .failure(let error):
            throw TerrainFileError(path: tile.path, message: "gives heights above EGM2008, and the geoid grids that convert them cannot be read: \(error.description)")
        }
    }

    private func readAsStored(_ tile: DEMTile, boundsTerrain: Bool) throws(TerrainFileError) -> ElevationGrid {
        switch tile.nativeReader {
        case .srtm: return try SRTMTile.readGrid(path: tile.path, boundsTerrain: boundsTerrain)
        case .geoTIFF: return try GeoTIFFTile.readGrid(path: tile.path, window: tile.window, boundsTerrain: boundsTerrain, threads: decodeThreads)
        case nil: break
        }
        guard let rasterReader else { throw TerrainFileError(path: tile.path, message: "no raster reader") }
        return try rasterReader.readGrid(of: tile)
    }

    /// Why no height is known at a point although a tile's footprint covers it: the file was
    /// indexed but cannot be read (truncated, corrupt), e.g. "damaged DEM file /d/N46E008.tif
    /// (… TIFFReadEncodedStrip() failed.)". nil when no covering tile failed to load; call after a
    /// look-up found nothing there (a tile is only read when first needed).
    public func damage(latitude: Double, longitude: Double) -> String? {
        let longitude = normalizedLongitude(longitude)
        // The candidates read as they are (mapped to `Int`, they were copied into a second
        // array: a sightline that leaves the data asks this once).
        for candidate in candidates(latitude: latitude, longitude: longitude) {
            let i = Int(candidate)
            guard tiles[i].contains(latitude: latitude, longitude: longitude) else { continue }
            if let failure = cache.withLock({ $0.failures[i] }) {
                return "damaged DEM file \(tiles[i].path) (\(failure.message))"
            }
        }
        return nil
    }

    /// Files that were indexed but failed to load, one line each.
    public var loadFailures: [String] { cache.withLock { $0.failures.values.map { "skipping \($0.description)" }.sorted() } }

    /// Bytes of grids held by the cache now.
    public var cachedBytes: Int { cache.withLock { $0.bytes } }

    /// Indices of the tiles whose 1° cell holds the point (a cheap superset of the tiles
    /// containing it).
    public func tiles(nearLatitude latitude: Double, longitude: Double) -> [Int] {
        candidates(latitude: latitude, longitude: normalizedLongitude(longitude)).map(Int.init)
    }

    private struct Cache {
        var grids: [Int: (grid: ElevationGrid, lastUse: UInt64)] = [:]
        var failures: [Int: TerrainFileError] = [:]
        var bytes = 0
        var clock: UInt64 = 0

        /// `.some(grid)` when loaded, `.some(nil)` when it failed before, nil when never tried.
        mutating func grid(_ i: Int) -> ElevationGrid?? {
            if failures[i] != nil { return .some(nil) }
            guard let entry = grids[i] else { return nil }
            clock += 1
            grids[i]!.lastUse = clock
            return entry.grid
        }

        mutating func store(_ i: Int, _ loaded: Result<ElevationGrid, TerrainFileError>, budget: Int) -> ElevationGrid? {
            clock += 1
            if let entry = grids[i] {
                grids[i]!.lastUse = clock
                return entry.grid
            }
            switch loaded {
            case .failure(let error):
                failures[i] = error
                return nil
            case .success(let grid):
                grids[i] = (grid, clock)
                bytes += grid.byteCount
                while bytes > budget, grids.count > 1,
                      let oldest = grids.filter({ $0.key != i }).min(by: { $0.value.lastUse < $1.value.lastUse }) {
                    bytes -= oldest.value.grid.byteCount
                    grids[oldest.key] = nil
                }
                return grid
            }
        }
    }
}

/// A DEM directory that cannot serve as a catalog, with a one-line reason.
public struct CatalogError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
