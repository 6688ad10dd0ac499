import Foundation
import Testing
import TapSeekTestSupport
import TapSeek

/// `tapseek elevation` and `tapseek dem info` as a user runs them.
@Suite(.enabled(if: SharedData.available(SharedData.dem), "needs ../shared/dem"))
struct ElevationCommandTests {
    let dem = ["--dem", SharedData.dem.path]

    func json(_ line: Substring) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    }

    @Test func everestPostPrintsItsHeightAndUndulation() throws {
        try #require(SharedData.exists(SharedData.dem), Comment(rawValue: SharedData.missing(SharedData.dem)))
        // Everest's post: row 14, column 1110 of N27E086 (28° − 14/1200, 86° + 1110/1200).
        let r = try CLIRunner.run(["elevation", "27.988333333", "86.925"] + dem)
        #expect(r.status == 0, "\(r.stderr)")
        let object = try json(Substring(r.stdout.trimmingCharacters(in: .newlines)))
        #expect(Set(object.keys) == ["latitude", "longitude", "elevation", "geoidUndulation"])
        #expect(abs((object["elevation"] as? Double ?? 0) - 8840) <= 1)
        #expect(abs((object["geoidUndulation"] as? Double ?? 0) - -29) <= 1)
    }

    @Test func negativeCoordinatesAreNotMistakenForOptions() throws {
        let r = try CLIRunner.run(["elevation", "-37.9169", "178.06"] + dem)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("\"elevation\":17"))
    }

    /// Finsteraarhorn's summit, a void of N46E008: unknown with `--no-fill-voids`, never 0 m;
    /// filled (the default), a height near the summit's 4 274 m.
    @Test func voidSaysSoInsteadOfInventingAHeight() throws {
        let r = try CLIRunner.run(["elevation", "46.5367", "8.1258", "--no-fill-voids"] + dem)
        #expect(r.status == 0)
        #expect(r.stdout.contains("\"elevation\":null") && r.stdout.contains("\"reason\":\"void\""))
        let filled = try CLIRunner.run(["elevation", "46.5367", "8.1258"] + dem)
        let height = try #require(try json(Substring(filled.stdout.trimmingCharacters(in: .newlines)))["elevation"] as? Double, "\(filled.stdout)")
        #expect(height > 3900 && height < 4274, "filled summit at \(height) m")
        #expect(filled.stdout.contains("\"filled\":true"))
        #expect(!r.stdout.contains("filled"))
        let sea = try CLIRunner.run(["elevation", "10", "-30"] + dem)
        #expect(sea.stdout.contains("\"elevation\":null") && sea.stdout.contains("\"reason\":\"no tile\""))
    }

    @Test(arguments: [["91", "8"], ["nan", "8"], ["46.5", "abc"], ["-91", "0"]])
    func badCoordinatesAreOneLineErrorsWithStatus1(arguments: [String]) throws {
        let r = try CLIRunner.run(["elevation"] + arguments + dem)
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        #expect(r.stderrLines.count == 1 && r.stderr.contains("itude"), "\(r.stderr)")
    }

    @Test func missingDirectoryIsBadInput() throws {
        let r = try CLIRunner.run(["elevation", "46", "8", "--dem", "/nonexistent/dem"])
        #expect(r.status == 1)
        #expect(r.stderrLines.count == 1 && r.stderr.contains("/nonexistent/dem"))
    }

    @Test func wrongArgumentCountIsBadUsage() throws {
        #expect(try CLIRunner.run(["elevation", "46"] + dem).status == 2)
        #expect(try CLIRunner.run(["elevation", "--batch", "46", "8"] + dem).status == 2)
    }

    /// A CSV header on line 1 and blank lines get no record; the other lines keep their numbers
    /// (before issue 29 each became an error record).
    @Test func batchSkipsAHeaderAndBlankLines() throws {
        let r = try CLIRunner.run(["elevation", "--batch"] + dem, stdin: "Latitude, Longitude\r\n\n47.2493,9.3433\n  \n\t\n46.5367,8.1258")
        #expect(r.status == 0, "\(r.stderr)")
        let records = try r.stdout.split(separator: "\n").map(json)
        #expect(records.map { $0["line"] as? Int } == [3, 6])
        #expect(records.allSatisfy { $0["error"] == nil }, "\(r.stdout)")
    }

    /// A `lon,lat` file (or `x,y`, `lng,lat`, any order and case, other columns ignored) is
    /// read by its header's names: the Eiger's post, not a point in Ethiopia (issue 38: the
    /// header was skipped and the rows read as lat,lon).
    @Test func batchReadsColumnsByTheHeadersNames() throws {
        let expected = try CLIRunner.run(["elevation", "--batch"] + dem, stdin: "46.5775,8.0053\n")
        let height = try json(Substring(expected.stdout.trimmingCharacters(in: .newlines)))["elevation"] as? Double
        #expect(height.map { $0 > 3000 } == true, "\(expected.stdout)")
        for input in ["lon,lat\n8.0053,46.5775\n", "X,Y\n8.0053,46.5775\n", "name,lng,elev,LAT\r\nEiger,8.0053,3967,46.5775\r\n",
                      "\"longitude\",\"latitude\"\n\"8.0053\",\"46.5775\"\n"] {
            for jobs in ["1", "2"] {
                let r = try CLIRunner.run(["elevation", "--batch", "--jobs", jobs] + dem, stdin: input)
                #expect(r.status == 0, "\(r.stderr)")
                let record = try json(Substring(r.stdout.trimmingCharacters(in: .newlines)))
                #expect(record["line"] as? Int == 2 && record["latitude"] as? Double == 46.5775 && record["longitude"] as? Double == 8.0053,
                        "\(input): \(r.stdout)")
                #expect(record["elevation"] as? Double == height, "\(input): \(r.stdout)")
            }
        }
    }

    /// A header that names no latitude or no longitude column is refused as a whole: status 1,
    /// one line naming it, nothing on stdout (before issue 38 it was skipped and the rows read
    /// as lat,lon).
    @Test func batchRefusesAHeaderWithoutCoordinateColumns() throws {
        let r = try CLIRunner.run(["elevation", "--batch"] + dem, stdin: "easting,northing\n8.0053,46.5775\n")
        #expect(r.status == 1)
        #expect(r.stdout.isEmpty)
        #expect(r.stderrLines.count == 1 && r.stderr.contains("line 1: header \"easting,northing\" has no latitude column"), "\(r.stderr)")
    }

    /// `elevation LAT,LON` (one argument) is the point `elevation LAT LON`, as `--near` takes it;
    /// before issue 29 it was a usage error.
    @Test func aCommaJoinedPointIsThePoint() throws {
        let joined = try CLIRunner.run(["elevation", "47.2493,9.3433"] + dem)
        #expect(joined.status == 0, "\(joined.stderr)")
        #expect(joined.stdout == (try CLIRunner.run(["elevation", "47.2493", "9.3433"] + dem)).stdout)
        let south = try CLIRunner.run(["elevation", "-37.9169,178.06"] + dem)
        #expect(south.status == 0 && south.stdout.contains("\"elevation\":17"), "\(south.stderr)")
        #expect(try CLIRunner.run(["elevation", "47.2493,9.3433,5"] + dem).status == 2)
    }

    @Test func batchWritesOneLinePerInputLineInOrder() throws {
        let input = "27.988333333,86.925\r\nx\nnot,a number\n91,0\n46.5367, 8.1258\n47.2492,9.3433,5\n-37.9169,178.06"
        for jobs in ["1", "2"] {
            let r = try CLIRunner.run(["elevation", "--batch", "--jobs", jobs, "--no-fill-voids"] + dem, stdin: input)
            #expect(r.status == 0, "\(r.stderr)")
            let lines = r.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            #expect(lines.count == 7)
            guard lines.count == 7 else { continue }
            #expect(abs((try json(lines[0])["elevation"] as? Double ?? 0) - 8840) <= 1)
            for (index, needle) in [(1, "expected lat,lon"), (2, "latitude must be a number"), (3, "within -90…90"),
                                    (5, "two columns")] {
                let record = try json(lines[index])
                #expect(record["line"] as? Int == index + 1)
                let message = (record["error"] as? [String: Any])?["message"] as? String ?? ""
                #expect(message.contains(needle), "line \(index + 1): \(lines[index])")
            }
            #expect(try json(lines[4])["reason"] as? String == "void")
            #expect(try json(lines[6])["elevation"] is Double)
            // Every record carries its line, good ones too (issue 29: one rule for all batches).
            for (index, line) in lines.enumerated() { #expect(try json(line)["line"] as? Int == index + 1, "\(line)") }
        }
    }

    /// Lines are parsed and their posts read a few lines ahead of their look-up (over more
    /// lines than that look-ahead, with blank, bad and too-long-for-a-number lines between):
    /// each record is the one the point alone gives.
    @Test func batchRecordsAreThoseOfThePointsAlone() throws {
        var lines: [String] = ["lat,lon"]
        for i in 0..<70 {
            switch i % 9 {
            case 3: lines.append("")
            case 5: lines.append("not,a number")
            case 7: lines.append("1\(String(repeating: "0", count: 30)),5")
            default: lines.append("\(27 + Double(i % 13) / 13),\(86 + Double(i * 7 % 17) / 17)")
            }
        }
        let batch = try CLIRunner.run(["elevation", "--batch", "--jobs", "1"] + dem, stdin: lines.joined(separator: "\n"))
        #expect(batch.status == 0, "\(batch.stderr)")
        let records = batch.stdout.split(separator: "\n")
        #expect(records.count == lines.count - 1 - lines.filter(\.isEmpty).count)
        for record in records {
            let object = try json(record)
            let number = try #require(object["line"] as? Int)
            let fields = lines[number - 1].split(separator: ",").map(String.init)
            guard object["error"] == nil else {
                #expect(Double(fields[0]).map { abs($0) > 90 } ?? true, "\(record)")
                continue
            }
            let alone = try CLIRunner.run(["elevation", fields[0], fields[1]] + dem)
            #expect(record == "{\"line\":\(number)," + alone.stdout.trimmingCharacters(in: .newlines).dropFirst(), "line \(number)")
        }
    }

    @Test func demInfoListsEveryTileWithItsVoidShare() throws {
        let r = try CLIRunner.run(["dem", "info", SharedData.dem.path, "--format", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        let tiles = try r.stdout.split(separator: "\n").map(json)
        #expect(tiles.count == 10)
        let bernese = try #require(tiles.first { $0["file"] as? String == "N46E008.tif" })
        let voids = bernese["voidFraction"] as? Double ?? 0
        #expect(voids > 0.05 && voids < 0.09, "N46E008 void share \(voids)")
        // Every void of it lies within reach of known terrain: all filled.
        #expect(abs((bernese["filledFraction"] as? Double ?? 0) - voids) < 1e-5, "\(bernese)")
        let unfilled = try CLIRunner.run(["dem", "info", SharedData.dem.path, "--format", "json", "--no-fill-voids"])
        #expect(unfilled.stdout.contains("\"file\":\"N46E008.tif\""))
        #expect(try unfilled.stdout.split(separator: "\n").map(json).allSatisfy { ($0["filledFraction"] as? Double ?? 1) == 0 })
        let nz = try #require(tiles.first { $0["file"] as? String == "S38E178.hgt.zip" })
        #expect(abs((nz["spacingArcSeconds"] as? Double ?? 0) - 1) < 1e-6)
    }

    /// The void fill's on-disk cache (`TAPSEEK_CACHE_DIR`): the first batch over N46E008 writes
    /// one patch, later ones read it, and the records are the same each time and with the cache
    /// off, which writes nothing (neither in `$XDG_CACHE_HOME` nor in `$HOME`). Two processes
    /// filling the tile at once leave one patch. The cache says nothing on stderr.
    @Test func theVoidFillCacheChangesNoAnswerAndOffWritesNothing() throws {
        let tile = SharedData.dem.appendingPathComponent("N46E008.tif")
        try #require(SharedData.exists(tile), Comment(rawValue: SharedData.missing(tile)))
        let root = try SharedData.temporaryDirectory("voidfill-cache-cli")
        defer { try? FileManager.default.removeItem(at: root) }
        let fileManager = FileManager.default
        let dem = root.appendingPathComponent("dem")
        try fileManager.createDirectory(at: dem, withIntermediateDirectories: true)
        try fileManager.createSymbolicLink(at: dem.appendingPathComponent("N46E008.tif"), withDestinationURL: tile)
        // Points across the tile, the Finsteraarhorn's filled summit among them.
        let points = (0..<400).reduce("46.5367,8.1258\n") { text, k in
            text + "\(46.0 + Double(k % 20) * 0.05 + 0.013),\(8.0 + Double(k / 20) * 0.05 + 0.007)\n"
        }
        func batch(_ environment: [String: String]) throws -> CLIRunner.Result {
            let r = try CLIRunner.run(["elevation", "--batch", "--jobs", "1", "--dem", dem.path], stdin: points, environment: environment)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stderr.isEmpty, "\(r.stderr)")
            return r
        }
        func listing(_ url: URL) -> [String] { ((try? fileManager.contentsOfDirectory(atPath: url.path)) ?? []).sorted() }
        let home = root.appendingPathComponent("home"), xdg = root.appendingPathComponent("xdg")
        let cache = root.appendingPathComponent("cache")
        let off = try batch(["TAPSEEK_CACHE_DIR": "off", "HOME": home.path, "XDG_CACHE_HOME": xdg.path])
        #expect(off.stdout.contains("\"filled\":true"))
        #expect(!fileManager.fileExists(atPath: home.path) && !fileManager.fileExists(atPath: xdg.path), "off wrote a cache")
        let cold = try batch(["TAPSEEK_CACHE_DIR": cache.path])
        let written = listing(cache)
        #expect(written.count == 1 && written[0].hasPrefix("N46E008.tif-"), "\(written)")
        let warm = try batch(["TAPSEEK_CACHE_DIR": cache.path])
        #expect(listing(cache) == written)
        #expect(cold.stdout == off.stdout)
        #expect(warm.stdout == off.stdout)
        // Without TAPSEEK_CACHE_DIR: $XDG_CACHE_HOME/tapseek.
        let unset = try CLIRunner.run(["elevation", "--batch", "--jobs", "1", "--dem", dem.path], stdin: points,
                                      environment: ["TAPSEEK_CACHE_DIR": "", "XDG_CACHE_HOME": xdg.path, "HOME": home.path])
        #expect(unset.stdout == off.stdout)
        #expect(listing(xdg.appendingPathComponent("tapseek")) == written)
        #expect(!fileManager.fileExists(atPath: home.path))
        // Two processes at once, each filling the tile and writing its patch.
        let shared = root.appendingPathComponent("shared")
        let outputs = Locked<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            let r = try? CLIRunner.run(["elevation", "--batch", "--jobs", "1", "--dem", dem.path], stdin: points,
                                       environment: ["TAPSEEK_CACHE_DIR": shared.path])
            outputs.withLock { $0.append(r?.stdout ?? "failed") }
        }
        #expect(outputs.withLock { $0 } == [off.stdout, off.stdout])
        #expect(listing(shared) == written)
        #expect(try Data(contentsOf: shared.appendingPathComponent(written[0])) == Data(contentsOf: cache.appendingPathComponent(written[0])))
        #expect(try batch(["TAPSEEK_CACHE_DIR": shared.path]).stdout == off.stdout)
    }
}
