import CGDAL

/// GDAL's process-wide state: drivers registered once, side files off, errors kept for reading
/// right after the failing call rather than printed.
enum GDALRuntime {
    /// Touch before any GDAL call; runs once per process.
    static let ready: Void = {
        // The shared tiles are read-only; PAM would try to write .aux.xml files next to them.
        CPLSetConfigOption("GDAL_PAM_ENABLED", "NO")
        CPLSetConfigOption("CPL_LOG_ERRORS", "OFF")
        // Keep GDAL quiet on stderr: errors are read back with CPLGetLastErrorMsg.
        CPLSetErrorHandler(CPLQuietErrorHandler)
        GDALAllRegister()
    }()

    /// The last GDAL error message on this thread, or `fallback` when there is none.
    static func lastError(or fallback: String) -> String {
        guard let cString = CPLGetLastErrorMsg(), cString.pointee != 0 else { return fallback }
        return String(cString: cString)
    }
}
