/// Reads a GeoNames dump (the documented tab-separated "geoname" format: 19 columns, one
/// feature a line, UTF-8) as a stream, never holding more than one chunk and one line, and hands
/// over the rows a gazetteer keeps (``FeatureKind/isKept(featureClass:code:)``).
///
/// A row that is not a geoname row — not 19 columns, an id that is not a number, a latitude
/// outside ±90° or a longitude outside ±180°, an empty name — is counted and its line number
/// and reason kept (the first ``keptProblems``), never fatal. Blank lines are skipped.
public struct GeoNamesReader {
    /// A row that could not be read, by its 1-based line number.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        public var line: Int
        public var reason: String
        public var description: String { "line \(line): \(reason)" }
    }

    /// Bytes read from the source per call.
    static let chunkSize = 4 << 20
    /// Problems kept for the report; later ones are only counted.
    public static let keptProblems = 20
    /// A line longer than this (no GeoNames row comes near it) is a problem, skipped unread.
    static let maximumLineLength = 1 << 20

    private var source: any ByteSource
    /// The stream's name in problems and errors.
    public let name: String
    /// Lines seen so far (blank ones included).
    public private(set) var lines = 0
    /// Bytes consumed so far (for progress).
    public private(set) var bytesRead = 0
    /// Rows of any class read correctly.
    public private(set) var rows = 0
    /// Rows handed over.
    public private(set) var kept = 0
    /// Rows that could not be read.
    public private(set) var problemCount = 0
    /// The first ``keptProblems`` of them.
    public private(set) var problems: [Problem] = []
    /// Where each field of the line being parsed starts (reused: no allocation a line).
    private var fieldStarts = [Int](repeating: 0, count: 20)

    /// Reads `source`, naming it `name` in messages.
    public init(source: any ByteSource, name: String) {
        self.source = source
        self.name = name
    }

    /// Calls `body` with every kept row and its alternate names (GeoNames' comma-separated
    /// column, as it is), in file order.
    /// - Throws: ``StreamReadError`` when the source fails (a damaged archive, an I/O error).
    /// - Parameter progress: called after every chunk read with the bytes read so far.
    public mutating func forEachFeature(progress: ((Int) -> Void)? = nil,
                                        _ body: (GazetteerFeature, Substring) -> Void) throws(StreamReadError) {
        var buffer = [UInt8](repeating: 0, count: Self.chunkSize)
        var filled = 0          // bytes of buffer holding data
        var skipping = false    // inside an over-long line
        while true {
            if filled == buffer.count {
                // One line fills the whole buffer: report it and skip to its end.
                if !skipping { problem("line longer than \(Self.maximumLineLength) bytes", lineOffset: 1) }
                skipping = true
                filled = 0
            }
            let result = buffer.withUnsafeMutableBytes { raw in
                Result { () throws(StreamReadError) in try source.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[filled...])) }
            }
            let n = try result.get()
            bytesRead += n
            progress?(bytesRead)
            let end = filled + n
            var start = 0
            buffer.withUnsafeBufferPointer { all in
                var i = filled
                while i < end {
                    if all[i] == 0x0A {
                        if skipping {
                            skipping = false
                            lines += 1
                        } else {
                            parse(UnsafeBufferPointer(rebasing: all[start..<i]), body)
                        }
                        start = i + 1
                    }
                    i += 1
                }
                if n == 0, start < end, !skipping {
                    parse(UnsafeBufferPointer(rebasing: all[start..<end]), body)
                    start = end
                }
            }
            if n == 0 { return }
            // Keep the unfinished line at the front.
            if start > 0 {
                buffer.withUnsafeMutableBytes { raw in
                    let base = raw.baseAddress!
                    base.copyMemory(from: base + start, byteCount: end - start)
                }
            }
            filled = end - start
            if buffer.count < Self.maximumLineLength + Self.chunkSize, filled > buffer.count / 2 {
                buffer.append(contentsOf: repeatElement(0, count: buffer.count))
            }
        }
    }

    private mutating func problem(_ reason: String, lineOffset: Int = 0) {
        problemCount += 1
        if problems.count < Self.keptProblems { problems.append(Problem(line: lines + lineOffset, reason: reason)) }
    }

    /// One line (without its `\n`).
    private mutating func parse(_ line: UnsafeBufferPointer<UInt8>, _ body: (GazetteerFeature, Substring) -> Void) {
        lines += 1
        var line = line
        if line.last == 0x0D { line = UnsafeBufferPointer(rebasing: line.dropLast()) }
        if line.isEmpty { return }
        // Field boundaries: 19 fields, 18 tabs; field k is line[starts[k] ..< starts[k + 1] - 1].
        var count = 1
        fieldStarts[0] = 0
        for (i, b) in line.enumerated() where b == 0x09 {
            if count < 19 { fieldStarts[count] = i + 1 }
            count += 1
        }
        guard count == 19 else {
            problem("\(count) columns, a geoname row has 19")
            return
        }
        fieldStarts[19] = line.count + 1
        let starts = fieldStarts
        func field(_ k: Int) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: line[starts[k]..<(starts[k + 1] - 1)])
        }
        guard let id = Self.integer(field(0)), id >= 0, id <= Int(UInt32.max) else {
            problem("geonameid \"\(String(decoding: field(0), as: UTF8.self))\" is not a number")
            return
        }
        guard let latitude = Self.decimal(field(4)), (-90...90).contains(latitude) else {
            problem("latitude \"\(String(decoding: field(4), as: UTF8.self))\" is not a number within ±90")
            return
        }
        guard let longitude = Self.decimal(field(5)), (-180...180).contains(longitude) else {
            problem("longitude \"\(String(decoding: field(5), as: UTF8.self))\" is not a number within ±180")
            return
        }
        let nameField = field(1)
        guard !nameField.isEmpty else {
            problem("empty name")
            return
        }
        rows += 1
        let classField = field(6), codeField = field(7)
        guard classField.count == 1, codeField.count <= 8 else { return }
        let code = String(decoding: codeField, as: UTF8.self)
        guard FeatureKind.isKept(featureClass: classField[0], code: Substring(code).utf8) else { return }
        var elevation: Double?
        if let e = Self.integer(field(15)) { elevation = Double(e) }
        else if let d = Self.integer(field(16)), d > -9000 { elevation = Double(d) }
        let country = field(8)
        let feature = GazetteerFeature(
            geonameID: UInt32(id), name: String(decoding: nameField, as: UTF8.self),
            latitude: latitude, longitude: longitude, elevation: elevation,
            featureClass: Character(Unicode.Scalar(classField[0])), featureCode: code,
            isoCountryCode: country.count == 2 ? String(decoding: country, as: UTF8.self).uppercased() : "")
        kept += 1
        body(feature, Substring(String(decoding: field(3), as: UTF8.self)))
    }

    /// A decimal integer with an optional sign; nil when empty or not a number.
    static func integer(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = 0, negative = false
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        guard i < bytes.count, bytes.count - i <= 12 else { return nil }
        var value = 0
        while i < bytes.count {
            let d = Int(bytes[i]) - 48
            guard d >= 0, d <= 9 else { return nil }
            value = value * 10 + d
            i += 1
        }
        return negative ? -value : value
    }

    /// A decimal number `[-]digits[.digits]`, as GeoNames writes coordinates; nil otherwise.
    static func decimal(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var i = 0, negative = false
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        var mantissa: Int64 = 0, digits = 0, fraction = 0, seenPoint = false
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "."), !seenPoint {
                seenPoint = true
            } else {
                let d = Int64(b) - 48
                guard d >= 0, d <= 9 else { return nil }
                // Beyond 17 digits a coordinate gains nothing: the rest only rounds.
                if digits < 17 {
                    mantissa = mantissa * 10 + d
                    digits += 1
                    if seenPoint { fraction += 1 }
                } else if !seenPoint {
                    return nil
                }
            }
            i += 1
        }
        guard digits > 0 else { return nil }
        var value = Double(mantissa)
        if fraction > 0 { value /= Self.powersOfTen[fraction] }
        return negative ? -value : value
    }

    private static let powersOfTen: [Double] = (0...17).map { p in (0..<p).reduce(1.0) { r, _ in r * 10 } }
}
