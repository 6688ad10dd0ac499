import TapSeek

/// The DEM directory a command reads when `--dem` is not given: `$TAPSEEK_DEM`, else the
/// `dem/` of the first data directory that has one (``DataDirectories``), else `dem`.
enum DefaultDEM {
    static var directory: String { DataDirectories().demDirectory()?.path ?? "dem" }
}
