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

    /// Places of the coordinates (1e-9°).
    static let coordinateDecimals = 9

    /// The common batch record, a height found (no reason, no detail), exactly as
    /// ``write(_:line:readFrom:to:)`` writes it, from plain numbers: the coordinates' texts,
    /// where given, are copied unchecked (the caller knows them to be what formatting writes),
    /// and the heights are written by ``RecordBytes/appendCentimetres(_:)``. Without the
    /// look-up's whole result, its optional strings are neither copied nor released per record.
    static func writeHeight(line: Int, latitude: Double, text latitudeText: UnsafeBufferPointer<UInt8>?,
                            longitude: Double, text longitudeText: UnsafeBufferPointer<UInt8>?,
                            elevation: Double, filled: Bool, geoidUndulation: Double, to out: inout OutputBuffer) {
        RecordBytes.append(to: &out, capacity: fixedPart) { record in
            record.appendRecordStart(line: line)
            record.append("\"latitude\":")
            if let latitudeText { record.append(UnsafeRawBufferPointer(latitudeText)) } else { record.appendFixed(latitude, decimals: coordinateDecimals) }
            record.append(",\"longitude\":")
            if let longitudeText { record.append(UnsafeRawBufferPointer(longitudeText)) } else { record.appendFixed(longitude, decimals: coordinateDecimals) }
            record.append(",\"elevation\":")
            record.appendCentimetres(elevation)
            if filled { record.append(",\"filled\":true") }
            record.append(",\"geoidUndulation\":")
            record.appendCentimetres(geoidUndulation)
            record.append(byte: UInt8(ascii: "}"))
        }
    }

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
            record.appendFixed(e.latitude, decimals: coordinateDecimals, readFrom: texts.latitude)
            record.append(",\"longitude\":")
            record.appendFixed(e.longitude, decimals: coordinateDecimals, readFrom: texts.longitude)
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
