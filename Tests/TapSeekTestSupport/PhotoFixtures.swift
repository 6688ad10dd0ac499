import Foundation

/// Photo files written byte by byte for the metadata tests: JPEG segments, EXIF's TIFF
/// structure in either byte order, XMP packets and HEIF boxes, laid out as the standards (and
/// real cameras) lay them out, so that each field's reading is checked against a value put there
/// independently of the reader.
public enum PhotoFixtures {
    /// A JPEG with only a frame header (no scan): enough for its size to be read.
    public static func minimalJPEG(width: Int, height: Int, segments: [[UInt8]] = []) -> [UInt8] {
        var out: [UInt8] = [0xFF, 0xD8]
        for s in segments { out += s }
        out += [0xFF, 0xC0, 0x00, 0x11, 0x08] + be16(height) + be16(width) + [0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01]
        out += [0xFF, 0xD9]
        return out
    }

    /// An APP1 segment holding `payload` after `signature`.
    public static func app1(_ signature: String, _ payload: [UInt8]) -> [UInt8] {
        let body = Array(signature.utf8) + payload
        return [0xFF, 0xE1] + be16(body.count + 2) + body
    }

    /// The APP1 EXIF segment of a TIFF structure.
    public static func exifSegment(_ tiff: [UInt8]) -> [UInt8] { app1("Exif\0\0", tiff) }

    /// The APP1 XMP segment of a packet.
    public static func xmpSegment(_ packet: String) -> [UInt8] { app1("http://ns.adobe.com/xap/1.0/\0", Array(packet.utf8)) }

    static func be16(_ v: Int) -> [UInt8] { [UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }
    static func be32(_ v: Int) -> [UInt8] { [UInt8((v >> 24) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)] }

    /// A TIFF field value.
    public enum Value {
        case ascii(String)
        case short([Int])
        case long([Int])
        case rational([(Int, Int)])
        case srational([(Int, Int)])
        /// A sub-directory (EXIF 0x8769, GPS 0x8825), written after its parent.
        case directory([(UInt16, Value)])
        /// A LONG pointing at a fixed offset (for hostile files).
        case rawOffset(Int)
    }

    /// A TIFF structure (what follows "Exif\0\0") with IFD0 `entries`, in either byte order.
    public static func tiff(_ entries: [(UInt16, Value)], bigEndian: Bool) -> [UInt8] {
        var out: [UInt8] = bigEndian ? [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8] : [0x49, 0x49, 0x2A, 0x00, 8, 0, 0, 0]
        func u16(_ v: Int) -> [UInt8] { bigEndian ? be16(v) : be16(v).reversed() }
        func u32(_ v: Int) -> [UInt8] { bigEndian ? be32(v) : be32(v).reversed() }
        func put(_ bytes: [UInt8], at offset: Int) { for (i, b) in bytes.enumerated() { out[offset + i] = b } }
        /// Writes a directory at the end of `out`; returns its offset.
        func directory(_ entries: [(UInt16, Value)]) -> Int {
            let start = out.count
            let sorted = entries.sorted { $0.0 < $1.0 }
            out += u16(sorted.count)
            let table = out.count
            out += [UInt8](repeating: 0, count: 12 * sorted.count) + u32(0)
            for (i, (tag, value)) in sorted.enumerated() {
                let at = table + 12 * i
                var type = 0, count = 0
                var data: [UInt8] = []
                var pointer: Int?
                switch value {
                case .ascii(let s):
                    type = 2
                    data = Array(s.utf8) + [0]
                    count = data.count
                case .short(let v):
                    type = 3
                    data = v.flatMap { u16($0) }
                    count = v.count
                case .long(let v):
                    type = 4
                    data = v.flatMap { u32($0) }
                    count = v.count
                case .rational(let v):
                    type = 5
                    data = v.flatMap { u32($0.0) + u32($0.1) }
                    count = v.count
                case .srational(let v):
                    type = 10
                    data = v.flatMap { u32($0.0 & 0xFFFF_FFFF) + u32($0.1 & 0xFFFF_FFFF) }
                    count = v.count
                case .rawOffset(let o):
                    type = 4
                    count = 1
                    data = u32(o)
                case .directory(let sub):
                    type = 4
                    count = 1
                    pointer = directory(sub)
                    data = u32(pointer!)
                }
                put(u16(Int(tag)) + u16(type) + u32(count), at: at)
                if data.count <= 4 {
                    put(data + [UInt8](repeating: 0, count: 4 - data.count), at: at + 8)
                } else {
                    put(u32(out.count), at: at + 8)
                    out += data
                    if out.count % 2 == 1 { out.append(0) }
                }
            }
            return start
        }
        _ = directory(entries)
        return out
    }

    /// The EXIF of a phone photo: IFD0 with make, model and `orientation`; the EXIF directory
    /// with time, offset and focal lengths; the GPS directory with position, altitude and
    /// direction. Degrees are written as degrees, minutes and hundredths of seconds.
    public static func phoneEXIF(latitude: Double, longitude: Double, altitude: Double, direction: Double?, directionRef: String = "T",
                                 orientation: Int = 1, focal35: Int? = 26, time: String = "2026:07:14 09:41:05",
                                 offset: String? = "+05:45", bigEndian: Bool = true) -> [UInt8] {
        func dms(_ v: Double) -> Value {
            let a = abs(v)
            let d = Int(a), m = Int((a - Double(d)) * 60), s = ((a - Double(d)) * 60 - Double(m)) * 60
            return .rational([(d, 1), (m, 1), (Int((s * 100).rounded()), 100)])
        }
        var exif: [(UInt16, Value)] = [(0x9003, .ascii(time)), (0x920A, .rational([(510, 100)]))]
        if let offset { exif.append((0x9011, .ascii(offset))) }
        if let focal35 { exif.append((0xA405, .short([focal35]))) }
        var gps: [(UInt16, Value)] = [
            (0x01, .ascii(latitude >= 0 ? "N" : "S")), (0x02, dms(latitude)),
            (0x03, .ascii(longitude >= 0 ? "E" : "W")), (0x04, dms(longitude)),
            (0x05, .short([altitude >= 0 ? 0 : 1])), (0x06, .rational([(Int((abs(altitude) * 100).rounded()), 100)])),
        ]
        if let direction { gps += [(0x10, .ascii(directionRef)), (0x11, .rational([(Int((direction * 100).rounded()), 100)]))] }
        return tiff([(0x010F, .ascii("Apple")), (0x0110, .ascii("iPhone 15")), (0x0112, .short([orientation])),
                     (0x8769, .directory(exif)), (0x8825, .directory(gps))], bigEndian: bigEndian)
    }

    /// A HEIF file as a phone writes one (ISO/IEC 23008-12): `ftyp` (heic), `meta` with the
    /// primary item, an `Exif` item and an XMP `mime` item located by `iloc` in `mdat`, and the
    /// primary item's `ispe` size and `irot` rotation (quarter turns anticlockwise). No image data.
    public static func heif(width: Int, height: Int, rotation: Int = 0, exif: [UInt8]?, xmp: String? = nil) -> [UInt8] {
        func box(_ type: String, _ body: [UInt8]) -> [UInt8] { be32(body.count + 8) + Array(type.utf8) + body }
        func full(_ type: String, version: UInt8 = 0, flags: Int = 0, _ body: [UInt8]) -> [UInt8] {
            box(type, [version, UInt8((flags >> 16) & 0xFF), UInt8((flags >> 8) & 0xFF), UInt8(flags & 0xFF)] + body)
        }
        func infe(_ id: Int, _ type: String, name: String, contentType: String? = nil) -> [UInt8] {
            var body = be16(id) + be16(0) + Array(type.utf8) + Array(name.utf8) + [0]
            if let contentType { body += Array(contentType.utf8) + [0] }
            return full("infe", version: 2, body)
        }
        let exifPayload = exif.map { be32(6) + Array("Exif\0\0".utf8) + $0 } ?? []
        let xmpPayload = xmp.map { Array($0.utf8) } ?? []
        var items = [infe(1, "hvc1", name: "")]
        if exif != nil { items.append(infe(2, "Exif", name: "")) }
        if xmp != nil { items.append(infe(3, "mime", name: "", contentType: "application/rdf+xml")) }
        let iinf = full("iinf", be16(items.count) + items.flatMap { $0 })
        var properties = [full("ispe", be32(width) + be32(height))]
        if rotation != 0 { properties.append(box("irot", [UInt8(rotation & 3)])) }
        let ipco = box("ipco", properties.flatMap { $0 })
        let associations: [UInt8] = [UInt8(properties.count)] + (1...properties.count).map { UInt8(0x80 | $0) }
        let ipma = full("ipma", be32(1) + be16(1) + associations)
        let iprp = box("iprp", ipco + ipma)
        let ftyp = box("ftyp", Array("heic".utf8) + be32(0) + Array("mif1heic".utf8))
        /// `iloc` for the given data offsets (filled in once the layout is known).
        func iloc(_ exifOffset: Int, _ xmpOffset: Int) -> [UInt8] {
            var entries: [[UInt8]] = [be16(1) + be16(0) + be16(1) + be32(0) + be32(0)]
            if exif != nil { entries.append(be16(2) + be16(0) + be16(1) + be32(exifOffset) + be32(exifPayload.count)) }
            if xmp != nil { entries.append(be16(3) + be16(0) + be16(1) + be32(xmpOffset) + be32(xmpPayload.count)) }
            return full("iloc", [0x44, 0x00] + be16(entries.count) + entries.flatMap { $0 })
        }
        let hdlr = full("hdlr", be32(0) + Array("pict".utf8) + [UInt8](repeating: 0, count: 13))
        let pitm = full("pitm", be16(1))
        func meta(_ exifOffset: Int, _ xmpOffset: Int) -> [UInt8] { full("meta", hdlr + pitm + iloc(exifOffset, xmpOffset) + iinf + iprp) }
        let head = ftyp.count + meta(0, 0).count + 8
        return ftyp + meta(head, head + exifPayload.count) + box("mdat", exifPayload + xmpPayload)
    }
}
