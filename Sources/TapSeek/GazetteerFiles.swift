import Foundation

/// Where the places index (``Gazetteer``) lives: read from the first data directory that holds
/// `places-index.bin` (see ``DataDirectories``), written by `tapseek places import` into
/// `--data DIR`, else `$TAPSEEK_DATA`, else the user's data home (`$XDG_DATA_HOME/tapseek`,
/// default `~/.local/share/tapseek`).
public enum GazetteerFiles {
    /// The index in `directory`.
    public static func index(in directory: URL) -> URL { directory.appendingPathComponent(Gazetteer.fileName) }

    /// The directory an import writes to when none is given.
    public static func importDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let path = environment[DataDirectories.environmentVariable], !path.isEmpty { return URL(fileURLWithPath: path) }
        if let home = environment["XDG_DATA_HOME"], !home.isEmpty { return URL(fileURLWithPath: home).appendingPathComponent("tapseek") }
        let user = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: user).appendingPathComponent(".local/share/tapseek")
    }

    /// The imported index every command uses: in `directory` when given, else the first data
    /// directory's; nil when none is imported.
    /// - Throws: ``GazetteerError`` when an index is there but cannot be read.
    public static func load(directory: URL? = nil,
                            environment: [String: String] = ProcessInfo.processInfo.environment) throws(GazetteerError) -> Gazetteer? {
        let url: URL
        if let directory {
            url = index(in: directory)
        } else if let found = DataDirectories(environment: environment).file(named: Gazetteer.fileName) {
            url = found
        } else {
            return nil
        }
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try Gazetteer(contentsOf: url)
    }
}
