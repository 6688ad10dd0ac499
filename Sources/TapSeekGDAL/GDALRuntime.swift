import Foundation

/// GDAL's process-wide state: only the raster drivers of elevation data registered, side files
/// off, errors kept for reading right after the failing call rather than printed.
enum GDALRuntime {
    /// Drivers kept: the file formats elevation models come in, GTX for the geoid, and MEM and
    /// VRT, which the warper uses. Drivers that fetch from servers (WMS, WCS, HTTP, STAC, …) are deregistered:
    /// TapSeek works offline, and a DEM folder must not make it open connections.
    static let drivers: Set<String> = ["GTiff", "COG", "VRT", "MEM", "GTX", "SRTMHGT", "DTED", "AAIGrid", "GRASSASCIIGrid", "EHdr",
                                       "ENVI", "HFA", "USGSDEM", "GSAG", "GSBG", "GS7BG", "XYZ", "netCDF", "BT", "ERS"]

    /// libgdal, loaded and set up on first use, once per process: only the drivers above
    /// registered, side files off, errors kept for reading right after the failing call rather
    /// than printed. A one-line reason when GDAL cannot be loaded.
    static let library: Result<GDALLibrary, GDALLibrary.LoadError> = GDALLibrary.load().map { gdal in
        // The shared tiles are read-only; PAM would try to write .aux.xml files next to them.
        gdal.setConfigOption("GDAL_PAM_ENABLED", "NO")
        gdal.setConfigOption("CPL_LOG_ERRORS", "OFF")
        // Keep GDAL quiet on stderr: errors are read back with CPLGetLastErrorMsg.
        _ = gdal.setErrorHandler(gdal.quietErrorHandler)
        gdal.allRegister()
        for i in stride(from: gdal.driverCount() - 1, through: 0, by: -1) {
            guard let driver = gdal.driver(i), let name = gdal.driverShortName(driver) else { continue }
            if !drivers.contains(String(cString: name)) { gdal.deregisterDriver(driver) }
        }
        return gdal
    }

    /// The set-up library, or a ``GDALError`` naming the file that needed it.
    static func library(for path: String) throws(GDALError) -> GDALLibrary {
        switch library {
        case .success(let gdal): return gdal
        case .failure(let error): throw GDALError(path: path, message: error.message)
        }
    }

    /// Virtual file systems and URLs that reach the network: a raster naming one (a VRT's
    /// source, say) is refused before GDAL opens it.
    static let networkMarkers = ["/vsicurl", "/vsis3", "/vsigs", "/vsiaz", "/vsiadls", "/vsioss", "/vsiswift", "/vsiwebhdfs",
                                 "/vsihdfs", "http://", "https://", "ftp://", "ftps://"]

    /// Why a raster file must not be opened: it is text (a VRT or other XML, a `.aux` sidecar)
    /// that names a network source. nil when it may be opened. Reads at most the first 16 MiB.
    static func networkReference(in path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        // Binary rasters are told apart by their first bytes; only text is read on.
        guard var data = try? handle.read(upToCount: 256),
              String(decoding: data, as: UTF8.self).drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" }).first == "<" else { return nil }
        data += (try? handle.read(upToCount: 16 << 20)) ?? Data()
        let text = String(decoding: data, as: UTF8.self).lowercased()
        return networkMarkers.first { text.contains($0) }
    }

    /// The last GDAL error message on this thread, or `fallback` when there is none.
    static func lastError(_ gdal: GDALLibrary, or fallback: String) -> String {
        guard let cString = gdal.lastErrorMessage(), cString.pointee != 0 else { return fallback }
        return String(cString: cString)
    }
}
