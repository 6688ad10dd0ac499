/// The engine of batch locating: maps chunks of input on up to ``jobs`` tasks at once and hands
/// their outputs back in submission order. ``BatchLocator`` and `tapseek batch` both run on it.
///
/// The caller alternates between ``submit(_:)`` while ``isFull`` is false and ``next()``:
///
/// ```swift
/// var pipeline = BatchPipeline(jobs: 4) { (chunk: [BatchRecord]) in batch.locate(chunk) }
/// while true {
///     while !pipeline.isFull, let chunk = try readChunk() { pipeline.submit(chunk) }
///     guard let results = await pipeline.next() else { break }
///     write(results)
/// }
/// ```
///
/// - Order: outputs come back in the order their chunks were submitted, however the tasks are
///   scheduled; as long as `work` depends only on its chunk, the output is identical for every
///   number of jobs.
/// - Memory: at most ``jobs`` chunks are submitted and not yet taken back, so memory is bounded
///   by `jobs ×` (chunk + output), whatever the length of the input; the caller's reading waits
///   while the pipeline is full.
/// - Parallelism: each chunk runs in its own task on Swift's global concurrent executor, whose
///   width is the number of active processors; `jobs` caps how many chunks run at once.
///
/// A chunk still running when the pipeline is discarded finishes in the background and its
/// output is dropped.
public struct BatchPipeline<Chunk: Sendable, Output: Sendable>: Sendable {
    /// The most chunks submitted and not yet taken back by ``next()``: ≥ 1.
    public let jobs: Int
    private let work: @Sendable (Chunk) -> Output
    /// Oldest first.
    private var pending: [Task<Output, Never>] = []

    /// - Parameters:
    ///   - jobs: chunks worked on at once (clamped to ≥ 1).
    ///   - work: what each chunk becomes; runs concurrently with other chunks' work.
    public init(jobs: Int, work: @escaping @Sendable (Chunk) -> Output) {
        self.jobs = max(1, jobs)
        self.work = work
    }

    /// Whether ``submit(_:)`` must wait for a ``next()`` first.
    public var isFull: Bool { pending.count >= jobs }

    /// Whether every submitted chunk has been taken back.
    public var isEmpty: Bool { pending.isEmpty }

    /// Starts work on `chunk`. Call only while ``isFull`` is false: the bound on memory and the
    /// number of jobs rest on it.
    public mutating func submit(_ chunk: Chunk) {
        precondition(!isFull, "BatchPipeline.submit called while full; take an output with next() first")
        let work = self.work
        pending.append(Task.detached { work(chunk) })
    }

    /// The output of the oldest chunk not yet taken back, waiting for it if it is still being
    /// worked on; nil when nothing is pending.
    public mutating func next() async -> Output? {
        guard !pending.isEmpty else { return nil }
        return await pending.removeFirst().value
    }

    /// Cancels the pending chunks' tasks (their `work` sees `Task.isCancelled`) and forgets them.
    public mutating func cancel() {
        for task in pending { task.cancel() }
        pending.removeAll()
    }
}
