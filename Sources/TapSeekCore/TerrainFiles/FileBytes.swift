#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a whole regular file into memory with POSIX calls, up to a size limit, so that a
/// terrain reader never depends on Foundation's file APIs or their messages.
enum FileBytes {
    /// The file's bytes.
    /// - Throws: ``TerrainFileError`` naming the file when it cannot be opened or read, or holds
    ///   more than `limit` bytes.
    static func read(path: String, limit: Int) throws(TerrainFileError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw failure(path, "cannot be opened") }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure(path, "cannot be examined") }
        let size = Int(status.st_size)
        guard size <= limit else {
            throw TerrainFileError(path: path, message: "holds \(size) bytes, more than the \(limit) a file of its kind may have")
        }
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let n = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, size - done, off_t(done)) }
            if n < 0, errno == EINTR { continue }
            guard n >= 0 else { throw failure(path, "cannot be read") }
            guard n > 0 else { throw TerrainFileError(path: path, message: "ended after \(done) of \(size) bytes") }
            done += n
        }
        return bytes
    }

    private static func failure(_ path: String, _ what: String) -> TerrainFileError {
        TerrainFileError(path: path, message: "\(what) (\(String(cString: strerror(errno))))")
    }
}
