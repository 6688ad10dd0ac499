/// A terrain file (elevation tile, geoid grid) that the pure-Swift readers cannot read, with the
/// file it concerns: "/dem/N27E086.hgt: 1000 bytes is not the size of a 1″ or 3″ SRTM tile".
public struct TerrainFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file being read.
    public let path: String
    /// What is wrong with it, without the path.
    public let message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}
