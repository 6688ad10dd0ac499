import TapSeek

/// The columns of an `elevation --batch` or `geocode --batch` CSV, as its header on line 1
/// names them (``CoordinateColumns``): read once by ``ParallelLines/header`` before any job
/// starts, then by each job's state. A file without a header keeps `lat,lon`.
final class BatchColumns: Sendable {
    private let columns = Locked(CoordinateColumns.latitudeLongitude)

    /// The layout read from the header (`lat,lon` until one is read).
    var current: CoordinateColumns { columns.withLock { $0 } }

    /// Whether line 1 is a header, noting its columns.
    /// - Throws: ``InputError`` (exit status 1) for a header without a latitude or longitude column.
    @Sendable func readHeader(_ line: UnsafeBufferPointer<UInt8>) throws -> Bool {
        do throws(CoordinateError) {
            guard let found = try CoordinateColumns.header(line) else { return false }
            columns.withLock { $0 = found }
            return true
        } catch {
            throw InputError("line 1: \(error.message)")
        }
    }
}
