import Dispatch
import Testing
import TapSeekCore

struct LockedTests {
    /// Many threads adding at once lose no increment: the lock serialises them.
    @Test func concurrentIncrementsAreAllCounted() {
        let counter = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10_000 { counter.withLock { $0 += 1 } }
        }
        #expect(counter.withLock { $0 } == 80_000)
    }

    @Test func errorsPassThroughAndReleaseTheLock() {
        struct Refused: Error {}
        let value = Locked([1, 2])
        #expect(throws: Refused.self) { try value.withLock { (_: inout [Int]) throws(Refused) in throw Refused() } }
        #expect(value.withLock { $0.count } == 2)
    }
}
