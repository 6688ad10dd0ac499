import Foundation
import Testing
import TapSeekTestSupport

/// `tapseek dem fetch` run as a user runs it, against a loopback HTTP server
/// (scripts/tile-test-server.py) serving the shared real tiles.
@Suite struct DEMFetchCommandTests {
    @Suite struct Usage {
        @Test(arguments: [
            ([], "give tile names"),
            (["X27E086"], "\"X27E086\" is not a tile name"),
            (["--bbox", "27,86,28"], "expected south,west,north,east"),
            (["--bbox", "29,86,28,87"], "south 29.0 lies north of north 28.0"),
            (["N27E086", "--url-template", "http://x/{foo}.hgt"], "unknown placeholder {foo}"),
        ])
        func badRequestsExitTwoNamingTheProblem(arguments: [String], message: String) throws {
            let result = try CLIRunner.run(["dem", "fetch"] + arguments)
            #expect(result.status == 2)
            #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }

    /// Issue 38: without a network (here a host that cannot resolve: `.invalid` is reserved,
    /// RFC 2606), the message says so and the exit status is the network's, 3, not bad input's
    /// 1; before, it said the download "broke off after 0 bytes … run again to resume".
    @Test func anUnresolvableHostSaysNoNetworkAndExitsThree() throws {
        let directory = try SharedData.temporaryDirectory("fetch-offline")
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try CLIRunner.run(["dem", "fetch", "N46E008", "N47E009", "--dem", directory.path,
                                        "--url-template", "http://nonexistent.invalid/{name}.hgt.gz"])
        #expect(result.status == 3, "stderr: \(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderrLines.contains { $0.hasPrefix("tapseek: N46E008: no network: could not resolve host nonexistent.invalid") },
                "stderr: \(result.stderr)")
        #expect(!result.stderr.contains("broke off") && !result.stderr.contains("resume"), "stderr: \(result.stderr)")
        #expect(result.stderrLines.last?.hasPrefix("tapseek: 2 of 2 tile(s) failed: N46E008 N47E009") == true)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty, "nothing is left behind")
    }

    /// Issue 10, defect 1: hostile servers and boxes too large to fetch by accident.
    @Suite struct Limits {
        /// Files left in `directory`, with their sizes.
        private func listing(_ directory: URL) throws -> [String: Int] {
            var sizes: [String: Int] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
                let attributes = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent(name).path)
                sizes[name] = (attributes[.size] as? NSNumber)?.intValue
            }
            return sizes
        }

        @Test func endlessResponseStopsAtTheLargestTileSize() throws {
            let served = try SharedData.temporaryDirectory("fetch-served")
            let directory = try SharedData.temporaryDirectory("fetch-cli")
            defer { try? FileManager.default.removeItem(at: served); try? FileManager.default.removeItem(at: directory) }
            // 256 MiB at most, ten times a tile: far past the cap, small enough to stop soon.
            let server = try LoopbackTileServer(directory: served, options: ["--endless", "N27E086.hgt", "--endless-limit", "268435456"])
            let result = try CLIRunner.run(["dem", "fetch", "N27E086", "--dem", directory.path,
                                            "--url-template", server.url("{name}.hgt")])
            #expect(result.status == 1)
            #expect(result.stderr.contains("N27E086: \(server.url("N27E086.hgt")) sends "), "stderr: \(result.stderr)")
            #expect(result.stderr.contains("more than any SRTM tile (at most 25999938); stopped"))
            #expect(try listing(directory).isEmpty, "nothing of the endless response is kept")
        }

        @Test func gzipBombIsStoppedWhileUnpacking() throws {
            let served = try SharedData.temporaryDirectory("fetch-served")
            let directory = try SharedData.temporaryDirectory("fetch-cli")
            defer { try? FileManager.default.removeItem(at: served); try? FileManager.default.removeItem(at: directory) }
            // 200 MB of zeros gzip to about 200 kB: a small download that unpacks far past a tile.
            let bomb = served.appendingPathComponent("N27E086.hgt.gz")
            try SharedData.run("sh", ["-c", "head -c 200000000 /dev/zero | gzip -1 > '\(bomb.path)'"])
            let server = try LoopbackTileServer(directory: served)
            let result = try CLIRunner.run(["dem", "fetch", "N27E086", "--dem", directory.path,
                                            "--url-template", server.url("{name}.hgt.gz")])
            #expect(result.status == 1)
            #expect(result.stderr.contains("gzip data unpacks to more than 25999938 bytes"), "stderr: \(result.stderr)")
            #expect(try listing(directory).isEmpty, "neither the download nor a partial unpacking is kept")
        }

        /// `--source copernicus` fetches a GLO-30 tile from the bucket's layout (here on the
        /// loopback server); every command then reads it as above EGM2008: converted with an
        /// EGM2008 grid when one is given, else read as is, with a warning. An unknown source is
        /// a usage error.
        @Test func copernicusTilesAreFetchedAndReadAboveEGM2008() throws {
            let served = try SharedData.temporaryDirectory("fetch-copernicus-served")
            let directory = try SharedData.temporaryDirectory("fetch-copernicus")
            defer { try? FileManager.default.removeItem(at: served); try? FileManager.default.removeItem(at: directory) }
            let name = "Copernicus_DSM_COG_10_N46_00_E008_00_DEM"
            try FileManager.default.createDirectory(at: served.appendingPathComponent(name), withIntermediateDirectories: true)
            try CopernicusFixture.writeTile(to: served.appendingPathComponent("\(name)/\(name).tif"))
            let server = try LoopbackTileServer(directory: served)
            let template = server.url("Copernicus_DSM_COG_10_{lat}_00_{lon}_00_DEM/Copernicus_DSM_COG_10_{lat}_00_{lon}_00_DEM.tif")

            let fetched = try CLIRunner.run(["dem", "fetch", "--source", "copernicus", name, "--dem", directory.path, "--url-template", template])
            #expect(fetched.status == 0, "stderr: \(fetched.stderr)")
            #expect(fetched.stderr.contains("N46E008: stored \(name).tif"), "stderr: \(fetched.stderr)")
            #expect(try listing(directory).keys.sorted() == ["\(name).tif"])

            let info = try CLIRunner.run(["dem", "info", directory.path, "--format", "json"], environment: ["TAPSEEK_EGM2008": ""])
            #expect(info.stdout.contains("\"verticalDatum\":\"EGM2008\",\"convertedToEGM96\":false"), "stdout: \(info.stdout)")
            #expect(info.stderr.contains("warning: \(name).tif gives heights above EGM2008; no EGM2008 geoid grid was given"), "stderr: \(info.stderr)")

            // A stand-in for EGM2008: EGM96 plus 2 + 0.01 φ − 0.02 λ metres, exact between posts.
            let geoid = served.appendingPathComponent("egm08_linear.gtx")
            try CopernicusFixture.writeGeoid(to: geoid) { latitude, longitude in 2 + 0.01 * latitude - 0.02 * longitude }
            func elevation(_ environment: [String: String]) throws -> Double {
                let result = try CLIRunner.run(["elevation", "46.5", "8.5", "--dem", directory.path], environment: environment)
                let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
                return try #require(object?["elevation"] as? Double, "stdout: \(result.stdout)")
            }
            let raw = try elevation(["TAPSEEK_EGM2008": ""])
            let converted = try elevation(["TAPSEEK_EGM2008": geoid.path])
            #expect(abs(converted - raw - (2 + 0.465 - 0.17)) < 0.06, "\(raw) → \(converted)")

            let unknown = try CLIRunner.run(["dem", "fetch", "N46E008", "--source", "alos", "--dem", directory.path])
            #expect(unknown.status == 2 && unknown.stderr.contains("--source"), "stderr: \(unknown.stderr)")
        }

        @Test func largeBoxNeedsYesOrALargerMaximum() throws {
            let served = try SharedData.temporaryDirectory("fetch-served")
            let directory = try SharedData.temporaryDirectory("fetch-cli")
            defer { try? FileManager.default.removeItem(at: served); try? FileManager.default.removeItem(at: directory) }
            // Europe, 35°–70° N, 10° W–40° E: 35 × 50 tiles, over the default limit of 100.
            let europe = try CLIRunner.run(["dem", "fetch", "--bbox", "35,-10,70,40", "--dem", directory.path])
            #expect(europe.status == 2)
            #expect(europe.stderr.contains("that is 1750 tiles (up to 45.4 GB), more than --max-tiles 100: add --yes"), "stderr: \(europe.stderr)")

            let server = try LoopbackTileServer(directory: served)
            let box = ["dem", "fetch", "--bbox", "46.5,8.5,47.5,9.5", "--dem", directory.path, "--url-template", server.url("{name}.hgt")]
            #expect(try CLIRunner.run(box + ["--max-tiles", "3"]).status == 2)
            #expect(server.requests.isEmpty, "nothing is fetched before the question is answered")
            let confirmed = try CLIRunner.run(box + ["--max-tiles", "3", "--yes"])
            #expect(confirmed.status == 0, "stderr: \(confirmed.stderr)")
            #expect(server.requests.count == 4)
            #expect(try CLIRunner.run(box + ["--max-tiles", "4"]).status == 0)
        }
    }

    @Suite(.enabled(if: SharedData.available(SharedData.dem), "needs ../shared/dem"))
    struct Downloads {
        static let everest = SharedData.dem.appendingPathComponent("N27E086.hgt")
        static let santis = SharedData.dem.appendingPathComponent("N47E009.hgt")

        private func bytes(_ url: URL) throws -> Data {
            try #require(FileManager.default.contents(atPath: url.path), "cannot read \(url.path)")
        }

        @Test func namedTilesAreStoredAndOceanTilesReported() throws {
            try #require(SharedData.exists(Self.everest), Comment(rawValue: SharedData.missing(Self.everest)))
            let server = try LoopbackTileServer(directory: SharedData.dem)
            let directory = try SharedData.temporaryDirectory("fetch-cli")
            defer { try? FileManager.default.removeItem(at: directory) }
            let arguments = ["dem", "fetch", "N27E086", "N00W150", "N47E009",
                             "--dem", directory.path, "--url-template", server.url("{name}.hgt")]

            let result = try CLIRunner.run(arguments)
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(result.stdout.isEmpty, "progress belongs on stderr")
            #expect(try bytes(directory.appendingPathComponent("N27E086.hgt")) == bytes(Self.everest))
            #expect(try bytes(directory.appendingPathComponent("N47E009.hgt")) == bytes(Self.santis))
            #expect(result.stderrLines.contains("N00W150: no tile (ocean?): not found at \(server.url("N00W150.hgt"))"))
            #expect(result.stderrLines.last == "tapseek: 2 stored, 0 already present, 1 no tile (ocean?), 0 failed, in \(directory.path)")
            // Not a terminal: no live progress line, no carriage returns or escape sequences.
            #expect(!result.stderr.contains("\r") && !result.stderr.contains("\u{1B}"))

            let again = try CLIRunner.run(arguments)
            #expect(again.status == 0)
            #expect(again.stderrLines.contains("N27E086: already present (N27E086.hgt, 2884802 bytes)"))
            #expect(server.requests.filter { $0.hasPrefix("GET /N27E086.hgt") }.count == 1, "a present tile is not fetched again")
        }

        @Test func boxFetchesEveryTileItTouches() throws {
            let server = try LoopbackTileServer(directory: SharedData.dem)
            let directory = try SharedData.temporaryDirectory("fetch-cli")
            defer { try? FileManager.default.removeItem(at: directory) }
            // Around Lake Constance, across 47° N and 9° E: four tiles, of which the server has
            // N47E009 as .hgt (N46E008 is shared only as GeoTIFF).
            let result = try CLIRunner.run(["dem", "fetch", "--bbox", "46.9,8.9,47.5,9.5",
                                            "--dem", directory.path, "--url-template", server.url("{name}.hgt")])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(server.requests == ["GET /N46E008.hgt -", "GET /N46E009.hgt -", "GET /N47E008.hgt -", "GET /N47E009.hgt -"])
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["N47E009.hgt"])
            #expect(result.stderrLines.last?.hasPrefix("tapseek: 1 stored, 0 already present, 3 no tile (ocean?), 0 failed") == true)
        }

        /// Issue 10, defect 7: a southern or western box starts with `-` and was refused as
        /// "Missing value for --bbox".
        @Test func southernBoxIsAValueNotAnOption() throws {
            try #require(SharedData.exists(SharedData.dem), Comment(rawValue: SharedData.missing(SharedData.dem)))
            let server = try LoopbackTileServer(directory: SharedData.dem)
            let directory = try SharedData.temporaryDirectory("fetch-cli")
            defer { try? FileManager.default.removeItem(at: directory) }
            // Gisborne, New Zealand: 38°–37° S, 177°–179° E.
            let result = try CLIRunner.run(["dem", "fetch", "--bbox", "-38,177,-37,179",
                                            "--dem", directory.path, "--url-template", server.url("{name}.hgt")])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(server.requests == ["GET /S38E177.hgt -", "GET /S38E178.hgt -"])
        }

        @Test func environmentNamesTheServerAndTheDirectory() throws {
            let server = try LoopbackTileServer(directory: SharedData.dem)
            let directory = try SharedData.temporaryDirectory("fetch-cli")
            defer { try? FileManager.default.removeItem(at: directory) }
            let result = try CLIRunner.run(["dem", "fetch", "n47e009"], environment: [
                "TAPSEEK_TILE_URL": server.url("{name}.hgt"), "TAPSEEK_DEM": directory.path,
            ])
            #expect(result.status == 0, "stderr: \(result.stderr)")
            #expect(try bytes(directory.appendingPathComponent("N47E009.hgt")) == bytes(Self.santis))
        }

        @Test func failedTileIsReportedTheRestFetchedAndTheExitIsOne() throws {
            let server = try LoopbackTileServer(directory: SharedData.dem, options: ["--status", "N27E086.hgt=500"])
            let directory = try SharedData.temporaryDirectory("fetch-cli")
            defer { try? FileManager.default.removeItem(at: directory) }
            let result = try CLIRunner.run(["dem", "fetch", "N27E086", "N47E009",
                                            "--dem", directory.path, "--url-template", server.url("{name}.hgt")])
            #expect(result.status == 1)
            #expect(result.stderrLines.contains("tapseek: N27E086: HTTP 500 from \(server.url("N27E086.hgt"))"))
            #expect(result.stderrLines.last == "tapseek: 1 of 2 tile(s) failed: N27E086")
            #expect(try bytes(directory.appendingPathComponent("N47E009.hgt")) == bytes(Self.santis))
        }

        @Test func interruptedRunIsResumedByTheNextRun() throws {
            let server = try LoopbackTileServer(directory: SharedData.dem, options: ["--cut-after", "1000000"])
            let directory = try SharedData.temporaryDirectory("fetch-cli")
            defer { try? FileManager.default.removeItem(at: directory) }
            let arguments = ["dem", "fetch", "N27E086", "--dem", directory.path, "--url-template", server.url("{name}.hgt")]

            let first = try CLIRunner.run(arguments)
            // A transfer broken off is the network's failure: status 3 since issue 38 (was 1).
            #expect(first.status == 3)
            #expect(first.stderr.contains("broke off after 1000000 of 2884802 bytes"), "stderr: \(first.stderr)")
            #expect(first.stderr.contains("run again to resume"))

            let second = try CLIRunner.run(arguments)
            #expect(second.status == 0, "stderr: \(second.stderr)")
            #expect(second.stderrLines.contains("N27E086: resuming \(server.url("N27E086.hgt")) at byte 1000000"))
            #expect(second.stderr.contains("N27E086: stored N27E086.hgt (2884802 bytes; resumed at byte 1000000, 1884802 bytes received"))
            #expect(try bytes(directory.appendingPathComponent("N27E086.hgt")) == bytes(Self.everest))
        }
    }
}
