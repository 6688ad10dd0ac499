#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A value guarded by a lock of the platform: `os_unfair_lock` on Apple systems, a
/// `pthread_mutex_t` elsewhere. What `Synchronization.Mutex` offers, on every system TapSeek
/// targets (`Mutex` needs macOS 15 / iOS 18; TapSeek supports macOS 13 / iOS 16).
///
/// A class, so that closures running on several threads share one lock; never held across an
/// `await`, and not recursive.
public final class Locked<State>: @unchecked Sendable {
    // Safe to share: every access to `state` happens inside `withLock`, under the lock.
    private var state: State
    #if canImport(Darwin)
    private let lock: UnsafeMutablePointer<os_unfair_lock>
    #else
    private let lock: UnsafeMutablePointer<pthread_mutex_t>
    #endif

    public init(_ initial: State) {
        state = initial
        #if canImport(Darwin)
        lock = .allocate(capacity: 1)
        lock.initialize(to: os_unfair_lock())
        #else
        lock = .allocate(capacity: 1)
        lock.initialize(to: pthread_mutex_t())
        precondition(pthread_mutex_init(lock, nil) == 0, "pthread_mutex_init")
        #endif
    }

    deinit {
        #if !canImport(Darwin)
        pthread_mutex_destroy(lock)
        #endif
        lock.deinitialize(count: 1)
        lock.deallocate()
    }

    /// Runs `body` with exclusive access to the state and returns its result.
    public func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        #if canImport(Darwin)
        os_unfair_lock_lock(lock)
        defer { os_unfair_lock_unlock(lock) }
        #else
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        #endif
        return try body(&state)
    }
}
