import TapSeek

/// The result JSON of `tapseek`: a result and its parts are written by their `Codable`
/// conformances through ``OutputBuffer/appendJSON(_:)`` (the library's encoder, the one writer of
/// that JSON); GeoJSON properties add the warnings and error here.
enum ResultJSON {
    /// `,"warnings":[…],"warningCodes":[…]` and, for a failure, `,"error":{"code","message"}`.
    static func writeWarnings(_ warnings: [Warning], error: LocateResult.Failure? = nil, to out: inout OutputBuffer) {
        out.append(",\"warnings\":")
        out.appendJSON(warnings.map(\.message))
        out.append(",\"warningCodes\":")
        out.appendJSON(warnings.map(\.code.rawValue))
        if let error {
            out.append(",\"error\":")
            out.appendJSON(error)
        }
    }
}
