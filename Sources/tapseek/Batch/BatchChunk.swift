import TapSeek

/// A chunk of `tapseek batch` input, as the reader hands it to a job.
enum BatchChunk: Sendable {
    /// Raw JSON Lines: the job decodes them, so parsing runs on every core. `carried` holds the
    /// calibration carried onto each line (``CalibrationCarry``), or nothing when none is.
    case lines([Line], carried: [Calibration?])
    /// Records decoded by the reader: imported logs (their CSV joins are sequential) and JSON
    /// Lines under `--every`/`--min-move` (thinning decides on decoded readings, in order).
    case records([BatchRecord])

    /// 1024 lines or 4 MiB of line bytes, whichever comes first: the byte cap keeps a chunk of
    /// long lines (up to ``BatchRecord/maximumLineLength`` each) from holding a GiB.
    static let maximumBytes = 4 << 20

    /// Hands `body` each record of the chunk in order (lines decoded here, with their carried
    /// calibrations); returns the input bytes the chunk covered (0 for decoded records).
    func forEachRecord(decoder: ReadingDecoder, _ body: (BatchRecord) -> Void) -> Int {
        switch self {
        case .lines(let lines, let carried):
            var bytes = 0
            for (i, line) in lines.enumerated() {
                bytes += line.byteCount
                var record = BatchRecord(jsonLine: line, decoder: decoder)
                if !carried.isEmpty { record.carriedCalibration = carried[i] }
                body(record)
            }
            return bytes
        case .records(let records):
            records.forEach(body)
            return 0
        }
    }
}

/// What a job makes of a chunk, as far as the run's bookkeeping needs it.
protocol BatchChunkOutcome: Sendable {
    var tally: BatchTally { get }
    /// Input bytes the chunk covered (JSON Lines only; 0 for imported records), for progress.
    var inputBytes: Int { get }
}

extension BatchInput {
    /// Runs the whole input through `pipeline`, carrying calibrations onto its chunks, and hands
    /// `consume` every chunk's output in input order while `progress` follows. Returns the run's
    /// tally and the read error that ended the input early, if one did; other errors propagate.
    mutating func drain<Output: BatchChunkOutcome>(through pipeline: inout BatchPipeline<BatchChunk, Output>, chunkSize: Int,
                                                   carry: inout CalibrationCarry?, decoder: ReadingDecoder,
                                                   progress: inout BatchProgress,
                                                   _ consume: (inout Output) -> Void) async throws -> (tally: BatchTally, failure: InputError?) {
        var tally = BatchTally()
        var bytesDone = 0
        var failure: InputError?
        var inputEnded = false
        while true {
            if !inputEnded {
                inputEnded = try fill(&pipeline, chunkSize: chunkSize, carry: &carry, decoder: decoder, failure: &failure)
            }
            guard var output = await pipeline.next() else { break }
            consume(&output)
            tally.merge(output.tally)
            bytesDone += output.inputBytes
            progress.update(results: tally.total, bytes: bytesDone)
        }
        progress.clear()
        return (tally, failure)
    }

    /// Reads chunks into `pipeline` until it is full or the input ends (then true); a read
    /// error ends the input and is stored in `failure`.
    private mutating func fill<Output>(_ pipeline: inout BatchPipeline<BatchChunk, Output>, chunkSize: Int, carry: inout CalibrationCarry?,
                                       decoder: ReadingDecoder, failure: inout InputError?) throws -> Bool {
        while !pipeline.isFull {
            do {
                guard var chunk = try nextChunk(maximumRecords: chunkSize) else { return true }
                carry?.carry(into: &chunk, decoder: decoder)
                pipeline.submit(chunk)
            } catch let error as InputError {
                failure = error
                return true
            }
        }
        return false
    }
}

/// What a job makes of a chunk: result lines ready to write, and their tally.
struct BatchChunkOutput: BatchChunkOutcome {
    /// The chunk's results as JSON Lines, written to stdout by the writer with `flush()`.
    var json: OutputBuffer
    var tally: BatchTally
    var inputBytes: Int

    /// Decodes (for lines), locates and formats one chunk with one terrain sampler.
    /// `geoJSON`: the shape of each reading's GeoJSON Text Sequence record, or nil for result JSON.
    static func make(from chunk: BatchChunk, batch: BatchLocator, decoder: ReadingDecoder,
                     geoJSON: GeoJSONWriter.SequenceGeometry? = nil) -> BatchChunkOutput {
        var terrain = TerrainSampler(catalog: batch.locator.catalog)
        var output = BatchChunkOutput(json: OutputBuffer(), tally: BatchTally(), inputBytes: 0)
        func emit(_ record: BatchRecord) {
            let result = batch.locate(record, terrain: &terrain)
            // Only the writer writes, in order: a job's buffer must never flush itself.
            if let geoJSON {
                GeoJSONWriter.writeSequenceRecord(of: result, geoid: batch.locator.geoid, geometry: geoJSON, to: &output.json)
            } else {
                output.json.appendJSON(result)
            }
            output.json.newline(flushing: false)
            output.tally.count(result)
        }
        output.inputBytes = chunk.forEachRecord(decoder: decoder, emit)
        return output
    }
}

extension CalibrationCarry {
    /// Carries calibrations into a chunk in input order. Lines are decoded here only when they
    /// mention `"skyline"` or `"landmarks"`; the others stay raw for the jobs.
    mutating func carry(into chunk: inout BatchChunk, decoder: ReadingDecoder) {
        switch chunk {
        case .records(var records):
            carry(into: &records)
            chunk = .records(records)
        case .lines(let lines, _):
            var carried: [Calibration?] = []
            carried.reserveCapacity(lines.count)
            for line in lines {
                var reading: Reading?
                if case .text(var text) = line.content, Self.mentionsCalibration(&text) {
                    reading = try? decoder.decode(text)
                }
                carried.append(calibration(forLine: line.number, reading: reading))
            }
            chunk = .lines(lines, carried: carried.contains { $0 != nil } ? carried : [])
        }
    }

    /// Whether a line's text contains the key `"skyline"` or `"landmarks"`: a byte scan for the
    /// quote-delimited words, cheap beside decoding.
    static func mentionsCalibration(_ text: inout String) -> Bool {
        text.withUTF8 { bytes in
            func occurs(_ word: [UInt8]) -> Bool {
                guard bytes.count >= word.count else { return false }
                for i in 0...(bytes.count - word.count) where bytes[i + 1] == word[1] && bytes[i] == word[0] {
                    if (2..<word.count).allSatisfy({ bytes[i + $0] == word[$0] }) { return true }
                }
                return false
            }
            return occurs(skylineKey) || occurs(landmarksKey)
        }
    }

    /// The keys `mentionsCalibration` looks for, quotes included (made once, not per line).
    private static let skylineKey = Array("\"skyline\"".utf8), landmarksKey = Array("\"landmarks\"".utf8)
}

extension Line {
    /// Whether the line holds nothing but spaces and tabs (its CR already dropped).
    var isBlank: Bool {
        guard case .text(let text) = content else { return false }
        return text.utf8.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }

    /// Bytes of the line in its input, terminator included (a CR or BOM dropped by the reader
    /// is not counted: this feeds a progress estimate).
    var byteCount: Int {
        switch content {
        case .text(let text): text.utf8.count + 1
        case .invalidUTF8(let bytes): bytes.count + 1
        case .tooLong(let count): count + 1
        }
    }
}
