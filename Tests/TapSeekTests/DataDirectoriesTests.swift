import Foundation
import Testing
import TapSeek
import TapSeekTestSupport

/// Data is found at run time, in the documented order, never from the build machine's paths.
struct DataDirectoriesTests {
    static let installed = URL(fileURLWithPath: "/opt/tapseek/bin/tapseek")

    @Test func lookupOrderIsDataVariableInstallationXDGHomeThenXDGDirs() {
        let places = DataDirectories(environment: ["TAPSEEK_DATA": "/d", "HOME": "/home/u", "XDG_DATA_DIRS": "/a:/b"],
                                     executable: Self.installed)
        #expect(places.locations.map(\.data.path) == ["/d", "/opt/tapseek/share/tapseek", "/home/u/.local/share/tapseek",
                                                      "/a/tapseek", "/b/tapseek"])
        #expect(places.locations.first?.dem.path == "/d/dem")
    }

    @Test func defaultsAreTheXDGDefaults() {
        let places = DataDirectories(environment: ["HOME": "/home/u"], executable: nil)
        #expect(places.locations.map(\.data.path) == ["/home/u/.local/share/tapseek", "/usr/local/share/tapseek", "/usr/share/tapseek"])
        let explicit = DataDirectories(environment: ["XDG_DATA_HOME": "/x"], executable: nil)
        #expect(explicit.locations.first?.data.path == "/x/tapseek")
    }

    /// The running program is found without `Bundle.main` (which reads the program's whole
    /// folder on Linux), and it is the same file.
    @Test func theRunningProgramIsTheMainBundlesExecutable() throws {
        let program = try #require(DataDirectories.runningProgram)
        let bundle = try #require(Bundle.main.executableURL)
        #expect(program.resolvingSymlinksInPath().path == bundle.resolvingSymlinksInPath().path)
    }

    /// A program built in a source checkout (`ROOT/.build/…/tapseek`) finds the checkout's
    /// `data/build` and `dem/` — from where it runs, not from where it was compiled.
    @Test func aProgramInACheckoutFindsTheCheckoutsData() throws {
        let root = try SharedData.temporaryDirectory("checkout")
        defer { try? FileManager.default.removeItem(at: root) }
        try Data().write(to: root.appendingPathComponent("Package.swift"))
        try FileManager.default.createDirectory(at: root.appendingPathComponent("data/build"), withIntermediateDirectories: true)
        try Data("index".utf8).write(to: root.appendingPathComponent("data/build/geocoder-index.bin"))
        try FileManager.default.createDirectory(at: root.appendingPathComponent("dem"), withIntermediateDirectories: true)
        let program = root.appendingPathComponent(".build/x86_64-unknown-linux-gnu/release/tapseek")
        let places = DataDirectories(environment: ["HOME": "/nonexistent"], executable: program)
        #expect(places.file(named: "geocoder-index.bin")?.path == root.appendingPathComponent("data/build/geocoder-index.bin").standardizedFileURL.path)
        #expect(places.demDirectory(environment: [:])?.path == root.appendingPathComponent("dem").standardizedFileURL.path)
        #expect(places.demDirectory(environment: ["TAPSEEK_DEM": "/tiles"])?.path == "/tiles")
        // Without a Package.swift beside `.build` it is not a checkout: the install layout applies.
        try FileManager.default.removeItem(at: root.appendingPathComponent("Package.swift"))
        let other = DataDirectories(environment: ["HOME": "/nonexistent"], executable: program)
        #expect(other.locations.first?.data.path == root.appendingPathComponent(".build/x86_64-unknown-linux-gnu/share/tapseek").standardizedFileURL.path)
    }

    @Test func aMissingFileNamesTheFirstPlaceItWasLookedFor() {
        let places = DataDirectories(environment: ["TAPSEEK_DATA": "/nonexistent/data"], executable: nil)
        #expect(places.file(named: "search-index.bin")?.path == "/nonexistent/data/search-index.bin")
    }

    /// `$TAPSEEK_DATA` comes before everything else for the library's default indices.
    @Test func theDataVariableLeadsTheLibrarysDefaults() throws {
        let data = try SharedData.temporaryDirectory("data")
        defer { try? FileManager.default.removeItem(at: data) }
        for name in ["geocoder-index.bin", "search-index.bin"] { try Data().write(to: data.appendingPathComponent(name)) }
        let environment = ["TAPSEEK_DATA": data.path]
        #expect(Geocoder.defaultURL(environment: environment).path == data.appendingPathComponent("geocoder-index.bin").standardizedFileURL.path)
        #expect(PlaceSearch.defaultURL(environment: environment).path == data.appendingPathComponent("search-index.bin").standardizedFileURL.path)
        // The index variables still name a file directly, before any data directory.
        #expect(Geocoder.defaultURL(environment: environment.merging(["TAPSEEK_GEOCODER": "/g.bin"]) { $1 }).path == "/g.bin")
    }

    /// The library and the command line carry no path of the machine that built them.
    @Test func noSourceFileOfTheLibraryOrCLIUsesFilePath() throws {
        let sources = SharedData.projectRoot.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        #expect(files.count > 50)
        let marker = "#" + "filePath"
        let offenders = try files.filter { try String(contentsOf: $0, encoding: .utf8).contains(marker) }
        #expect(offenders.isEmpty, "\(offenders.map(\.lastPathComponent))")
    }
}
