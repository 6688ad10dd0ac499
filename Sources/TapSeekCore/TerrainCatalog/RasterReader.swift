/// Reads the elevation rasters of a catalog that are not SRTM tiles (GeoTIFF, DTED, VRT, …).
///
/// TapSeekCore reads SRTM `.hgt` and `.hgt.zip` tiles itself and needs no reader for them. The
/// `TapSeek` library supplies ``gdal`` (every raster format GDAL reads, projected rasters
/// warped to WGS84); an app may supply its own.
public protocol RasterReader: Sendable {
    /// The file's lattice of posts and footprint, without reading its heights.
    func describe(path: String) throws(TerrainFileError) -> DEMTile
    /// The file's heights on a latitude/longitude lattice of posts, NaN where void.
    func readGrid(of tile: DEMTile) throws(TerrainFileError) -> ElevationGrid
}
