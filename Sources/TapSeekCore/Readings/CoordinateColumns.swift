/// Which columns of a `--batch` CSV hold the latitude and the longitude, as its header names
/// them: `lat`/`latitude`/`y` and `lon`/`lng`/`long`/`longitude`/`x`, any case, in any order,
/// other columns ignored. A file without a header is `lat,lon` (``latitudeLongitude``).
///
/// Why it matters: a `lon,lat` file read as `lat,lon` is not an error but a point on another
/// continent (the Eiger, 46.577 8.005, read swapped lands in Ethiopia).
public struct CoordinateColumns: Sendable, Hashable {
    /// 0-based column of the latitude.
    public var latitude: Int
    /// 0-based column of the longitude.
    public var longitude: Int
    /// Columns the header has.
    public var count: Int

    /// Exactly two columns, latitude first: the headerless layout, read by the fast
    /// ``CoordinateLine/parseKeepingText(_:)``.
    public static let latitudeLongitude = CoordinateColumns(latitude: 0, longitude: 1, count: 2)

    public init(latitude: Int, longitude: Int, count: Int) {
        self.latitude = latitude
        self.longitude = longitude
        self.count = count
    }

    /// Names a header may give the latitude column (compared in lower case, blanks and quotes
    /// trimmed); `y` as GIS tools write it beside `x`.
    static let latitudeNames: Set<String> = ["lat", "latitude", "y"]
    /// Names a header may give the longitude column.
    static let longitudeNames: Set<String> = ["lon", "lng", "long", "longitude", "x"]

    /// The columns line 1 names, or nil when line 1 is no header but a point (its first column
    /// is a number, or does not start like a word: ``CoordinateLine/isHeader(_:)``).
    /// - Throws: ``CoordinateError`` naming the header when it lacks a latitude or a longitude
    ///   column, or names one twice.
    public static func header(_ line: UnsafeBufferPointer<UInt8>) throws(CoordinateError) -> CoordinateColumns? {
        guard CoordinateLine.isHeader(line) else { return nil }
        let names = CSVFields.split(line).map { field in
            String(decoding: UnsafeBufferPointer(rebasing: line[CSVFields.unquoted(line, field)]), as: UTF8.self).lowercased()
        }
        let shown = "header \"\(CoordinateLine.text(line, 0, CSVFields.end(line)))\""
        func column(_ accepted: Set<String>, _ what: String) throws(CoordinateError) -> Int {
            let found = names.indices.filter { accepted.contains(names[$0]) }
            let choices = accepted.sorted().joined(separator: ", ")
            guard let first = found.first else {
                throw CoordinateError(message: "\(shown) has no \(what) column (\(choices)); name the columns or leave the header out for lat,lon")
            }
            guard found.count == 1 else {
                throw CoordinateError(message: "\(shown) has \(found.count) \(what) columns (\(found.map { names[$0] }.joined(separator: ", ")))")
            }
            return first
        }
        return CoordinateColumns(latitude: try column(latitudeNames, "latitude"), longitude: try column(longitudeNames, "longitude"),
                                 count: names.count)
    }
}

/// The fields of one CSV line: split at commas outside double quotes, each without the blanks
/// around it.
enum CSVFields {
    /// Where the line's text ends: before a trailing CR and blanks.
    static func end(_ line: UnsafeBufferPointer<UInt8>) -> Int {
        var end = line.count
        while end > 0, line[end - 1] == 0x0D || line[end - 1] == 0x20 || line[end - 1] == 0x09 { end -= 1 }
        return end
    }

    /// The fields' ranges, blanks trimmed (quotes kept).
    static func split(_ line: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        let end = end(line)
        var fields: [Range<Int>] = []
        var start = 0, quoted = false
        for i in 0..<end {
            let byte = line[i]
            if byte == UInt8(ascii: "\"") {
                quoted.toggle()
            } else if byte == UInt8(ascii: ","), !quoted {
                fields.append(CoordinateLine.trimmed(line, start, i))
                start = i + 1
            }
        }
        fields.append(CoordinateLine.trimmed(line, start, end))
        return fields
    }

    /// A field without the double quotes around it, if it has them.
    static func unquoted(_ line: UnsafeBufferPointer<UInt8>, _ field: Range<Int>) -> Range<Int> {
        guard field.count >= 2, line[field.lowerBound] == UInt8(ascii: "\""), line[field.upperBound - 1] == UInt8(ascii: "\"") else {
            return field
        }
        return CoordinateLine.trimmed(line, field.lowerBound + 1, field.upperBound - 1)
    }
}
