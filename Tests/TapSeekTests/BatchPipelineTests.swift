import Foundation
import Synchronization
import Testing
import TapSeek

/// `BatchPipeline`: outputs in submission order whatever order the work finishes in, and never
/// more than `jobs` chunks in work.
@Suite struct BatchPipelineTests {
    /// Early chunks are the slow ones, so later ones finish first; the order still holds.
    @Test func outputsComeBackInSubmissionOrder() async {
        var pipeline = BatchPipeline<Int, Int>(jobs: 4) { i in
            Thread.sleep(forTimeInterval: Double(20 - i % 20) * 0.001)
            return i * i
        }
        var outputs: [Int] = []
        var next = 0
        while true {
            while !pipeline.isFull, next < 60 {
                pipeline.submit(next)
                next += 1
            }
            guard let output = await pipeline.next() else { break }
            outputs.append(output)
        }
        #expect(outputs == (0..<60).map { $0 * $0 })
        #expect(pipeline.isEmpty)
    }

    @Test(arguments: [1, 2, 3])
    func neverMoreThanJobsChunksAtOnce(jobs: Int) async {
        let running = Atomic(0), peak = Atomic(0)
        var pipeline = BatchPipeline<Int, Int>(jobs: jobs) { i in
            let now = running.add(1, ordering: .sequentiallyConsistent).newValue
            peak.max(now, ordering: .sequentiallyConsistent)
            Thread.sleep(forTimeInterval: 0.002)
            running.subtract(1, ordering: .sequentiallyConsistent)
            return i
        }
        var submitted = 0, received = 0
        while true {
            while !pipeline.isFull, submitted < 40 {
                pipeline.submit(submitted)
                submitted += 1
            }
            guard await pipeline.next() != nil else { break }
            received += 1
        }
        #expect(received == 40)
        #expect(peak.load(ordering: .sequentiallyConsistent) <= jobs)
    }

    @Test func fullAfterJobsSubmissionsAndEmptyWhenAllAreTaken() async {
        var pipeline = BatchPipeline<Int, Int>(jobs: 2) { $0 }
        #expect(pipeline.isEmpty && !pipeline.isFull)
        pipeline.submit(1)
        #expect(!pipeline.isFull)
        pipeline.submit(2)
        #expect(pipeline.isFull)
        #expect(await pipeline.next() == 1)
        #expect(!pipeline.isFull)
        #expect(await pipeline.next() == 2)
        #expect(await pipeline.next() == nil)
        #expect(pipeline.isEmpty)
    }

    @Test func jobsBelowOneMeanOne() {
        #expect(BatchPipeline<Int, Int>(jobs: 0) { $0 }.jobs == 1)
    }
}
