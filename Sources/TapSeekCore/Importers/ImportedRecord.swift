import Foundation

/// One record of an imported log: a reading, or the reason its line could not become one.
///
/// Importers yield these in input order, one per data line of the driving file, so that batch
/// output keeps one result per input record and loses none.
public struct ImportedRecord: Sendable, Hashable {
    /// 1-based line of the record in its file; for per-sensor joins, in the driving file
    /// (Orientation rows when present, else Location rows).
    public var line: Int
    /// When the record was sampled (UTC), when the log says.
    public var time: Date?
    /// The reading, or why the line did not give one.
    public var result: Result<Reading, ImportError>

    /// A record of `line`.
    public init(line: Int, time: Date?, result: Result<Reading, ImportError>) {
        self.line = line
        self.time = time
        self.result = result
    }

    /// The reading, when the line produced one.
    public var reading: Reading? {
        if case .success(let r) = result { return r }
        return nil
    }
}

/// A stream of imported records, pulled one at a time so that memory stays bounded whatever the
/// size of the log.
public protocol ImportedRecordSource {
    /// The next record in input order, or nil at the end.
    /// - Throws: ``ImportError`` with code `.unreadable` when the stream itself fails mid-way;
    ///   bad content never throws, it becomes an error record.
    mutating func next() throws(ImportError) -> ImportedRecord?
}

extension ImportError {
    /// A stream failure as an import error.
    init(_ error: StreamReadError) {
        self.init(.unreadable, error.message)
    }
}

extension ImportedRecord {
    /// The record with its reading's position replaced by `location` (when given): the
    /// readings of a log recorded at a known spot (`batch --location`).
    func relocated(to location: Reading.Location?) -> ImportedRecord {
        guard let location, case .success(var reading) = result else { return self }
        reading.location = location
        return ImportedRecord(line: line, time: time, result: .success(reading))
    }
}

/// Records of another source, each placed at one fixed position (``ImportedRecord/relocated(to:)``).
struct RelocatedRecords<Base: ImportedRecordSource>: ImportedRecordSource {
    var base: Base
    let location: Reading.Location

    mutating func next() throws(ImportError) -> ImportedRecord? {
        try base.next()?.relocated(to: location)
    }
}
