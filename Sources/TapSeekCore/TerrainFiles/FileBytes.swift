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
        // Read straight into the array's storage: no zeroing first (a tile is megabytes).
        var problem: TerrainFileError?
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            HugePages.advise(UnsafeMutableRawBufferPointer(buffer))
            var done = 0
            while done < size {
                let n = pread(descriptor, buffer.baseAddress! + done, size - done, off_t(done))
                if n < 0, errno == EINTR { continue }
                if n < 0 { problem = failure(path, "cannot be read"); break }
                if n == 0 { problem = TerrainFileError(path: path, message: "ended after \(done) of \(size) bytes"); break }
                done += n
            }
            // Only what was read counts; a short read throws below.
            count = done
        }
        if let problem { throw problem }
        return bytes
    }

    private static func failure(_ path: String, _ what: String) -> TerrainFileError {
        TerrainFileError(path: path, message: "\(what) (\(String(cString: strerror(errno))))")
    }
}
