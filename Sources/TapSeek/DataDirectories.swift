import Foundation

/// Where TapSeek finds its data when the caller names no file: the geocoder and place-search
/// indices and a default DEM directory. Everything is found at run time, as a library finds its
/// data; no path of the machine that built the program is compiled in.
///
/// Data directories, in the order they are searched:
/// 1. `$TAPSEEK_DATA`;
/// 2. the installation of the running program: `PREFIX/share/tapseek` for `PREFIX/bin/tapseek`,
///    or, for a program built in a source checkout (`ROOT/.build/…`), the checkout's `ROOT/data/build`;
/// 3. `$XDG_DATA_HOME/tapseek` (default `~/.local/share/tapseek`);
/// 4. `DIR/tapseek` for each `DIR` of `$XDG_DATA_DIRS` (default `/usr/local/share:/usr/share`),
///    so `/usr/share/tapseek` for a system-wide installation.
///
/// A data directory holds `geocoder-index.bin`, `search-index.bin` and a `dem/` folder of tiles;
/// a source checkout keeps its tiles in `ROOT/dem`. What TapSeek writes for itself is a cache, not
/// data: the tiles' filled voids go to `$TAPSEEK_CACHE_DIR`, else `$XDG_CACHE_HOME/tapseek`, else
/// `~/.cache/tapseek` (``VoidFillCache/init(environment:)``, in TapSeekCore with the catalog).
public struct DataDirectories: Sendable {
    /// The environment variable naming the data directory searched first.
    public static let environmentVariable = "TAPSEEK_DATA"
    /// The environment variable naming the DEM directory (the command line's `--dem` default).
    public static let demEnvironmentVariable = "TAPSEEK_DEM"

    /// One place data may be: a directory of data files and the DEM directory that goes with it.
    public struct Location: Sendable, Hashable {
        public var data: URL
        public var dem: URL
    }

    /// The places searched, in order.
    public let locations: [Location]

    /// The places for the given environment and running program (by default this process's).
    public init(environment: [String: String] = ProcessInfo.processInfo.environment,
                executable: URL? = DataDirectories.runningProgram) {
        var locations: [Location] = []
        func add(_ data: URL, dem: URL? = nil) {
            let location = Location(data: data.standardizedFileURL, dem: (dem ?? data.appendingPathComponent("dem")).standardizedFileURL)
            if !locations.contains(location) { locations.append(location) }
        }
        if let path = environment[Self.environmentVariable], !path.isEmpty { add(URL(fileURLWithPath: path)) }
        if let executable {
            let program = executable.resolvingSymlinksInPath()
            if let root = Self.checkoutRoot(of: program) {
                add(root.appendingPathComponent("data/build"), dem: root.appendingPathComponent("dem"))
            } else {
                add(program.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("share/tapseek"))
            }
        }
        let home = environment["HOME"].map { URL(fileURLWithPath: $0) }
        if let dataHome = environment["XDG_DATA_HOME"].flatMap({ $0.isEmpty ? nil : URL(fileURLWithPath: $0) })
            ?? home?.appendingPathComponent(".local/share") {
            add(dataHome.appendingPathComponent("tapseek"))
        }
        let dataDirs = environment["XDG_DATA_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/usr/local/share:/usr/share"
        for dir in dataDirs.split(separator: ":") where !dir.isEmpty {
            add(URL(fileURLWithPath: String(dir)).appendingPathComponent("tapseek"))
        }
        self.locations = locations
    }

    /// The running program's file: `/proc/self/exe`'s target where there is one (Linux), else
    /// the main bundle's executable. On Linux `Bundle.main` reads the program's whole folder
    /// (for a bundle's resources): 19 M instructions in a build folder, a fifth of a short
    /// command's work, paid by every command that looks for its data.
    public static var runningProgram: URL? {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            return URL(fileURLWithPath: path)
        }
        return Bundle.main.executableURL
    }

    /// The root of the source checkout a program was built in: the parent of the `.build`
    /// folder it sits in, when that parent holds a `Package.swift`.
    static func checkoutRoot(of program: URL) -> URL? {
        var url = program.deletingLastPathComponent()
        while url.pathComponents.count > 1 {
            if url.lastPathComponent == ".build" {
                let root = url.deletingLastPathComponent()
                return FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path) ? root : nil
            }
            url.deleteLastPathComponent()
        }
        return nil
    }

    /// The first data directory holding `name`; when none does, where it would be looked for
    /// first (so that a "no such file" names a useful place). nil only with no place at all.
    public func file(named name: String) -> URL? {
        let candidates = locations.map { $0.data.appendingPathComponent(name) }
        return candidates.first { FileManager.default.fileExists(atPath: $0.path) } ?? candidates.first
    }

    /// The DEM directory: `$TAPSEEK_DEM` when set, else the first location's DEM folder that
    /// exists, else the first location's.
    public func demDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        if let path = environment[Self.demEnvironmentVariable], !path.isEmpty { return URL(fileURLWithPath: path) }
        var isDirectory: ObjCBool = false
        return locations.first { FileManager.default.fileExists(atPath: $0.dem.path, isDirectory: &isDirectory) && isDirectory.boolValue }?.dem
            ?? locations.first?.dem
    }
}
