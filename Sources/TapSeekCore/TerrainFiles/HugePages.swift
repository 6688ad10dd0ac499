#if canImport(Glibc)
import Glibc
#endif

/// Asks Linux to back the large buffers of a tile or grid with 2 MiB pages where it can: a 3″
/// tile's heights fault in as three pages instead of 1 400, which is most of a cold start's
/// kernel time. Only advice: elsewhere, or when the kernel declines, nothing changes.
enum HugePages {
    /// An array of `count` elements in storage advised onto huge pages, each set by `initialize`
    /// (which must initialise every element).
    static func array<Element>(count: Int, _ initialize: (UnsafeMutableBufferPointer<Element>) -> Void) -> [Element] {
        [Element](unsafeUninitializedCapacity: count) { buffer, initialized in
            advise(UnsafeMutableRawBufferPointer(buffer))
            initialize(buffer)
            initialized = count
        }
    }

    static func advise(_ buffer: UnsafeMutableRawBufferPointer) {
        #if os(Linux)
        guard let base = buffer.baseAddress else { return }
        let size = 2 << 20
        let start = (Int(bitPattern: base) + size - 1) & ~(size - 1)
        let end = (Int(bitPattern: base) + buffer.count) & ~(size - 1)
        if end > start { _ = madvise(UnsafeMutableRawPointer(bitPattern: start), end - start, MADV_HUGEPAGE) }
        #endif
    }
}
