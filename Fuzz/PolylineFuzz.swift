// libFuzzer target for the polyline codec (Polyline.decode and Polyline.encode).
//
// The first input byte steers: bit 0 picks decoding (0) or encoding (1), the rest picks the
// precision (modulo the 16 supported digit counts, 0…15). The remaining bytes are the polyline text,
// or the raw bit patterns of latitude/longitude doubles.

@testable import TapSeekCore

@_cdecl("LLVMFuzzerTestOneInput")
public func polylineFuzzInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    guard let control = bytes.first else { return 0 }
    let payload = UnsafeBufferPointer(rebasing: bytes.dropFirst())
    let digitChoices = PolylinePrecision.supportedDigits.count
    guard let precision = PolylinePrecision(digits: Int(control >> 1) % digitChoices) else {
        fatalError("every digit count below \(digitChoices) is supported")
    }
    if control & 1 == 0 {
        checkDecoding(payload, precision: precision)
    } else {
        checkEncoding(payload, precision: precision)
    }
    return 0
}

/// Any bytes either decode to a path whose (canonical) encoding decodes to the same path, and is
/// no longer than the input, or fail with an offset that points at a character of the input.
/// Through 13 digits that is exact; at 14 and 15 a coordinate beyond 2⁵¹ units may come back
/// off by the few units a `Double` cannot hold (see ``Polyline``), so only that is checked there.
private func checkDecoding(_ text: UnsafeBufferPointer<UInt8>, precision: PolylinePrecision) {
    do {
        let path = try Polyline.decode(utf8: text, precision: precision)
        let again: String
        do {
            again = try Polyline.encode(path, precision: precision)
        } catch {
            fatalError("a decoded path failed to encode: \(error)")
        }
        guard let back = try? Polyline.decode(again, precision: precision), back.count == path.count else {
            fatalError("decode(encode(decode(s))) failed for s = \(Array(text))")
        }
        if precision.digits <= 13 {
            guard back == path else { fatalError("decode(encode(decode(s))) != decode(s) for s = \(Array(text))") }
            guard again.utf8.count <= text.count else {
                fatalError("the canonical encoding is longer than s = \(Array(text))")
            }
        } else {
            for (a, b) in zip(path, back) {
                for (x, y) in [(a.latitude, b.latitude), (a.longitude, b.longitude)] {
                    let units = (x * precision.unitsPerDegree).magnitude
                    guard (x - y).magnitude <= (1 + units / Double(Polyline.exactUnits)) / precision.unitsPerDegree + 2 * x.ulp else {
                        fatalError("\(x) came back as \(y) at precision \(precision) for s = \(Array(text))")
                    }
                }
            }
        }
    } catch {
        guard (0..<text.count).contains(error.offset) else {
            fatalError("error offset \(error.offset) outside a \(text.count)-byte input: \(error)")
        }
    }
}

/// Any doubles either encode to a string that decodes to within half a unit of them (plus
/// rounding), or fail naming a coordinate that really is out of range.
private func checkEncoding(_ raw: UnsafeBufferPointer<UInt8>, precision: PolylinePrecision) {
    let doubleCount = raw.count / MemoryLayout<Double>.size
    let values = (0..<doubleCount).map { index in
        UnsafeRawBufferPointer(raw).loadUnaligned(fromByteOffset: index * MemoryLayout<Double>.size, as: Double.self)
    }
    let path = stride(from: 0, to: values.count - 1, by: 2).map { index in
        Polyline.Coordinate(latitude: values[index], longitude: values[index + 1])
    }
    let scale = precision.unitsPerDegree
    let encoded: String
    do {
        encoded = try Polyline.encode(path, precision: precision)
    } catch {
        let value = error.field == .latitude ? path[error.index].latitude : path[error.index].longitude
        let range = error.field == .latitude ? Polyline.latitudeRange : Polyline.longitudeRange
        guard !range.contains(value), error.value.bitPattern == value.bitPattern else {
            fatalError("an encodable value was refused: \(error)")
        }
        // The first bad coordinate is the one named.
        for coordinate in path[..<error.index] {
            guard Polyline.latitudeRange.contains(coordinate.latitude), Polyline.longitudeRange.contains(coordinate.longitude) else {
                fatalError("\(error) named a later coordinate than \(coordinate)")
            }
        }
        return
    }
    let decoded: [Polyline.Coordinate]
    do {
        decoded = try Polyline.decode(encoded, precision: precision)
    } catch {
        fatalError("an encoded path failed to decode: \(error)")
    }
    guard decoded.count == path.count else { fatalError("decoded \(decoded.count) of \(path.count) points") }
    for (original, back) in zip(path, decoded) {
        for (x, y) in [(original.latitude, back.latitude), (original.longitude, back.longitude)] {
            guard (x - y).magnitude <= 0.5 / scale + 4 * x.ulp else {
                fatalError("\(x) came back as \(y) at precision \(precision)")
            }
        }
    }
}
