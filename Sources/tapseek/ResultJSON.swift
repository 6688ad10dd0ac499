import TapSeek

/// Pieces of the result JSON that the other outputs (aim, panorama, calibrate, GeoJSON
/// properties) share. A result and its parts are written by their `Codable` conformances
/// through ``OutputBuffer/appendJSON(_:)``: the library's encoder, the one writer of that JSON.
enum ResultJSON {
    static func write(_ r: LocateResult, to out: inout OutputBuffer) { out.appendJSON(r) }

    /// `"id":…,"line":N,` of a record, each when known.
    static func writeIdentity(id: String?, line: Int?, to out: inout OutputBuffer) {
        if let id {
            out.append("\"id\":")
            out.appendJSONString(id)
            out.append(",")
        }
        if let line { out.append("\"line\":\(line),") }
    }

    /// `,"warnings":[…]` and, for a failure, `,"error":{"code","message"}`.
    static func writeWarnings(_ warnings: [String], error: LocateResult.Failure? = nil, to out: inout OutputBuffer) {
        out.append(",\"warnings\":")
        out.appendJSON(warnings)
        if let error {
            out.append(",\"error\":")
            out.appendJSON(error)
        }
    }
}
