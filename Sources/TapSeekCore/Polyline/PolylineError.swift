/// Why ``Polyline/decode(_:precision:)`` refused a string, and where.
///
/// `offset` counts characters from the start of the string, starting at 0. Every character
/// before a problem is ASCII (anything else is itself the problem), so the offset is the same
/// whether one counts characters, Unicode scalars or UTF-8 bytes.
public struct PolylineError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kinds of malformed polyline.
    public enum Reason: Sendable, Hashable {
        /// A byte outside `?` (63) … `~` (126), the only characters the format uses.
        case invalidCharacter(UInt8)
        /// The string ends before the value that begins at `offset` is complete (its last
        /// character still has the continuation bit, 0x20, set).
        case truncatedValue
        /// The string ends after a latitude (beginning at `offset`) with no longitude to pair it.
        case missingLongitude
        /// The value beginning at `offset` takes the latitude beyond ±90° or the longitude beyond
        /// ±180° (or is longer than any such value can be).
        case valueOutOfRange
    }

    /// What is wrong.
    public var reason: Reason
    /// Zero-based character offset of the offending character, or of the first character of the
    /// offending value.
    public var offset: Int

    public init(_ reason: Reason, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }

    public var description: String {
        switch reason {
        case .invalidCharacter(let byte):
            let hex = "0x" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            let shown = (32...126).contains(byte) ? "character '\(Character(Unicode.Scalar(byte)))' (\(hex))" : "byte \(hex)"
            return "polyline: invalid \(shown) at offset \(offset); only '?' through '~' may appear"
        case .truncatedValue:
            return "polyline: truncated value at offset \(offset); the string ends inside it"
        case .missingLongitude:
            return "polyline: the latitude at offset \(offset) has no longitude after it"
        case .valueOutOfRange:
            return "polyline: the value at offset \(offset) takes the coordinate beyond "
                + "±90° latitude or ±180° longitude"
        }
    }
}
