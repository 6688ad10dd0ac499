import Foundation

/// Progress of one tile, for a progress display. Called on a background thread.
public enum TileFetchEvent: Sendable, Hashable {
    /// A request goes out; `resumingAt` > 0 asks only for the bytes after those already kept.
    case requesting(SRTMTileName, url: String, resumingAt: Int64)
    /// Bytes of the tile's file so far (kept + received) and the total when the server said it.
    case progress(SRTMTileName, bytes: Int64, expected: Int64?)
    /// Something worth a line: a restart, a replaced invalid file.
    case note(SRTMTileName, String)
}
