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
            #expect(first.status == 1)
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
