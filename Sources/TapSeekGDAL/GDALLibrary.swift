#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TapSeekCore

/// The GDAL C functions TapSeek calls, looked up in libgdal when GDAL is first needed (`dlopen`)
/// instead of being linked into the program: a process that reads only SRTM tiles (which
/// TapSeekCore reads itself) never loads libgdal and the hundred-odd shared libraries it pulls
/// in, about 31 ms of every start on these machines (issue 14, point 8).
///
/// Signatures and constants are those of GDAL 3's C API (`gdal.h`, `cpl_conv.h`, `cpl_error.h`,
/// `cpl_vsi.h`, `ogr_srs_api.h`, `gdalwarper.h`); every handle is an opaque pointer.
struct GDALLibrary: Sendable {
    typealias Handle = OpaquePointer
    typealias CString = UnsafePointer<CChar>
    typealias StringList = UnsafePointer<CString?>
    /// `CPLErrorHandler`: error class, error number, message.
    typealias ErrorHandler = @convention(c) (Int32, Int32, CString?) -> Void

    // Constants of the C API.
    /// `GDAL_OF_RASTER | GDAL_OF_READONLY | GDAL_OF_VERBOSE_ERROR` (gdal.h: 0x02, 0x00, 0x40).
    static let openRasterReadOnlyVerbose: UInt32 = 0x02 | 0x00 | 0x40
    /// `CE_None` (cpl_error.h).
    static let noError: Int32 = 0
    /// `GF_Read` (gdal.h).
    static let readAccess: Int32 = 0
    /// `GDT_Float32` (gdal.h).
    static let float32: Int32 = 6
    /// `GRA_Bilinear` (gdalwarper.h).
    static let bilinear: Int32 = 1
    /// `OAMS_TRADITIONAL_GIS_ORDER` (ogr_srs_api.h): longitude first.
    static let traditionalGISOrder: Int32 = 0

    let setConfigOption: @convention(c) (CString?, CString?) -> Void
    let setErrorHandler: @convention(c) (ErrorHandler?) -> ErrorHandler?
    let quietErrorHandler: ErrorHandler
    let allRegister: @convention(c) () -> Void
    let driverCount: @convention(c) () -> Int32
    let driver: @convention(c) (Int32) -> Handle?
    let driverShortName: @convention(c) (Handle?) -> CString?
    let deregisterDriver: @convention(c) (Handle?) -> Void
    let lastErrorMessage: @convention(c) () -> CString?
    let errorReset: @convention(c) () -> Void
    let openEx: @convention(c) (CString?, UInt32, StringList?, StringList?, StringList?) -> Handle?
    let rasterCount: @convention(c) (Handle?) -> Int32
    let close: @convention(c) (Handle?) -> Void
    let datasetDriver: @convention(c) (Handle?) -> Handle?
    let spatialReference: @convention(c) (Handle?) -> Handle?
    let isGeographic: @convention(c) (Handle?) -> Int32
    let newSpatialReference: @convention(c) (CString?) -> Handle?
    let destroySpatialReference: @convention(c) (Handle?) -> Void
    let importFromEPSG: @convention(c) (Handle?, Int32) -> Int32
    let setAxisMappingStrategy: @convention(c) (Handle?, Int32) -> Void
    let exportToWkt: @convention(c) (Handle?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32
    let free: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let autoCreateWarpedVRT: @convention(c) (Handle?, CString?, CString?, Int32, Double, UnsafeRawPointer?) -> Handle?
    let geoTransform: @convention(c) (Handle?, UnsafeMutablePointer<Double>?) -> Int32
    let rasterXSize: @convention(c) (Handle?) -> Int32
    let rasterYSize: @convention(c) (Handle?) -> Int32
    let rasterBand: @convention(c) (Handle?, Int32) -> Handle?
    let noDataValue: @convention(c) (Handle?, UnsafeMutablePointer<Int32>?) -> Double
    let rasterIO: @convention(c) (Handle?, Int32, Int32, Int32, Int32, Int32, UnsafeMutableRawPointer?,
                                  Int32, Int32, Int32, Int32, Int32) -> Int32

    /// Why libgdal could not be loaded, in one line.
    typealias LoadError = DynamicLibrary.Failure

    /// The library names tried in turn: the one `TAPSEEK_GDAL_LIBRARY` gives, the development
    /// link, then the sonames of GDAL 3 releases, newest first (libgdal.so.32 is GDAL 3.6,
    /// Debian 12's).
    static var candidates: [String] {
        #if canImport(Darwin)
        let names = ["libgdal.dylib"]
        #else
        let names = ["libgdal.so"] + (26...40).reversed().map { "libgdal.so.\($0)" }
        #endif
        guard let explicit = getenv("TAPSEEK_GDAL_LIBRARY").map({ String(cString: $0) }), !explicit.isEmpty else { return names }
        return [explicit] + names
    }

    /// Loads the first candidate that opens, and every function from it. Global, so that GDAL's
    /// plugins find GDAL's symbols.
    static func load() -> Result<GDALLibrary, LoadError> {
        DynamicLibrary.open(candidates, global: true)
            .mapError { LoadError(message: "GDAL is not installed (\($0.message)); install Debian's libgdal32 or name the library in TAPSEEK_GDAL_LIBRARY") }
            .flatMap { library in Result { () throws(LoadError) in try GDALLibrary(library) } }
    }

    private init(_ library: DynamicLibrary) throws(LoadError) {
        func symbol<T>(_ symbol: String, _ type: T.Type = T.self) throws(LoadError) -> T {
            do {
                return try library.function(symbol)
            } catch {
                throw LoadError(message: "\(error.message); TapSeek needs GDAL 3")
            }
        }
        setConfigOption = try symbol("CPLSetConfigOption")
        setErrorHandler = try symbol("CPLSetErrorHandler")
        quietErrorHandler = try symbol("CPLQuietErrorHandler")
        allRegister = try symbol("GDALAllRegister")
        driverCount = try symbol("GDALGetDriverCount")
        driver = try symbol("GDALGetDriver")
        driverShortName = try symbol("GDALGetDriverShortName")
        deregisterDriver = try symbol("GDALDeregisterDriver")
        lastErrorMessage = try symbol("CPLGetLastErrorMsg")
        errorReset = try symbol("CPLErrorReset")
        openEx = try symbol("GDALOpenEx")
        rasterCount = try symbol("GDALGetRasterCount")
        close = try symbol("GDALClose")
        datasetDriver = try symbol("GDALGetDatasetDriver")
        spatialReference = try symbol("GDALGetSpatialRef")
        isGeographic = try symbol("OSRIsGeographic")
        newSpatialReference = try symbol("OSRNewSpatialReference")
        destroySpatialReference = try symbol("OSRDestroySpatialReference")
        importFromEPSG = try symbol("OSRImportFromEPSG")
        setAxisMappingStrategy = try symbol("OSRSetAxisMappingStrategy")
        exportToWkt = try symbol("OSRExportToWkt")
        free = try symbol("VSIFree")
        autoCreateWarpedVRT = try symbol("GDALAutoCreateWarpedVRT")
        geoTransform = try symbol("GDALGetGeoTransform")
        rasterXSize = try symbol("GDALGetRasterXSize")
        rasterYSize = try symbol("GDALGetRasterYSize")
        rasterBand = try symbol("GDALGetRasterBand")
        noDataValue = try symbol("GDALGetRasterNoDataValue")
        rasterIO = try symbol("GDALRasterIO")
    }
}
