import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file of a cache directory, written whole or not at all: to a temporary file of a name
/// unique to this write, then renamed into place, so that processes writing the same file at
/// once leave one whole copy. Any failure leaves no file and says nothing: a cache is only an
/// optimisation (``VoidFillCache``, ``GeoidGradientCache``).
enum CacheFile {
    /// Writes `data` as `name` in `directory`, making the directory first.
    static func write(_ data: Data, named name: String, in directory: URL) {
        let fileManager = FileManager.default
        guard (try? fileManager.createDirectory(at: directory, withIntermediateDirectories: true)) != nil else { return }
        let temporary = directory.appendingPathComponent(".\(name).\(getpid()).\(UInt64.random(in: 0...UInt64.max)).tmp")
        guard fileManager.createFile(atPath: temporary.path, contents: data) else {
            unlink(temporary.path)  // a part written before the disk filled, say
            return
        }
        if rename(temporary.path, directory.appendingPathComponent(name).path) != 0 { unlink(temporary.path) }
    }
}
