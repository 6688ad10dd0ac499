import TapSeek

/// One placemark as a JSON object, keys in CLPlacemark's names, unknown keys left out. Names are
/// copied as UTF-8 straight from the index (no `String` per record) into one ``RecordBytes``.
enum GeocodeRecord {
    /// The keys, numbers and punctuation of a record: under 300 bytes (two shortest doubles and
    /// one fixed-point number of at most 32 bytes each, keys of 150), with room to spare.
    private static let fixedPart = 512

    /// `readFrom` holds the coordinates' text as read, if any: copied where it is what
    /// formatting them would write (``JSONText/isShortestDecimal(_:of:)``).
    /// `line`: the input line's number, first in every batch record (nil for a single point).
    static func write(line: Int? = nil, latitude: Double, longitude: Double,
                      readFrom texts: (latitude: UnsafeBufferPointer<UInt8>?, longitude: UnsafeBufferPointer<UInt8>?) = (nil, nil),
                      _ reference: PlacemarkReference, in index: GeocoderIndex, to out: inout OutputBuffer) {
        index.withUTF8(reference) { names in
            // A name escaped for JSON takes at most 6 bytes per byte; a claim adds its quotes and comma.
            var nameBytes = (names.isoCountryCode?.count ?? 0) + (names.country?.count ?? 0)
                + (names.administrativeArea?.count ?? 0) + (names.subAdministrativeArea?.count ?? 0)
                + (names.locality?.count ?? 0) + (names.timeZone?.count ?? 0)
            for code in names.alsoClaimedBy { nameBytes += code.count + 1 }
            RecordBytes.append(to: &out, capacity: fixedPart + 6 * nameBytes) { record in
                record.appendRecordStart(line: line)
                record.append("\"latitude\":")
                record.appendShortest(latitude, readFrom: texts.latitude)
                record.append(",\"longitude\":")
                record.appendShortest(longitude, readFrom: texts.longitude)
                field(",\"isoCountryCode\":", names.isoCountryCode, &record)
                field(",\"country\":", names.country, &record)
                field(",\"administrativeArea\":", names.administrativeArea, &record)
                field(",\"subAdministrativeArea\":", names.subAdministrativeArea, &record)
                field(",\"locality\":", names.locality, &record)
                if let d = names.localityDistance {
                    record.append(",\"localityDistance\":")
                    record.appendFixed(d, decimals: 0)
                }
                field(",\"timeZone\":", names.timeZone, &record)
                if !names.alsoClaimedBy.isEmpty {
                    record.append(",\"alsoClaimedBy\":[")
                    for (k, code) in names.alsoClaimedBy.enumerated() {
                        if k > 0 { record.append(byte: UInt8(ascii: ",")) }
                        field("", code, &record)
                    }
                    record.append(byte: UInt8(ascii: "]"))
                }
                record.append(byte: UInt8(ascii: "}"))
            }
        }
    }

    /// Appends `key` (with its comma and colon) and the value as a JSON string.
    @inline(__always) private static func field(_ key: StaticString, _ value: UnsafeRawBufferPointer?, _ record: inout RecordBytes) {
        guard let value else { return }
        record.append(key)
        // Names rarely hold a quote, a backslash or a control character; copy them whole unless so.
        if needsEscaping(value) {
            record.appendJSONString(String(decoding: value, as: UTF8.self))
        } else {
            record.append(byte: UInt8(ascii: "\""))
            record.append(value)
            record.append(byte: UInt8(ascii: "\""))
        }
    }

    /// Whether JSON needs any of these bytes escaped (a quote, a backslash, a control character).
    @inline(__always) private static func needsEscaping(_ value: UnsafeRawBufferPointer) -> Bool {
        guard let base = value.baseAddress else { return false }
        for i in 0..<value.count {
            let byte = base.load(fromByteOffset: i, as: UInt8.self)
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return true }
        }
        return false
    }
}
