/// Why a gazetteer could not be opened or built: one line naming the file or field.
public struct GazetteerError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
