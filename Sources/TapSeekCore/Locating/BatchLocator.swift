import Foundation

/// Locates many readings on all cores, in order: one ``LocateResult`` per input record, with
/// its `line`, in input order, whatever the number of jobs.
///
/// ```swift
/// let batch = BatchLocator(locator: locator)                 // jobs: all active processors
/// for try await result in batch.results(forReadings: readings) {   // any AsyncSequence of Reading
///     print(result.line!, result.status, result.target?.latitude ?? .nan)
/// }
/// ```
///
/// Records are read in chunks of ``chunkSize``; each chunk is located by one task with its own
/// ``TerrainSampler``, all samplers sharing the locator's ``ElevationCatalog`` (and so its loaded
/// tiles), on a ``BatchPipeline`` of ``jobs`` tasks. Because a sampler lives exactly one chunk and
/// chunks are cut the same way for any number of jobs, results are bit-identical between one job
/// and many. Memory is bounded by `jobs` chunks of records and results, whatever the input's length.
public struct BatchLocator: Sendable {
    /// Locates each reading; its catalog's tile cache is shared by every job.
    public let locator: Locator
    /// Chunks located at once: ≥ 1.
    public let jobs: Int
    /// Records per chunk: ≥ 1.
    public let chunkSize: Int
    /// When set, every located reading also gets its ``TargetUncertainty`` (its samples on the
    /// reading's own job: the readings are what is spread over cores).
    public let uncertainty: TargetUncertainty.Settings?
    /// Whether a calibrating reading's calibration carries over to the readings after it
    /// (``CalibrationCarry``) when results are read from an asynchronous sequence.
    public let carriesCalibration: Bool

    /// 1024 records: a chunk of 30 km sightlines takes about 0.15 s on one core and one of
    /// failing readings still a few milliseconds, so handing chunks to tasks costs nothing
    /// measurable, while a chunk of results stays under a MiB.
    public static let defaultChunkSize = 1024

    /// Records per chunk when every reading is sampled for its uncertainty.
    public static let uncertainChunkSize = 4

    /// All active processors.
    public static var defaultJobs: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// - Parameters:
    ///   - jobs: chunks located at once (clamped to ≥ 1); beyond the processor count they only queue.
    ///   - chunkSize: records per chunk (clamped to ≥ 1).
    ///   - uncertainty: sample every reading's sensor errors so (nil: don't).
    ///   - carriesCalibration: carry calibrations over to the following readings.
    public init(locator: Locator, jobs: Int = BatchLocator.defaultJobs, chunkSize: Int = BatchLocator.defaultChunkSize,
                uncertainty: TargetUncertainty.Settings? = nil, carriesCalibration: Bool = true) {
        self.locator = locator
        self.uncertainty = uncertainty
        self.carriesCalibration = carriesCalibration
        self.jobs = max(1, jobs)
        // A reading with its samples costs a thousand sightlines: small chunks keep every job busy.
        self.chunkSize = max(1, uncertainty == nil ? chunkSize : min(chunkSize, Self.uncertainChunkSize))
    }

    /// The results for `records`, one each, in their order; a failed record gives an error
    /// result carrying its failure.
    public func results<Records: AsyncSequence>(for records: Records) -> BatchResults<Records>
    where Records.Element == BatchRecord {
        BatchResults(base: records, batch: self) { record, _ in record }
    }

    /// The results for plain `readings`, numbered as lines 1, 2, 3, … in their order.
    public func results<Readings: AsyncSequence>(forReadings readings: Readings) -> BatchResults<Readings>
    where Readings.Element == Reading {
        BatchResults(base: readings, batch: self) { reading, ordinal in BatchRecord(line: ordinal, reading: reading) }
    }

    /// Locates one chunk in order with one fresh terrain sampler: what each job runs.
    public func locate(_ records: [BatchRecord]) -> [LocateResult] {
        var terrain = TerrainSampler(catalog: locator.catalog)
        return records.map { locate($0, terrain: &terrain) }
    }

    /// Locates one record with the caller's per-thread terrain sampler. Never throws: a failed
    /// record and a reading that cannot be located both give a result with status `error`.
    /// The result carries the record's `line`, and its `time` when the reading has none.
    public func locate(_ record: BatchRecord, terrain: inout TerrainSampler) -> LocateResult {
        var result: LocateResult
        switch record.reading {
        case .success(let reading):
            if let uncertainty {
                result = locator.locate(reading, uncertainty: uncertainty, carrying: record.carriedCalibration, jobs: 1)
            } else {
                result = locator.locate(reading, carrying: record.carriedCalibration, terrain: &terrain)
            }
        case .failure(let failure):
            result = .failure(failure)
        }
        result.line = record.line
        if result.time == nil { result.time = record.time }
        return result
    }
}

/// The results of a ``BatchLocator`` over an asynchronous sequence of input, in input order.
///
/// Iterating pulls input only as results are consumed: at most ``BatchLocator/jobs`` chunks are
/// read ahead of the consumer, so a slow consumer holds memory flat instead of buffering results
/// (the reason this is a sequence of its own and not an `AsyncThrowingStream`, whose `yield`
/// never waits). Iterate it once; an error of the input ends the iteration with that error after
/// the results of the records before it.
public struct BatchResults<Base: AsyncSequence>: AsyncSequence {
    public typealias Element = LocateResult
    public typealias Failure = any Error

    private let base: Base
    private let batch: BatchLocator
    private let record: (Base.Element, Int) -> BatchRecord

    init(base: Base, batch: BatchLocator, record: @escaping (Base.Element, Int) -> BatchRecord) {
        self.base = base
        self.batch = batch
        self.record = record
    }

    /// Starts reading the input; call once.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(input: base.makeAsyncIterator(), batch: batch, record: record)
    }

    /// Reads chunks of input, keeps ``BatchLocator/jobs`` of them in work, and hands out the
    /// results of the oldest.
    public struct AsyncIterator: AsyncIteratorProtocol {
        private var input: Base.AsyncIterator
        private let record: (Base.Element, Int) -> BatchRecord
        private let chunkSize: Int
        private var pipeline: BatchPipeline<[BatchRecord], [LocateResult]>
        private var carry: CalibrationCarry?
        private var ready: [LocateResult] = []
        private var readyIndex = 0
        private var inputCount = 0
        private var inputEnded = false
        /// An input error, thrown once the results before it are out.
        private var inputError: (any Error)?

        init(input: Base.AsyncIterator, batch: BatchLocator, record: @escaping (Base.Element, Int) -> BatchRecord) {
            self.input = input
            self.record = record
            chunkSize = batch.chunkSize
            carry = batch.carriesCalibration ? CalibrationCarry(locator: batch.locator) : nil
            pipeline = BatchPipeline(jobs: batch.jobs) { chunk in batch.locate(chunk) }
        }

        /// The next result in input order, nil after the last; rethrows an error of the input
        /// once the results before it are out, and throws `CancellationError` when the task is
        /// cancelled.
        public mutating func next() async throws -> LocateResult? {
            try await next(isolation: nil)
        }

        /// As ``next()``, reading the input on `actor`.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws -> LocateResult? {
            while readyIndex == ready.count {
                if Task.isCancelled {
                    pipeline.cancel()
                    throw CancellationError()
                }
                while !inputEnded, !pipeline.isFull {
                    let chunk = await readChunk(isolation: actor)
                    if !chunk.isEmpty { pipeline.submit(chunk) }
                }
                guard let results = await pipeline.next() else {
                    if let error = inputError {
                        inputError = nil
                        throw error
                    }
                    return nil
                }
                ready = results
                readyIndex = 0
            }
            defer { readyIndex += 1 }
            return ready[readyIndex]
        }

        /// Up to a chunk of records; fewer at the end of the input or before an input error.
        private mutating func readChunk(isolation actor: isolated (any Actor)?) async -> [BatchRecord] {
            var chunk: [BatchRecord] = []
            chunk.reserveCapacity(chunkSize)
            do {
                while chunk.count < chunkSize, let element = try await input.next(isolation: actor) {
                    inputCount += 1
                    chunk.append(record(element, inputCount))
                }
                if chunk.count < chunkSize { inputEnded = true }
            } catch {
                inputEnded = true
                inputError = error
            }
            carry?.carry(into: &chunk)
            return chunk
        }
    }
}
