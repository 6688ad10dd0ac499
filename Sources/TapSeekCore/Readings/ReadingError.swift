/// Why a reading was rejected: one line naming the field, e.g.
/// `orientation.pitch must be within −90…90, got 123` or `location.latitude is missing`.
///
/// ``field`` is the dotted JSON path of the offending value (`camera.horizontalFOV`), or empty
/// when the problem is the JSON text itself (then ``message`` gives the line and column).
public struct ReadingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Dotted JSON path of the offending field; empty for a syntax error in the JSON text.
    public var field: String
    /// What is wrong, continuing the sentence that starts with the field's name.
    public var message: String

    /// An error about `field` (a dotted JSON path, or empty for the JSON text as a whole).
    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    /// The whole one-line message: the field's path followed by ``message``.
    public var description: String { field.isEmpty ? message : "\(field) \(message)" }
}
