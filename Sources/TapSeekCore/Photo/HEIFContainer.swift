/// The boxes of a HEIF/HEIC file (ISO/IEC 23008-12 over the ISO base media file format,
/// ISO/IEC 14496-12) that say what a photo is: the primary item (`pitm`), its size (`ispe`) and
/// its display transforms (`irot`, `imir`), and the items holding EXIF (`infe` type `Exif`) and
/// XMP (`mime` of type `application/rdf+xml`), found through `iloc`.
///
/// Every box size, count and extent is checked against the file; an item's data is read from at
/// most ``maximumExtents`` extents.
struct HEIFContainer {
    /// The EXIF item's TIFF structure, if any.
    var exif: ArraySlice<UInt8>?
    /// The XMP item's packet, if any.
    var xmp: ArraySlice<UInt8>?
    /// The primary image as stored (`ispe`) and as displayed (after `irot`/`imir`).
    var storedWidth: Int
    var storedHeight: Int
    /// The display transform as the EXIF Orientation that means the same (1…8).
    var orientation: Int

    static let maximumExtents = 64
    /// Brands of HEIF still images (ISO/IEC 23008-12, Annex B; AVIF is HEIF too).
    static let brands: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1", "avif", "avis"]

    /// Whether `bytes` starts with an `ftyp` box of a HEIF brand.
    static func isHEIF(_ bytes: ArraySlice<UInt8>) -> Bool {
        let r = ByteReader(bytes, bigEndian: true)
        guard let size = r.uint32(at: 0), size >= 16, Int(size) <= bytes.count, fourCC(bytes, at: 4) == "ftyp" else { return false }
        var at = 8
        while at + 4 <= Int(size) {
            if brands.contains(fourCC(bytes, at: at)) { return true }
            at += at == 8 ? 8 : 4   // major brand, minor version, then compatible brands
        }
        return false
    }

    static func fourCC(_ bytes: ArraySlice<UInt8>, at offset: Int) -> String {
        guard offset >= 0, offset + 4 <= bytes.count else { return "" }
        let b = bytes.startIndex + offset
        return String(decoding: bytes[b..<(b + 4)], as: UTF8.self)
    }

    /// A box: its type and the range of its contents (after the header).
    struct Box {
        let type: String
        let contents: Range<Int>
    }

    /// The boxes directly inside `range` of `bytes`.
    static func boxes(_ bytes: ArraySlice<UInt8>, in range: Range<Int>) throws(PhotoMetadataError) -> [Box] {
        let r = ByteReader(bytes, bigEndian: true)
        var out: [Box] = []
        var at = range.lowerBound
        while at + 8 <= range.upperBound {
            guard let size32 = r.uint32(at: at) else { break }
            let type = fourCC(bytes, at: at + 4)
            var header = 8
            var size = Int(size32)
            if size32 == 1 {
                guard let large = r.uint64(at: at + 8), large <= UInt64(range.upperBound - at) else {
                    throw .malformed("HEIF box '\(type)' at byte \(at) runs past its container")
                }
                size = Int(large)
                header = 16
            } else if size32 == 0 {
                size = range.upperBound - at
            }
            guard size >= header, size <= range.upperBound - at else {
                throw .malformed("HEIF box '\(type)' at byte \(at) runs past its container")
            }
            out.append(Box(type: type, contents: (at + header)..<(at + size)))
            at += size
        }
        return out
    }

    init(_ bytes: ArraySlice<UInt8>) throws(PhotoMetadataError) {
        let r = ByteReader(bytes, bigEndian: true)
        let top = try Self.boxes(bytes, in: 0..<bytes.count)
        guard let meta = top.first(where: { $0.type == "meta" }) else { throw .malformed("HEIF file without a 'meta' box") }
        // meta is a full box: version and flags first.
        let children = try Self.boxes(bytes, in: (meta.contents.lowerBound + 4)..<meta.contents.upperBound)
        func child(_ type: String) -> Box? { children.first { $0.type == type } }

        // Primary item.
        var primary: UInt32?
        if let pitm = child("pitm") {
            let version = r.uint8(at: pitm.contents.lowerBound) ?? 0
            primary = version == 0 ? r.uint16(at: pitm.contents.lowerBound + 4).map(UInt32.init) : r.uint32(at: pitm.contents.lowerBound + 4)
        }
        guard let primary else { throw .malformed("HEIF file without a primary item ('pitm')") }

        // Item types.
        var exifItem: UInt32?, xmpItem: UInt32?
        if let iinf = child("iinf") {
            let version = r.uint8(at: iinf.contents.lowerBound) ?? 0
            let entriesStart = iinf.contents.lowerBound + 4 + (version == 0 ? 2 : 4)
            for infe in try Self.boxes(bytes, in: entriesStart..<iinf.contents.upperBound) where infe.type == "infe" {
                let v = r.uint8(at: infe.contents.lowerBound) ?? 0
                guard v >= 2 else { continue }
                var at = infe.contents.lowerBound + 4
                guard let id = v == 2 ? r.uint16(at: at).map(UInt32.init) : r.uint32(at: at) else { continue }
                at += (v == 2 ? 2 : 4) + 2   // item_ID, item_protection_index
                let type = Self.fourCC(bytes, at: at)
                at += 4
                if type == "Exif", exifItem == nil { exifItem = id }
                if type == "mime", xmpItem == nil {
                    // item_name then content_type, NUL-terminated.
                    let rest = bytes[(bytes.startIndex + at)..<(bytes.startIndex + infe.contents.upperBound)]
                    let strings = rest.split(separator: 0, maxSplits: 2, omittingEmptySubsequences: false)
                    if strings.count > 1, String(decoding: strings[1], as: UTF8.self) == "application/rdf+xml" { xmpItem = id }
                }
            }
        }

        // Item locations.
        var locations: [UInt32: [(offset: Int, length: Int)]] = [:]
        var idat: Range<Int>?
        if let box = child("idat") { idat = box.contents }
        if let iloc = child("iloc") {
            var at = iloc.contents.lowerBound
            let version = r.uint8(at: at) ?? 0
            at += 4
            guard let sizes = r.uint8(at: at), let sizes2 = r.uint8(at: at + 1) else { throw .malformed("HEIF 'iloc' box cut short") }
            let offsetSize = Int(sizes >> 4), lengthSize = Int(sizes & 15), baseSize = Int(sizes2 >> 4)
            let indexSize = version >= 1 ? Int(sizes2 & 15) : 0
            guard [0, 4, 8].contains(offsetSize), [0, 4, 8].contains(lengthSize), [0, 4, 8].contains(baseSize), [0, 4, 8].contains(indexSize) else {
                throw .malformed("HEIF 'iloc' box with field sizes other than 0, 4 or 8 bytes")
            }
            at += 2
            let countWidth = version < 2 ? 2 : 4
            guard let count = r.unsigned(at: at, width: countWidth) else { throw .malformed("HEIF 'iloc' box cut short") }
            at += countWidth
            for _ in 0..<min(Int(count), (iloc.contents.upperBound - at) / 4) {
                guard let id = r.unsigned(at: at, width: version < 2 ? 2 : 4) else { break }
                at += version < 2 ? 2 : 4
                var method = 0
                if version >= 1 {
                    method = Int((r.uint16(at: at) ?? 0) & 15)
                    at += 2
                }
                at += 2   // data_reference_index
                guard let base = r.unsigned(at: at, width: baseSize) else { break }
                at += baseSize
                guard let extents = r.uint16(at: at) else { break }
                at += 2
                var parts: [(Int, Int)] = []
                for _ in 0..<Int(extents) {
                    at += indexSize
                    guard let offset = r.unsigned(at: at, width: offsetSize), let length = r.unsigned(at: at + offsetSize, width: lengthSize) else {
                        throw .malformed("HEIF 'iloc' box cut short")
                    }
                    at += offsetSize + lengthSize
                    if parts.count < Self.maximumExtents {
                        let origin = method == 1 ? UInt64(idat?.lowerBound ?? Int.max / 2) : 0
                        let (start, overflow) = origin.addingReportingOverflow(base &+ offset)
                        guard !overflow, start <= UInt64(Int.max / 2), length <= UInt64(Int.max / 2) else { continue }
                        parts.append((Int(start), Int(length)))
                    }
                }
                if method <= 1 { locations[UInt32(truncatingIfNeeded: id)] = parts }
            }
        }
        /// An item's bytes when its extents lie inside the file (a length of 0 means to the end).
        func data(of item: UInt32?) -> ArraySlice<UInt8>? {
            guard let item, let parts = locations[item], parts.count == 1 else { return nil }
            let (start, length) = parts[0]
            let end = length == 0 ? bytes.count : start + length
            guard start < bytes.count, end <= bytes.count, start < end else { return nil }
            return bytes[(bytes.startIndex + start)..<(bytes.startIndex + end)]
        }
        if let payload = data(of: exifItem) {
            // exif_tiff_header_offset (ISO/IEC 23008-12, A.2.1), then the TIFF structure.
            if let skip = ByteReader(payload, bigEndian: true).uint32(at: 0), Int(skip) <= payload.count - 4 {
                exif = payload.dropFirst(4 + Int(skip))
            }
        }
        xmp = data(of: xmpItem)

        // Properties of the primary item.
        var width = 0, height = 0, rotation = 0, mirror: Int?
        if let iprp = child("iprp") {
            let parts = try Self.boxes(bytes, in: iprp.contents)
            let properties = try parts.first { $0.type == "ipco" }.map { (box) throws(PhotoMetadataError) in try Self.boxes(bytes, in: box.contents) } ?? []
            for ipma in parts where ipma.type == "ipma" {
                var at = ipma.contents.lowerBound
                let version = r.uint8(at: at) ?? 0
                let flags = r.uint8(at: at + 3) ?? 0
                at += 4
                guard let count = r.uint32(at: at) else { break }
                at += 4
                for _ in 0..<min(Int(count), ipma.contents.upperBound - at) {
                    guard let id = version < 1 ? r.uint16(at: at).map(UInt32.init) : r.uint32(at: at), let n = r.uint8(at: at + (version < 1 ? 2 : 4)) else { break }
                    at += (version < 1 ? 2 : 4) + 1
                    for _ in 0..<Int(n) {
                        let index: Int
                        if flags & 1 == 1 {
                            index = Int((r.uint16(at: at) ?? 0) & 0x7FFF)
                            at += 2
                        } else {
                            index = Int((r.uint8(at: at) ?? 0) & 0x7F)
                            at += 1
                        }
                        guard id == primary, index >= 1, index <= properties.count else { continue }
                        let p = properties[index - 1]
                        switch p.type {
                        case "ispe":
                            width = Int(r.uint32(at: p.contents.lowerBound + 4) ?? 0)
                            height = Int(r.uint32(at: p.contents.lowerBound + 8) ?? 0)
                        case "irot": rotation = Int((r.uint8(at: p.contents.lowerBound) ?? 0) & 3)
                        case "imir": mirror = Int((r.uint8(at: p.contents.lowerBound) ?? 0) & 1)
                        default: break
                        }
                    }
                }
            }
        }
        guard width > 0, height > 0 else { throw .malformed("HEIF file whose primary image has no size ('ispe')") }
        storedWidth = width
        storedHeight = height
        orientation = ImageOrientation(heifRotation: rotation, mirror: mirror).exifValue
    }
}
