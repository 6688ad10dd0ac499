import TapSeek

/// A chunk of `tapseek batch` input, as the reader hands it to a job.
enum BatchChunk: Sendable {
    /// Raw JSON Lines: the job decodes them, so parsing runs on every core.
    case lines([Line])
    /// Records decoded by the reader: imported logs (their CSV joins are sequential) and JSON
    /// Lines under `--every`/`--min-move` (thinning decides on decoded readings, in order).
    case records([BatchRecord])

    /// 1024 lines or 4 MiB of line bytes, whichever comes first: the byte cap keeps a chunk of
    /// long lines (up to ``BatchRecord/maximumLineLength`` each) from holding a GiB.
    static let maximumBytes = 4 << 20
}

/// What a job makes of a chunk: result lines ready to write, and their tally.
struct BatchChunkOutput: Sendable {
    /// The chunk's results as JSON Lines, written to stdout by the writer with `flush()`.
    var json: OutputBuffer
    var tally: BatchTally
    /// Input bytes the chunk covered (JSON Lines only; 0 for imported records), for progress.
    var inputBytes: Int

    /// Decodes (for lines), locates and formats one chunk with one terrain sampler.
    static func make(from chunk: BatchChunk, batch: BatchLocator, decoder: ReadingDecoder, geoJSON: Bool = false) -> BatchChunkOutput {
        var terrain = TerrainSampler(catalog: batch.locator.catalog)
        var output = BatchChunkOutput(json: OutputBuffer(), tally: BatchTally(), inputBytes: 0)
        func emit(_ record: BatchRecord) {
            let result = batch.locate(record, terrain: &terrain)
            // Only the writer writes, in order: a job's buffer must never flush itself.
            if geoJSON {
                GeoJSONWriter.writeFeatureLines(of: result, geoid: batch.locator.geoid, to: &output.json, flushing: false)
            } else {
                ResultJSON.write(result, to: &output.json)
                output.json.newline(flushing: false)
            }
            output.tally.count(result)
        }
        switch chunk {
        case .lines(let lines):
            for line in lines {
                output.inputBytes += line.byteCount
                emit(BatchRecord(jsonLine: line, decoder: decoder))
            }
        case .records(let records):
            records.forEach(emit)
        }
        return output
    }
}

extension Line {
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
