/// The XMP properties a photo's reading can use: a DJI drone's gimbal pose and absolute altitude
/// (`drone-dji:` GimbalYawDegree, GimbalPitchDegree, GimbalRollDegree, AbsoluteAltitude) and
/// Google's photo-sphere pose (`GPano:` PoseHeadingDegrees, PosePitchDegrees, PoseRollDegrees).
///
/// The packet is scanned, not parsed as XML: each property is found by its local name after a
/// colon, written either as an attribute (`drone-dji:GimbalYawDegree="-12.3"`) or as an element
/// (`<GPano:PoseHeadingDegrees>87</GPano:PoseHeadingDegrees>`). Nothing is expanded (no
/// entities, no external references), so a hostile packet costs one linear scan of at most
/// ``maximumBytes``.
struct XMPFields: Sendable, Hashable {
    var gimbalYaw: Double?
    var gimbalPitch: Double?
    var gimbalRoll: Double?
    /// Metres; DJI writes it above mean sea level.
    var absoluteAltitude: Double?
    var poseHeading: Double?
    var posePitch: Double?
    var poseRoll: Double?

    /// Longest packet scanned, bytes (a JPEG's XMP segment holds at most 65 502).
    static let maximumBytes = 1 << 20

    init(packet: ArraySlice<UInt8>) {
        let bytes = packet.prefix(Self.maximumBytes)
        gimbalYaw = Self.number(named: "GimbalYawDegree", in: bytes)
        gimbalPitch = Self.number(named: "GimbalPitchDegree", in: bytes)
        gimbalRoll = Self.number(named: "GimbalRollDegree", in: bytes)
        absoluteAltitude = Self.number(named: "AbsoluteAltitude", in: bytes)
        poseHeading = Self.number(named: "PoseHeadingDegrees", in: bytes)
        posePitch = Self.number(named: "PosePitchDegrees", in: bytes)
        poseRoll = Self.number(named: "PoseRollDegrees", in: bytes)
    }

    /// Whether the packet says anything this type reads.
    var isEmpty: Bool { self == XMPFields(packet: []) }

    /// The first finite number given for the property `name` (after a `:`), as an attribute or
    /// an element's text.
    static func number(named name: String, in bytes: ArraySlice<UInt8>) -> Double? {
        let key = Array((":" + name).utf8)
        var i = bytes.startIndex
        let end = bytes.endIndex
        while i + key.count < end {
            guard bytes[i] == key[0], bytes[i..<(i + key.count)].elementsEqual(key) else {
                i += 1
                continue
            }
            var j = i + key.count
            while j < end, bytes[j] == 0x20 || bytes[j] == 0x09 || bytes[j] == 0x0A || bytes[j] == 0x0D { j += 1 }
            guard j < end else { return nil }
            var value: ArraySlice<UInt8>?
            if bytes[j] == UInt8(ascii: "=") {
                j += 1
                while j < end, bytes[j] == 0x20 { j += 1 }
                if j < end, bytes[j] == UInt8(ascii: "\"") || bytes[j] == UInt8(ascii: "'") {
                    let quote = bytes[j]
                    let start = j + 1
                    if let close = bytes[start..<min(end, start + 64)].firstIndex(of: quote) { value = bytes[start..<close] }
                }
            } else if bytes[j] == UInt8(ascii: ">") {
                let start = j + 1
                if let close = bytes[start..<min(end, start + 64)].firstIndex(of: UInt8(ascii: "<")) { value = bytes[start..<close] }
            }
            if let value, let number = Double(String(decoding: value, as: UTF8.self).trimmingBlanks), number.isFinite {
                return number
            }
            i += key.count
        }
        return nil
    }
}
