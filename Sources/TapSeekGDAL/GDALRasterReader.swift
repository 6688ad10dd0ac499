import TapSeekCore

/// Every raster format GDAL reads (GeoTIFF, DTED, VRT, …, projected rasters warped to WGS84), as
/// the ``RasterReader`` of an ``ElevationCatalog``:
///
/// ```swift
/// let catalog = try ElevationCatalog(directory: "dem", rasterReader: .gdal)
/// ```
///
/// libgdal is loaded when the first such file is described, never for SRTM tiles.
public struct GDALRasterReader: RasterReader {
    public init() {}

    public func describe(path: String) throws(TerrainFileError) -> DEMTile {
        do {
            return try RasterFile(path: path).describe()
        } catch {
            throw TerrainFileError(path: error.path, message: error.message)
        }
    }

    public func readGrid(of tile: DEMTile) throws(TerrainFileError) -> ElevationGrid {
        do {
            return try RasterFile(path: tile.path).readGrid()
        } catch {
            throw TerrainFileError(path: error.path, message: error.message)
        }
    }
}

extension RasterReader where Self == GDALRasterReader {
    /// GDAL, for every raster format it reads.
    public static var gdal: GDALRasterReader { GDALRasterReader() }
}
