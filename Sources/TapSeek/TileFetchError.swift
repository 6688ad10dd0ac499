import Foundation

/// Why a tile could not be fetched, or why the request for tiles is malformed: one line that
/// names the tile, URL or field concerned.
public struct TileFetchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of failure.
    public enum Kind: Sendable, Hashable {
        /// The request is malformed: a tile name, bounding box or URL template.
        case usage
        /// The server answered with an HTTP status other than 200, 206 or 404.
        case httpStatus(Int)
        /// The connection failed or broke off; a `.part` file may be left to resume from.
        case transfer
        /// No connection could be made: the host's name does not resolve (no network, or no
        /// such host) or the host cannot be reached.
        case network
        /// The server sent something that is not a tile.
        case corrupt
        /// The DEM directory could not be written, or gzip could not unpack.
        case local
    }

    /// What went wrong, for callers that react differently (a CLI maps `.usage` to exit 2, and
    /// ``isNetworkFailure`` to its network status).
    public let kind: Kind
    /// The one-line message, naming the tile, URL or field.
    public let description: String

    /// An error of `kind` with its one-line message.
    public init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }

    /// Whether the network failed rather than the request or the data: no connection, or a
    /// transfer that broke off. Running again later may succeed.
    public var isNetworkFailure: Bool { kind == .network || kind == .transfer }

    static func invalidTileName(_ text: String) -> TileFetchError {
        TileFetchError(.usage, "\"\(text)\" is not a tile name like N27E086 or S38W071")
    }
    static func invalidBoundingBox(_ detail: String) -> TileFetchError {
        TileFetchError(.usage, "bounding box: \(detail)")
    }
    static func invalidURLTemplate(_ pattern: String, _ detail: String) -> TileFetchError {
        TileFetchError(.usage, "URL template \"\(pattern)\": \(detail)")
    }
}
