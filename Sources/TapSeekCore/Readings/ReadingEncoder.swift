import Foundation

/// Writes a ``Reading`` as one line of compact JSON in the public interface's layout, so that
/// importers can emit JSON Lines that ``ReadingDecoder`` reads back to an equal reading.
///
/// - Keys appear in the interface's order; absent optionals are left out, and so is an
///   `eyeHeight` equal to the 1.6 m default. `altitudeReference` and `headingReference` are
///   always written, so every line says which datum and which north it uses.
/// - Numbers use the shortest text that reads back to the same double; whole numbers below 2^53
///   are written without a fraction (`4032`, not `4032.0`). A non-finite number, which JSON
///   cannot hold, is written as `null` (the decoder then reports the field as missing).
/// - `time` is written in UTC with milliseconds when needed (see ``ISO8601DateTime/format(_:)``),
///   so it round-trips to the millisecond.
/// - Strings escape `"`, `\` and control characters; other text is written as UTF-8.
public struct ReadingEncoder: Sendable {
    /// An encoder; it has no options.
    public init() {}

    /// One reading as a JSON object on one line, without a line terminator.
    public func encode(_ r: Reading) -> String {
        var out = "{"
        var first = true
        func key(_ name: String) {
            if !first { out += "," }
            first = false
            out += "\"\(name)\":"
        }
        if let id = r.id {
            key("id")
            Self.appendString(id, to: &out)
        }
        if let time = r.time {
            key("time")
            out += "\"\(ISO8601DateTime.format(time))\""
        }
        key("location")
        out += Self.object([
            ("latitude", Self.number(r.location.latitude)),
            ("longitude", Self.number(r.location.longitude)),
            ("altitude", r.location.altitude.map(Self.number)),
            ("altitudeReference", "\"\(r.location.altitudeReference.rawValue)\""),
            ("eyeHeight", r.location.eyeHeight == Reading.Location.defaultEyeHeight ? nil : Self.number(r.location.eyeHeight)),
            ("horizontalAccuracy", r.location.horizontalAccuracy.map(Self.number)),
            ("verticalAccuracy", r.location.verticalAccuracy.map(Self.number)),
        ])
        if let o = r.orientation {
            key("orientation")
            out += Self.object([
                ("heading", Self.number(o.heading)),
                ("headingReference", "\"\(o.headingReference.rawValue)\""),
                ("pitch", Self.number(o.pitch)),
                ("roll", Self.number(o.roll)),
                ("headingAccuracy", o.headingAccuracy.map(Self.number)),
                ("pitchAccuracy", o.pitchAccuracy.map(Self.number)),
                ("rollAccuracy", o.rollAccuracy.map(Self.number)),
            ])
        }
        if let c = r.camera {
            key("camera")
            out += Self.object([
                ("horizontalFOV", Self.number(c.horizontalFOV)),
                ("zoom", Self.number(c.zoom)),
                ("imageWidth", Self.number(c.imageWidth)),
                ("imageHeight", Self.number(c.imageHeight)),
            ])
        }
        if let t = r.tap {
            key("tap")
            out += Self.object([("x", Self.number(t.x)), ("y", Self.number(t.y))])
        }
        if !r.skyline.isEmpty {
            key("skyline")
            out += "[" + r.skyline.map { Self.object([("x", Self.number($0.x)), ("y", Self.number($0.y))]) }.joined(separator: ",") + "]"
        }
        if !r.landmarks.isEmpty {
            key("landmarks")
            out += "[" + r.landmarks.map {
                Self.object([("x", Self.number($0.x)), ("y", Self.number($0.y)), ("latitude", Self.number($0.latitude)),
                             ("longitude", Self.number($0.longitude)), ("elevation", $0.elevation.map(Self.number))])
            }.joined(separator: ",") + "]"
        }
        return out + "}"
    }

    /// Integers up to 2^53 are exact in a double and print without a fraction.
    private static let largestExactInteger = 9_007_199_254_740_992.0

    /// A double as JSON: the shortest round-tripping text, or `null` when not finite.
    static func number(_ v: Double) -> String {
        guard v.isFinite else { return "null" }
        if v == v.rounded(), abs(v) < largestExactInteger, !(v == 0 && v.sign == .minus) {
            return String(Int64(v))
        }
        return v.description
    }

    private static func object(_ members: [(String, String?)]) -> String {
        var out = "{"
        var first = true
        for (name, value) in members {
            guard let value else { continue }
            if !first { out += "," }
            first = false
            out += "\"\(name)\":\(value)"
        }
        return out + "}"
    }

    private static func appendString(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{00}"..."\u{1F}", "\u{7F}": out += String(format: "\\u%04X", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}
