#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A shared library opened while the program runs (`dlopen`), for the C libraries TapSeek needs
/// only for some tasks (GDAL for rasters other than SRTM tiles, libcurl for downloads): a process
/// that never needs one never loads it, nor the libraries it pulls in.
public struct DynamicLibrary: @unchecked Sendable {
    // Safe to share: the handle is only passed to dlsym, which may be called from any thread.
    private let handle: UnsafeMutableRawPointer
    /// The name it was opened by.
    public let name: String

    /// Opens the first of `candidates` that loads, binding lazily (only the functions called are
    /// resolved); `global` makes its symbols visible to libraries it loads in turn (GDAL's
    /// plugins). Fails with the first candidate's reason.
    public static func open(_ candidates: [String], global: Bool = false) -> Result<DynamicLibrary, Failure> {
        var firstReason: String?
        for name in candidates {
            if let handle = dlopen(name, RTLD_LAZY | (global ? RTLD_GLOBAL : RTLD_LOCAL)) {
                return .success(DynamicLibrary(handle: handle, name: name))
            }
            if firstReason == nil { firstReason = dlerror().map { String(cString: $0) } }
        }
        return .failure(Failure(message: firstReason ?? "none of \(candidates.joined(separator: ", ")) loads"))
    }

    /// The C function `symbol`, as the function type `T` (a `@convention(c)` type).
    public func function<T>(_ symbol: String, as type: T.Type = T.self) throws(Failure) -> T {
        guard let address = dlsym(handle, symbol) else { throw Failure(message: "\(name) has no \(symbol)") }
        return unsafeBitCast(address, to: type)
    }

    /// Why a library or a function could not be loaded, in one line.
    public struct Failure: Error, Sendable {
        public let message: String

        public init(message: String) { self.message = message }
    }
}
