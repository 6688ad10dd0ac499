import Foundation
import TapSeekTestSupport
import Testing

/// The index `scripts/build-geocoder-index.sh` builds; CI builds it before the tests.
enum GeocodeIndexFixture {
    static let url = SharedData.projectRoot.appendingPathComponent("data/build/geocoder-index.bin")
    /// Present, or under CI (where its absence must fail the tests, not skip them).
    static var available: Bool { SharedData.exists(url) || SharedData.isCI }
}

/// `tapseek geocode` run as a user runs it, on the real index (skipped without it on a developer
/// machine, failing in CI).
@Suite(.enabled(if: GeocodeIndexFixture.available, "geocoder index not built: run scripts/build-geocoder-index.sh"))
struct GeocodeCommandTests {
    static let index = GeocodeIndexFixture.url

    func run(_ arguments: [String], stdin: String? = nil, environment: [String: String] = [:]) throws -> CLIRunner.Result {
        try CLIRunner.run(["geocode"] + arguments, stdin: stdin, environment: environment)
    }

    func object(_ line: Substring) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    /// A placemark never mixes regions, never names a town that names a region, and always has
    /// a time zone. 47.25° N 9.36° E lies in Appenzell Innerrhoden; its nearest town, Wildhaus,
    /// lies in St. Gallen (Wikipedia), so neither it nor St. Gallen's district names it. Mt
    /// Hikurangi (Gisborne) is 68.7 km from Opotiki (Bay of Plenty), the South Pole 1 357 km
    /// from McMurdo: beyond 50 km there is no locality. The North Pole has the nautical zone
    /// of its longitude (15° zones centred on multiples of 15°: 100° E is UTC+7, Etc/GMT-7).
    @Test func placemarksKeepToTheirRegionAndHaveNoFarLocality() throws {
        func placemark(_ latitude: String, _ longitude: String) throws -> [String: Any] {
            let result = try run([latitude, longitude, "--index", Self.index.path])
            #expect(result.status == 0, "\(result.stderr)")
            return try object(result.stdout.split(separator: "\n").first ?? "")
        }
        // Since issue 38 the locality is a town of the point's region: Gonten, not Wildhaus.
        let border = try placemark("47.25", "9.36")
        #expect(border["administrativeArea"] as? String == "Appenzell Innerrhoden" && border["locality"] as? String == "Gonten", "\(border)")
        #expect(border["subAdministrativeArea"] as? String == "Appenzell Inner Rhodes", "\(border)")
        let appenzell = try placemark("47.33", "9.41")
        #expect(appenzell["locality"] as? String == "Appenzell" && appenzell["subAdministrativeArea"] != nil, "\(appenzell)")
        let hikurangi = try placemark("-37.9169", "178.06")
        #expect(hikurangi["administrativeArea"] as? String == "Gisborne District")
        #expect(hikurangi["locality"] == nil && hikurangi["subAdministrativeArea"] == nil && hikurangi["localityDistance"] == nil, "\(hikurangi)")
        let south = try placemark("-90", "0")
        #expect(south["isoCountryCode"] as? String == "AQ" && south["locality"] == nil, "\(south)")
        #expect(try placemark("90", "0")["timeZone"] as? String == "Etc/GMT")
        #expect(try placemark("90", "100")["timeZone"] as? String == "Etc/GMT-7")
        #expect(try placemark("90", "-170")["timeZone"] as? String == "Etc/GMT+11")
    }

    /// One rule for every batch record: each carries its input line's number, first, good and
    /// bad lines alike (before, only error records did).
    @Test func everyBatchRecordCarriesItsLine() throws {
        let result = try run(["--batch", "--index", Self.index.path], stdin: "46.624,8.041\nnot,a point\n47.33,9.41\n")
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 3)
        for (i, line) in lines.enumerated() {
            #expect(line.hasPrefix("{\"line\":\(i + 1),"), "\(line)")
        }
    }

    @Test func onePointPrintsOnePlacemarkWithItsCoordinates() throws {
        let result = try run(["46.6240", "8.0410", "--index", Self.index.path])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        let p = try object(lines[0])
        #expect(p["latitude"] as? Double == 46.624)
        #expect(p["longitude"] as? Double == 8.041)
        #expect(p["isoCountryCode"] as? String == "CH")
        #expect(p["country"] as? String == "Switzerland")
        #expect(p["administrativeArea"] as? String == "Bern")
        #expect(p["locality"] as? String == "Grindelwald")
        #expect((p["localityDistance"] as? Double ?? .infinity) < 1000)
        #expect(p["ocean"] == nil)
    }

    @Test func negativeCoordinatesNeedNoSeparatorButMayHaveOne() throws {
        for arguments in [["-9.076393", "125.110543"], ["--", "-9.076393", "125.110543"]] {
            let result = try run(["--index", Self.index.path] + arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(try object(result.stdout.split(separator: "\n")[0])["isoCountryCode"] as? String == "ID")
        }
    }

    @Test func indexComesFromTheEnvironmentWhenNotGiven() throws {
        let result = try run(["4.691033", "115.049274"], environment: ["TAPSEEK_GEOCODER": Self.index.path])
        #expect(result.status == 0)
        #expect(try object(result.stdout.split(separator: "\n")[0])["isoCountryCode"] as? String == "BN")
        let missing = try run(["4.691033", "115.049274"], environment: ["TAPSEEK_GEOCODER": "/nonexistent/index.bin"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("/nonexistent/index.bin"))
    }

    @Test func atSeaOnlyTheCoordinatesAndTimeZoneArePrinted() throws {
        let result = try run(["0", "-30", "--index", Self.index.path])
        #expect(result.stdout == "{\"latitude\":0.0,\"longitude\":-30.0,\"timeZone\":\"Etc/GMT+2\"}\n")
    }

    @Test func longitudesBeyond180WrapAndArePrintedWrapped() throws {
        let result = try run(["66.16", "190.19", "--index", Self.index.path])
        let p = try object(result.stdout.split(separator: "\n")[0])
        #expect(abs((p["longitude"] as? Double ?? 0) + 169.81) < 1e-9)
        #expect(p["isoCountryCode"] as? String == "RU")
    }

    @Test(arguments: [
        (["91", "0"], "latitude"), (["-90.5", "10"], "latitude"), (["nan", "0"], "latitude"),
        (["abc", "0"], "latitude"), (["10", "north"], "longitude"), (["10", "inf"], "longitude"),
    ])
    func badInputExitsOneNamingTheField(_ arguments: [String], _ field: String) throws {
        let result = try run(arguments + ["--index", Self.index.path])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines.count == 1)
        #expect(result.stderr.contains(field))
    }

    @Test(arguments: [[String](), ["1"], ["1", "2", "3"], ["--batch", "1", "2"], ["--jobs", "0", "--batch"]])
    func badUsageExitsTwo(_ arguments: [String]) throws {
        let result = try run(arguments + ["--index", Self.index.path])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
    }

    /// One output line per non-blank input line, in order; bad lines become error records naming their
    /// line and the run goes on; the exit status stays 0.
    @Test func batchAnswersEveryLineInOrder() throws {
        let input = [
            "-9.076393,125.110543", "91,0", "nan,5", "abc,1", "x", "1,2,3",
            "66.16,190.19", " 54.805974 , 22.832453 ", "0,-30", "4.153036,117.773551\r",
        ].joined(separator: "\n")
        for jobs in ["1", "2"] {
            let result = try run(["--batch", "--jobs", jobs, "--index", Self.index.path], stdin: input)
            #expect(result.status == 0)
            let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            #expect(lines.count == 10)
            guard lines.count == 10 else { return }
            let records = try lines.map { try object($0) }
            #expect(records[0]["isoCountryCode"] as? String == "ID")
            for (n, field) in [(2, "latitude"), (3, "latitude"), (4, "latitude"), (5, "lat,lon"), (6, "two columns")] {
                let error = records[n - 1]["error"] as? [String: Any]
                #expect(records[n - 1]["line"] as? Int == n)
                #expect((error?["message"] as? String ?? "").contains(field), "line \(n): \(lines[n - 1])")
                #expect(error?["code"] as? String != nil)
            }
            #expect(records[6]["isoCountryCode"] as? String == "RU")
            #expect(records[7]["isoCountryCode"] as? String == "RU")
            #expect(records[8].keys.sorted() == ["latitude", "line", "longitude", "timeZone"])
            #expect(records[9]["isoCountryCode"] as? String == "ID")
        }
    }

    /// A CSV header on line 1 (`lat,lon`) and blank lines are no points: they get no record,
    /// and the other lines keep their numbers (before issue 29 each became an error record).
    /// A header anywhere else is a bad line; `nan` is a number, so `nan,0` is no header.
    @Test func batchSkipsAHeaderAndBlankLines() throws {
        let input = "lat,lon\n47.25,9.36\n\n \t\r\nlatitude,longitude\n47.25,9.36\n"
        let result = try run(["--batch", "--index", Self.index.path], stdin: input)
        #expect(result.status == 0, "\(result.stderr)")
        let records = try result.stdout.split(separator: "\n").map { try object($0) }
        #expect(records.map { $0["line"] as? Int } == [2, 5, 6])
        #expect(records[0]["isoCountryCode"] as? String == "CH" && records[2]["isoCountryCode"] as? String == "CH")
        #expect(records[1]["error"] != nil)
        let nan = try run(["--batch", "--index", Self.index.path], stdin: "nan,0\n")
        #expect(try nan.stdout.split(separator: "\n").map { try object($0)["line"] as? Int } == [1])
    }

    /// An `x,y` (lon/lat) file is read by its header's names: the Eiger's point is in
    /// Switzerland, not in Ethiopia (issue 38: the header was skipped, the rows read as lat,lon).
    @Test func batchReadsColumnsByTheHeadersNames() throws {
        for input in ["x,y\n8.0053,46.5775\n", "lon,lat,name\n8.0053,46.5775,Eiger\n"] {
            let result = try run(["--batch", "--index", Self.index.path], stdin: input)
            #expect(result.status == 0, "\(result.stderr)")
            let record = try object(Substring(result.stdout.trimmingCharacters(in: .newlines)))
            #expect(record["isoCountryCode"] as? String == "CH" && record["latitude"] as? Double == 46.5775, "\(result.stdout)")
        }
        let refused = try run(["--batch", "--index", Self.index.path], stdin: "a,b\n8,46\n")
        #expect(refused.status == 1 && refused.stdout.isEmpty && refused.stderrLines.count == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("header \"a,b\""))
    }

    /// `geocode LAT,LON` is the point `geocode LAT LON`, as `--near` takes it.
    @Test func aCommaJoinedPointIsThePoint() throws {
        let joined = try run(["47.25,9.36", "--index", Self.index.path])
        #expect(joined.status == 0, "\(joined.stderr)")
        #expect(joined.stdout == (try run(["47.25", "9.36", "--index", Self.index.path])).stdout)
    }

    /// Many lines across several input blocks come back in the same order.
    @Test func largeBatchKeepsOrder() throws {
        let points: [(latitude: Double, longitude: Double)] = (0..<60_000).map { (i: Int) -> (latitude: Double, longitude: Double) in
            let latitude: Double = -60 + Double(i % 1200) * 0.1
            let longitude: Double = -180 + Double(i) * 0.006
            return (latitude, longitude)
        }
        let input = points.map { (p: (latitude: Double, longitude: Double)) -> String in "\(p.latitude),\(p.longitude)" }
            .joined(separator: "\n") + "\n"
        let result = try run(["--batch", "--index", Self.index.path], stdin: input)
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == points.count)
        // Foundation's JSON reader is not always correctly rounded: compare to a nanodegree.
        for k in stride(from: 0, to: min(lines.count, points.count), by: 997) {
            let p = try object(lines[k])
            #expect(abs((p["latitude"] as? Double ?? .nan) - points[k].latitude) < 1e-9)
            #expect(abs((p["longitude"] as? Double ?? .nan) - points[k].longitude) < 1e-9)
        }
    }
}
