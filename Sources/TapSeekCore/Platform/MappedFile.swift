#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A file mapped read-only into memory for as long as this object lives: bytes read in place, by
/// a pointer that stays valid, without the per-access cost of `Data.withUnsafeBytes` (a dynamic
/// exclusivity check, a retain and a release at every call, which a look-up of a few hundred
/// nanoseconds feels).
final class MappedFile: @unchecked Sendable {
    /// The file's bytes; empty for an empty file. Never written: the mapping is read-only.
    let bytes: UnsafeRawBufferPointer
    /// What identifies the file's contents without reading them: its device, inode, size and
    /// times of last modification and status change, as `fstat` gave them when it was mapped.
    let identity: String

    /// Maps the file at `path`.
    /// - Throws: the `errno` of the failing `open`, `fstat` or `mmap`.
    init(path: String) throws(MappedFileError) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw MappedFileError(code: errno) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw MappedFileError(code: errno) }
        guard status.st_mode & S_IFMT != S_IFDIR else { throw MappedFileError(code: EISDIR) }
        let size = Int(status.st_size)
        #if canImport(Darwin)
        let modified = status.st_mtimespec, changed = status.st_ctimespec
        #else
        let modified = status.st_mtim, changed = status.st_ctim
        #endif
        identity = "\(status.st_dev) \(status.st_ino) \(size) \(modified.tv_sec).\(modified.tv_nsec) \(changed.tv_sec).\(changed.tv_nsec)"
        guard size > 0 else {
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            return
        }
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), base != MAP_FAILED else {
            throw MappedFileError(code: errno)
        }
        bytes = UnsafeRawBufferPointer(start: base, count: size)
    }

    deinit {
        if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
    }
}

/// Why a file could not be mapped: the system's error number.
struct MappedFileError: Error {
    let code: Int32
    /// The system's sentence for the error ("No such file or directory").
    var message: String { String(cString: strerror(code)) }
    /// Whether the file does not exist.
    var isMissing: Bool { code == ENOENT }
}
