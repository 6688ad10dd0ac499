/// Why a magnetic model refused to answer or could not be read. ``description`` is one line
/// naming the offending input.
public struct MagneticModelError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Hashable {
        /// The time lies outside the model's validity interval; the model would be extrapolated.
        case outsideValidity
        /// A latitude, longitude or height that is not a finite number in range.
        case invalidPosition
        /// A magnetic heading without the time needed to convert it.
        case missingTime
        /// A coefficient file that cannot be read; the message names the line.
        case invalidCoefficients
    }

    public var kind: Kind
    /// One line, naming the offending input.
    public var message: String

    /// An error of `kind` with a one-line message.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
