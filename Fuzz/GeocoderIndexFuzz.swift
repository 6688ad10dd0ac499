// libFuzzer target for the geocoder index loader (GeocoderIndex(data:)) and the look-ups that
// read the index in place.
//
// A real index is over 100 MB, mostly two fixed-size grids of 1440 × 720 cells, so the input
// describes one instead of being one. The first byte steers:
// - even: the rest is handed over as the index file itself (the directory and header checks);
// - odd: the rest is a list of sections, each a little-endian UInt16 length and that many bytes,
//   in the order of `tags`; this target writes the directory, and fills each grid by repeating
//   its section's bytes over all the cells. An index that loads is then asked for the placemark
//   of a few fixed points and of one point taken from the input.
//
// Checks: loading and look-ups never trap, however damaged the index (time-zone layers, claims
// and overrides, the answer tree included); names come back from the index's string table; the
// country look-up agrees with the long way's placemark (not with the answer tree's, which a
// damaged index may contradict).

import Foundation
@testable import TapSeekCore

private let tags = ["META", "STRINGS", "COUNTRY", "REGION", "PLACEKD", "PLACE",
                    "CGRD", "CNOD", "CLEF", "RGRD", "RNOD", "RLEF",
                    "ZONE", "Z0GRD", "Z0NOD", "Z0LEF", "Z1GRD", "Z1NOD", "Z1LEF",
                    "AGRD", "ANOD", "AREC", "ATUP"]
private let gridBytes = 4 * QuadGrid.columns * QuadGrid.rows

@_cdecl("LLVMFuzzerTestOneInput")
public func geocoderIndexFuzzInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    guard let control = input.first else { return 0 }
    let file = control & 1 == 0 ? Data(input.dropFirst()) : assemble(input.dropFirst())
    guard let index = try? GeocoderIndex(data: file) else { return 0 }
    var points: [(Double, Double)] = [(0, 0), (46.577, 8.005), (-33.87, 151.21), (89.99, 179.99), (-90, -180),
                                      (0.125, -179.875), (64.1, -21.9)]
    if input.count >= 5 {
        let tail = input.suffix(4)
        let a = Int(tail[tail.startIndex]) << 8 | Int(tail[tail.startIndex + 1])
        let b = Int(tail[tail.startIndex + 2]) << 8 | Int(tail[tail.startIndex + 3])
        points.append((Double(a) / 65535 * 180 - 90, Double(b) / 65535 * 360 - 180))
    }
    for (latitude, longitude) in points {
        guard let placemark = try? index.placemark(latitude: latitude, longitude: longitude) else {
            violated("a valid point (\(latitude), \(longitude)) was refused", input)
        }
        let reference = try? index.reference(latitude: latitude, longitude: longitude)
        if let reference {
            index.withUTF8(reference) { names in
                _ = names.country.map { String(decoding: $0, as: UTF8.self) }
                _ = names.locality.map { String(decoding: $0, as: UTF8.self) }
                _ = names.timeZone.map { String(decoding: $0, as: UTF8.self) }
                _ = names.alsoClaimedBy.map { String(decoding: $0, as: UTF8.self) }
            }
        }
        // The country look-up and the long way read the same layers and must agree. The answer
        // tree is built from those layers but read apart from them: in a damaged index the two
        // may disagree (the fuzzer found such files), and only its not trapping is checked.
        let code = try? index.isoCountryCode(latitude: latitude, longitude: longitude)
        let longWay = (try? index.referenceTheLongWay(latitude: latitude, longitude: longitude)).map(index.placemark)
        guard code == longWay?.isoCountryCode else {
            violated("country \(String(describing: code)) but the long way's placemark \(String(describing: longWay))", input)
        }
    }
    return 0
}

/// An index file from the section list in `bytes`; missing sections are left out.
private func assemble(_ bytes: ArraySlice<UInt8>) -> Data {
    var sections: [(tag: String, bytes: [UInt8])] = []
    var rest = bytes
    for tag in tags {
        guard rest.count >= 2 else { break }
        let length = Int(rest[rest.startIndex]) | Int(rest[rest.startIndex + 1]) << 8
        rest = rest.dropFirst(2)
        var content = Array(rest.prefix(length))
        rest = rest.dropFirst(length)
        if tag.hasSuffix("GRD") {
            content = tiled(content)
        }
        sections.append((tag, content))
    }
    var file = Data(IndexSections.magic)
    func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { file.append(contentsOf: $0) } }
    append(IndexSections.formatVersion)
    append(UInt32(sections.count))
    var offset = 16 + 24 * sections.count
    for section in sections {
        offset = (offset + 15) / 16 * 16
        var tag = Array(section.tag.utf8)
        tag += [UInt8](repeating: 0, count: 8 - tag.count)
        file.append(contentsOf: tag)
        append(UInt64(offset))
        append(UInt64(section.bytes.count))
        offset += section.bytes.count
    }
    for section in sections {
        file.append(contentsOf: [UInt8](repeating: 0, count: (16 - file.count % 16) % 16))
        file.append(contentsOf: section.bytes)
    }
    return file
}

/// A grid whose cells repeat `pattern` (4-byte codes), all zero (no owner) when it is empty.
private func tiled(_ pattern: [UInt8]) -> [UInt8] {
    guard !pattern.isEmpty else { return [UInt8](repeating: 0, count: gridBytes) }
    var grid = pattern
    grid.reserveCapacity(gridBytes)
    while grid.count < gridBytes {
        grid += grid.prefix(gridBytes - grid.count)
    }
    return grid
}
