import Foundation

/// The checks a downloaded Copernicus tile must pass before it takes its place.
public enum CopernicusTileFile {
    /// A GLO-30 tile is 3 600 × 3 600 Float32 posts at most (51.8 MB uncompressed), plus its
    /// overviews (a third more) and headers: anything past 100 MB is not one.
    public static let maximumFileBytes: Int64 = 100_000_000

    /// Why the file at `path` is not the tile `tile` — not a GeoTIFF in EPSG:4326 that TapSeekCore
    /// reads, or posts that do not span that 1° cell as Copernicus tiles do (north and west edges
    /// on whole degrees, 1° of rows and columns) — or nil when it is. `decoding` also decodes
    /// every post, which finds a truncated or damaged download.
    public static func problem(atPath path: String, tile: SRTMTileName, decoding: Bool) -> String? {
        let described: DEMTile?
        do { described = try GeoTIFFTile.describe(path: path) } catch { return error.message }
        guard let t = described else { return "not a GeoTIFF in EPSG:4326 that TapSeek reads" }
        let dy = t.latitudeSpacing, dx = t.longitudeSpacing
        guard abs(t.north - Double(tile.latitude + 1)) < dy / 2, abs(t.west - Double(tile.longitude)) < dx / 2,
              abs(Double(t.rows) * dy - 1) < dy / 2, abs(Double(t.columns) * dx - 1) < dx / 2 else {
            func f(_ v: Double) -> String { String(format: "%.5f", v) }
            return "its posts span \(f(t.south))…\(f(t.north))° latitude, \(f(t.west))…\(f(t.east))° longitude, not the 1° of \(tile)"
        }
        if decoding {
            do { _ = try GeoTIFFTile.readGrid(path: path) } catch { return error.message }
        }
        return nil
    }
}
