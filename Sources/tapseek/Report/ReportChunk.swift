import TapSeek

/// What a job makes of a chunk: its rows and their tally.
struct ReportChunk: BatchChunkOutcome {
    var rows: ReportRows
    var tally: BatchTally
    var inputBytes: Int

    static func make(from chunk: BatchChunk, batch: BatchLocator, decoder: ReadingDecoder, refraction: Double, profilePoints: Int) -> ReportChunk {
        var terrain = TerrainSampler(catalog: batch.locator.catalog)
        var output = ReportChunk(rows: ReportRows(profilePoints: profilePoints), tally: BatchTally(), inputBytes: 0)
        func emit(_ record: BatchRecord) {
            let result = batch.locate(record, terrain: &terrain)
            output.rows.append(result, refraction: refraction)
            output.tally.count(result)
        }
        output.inputBytes = chunk.forEachRecord(decoder: decoder, emit)
        return output
    }
}
