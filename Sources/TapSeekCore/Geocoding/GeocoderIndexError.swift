/// A geocoder index that cannot be used: missing, unreadable, of another format version, or
/// damaged. The message is one line naming the file when known.
public struct GeocoderIndexError: Error, Sendable, Hashable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
