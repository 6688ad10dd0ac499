import TapSeek

/// The JSON of one elevation look-up: `{"latitude","longitude","elevation","geoidUndulation"}`,
/// plus `"reason"` when the elevation is null (and `"detail"` naming a damaged file). Coordinates to 1e-9° (0.1 mm), heights to 1 cm.
enum ElevationRecord {
    /// `line`: the input line's number, first in every batch record (nil for a single point).
    static func write(_ e: ElevationService.PointElevation, line: Int? = nil, to out: inout OutputBuffer) {
        out.append("{")
        if let line { out.append("\"line\":\(line),") }
        out.append("\"latitude\":")
        out.appendFixed(e.latitude, decimals: 9)
        out.append(",\"longitude\":")
        out.appendFixed(e.longitude, decimals: 9)
        out.append(",\"elevation\":")
        if let h = e.elevation { out.appendFixed(h, decimals: 2) } else { out.append("null") }
        out.append(",\"geoidUndulation\":")
        out.appendFixed(e.geoidUndulation, decimals: 2)
        if let reason = e.reason {
            out.append(",\"reason\":")
            out.appendJSONString(reason)
        }
        if let detail = e.detail {
            out.append(",\"detail\":")
            out.appendJSONString(detail)
        }
        out.append("}")
    }
}
