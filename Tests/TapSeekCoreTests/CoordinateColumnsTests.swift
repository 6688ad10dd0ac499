import Testing

@testable import TapSeekCore

/// A `--batch` CSV header names where the latitude and the longitude are; a file read with the
/// columns swapped is no error but a point on another continent, so the header decides.
@Suite struct CoordinateColumnsTests {
    static func header(_ text: String) throws(CoordinateError) -> CoordinateColumns? {
        var bytes = Array(text.utf8)
        var result: Result<CoordinateColumns?, CoordinateError>!
        bytes.withUnsafeMutableBufferPointer { b in
            result = Result { () throws(CoordinateError) in try CoordinateColumns.header(UnsafeBufferPointer(b)) }
        }
        return try result.get()
    }

    static func parse(_ text: String, _ columns: CoordinateColumns) -> Result<(Double, Double), CoordinateError> {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { b in
            CoordinateLine.parseKeepingText(UnsafeBufferPointer(b), columns: columns).map { ($0.latitude, $0.longitude) }
        }
    }

    @Test(arguments: [("lat,lon", 0, 1, 2), ("Latitude, Longitude\r", 0, 1, 2), ("lon,lat", 1, 0, 2), ("LNG,LAT", 1, 0, 2),
                      ("longitude,latitude", 1, 0, 2), ("x,y", 1, 0, 2), ("Y,X", 0, 1, 2), ("\"lon\",\"lat\"", 1, 0, 2),
                      ("name,long,elev,lat", 3, 1, 4), ("id,\"a, b\",latitude,longitude", 2, 3, 4)])
    func headerNamesTheColumnsInAnyOrderAndCase(text: String, latitude: Int, longitude: Int, count: Int) throws {
        let columns = try #require(try Self.header(text))
        #expect(columns == CoordinateColumns(latitude: latitude, longitude: longitude, count: count))
    }

    /// A first line that is a point, `nan` and `inf` included, is no header.
    @Test(arguments: ["47.25,9.36", "-3,4", " 5 , 6", "nan,0", "inf,1", ""])
    func aPointIsNoHeader(text: String) throws {
        #expect(try Self.header(text) == nil)
    }

    /// A header without one of the two, or with one twice, is refused, naming it.
    @Test(arguments: [("foo,bar", "no latitude column"), ("lat,elevation", "no longitude column"), ("x", "no latitude column"),
                      ("lat,latitude,lon", "2 latitude columns"), ("lon,lat,x", "2 longitude columns")])
    func anUnusableHeaderIsRefusedNamingIt(text: String, reason: String) {
        do {
            _ = try Self.header(text)
            Issue.record("\(text) was accepted")
        } catch {
            #expect(error.message.contains("header \"\(text)\"") && error.message.contains(reason), "\(error.message)")
        }
    }

    /// The Eiger in a `lon,lat` file: 46.5775 N, 8.0053 E, not 8.0053 N, 46.5775 E (Ethiopia).
    @Test func rowsAreReadByTheHeadersColumns() throws {
        let lonLat = try #require(try Self.header("lon,lat"))
        let (latitude, longitude) = try Self.parse("8.0053,46.5775", lonLat).get()
        #expect(latitude == 46.5775 && longitude == 8.0053)
        let wide = try #require(try Self.header("name,y,x,note"))
        let quoted = try Self.parse("\"Eiger, summit\",\"46.5775\", 8.0053 ,\"north face\"\r", wide).get()
        #expect(quoted.0 == 46.5775 && quoted.1 == 8.0053)
        guard case .failure(let short) = Self.parse("Eiger,46.5775", wide) else { Issue.record("short row accepted"); return }
        #expect(short.message.contains("expected 4 columns"), "\(short.message)")
        guard case .failure(let word) = Self.parse("Eiger,north,8", wide) else { Issue.record("word accepted"); return }
        #expect(word.message.contains("latitude (column 2) must be a number"), "\(word.message)")
    }

    /// The headerless layout keeps the fast reader and its rules (a third column is an error).
    @Test func theLatLonLayoutReadsAsAHeaderlessFile() throws {
        let plain = try #require(try Self.header("lat,lon"))
        #expect(plain == .latitudeLongitude)
        guard case .failure(let error) = Self.parse("1,2,3", plain) else { Issue.record("three columns accepted"); return }
        #expect(error.message.contains("two columns"))
    }
}
