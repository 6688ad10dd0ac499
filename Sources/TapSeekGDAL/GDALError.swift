/// A failure inside GDAL, with the file it concerns: "N27E086.hgt: not recognized as a supported file format".
public struct GDALError: Error, Sendable, CustomStringConvertible {
    /// The file GDAL was working on.
    public let path: String
    /// GDAL's own message (`CPLGetLastErrorMsg`), or ours when GDAL gave none.
    public let message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}
