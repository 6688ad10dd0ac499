import TapSeek

/// The JSON of one elevation look-up: `{"latitude","longitude","elevation","geoidUndulation"}`,
/// plus `"filled":true` when the elevation rests on terrain filled across a void, `"reason"` when
/// the elevation is null (and `"detail"` naming a damaged file). Coordinates to 1e-9° (0.1 mm), heights to 1 cm.
///
/// Assembled in one ``RecordBytes`` and appended in one copy: `elevation --batch` writes a
/// million of these a second, where a dozen appends and a `String` for the line number cost
/// more than the look-up.
enum ElevationRecord {
    /// The keys, punctuation and five numbers of at most 32 bytes each: under 250 bytes.
    private static let fixedPart = 256

    /// `line`: the input line's number, first in every batch record (nil for a single point).
    /// `readFrom` holds the coordinates' text as read, if any: copied where it is what formatting
    /// them would write (``JSONText/isFixedDecimal(_:of:decimals:)``).
    static func write(_ e: ElevationService.PointElevation, line: Int? = nil,
                      readFrom texts: (latitude: UnsafeBufferPointer<UInt8>?, longitude: UnsafeBufferPointer<UInt8>?) = (nil, nil),
                      to out: inout OutputBuffer) {
        // A reason or detail escaped for JSON takes at most 6 bytes per byte, and its quotes.
        let textBytes = 6 * ((e.reason?.utf8.count ?? 0) + (e.detail?.utf8.count ?? 0))
        RecordBytes.append(to: &out, capacity: fixedPart + textBytes) { record in
            record.appendRecordStart(line: line)
            record.append("\"latitude\":")
            record.appendFixed(e.latitude, decimals: 9, readFrom: texts.latitude)
            record.append(",\"longitude\":")
            record.appendFixed(e.longitude, decimals: 9, readFrom: texts.longitude)
            record.append(",\"elevation\":")
            if let h = e.elevation { record.appendFixed(h, decimals: 2) } else { record.append("null") }
            if e.filled { record.append(",\"filled\":true") }
            record.append(",\"geoidUndulation\":")
            record.appendFixed(e.geoidUndulation, decimals: 2)
            if let reason = e.reason {
                record.append(",\"reason\":")
                record.appendJSONString(reason)
            }
            if let detail = e.detail {
                record.append(",\"detail\":")
                record.appendJSONString(detail)
            }
            record.append("}")
        }
    }
}
