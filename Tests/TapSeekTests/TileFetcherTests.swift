import Foundation
import Synchronization
import Testing
import TapSeek
import TapSeekTestSupport

/// `TileFetcher` and the names, boxes and URL templates it works with.
@Suite struct TileFetcherTests {
    /// Tile names, bounding boxes and URL templates against the SRTM naming convention (a tile is
    /// named by its south-west corner: NASA SRTM V3 user guide) and published server URLs.
    @Suite struct Naming {
        @Test(arguments: [
            ("N27E086", 27, 86), ("S38W071", -38, -71), ("n00e000", 0, 0), ("S01W001", -1, -1),
            ("S90W180", -90, -180), ("N89E179", 89, 179), ("N47E009", 47, 9),
        ])
        func namesMapToTheirSouthWestCorner(text: String, latitude: Int, longitude: Int) throws {
            let tile = try SRTMTileName(parsing: text)
            #expect(tile.latitude == latitude && tile.longitude == longitude)
            #expect(tile.description == text.uppercased())
            #expect(SRTMTileName(latitude: latitude, longitude: longitude) == tile)
        }

        @Test(arguments: ["X27E086", "N27E86", "N27E0860", "N90E000", "N27E180", "S00E000", "N00W000", "N2AE086", "", "27E086N"])
        func malformedNamesAreRejectedNamingTheText(text: String) {
            #expect {
                try SRTMTileName(parsing: text)
            } throws: { error in
                let error = error as? TileFetchError
                return error?.kind == .usage && error?.description.contains("\"\(text)\"") == true
            }
        }

        @Test func latitudeAndLongitudeOutsideTheTileGridAreNotTiles() {
            #expect(SRTMTileName(latitude: 90, longitude: 0) == nil)
            #expect(SRTMTileName(latitude: -91, longitude: 0) == nil)
            #expect(SRTMTileName(latitude: 0, longitude: 180) == nil)
            #expect(SRTMTileName(latitude: 0, longitude: -181) == nil)
        }

        private func names(_ south: Double, _ west: Double, _ north: Double, _ east: Double) throws -> [String] {
            try TileBoundingBox(south: south, west: west, north: north, east: east).tiles.map(\.description)
        }

        @Test func boxTakesEveryTileItTouches() throws {
            #expect(try names(27.5, 86.2, 28.4, 87.9) == ["N27E086", "N27E087", "N28E086", "N28E087"])
            // Säntis and Lake Constance lie inside one tile.
            #expect(try names(47.2, 9.3, 47.6, 9.7) == ["N47E009"])
        }

        @Test func edgesOnWholeDegreesTakeOnlyTheTilesInside() throws {
            #expect(try names(27, 86, 28, 87) == ["N27E086"])
            #expect(try names(27, 86, 29, 88) == ["N27E086", "N27E087", "N28E086", "N28E087"])
            // A single point on a corner still needs one tile.
            #expect(try names(28, 87, 28, 87) == ["N28E087"])
            #expect(try names(90, 0, 90, 0) == ["N89E000"])
        }

        @Test func southernAndWesternHemispheresCountFromTheSouthWestCorner() throws {
            // floor(−38.5) = −39: the tile S39 spans −39…−38.
            #expect(try names(-38.5, 177.5, -37.2, 178.5) == ["S39E177", "S39E178", "S38E177", "S38E178"])
            #expect(try names(-0.5, -0.5, 0.5, 0.5) == ["S01W001", "S01E000", "N00W001", "N00E000"])
            #expect(try names(-56, -70, -55.5, -69) == ["S56W070"])
        }

        @Test func boxAcrossTheAntimeridianWrapsFromEastToWest() throws {
            // Fiji's Taveuni straddles 180°: west 179.5 … east −179.5.
            #expect(try names(-17, 179.5, -16.5, -179.5) == ["S17E179", "S17W180"])
            #expect(try names(-17, 178.2, -16.5, -178.5) == ["S17E178", "S17E179", "S17W180", "S17W179"])
            // ±180 is one meridian: a box from 170 to −180 ends at the antimeridian.
            #expect(try names(10, 178, 11, -180) == ["N10E178", "N10E179"])
            #expect(try names(10, 180, 11, -179) == ["N10W180"])
        }

        @Test func wholeWorldIsEveryTileOnce() throws {
            let tiles = try TileBoundingBox(south: -90, west: -180, north: 90, east: 180).tiles
            #expect(tiles.count == 180 * 360)
            #expect(Set(tiles).count == tiles.count)
        }

        @Test(arguments: [
            ("27,86,28", "4 numbers"), ("27,86,28,x", "east \"x\""), ("a,86,28,87", "south \"a\""),
            ("29,86,28,87", "south 29.0 lies north of north 28.0"), ("27,86,91,87", "north 91.0"),
            ("27,-181,28,87", "west -181.0"), ("27,86,28,nan", "east nan"),
        ])
        func malformedBoxesNameTheField(text: String, expected: String) {
            #expect {
                try TileBoundingBox(parsing: text)
            } throws: { error in
                (error as? TileFetchError)?.description.contains(expected) == true
            }
        }

        @Test func parsedBoxToleratesSpaces() throws {
            let box = try TileBoundingBox(parsing: " 27.8, 86.6 ,28.1,87.1")
            #expect(box == (try TileBoundingBox(south: 27.8, west: 86.6, north: 28.1, east: 87.1)))
        }

        /// The AWS Terrain Tiles URLs published by its users (node-gdal's test suite reads
        /// `skadi/N40/N40E001.hgt.gz`; others cite `skadi/S23/S23W043.hgt.gz`).
        @Test func defaultTemplateGivesTheSkadiLayout() throws {
            let template = try TileURLTemplate(TileURLTemplate.skadi)
            #expect(template.url(for: try SRTMTileName(parsing: "N40E001")).absoluteString
                == "https://s3.amazonaws.com/elevation-tiles-prod/skadi/N40/N40E001.hgt.gz")
            #expect(template.expand(for: try SRTMTileName(parsing: "S23W043"))
                == "https://s3.amazonaws.com/elevation-tiles-prod/skadi/S23/S23W043.hgt.gz")
        }

        @Test func everyPlaceholderExpands() throws {
            let template = try TileURLTemplate("http://mirror.test/{latitude}/{longitude}/{lat}{lon}/{name}.hgt")
            #expect(template.expand(for: try SRTMTileName(parsing: "S38W071")) == "http://mirror.test/-38/-71/S38W071/S38W071.hgt")
            #expect(template.expand(for: try SRTMTileName(parsing: "N07E005")) == "http://mirror.test/7/5/N07E005/N07E005.hgt")
        }

        @Test(arguments: [
            ("http://x/{nmae}.hgt", "unknown placeholder {nmae}"),
            ("http://x/{name.hgt", "unclosed"),
            ("http://x/tile.hgt", "names no tile"),
            ("http://x/{lat}.hgt", "names no tile"),
            ("ftp://x/{name}.hgt", "not an http, https or file URL"),
            ("{name}.hgt", "not an http, https or file URL"),
        ])
        func badTemplatesAreRejectedWithTheReason(pattern: String, expected: String) {
            #expect {
                try TileURLTemplate(pattern)
            } throws: { error in
                let error = error as? TileFetchError
                return error?.kind == .usage && error?.description.contains(expected) == true
                    && error?.description.contains(pattern) == true
            }
        }

        @Test func tileByteCountsAreThoseOfThreeAndOneArcSecondTiles() {
            #expect(SRTMTileFile.sizeProblem(2_884_802) == nil)
            #expect(SRTMTileFile.sizeProblem(25_934_402) == nil)
            #expect(SRTMTileFile.sizeProblem(2_884_800) != nil)
            #expect(SRTMTileFile.sizeProblem(0) != nil)
        }
    }

    /// Downloads over a loopback HTTP server (scripts/tile-test-server.py) that serves the shared
    /// real tiles; stored bytes are compared with the shared files themselves.
    @Suite(.enabled(if: SharedData.available(SharedData.dem), "needs ../shared/dem"))
    struct Downloads {
        static let everest = SharedData.dem.appendingPathComponent("N27E086.hgt")
        static let santis = SharedData.dem.appendingPathComponent("N47E009.hgt")
        static let pyreneesZip = SharedData.dem.appendingPathComponent("N42E001.hgt.zip")

        /// A fresh DEM directory and a fetcher on it for `template`.
        private func fetcher(_ template: String) throws -> (TileFetcher, URL) {
            let directory = try SharedData.temporaryDirectory("fetch")
            return (TileFetcher(directory: directory.path, template: try TileURLTemplate(template)), directory)
        }

        private func bytes(_ url: URL) throws -> Data {
            try #require(FileManager.default.contents(atPath: url.path), "cannot read \(url.path)")
        }

        private func tile(_ name: String) throws -> SRTMTileName { try SRTMTileName(parsing: name) }

        @Test func realTilesArriveByteForByteAndAreNotFetchedTwice() async throws {
            try #require(SharedData.exists(Self.everest), Comment(rawValue: SharedData.missing(Self.everest)))
            let server = try LoopbackTileServer(directory: SharedData.dem)
            let (fetcher, directory) = try fetcher(server.url("{name}.hgt"))
            defer { try? FileManager.default.removeItem(at: directory) }

            for (name, source) in [("N27E086", Self.everest), ("N47E009", Self.santis)] {
                let result = try await fetcher.fetch(tile(name))
                #expect(result == .stored(file: "\(name).hgt", bytes: 2_884_802, transferred: 2_884_802, resumedAt: 0))
                #expect(try bytes(directory.appendingPathComponent("\(name).hgt")) == bytes(source))
            }
            let requestsBefore = server.requests.count
            #expect(try await fetcher.fetch(tile("N27E086")) == .present(file: "N27E086.hgt", bytes: 2_884_802))
            #expect(server.requests.count == requestsBefore, "a present tile must not be requested")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".part") }
            #expect(leftovers.isEmpty)
        }

        /// A redirect to the tile (a mirror's usual answer) is followed.
        @Test func redirectIsFollowedToTheTile() async throws {
            try #require(SharedData.exists(Self.everest), Comment(rawValue: SharedData.missing(Self.everest)))
            let server = try LoopbackTileServer(directory: SharedData.dem, options: ["--redirect", "N01E001.hgt=/N27E086.hgt"])
            let (fetcher, directory) = try fetcher(server.url("{name}.hgt"))
            defer { try? FileManager.default.removeItem(at: directory) }
            let result = try await fetcher.fetch(tile("N01E001"))
            #expect(result == .stored(file: "N01E001.hgt", bytes: 2_884_802, transferred: 2_884_802, resumedAt: 0))
            #expect(try bytes(directory.appendingPathComponent("N01E001.hgt")) == bytes(Self.everest))
            #expect(server.requests.map { $0.split(separator: " ")[1] } == ["/N01E001.hgt", "/N27E086.hgt"])
        }

        /// A server that stops sending mid-tile fails the fetch after the idle timeout, keeping
        /// the bytes received for a resume; it does not hang.
        @Test func stalledTransferTimesOutAndKeepsItsPart() async throws {
            try #require(SharedData.exists(Self.everest), Comment(rawValue: SharedData.missing(Self.everest)))
            let server = try LoopbackTileServer(directory: SharedData.dem, options: ["--stall", "N27E086.hgt=30"])
            let directory = try SharedData.temporaryDirectory("fetch")
            defer { try? FileManager.default.removeItem(at: directory) }
            let fetcher = TileFetcher(directory: directory.path, template: try TileURLTemplate(server.url("{name}.hgt")), idleTimeout: 1)
            // The server would close the connection after 30 s: the message says it was the
            // timeout that ended the transfer. (Elapsed time is not asserted: with the whole
            // suite running, the test's own resumption may wait for a free thread.)
            await #expect {
                try await fetcher.fetch(tile("N27E086"))
            } throws: { error in
                let error = error as? TileFetchError
                return error?.kind == .transfer && error?.description.contains("after 1000 of 2884802 bytes (no data for 1.0 s)") == true
            }
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("N27E086.part").path))
        }

        @Test func missingTileIsNoTileAndLeavesNothing() async throws {
            let server = try LoopbackTileServer(directory: SharedData.dem)
            let (fetcher, directory) = try fetcher(server.url("{name}.hgt"))
            defer { try? FileManager.default.removeItem(at: directory) }
            // The middle of the Pacific: no land, no SRTM tile.
            let result = try await fetcher.fetch(tile("N00W150"))
            #expect(result == .noTile(url: server.url("N00W150.hgt")))
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        }

        @Test func interruptedDownloadResumesWithARangeRequest() async throws {
            try #require(SharedData.exists(Self.everest))
            let cut = 1_000_000
            let server = try LoopbackTileServer(directory: SharedData.dem, options: ["--cut-after", String(cut)])
            let (fetcher, directory) = try fetcher(server.url("{name}.hgt"))
            defer { try? FileManager.default.removeItem(at: directory) }
            let part = directory.appendingPathComponent("N27E086.part")

            await #expect {
                try await fetcher.fetch(tile("N27E086"))
            } throws: { error in
                let error = error as? TileFetchError
                return error?.kind == .transfer && error?.description.contains("N27E086") == true
                    && error?.description.contains("resume") == true
            }
            #expect(try bytes(part) == bytes(Self.everest).prefix(cut), "the part keeps exactly the bytes received")
            #expect(FileManager.default.fileExists(atPath: part.path + ".validator"), "the server's ETag is kept for If-Range")

            let events = EventLog()
            let result = try await fetcher.fetch(tile("N27E086"), onEvent: events.record)
            #expect(result == .stored(file: "N27E086.hgt", bytes: 2_884_802, transferred: Int64(2_884_802 - cut), resumedAt: Int64(cut)))
            #expect(server.requests == ["GET /N27E086.hgt -", "GET /N27E086.hgt bytes=\(cut)- if-range"])
            #expect(events.all.contains(.requesting(try tile("N27E086"), url: server.url("N27E086.hgt"), resumingAt: Int64(cut))))
            #expect(try bytes(directory.appendingPathComponent("N27E086.hgt")) == bytes(Self.everest))
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["N27E086.hgt"])
        }

        @Test func fileThatChangedOnTheServerIsNotSplicedOntoTheOldPart() async throws {
            let served = try SharedData.temporaryDirectory("served")
            defer { try? FileManager.default.removeItem(at: served) }
            let link = served.appendingPathComponent("N27E086.hgt")
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: Self.everest)
            let server = try LoopbackTileServer(directory: served, options: ["--cut-after", "1000000"])
            let (fetcher, directory) = try fetcher(server.url("{name}.hgt"))
            defer { try? FileManager.default.removeItem(at: directory) }
            _ = try? await fetcher.fetch(tile("N27E086"))
            #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("N27E086.part").path))

            // A new version of the file (another inode, so another ETag) replaces the old one.
            try FileManager.default.removeItem(at: link)
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: Self.santis)
            let events = EventLog()
            let result = try await fetcher.fetch(tile("N27E086"), onEvent: events.record)
            #expect(result == .stored(file: "N27E086.hgt", bytes: 2_884_802, transferred: 2_884_802, resumedAt: 0))
            #expect(server.requests.last == "GET /N27E086.hgt bytes=1000000- if-range")
            #expect(events.notes.contains { $0.contains("from the start") })
            #expect(try bytes(directory.appendingPathComponent("N27E086.hgt")) == bytes(Self.santis))
        }

        @Test func serverWithoutRangesGetsTheWholeTileAgain() async throws {
            let server = try LoopbackTileServer(directory: SharedData.dem, options: ["--no-range"])
            let (fetcher, directory) = try fetcher(server.url("{name}.hgt"))
            defer { try? FileManager.default.removeItem(at: directory) }
            try bytes(Self.santis).prefix(123_456).write(to: directory.appendingPathComponent("N47E009.part"))

            let events = EventLog()
            let result = try await fetcher.fetch(tile("N47E009"), onEvent: events.record)
            #expect(result == .stored(file: "N47E009.hgt", bytes: 2_884_802, transferred: 2_884_802, resumedAt: 0))
            #expect(server.requests == ["GET /N47E009.hgt bytes=123456-"])
            #expect(events.notes.contains { $0.contains("from the start") })
            #expect(try bytes(directory.appendingPathComponent("N47E009.hgt")) == bytes(Self.santis))
        }

        @Test func partLongerThanTheTileIsDiscarded() async throws {
            let server = try LoopbackTileServer(directory: SharedData.dem)
            let (fetcher, directory) = try fetcher(server.url("{name}.hgt"))
            defer { try? FileManager.default.removeItem(at: directory) }
            try Data(count: 3_000_000).write(to: directory.appendingPathComponent("N47E009.part"))

            let result = try await fetcher.fetch(tile("N47E009"))
            #expect(result == .stored(file: "N47E009.hgt", bytes: 2_884_802, transferred: 2_884_802, resumedAt: 0))
            #expect(server.requests == ["GET /N47E009.hgt bytes=3000000-", "GET /N47E009.hgt -"])
            #expect(try bytes(directory.appendingPathComponent("N47E009.hgt")) == bytes(Self.santis))
        }

        @Test func resumedPartThatIsNotATileIsFetchedAgainFromTheStart() async throws {
            let served = try SharedData.temporaryDirectory("served")
            defer { try? FileManager.default.removeItem(at: served) }
            let packed = served.appendingPathComponent("N47E009.hgt.gz")
            try SharedData.run("sh", ["-c", "gzip -c \"$0\" > \"$1\"", Self.santis.path, packed.path])
            let server = try LoopbackTileServer(directory: served)
            let (fetcher, directory) = try fetcher(server.url("{name}.hgt.gz"))
            defer { try? FileManager.default.removeItem(at: directory) }
            // A kept part whose first bytes are not the file's: completed by the range, it is no
            // gzip stream, fails verification, and the tile is fetched once more from byte 0.
            try Data(repeating: 0xFF, count: 1_000).write(to: directory.appendingPathComponent("N47E009.part"))

            let events = EventLog()
            let result = try await fetcher.fetch(tile("N47E009"), onEvent: events.record)
            let packedSize = Int64(try bytes(packed).count)
            #expect(result == .stored(file: "N47E009.hgt", bytes: 2_884_802, transferred: packedSize, resumedAt: 0))
            #expect(server.requests == ["GET /N47E009.hgt.gz bytes=1000-", "GET /N47E009.hgt.gz -"])
            #expect(events.notes.contains { $0.contains("starting again") })
            #expect(try bytes(directory.appendingPathComponent("N47E009.hgt")) == bytes(Self.santis))
        }

        @Test func wrongSizedResponseIsRejectedAndNothingIsStored() async throws {
            let served = try SharedData.temporaryDirectory("served")
            defer { try? FileManager.default.removeItem(at: served) }
            try bytes(Self.everest).prefix(1_000).write(to: served.appendingPathComponent("N01E001.hgt"))
            let server = try LoopbackTileServer(directory: served)
            let (fetcher, directory) = try fetcher(server.url("{name}.hgt"))
            defer { try? FileManager.default.removeItem(at: directory) }

            await #expect {
                try await fetcher.fetch(tile("N01E001"))
            } throws: { error in
                let error = error as? TileFetchError
                return error?.kind == .corrupt && error?.description.contains("N01E001") == true
                    && error?.description.contains("1000 bytes") == true
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        }

        @Test func otherHTTPStatusesNameTheTileAndTheStatus() async throws {
            let server = try LoopbackTileServer(directory: SharedData.dem, options: ["--status", "N27E086.hgt=503"])
            let (fetcher, directory) = try fetcher(server.url("{name}.hgt"))
            defer { try? FileManager.default.removeItem(at: directory) }
            await #expect {
                try await fetcher.fetch(tile("N27E086"))
            } throws: { error in
                let error = error as? TileFetchError
                return error?.kind == .httpStatus(503) && error?.description == "N27E086: HTTP 503 from \(server.url("N27E086.hgt"))"
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        }

        @Test func gzipResponseIsUnpackedToTheTile() async throws {
            let served = try SharedData.temporaryDirectory("served")
            defer { try? FileManager.default.removeItem(at: served) }
            let packed = served.appendingPathComponent("N47E009.hgt.gz")
            try SharedData.run("sh", ["-c", "gzip -c \"$0\" > \"$1\"", Self.santis.path, packed.path])
            let server = try LoopbackTileServer(directory: served)
            let (fetcher, directory) = try fetcher(server.url("{name}.hgt.gz"))
            defer { try? FileManager.default.removeItem(at: directory) }

            let result = try await fetcher.fetch(tile("N47E009"))
            let packedSize = Int64(try bytes(packed).count)
            #expect(result == .stored(file: "N47E009.hgt", bytes: 2_884_802, transferred: packedSize, resumedAt: 0))
            #expect(try bytes(directory.appendingPathComponent("N47E009.hgt")) == bytes(Self.santis))
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["N47E009.hgt"])
        }

        @Test func damagedGzipIsRejected() async throws {
            let served = try SharedData.temporaryDirectory("served")
            defer { try? FileManager.default.removeItem(at: served) }
            let packed = served.appendingPathComponent("N47E009.hgt.gz")
            try SharedData.run("sh", ["-c", "gzip -c \"$0\" | head -c 200000 > \"$1\"", Self.santis.path, packed.path])
            let server = try LoopbackTileServer(directory: served)
            let (fetcher, directory) = try fetcher(server.url("{name}.hgt.gz"))
            defer { try? FileManager.default.removeItem(at: directory) }
            await #expect {
                try await fetcher.fetch(tile("N47E009"))
            } throws: { error in
                (error as? TileFetchError)?.kind == .corrupt
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
        }

        @Test func zipHoldingTheTileIsStoredAsIs() async throws {
            try #require(SharedData.exists(Self.pyreneesZip))
            let server = try LoopbackTileServer(directory: SharedData.dem)
            let (fetcher, directory) = try fetcher(server.url("{name}.hgt.zip"))
            defer { try? FileManager.default.removeItem(at: directory) }
            let result = try await fetcher.fetch(tile("N42E001"))
            #expect(result == .stored(file: "N42E001.hgt.zip", bytes: 2_037_759, transferred: 2_037_759, resumedAt: 0))
            #expect(try bytes(directory.appendingPathComponent("N42E001.hgt.zip")) == bytes(Self.pyreneesZip))
            #expect(fetcher.existingFile(for: try tile("N42E001"))?.file == "N42E001.hgt.zip")
        }

        @Test func zipCheckReadsTheArchiveDirectory() throws {
            try #require(SharedData.exists(Self.pyreneesZip))
            #expect(SRTMTileFile.content(ofFileAt: Self.pyreneesZip.path) == .zip)
            #expect(SRTMTileFile.zipProblem(atPath: Self.pyreneesZip.path, tile: try tile("N42E001")) == nil)
            let other = SRTMTileFile.zipProblem(atPath: Self.pyreneesZip.path, tile: try tile("N43E006"))
            #expect(other == "holds no N43E006.hgt (has N42E001.hgt)")
            #expect(SRTMTileFile.zipProblem(atPath: Self.everest.path, tile: try tile("N27E086")) != nil)
        }

        @Test func fileURLTemplateCopiesFromALocalMirror() async throws {
            let template = SharedData.dem.appendingPathComponent("{name}.hgt").absoluteString.removingPercentEncoding!
            let (fetcher, directory) = try fetcher(template)
            defer { try? FileManager.default.removeItem(at: directory) }
            #expect(try await fetcher.fetch(tile("N27E086")) == .stored(file: "N27E086.hgt", bytes: 2_884_802, transferred: 2_884_802, resumedAt: 0))
            #expect(try bytes(directory.appendingPathComponent("N27E086.hgt")) == bytes(Self.everest))
            #expect(try await fetcher.fetch(tile("N00W150")) == .noTile(url: template.replacingOccurrences(of: "{name}", with: "N00W150")))
        }

        @Test func invalidStoredTileIsReplaced() async throws {
            let server = try LoopbackTileServer(directory: SharedData.dem)
            let (fetcher, directory) = try fetcher(server.url("{name}.hgt"))
            defer { try? FileManager.default.removeItem(at: directory) }
            try Data(count: 10).write(to: directory.appendingPathComponent("N27E086.hgt"))
            #expect(fetcher.existingFile(for: try tile("N27E086")) == nil)
            let events = EventLog()
            _ = try await fetcher.fetch(tile("N27E086"), onEvent: events.record)
            #expect(events.notes.contains { $0.hasPrefix("replacing N27E086.hgt: 10 bytes") })
            #expect(try bytes(directory.appendingPathComponent("N27E086.hgt")) == bytes(Self.everest))
        }
    }
}

/// Collects a fetch's events, which arrive on background threads.
final class EventLog: Sendable {
    private let events = Mutex<[TileFetchEvent]>([])
    var all: [TileFetchEvent] { events.withLock { $0 } }
    var notes: [String] {
        all.compactMap { if case .note(_, let text) = $0 { text } else { nil } }
    }
    @Sendable func record(_ event: TileFetchEvent) { events.withLock { $0.append(event) } }
}
