#if !canImport(Darwin)
import TapSeekCore

/// The libcurl "easy" functions ``CurlTransfer`` calls, looked up when the first tile is
/// requested (`dlopen`) rather than linked, as ``HTTPTransfer`` explains.
///
/// Signatures and constants are those of libcurl 7 and 8 (`curl/curl.h`, checked against
/// Debian 12's 7.88.1); handles are opaque pointers. `curl_easy_setopt` is variadic in C and is
/// called here through fixed prototypes with one argument of the kind the option takes (a
/// `long` or a pointer), which the x86-64 and AArch64 calling conventions of Linux pass alike.
struct CurlLibrary: Sendable {
    typealias Handle = OpaquePointer
    typealias CString = UnsafePointer<CChar>
    /// `curl_write_callback` (bodies and header lines): data, 1, length, user data.
    typealias DataCallback = @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int
    /// `curl_xferinfo_callback`: user data, download total and now, upload total and now.
    typealias ProgressCallback = @convention(c) (UnsafeMutableRawPointer?, Int64, Int64, Int64, Int64) -> Int32

    // Options (CURLOPTTYPE_LONG 0, OBJECTPOINT 10 000, FUNCTIONPOINT 20 000, plus the number).
    static let writeData: Int32 = 10_001
    static let url: Int32 = 10_002
    static let errorBuffer: Int32 = 10_010
    static let writeFunction: Int32 = 20_011
    static let userAgent: Int32 = 10_018
    static let httpHeader: Int32 = 10_023
    static let headerData: Int32 = 10_029
    static let noProgress: Int32 = 43
    static let followLocation: Int32 = 52
    static let progressData: Int32 = 10_057
    static let maximumRedirects: Int32 = 68
    static let headerFunction: Int32 = 20_079
    static let noSignal: Int32 = 99
    static let connectTimeoutMilliseconds: Int32 = 156
    static let progressFunction: Int32 = 20_219
    static let protocols: Int32 = 10_318
    static let redirectProtocols: Int32 = 10_319
    /// `CURL_GLOBAL_ALL`; `CURLE_OK`; `CURL_ERROR_SIZE`.
    static let globalAll = 3
    static let ok: Int32 = 0
    /// CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_CONNECT (curl.h):
    /// no connection was made at all.
    static let couldNotResolveProxy: Int32 = 5
    static let couldNotResolveHost: Int32 = 6
    static let couldNotConnect: Int32 = 7
    static let errorBufferSize = 256

    let globalInit: @convention(c) (Int) -> Int32
    let easyInit: @convention(c) () -> Handle?
    let setLong: @convention(c) (Handle?, Int32, Int) -> Int32
    let setPointer: @convention(c) (Handle?, Int32, UnsafeRawPointer?) -> Int32
    let perform: @convention(c) (Handle?) -> Int32
    let cleanup: @convention(c) (Handle?) -> Void
    let errorText: @convention(c) (Int32) -> CString?
    let listAppend: @convention(c) (OpaquePointer?, CString?) -> OpaquePointer?
    let listFree: @convention(c) (OpaquePointer?) -> Void

    /// The library, loaded and initialised once, or why it cannot be.
    static let shared: Result<CurlLibrary, DynamicLibrary.Failure> = DynamicLibrary.open(candidates)
        .mapError { DynamicLibrary.Failure(message: "libcurl is not installed (\($0.message)); install Debian's libcurl4") }
        .flatMap { library in
            Result { () throws(DynamicLibrary.Failure) in
                let curl = try CurlLibrary(library)
                guard curl.globalInit(globalAll) == ok else { throw DynamicLibrary.Failure(message: "\(library.name) failed to initialise") }
                return curl
            }
        }

    /// The sonames tried in turn: libcurl 7 and 8 (OpenSSL, then GnuTLS builds), then the
    /// development link.
    static let candidates = ["libcurl.so.4", "libcurl-gnutls.so.4", "libcurl.so"]

    private init(_ library: DynamicLibrary) throws(DynamicLibrary.Failure) {
        globalInit = try library.function("curl_global_init")
        easyInit = try library.function("curl_easy_init")
        setLong = try library.function("curl_easy_setopt")
        setPointer = try library.function("curl_easy_setopt")
        perform = try library.function("curl_easy_perform")
        cleanup = try library.function("curl_easy_cleanup")
        errorText = try library.function("curl_easy_strerror")
        listAppend = try library.function("curl_slist_append")
        listFree = try library.function("curl_slist_free_all")
    }
}
#endif
