import Foundation

/// The section directory of a geocoder index file, as `scripts/geocoder_index/writer.py` writes
/// it (the two must change together; the format version guards that).
///
/// Layout, little-endian: the 8 bytes `TSGEOIDX`, a `UInt32` format version, a `UInt32` section
/// count, then per section an 8-byte ASCII tag (NUL-padded), a `UInt64` byte offset from the
/// start of the file and a `UInt64` length. Sections start on 16-byte boundaries.
struct IndexSections: Sendable {
    /// The format this reader understands.
    static let formatVersion: UInt32 = 3
    static let magic: [UInt8] = Array("TSGEOIDX".utf8)

    /// Byte ranges by tag.
    let ranges: [String: Range<Int>]

    init(_ raw: UnsafeRawBufferPointer) throws(GeocoderIndexError) {
        guard raw.count >= 16, Array(raw[0..<8]) == Self.magic else {
            throw GeocoderIndexError("not a TapSeek geocoder index (bad magic)")
        }
        let version = raw.loadUnaligned(fromByteOffset: 8, as: UInt32.self).littleEndian
        guard version == Self.formatVersion else {
            throw GeocoderIndexError("geocoder index format \(version), this build reads format \(Self.formatVersion); rebuild it with scripts/build-geocoder-index.sh")
        }
        let count = Int(raw.loadUnaligned(fromByteOffset: 12, as: UInt32.self).littleEndian)
        guard count < 1000, 16 + 24 * count <= raw.count else {
            throw GeocoderIndexError("geocoder index directory is truncated")
        }
        var ranges: [String: Range<Int>] = [:]
        for k in 0..<count {
            let entry = 16 + 24 * k
            let tagBytes = raw[entry..<(entry + 8)].prefix { $0 != 0 }
            let tag = String(decoding: tagBytes, as: UTF8.self)
            let offset = raw.loadUnaligned(fromByteOffset: entry + 8, as: UInt64.self).littleEndian
            let length = raw.loadUnaligned(fromByteOffset: entry + 16, as: UInt64.self).littleEndian
            guard offset <= UInt64(raw.count), length <= UInt64(raw.count) - offset, offset % 8 == 0 else {
                throw GeocoderIndexError("geocoder index section \(tag) lies outside the file (truncated download or build?)")
            }
            ranges[tag] = Int(offset)..<Int(offset + length)
        }
        self.ranges = ranges
    }

    /// The range of a section that must exist, its length a multiple of `stride`.
    func require(_ tag: String, stride: Int = 1) throws(GeocoderIndexError) -> Range<Int> {
        guard let range = ranges[tag] else { throw GeocoderIndexError("geocoder index has no \(tag) section") }
        guard range.count % stride == 0 else {
            throw GeocoderIndexError("geocoder index section \(tag) has \(range.count) bytes, not a multiple of \(stride)")
        }
        return range
    }
}
