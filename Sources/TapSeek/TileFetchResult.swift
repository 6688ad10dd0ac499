import Foundation

/// What happened to one tile.
public enum TileFetchResult: Sendable, Hashable {
    /// A valid file for the tile was already in the directory; nothing was downloaded.
    case present(file: String, bytes: Int64)
    /// The tile was downloaded, verified and stored as `file` (`bytes` on disk);
    /// `transferred` bytes came over the wire this time, after `resumedAt` bytes kept from an
    /// earlier, interrupted download.
    case stored(file: String, bytes: Int64, transferred: Int64, resumedAt: Int64)
    /// The server has no such tile (HTTP 404, or no file for a `file:` URL): usually all ocean.
    case noTile(url: String)
}
