import Foundation

extension Geoid {
    /// The environment variable naming an EGM2008 undulation grid.
    public static let egm2008EnvironmentVariable = "TAPSEEK_EGM2008"
    /// The file names PROJ gives the EGM2008 2.5′ grid: today's GeoTIFF (`projsync` or
    /// cdn.proj.org) and the GTX of its older `proj-datumgrid` packages.
    public static let egm2008FileNames = ["us_nga_egm08_25.tif", "egm08_25.gtx"]

    /// The EGM2008 undulation grid that converts Copernicus heights to EGM96, if this machine has
    /// one: `$TAPSEEK_EGM2008` when set (returned even when missing, so that a wrong setting is an
    /// error, not silently ignored), else the first of ``egm2008FileNames`` in PROJ's data
    /// directories (`$PROJ_DATA`, `$PROJ_LIB`, `~/.local/share/proj`, `/usr/local/share/proj`,
    /// `/usr/share/proj`) or in TapSeek's data directories. No Debian or PyPI package carries
    /// it (checked 2026-11: `proj-data` 9.1.1 has EGM96 alone), so by default there is none.
    public static func egm2008Path(environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let path = environment[egm2008EnvironmentVariable], !path.isEmpty { return path }
        var directories = ["PROJ_DATA", "PROJ_LIB"].compactMap { environment[$0] }.flatMap { $0.split(separator: ":").map(String.init) }
        if let home = environment["HOME"] { directories.append(home + "/.local/share/proj") }
        directories += ["/usr/local/share/proj", "/usr/share/proj"]
        directories += DataDirectories(environment: environment).locations.map(\.data.path)
        for directory in directories {
            for name in egm2008FileNames {
                let path = (directory as NSString).appendingPathComponent(name)
                if FileManager.default.fileExists(atPath: path) { return path }
            }
        }
        return nil
    }
}
