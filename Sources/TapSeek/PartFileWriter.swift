import Foundation

/// What one HTTP response does to a tile's `.part` file, whichever transport carries it: which
/// statuses are taken (200 from the start, 206 from the kept bytes), how far a body may grow,
/// where its bytes go, and what the transfer's outcome is when it ends.
struct PartFileWriter {
    let request: HTTPTransfer.Request
    private var output: FileHandle?
    private var resumedAt: Int64 = 0
    private var received: Int64 = 0
    private var expected: Int64?
    /// Decided before the end: the response is refused, or a write failed.
    private var outcome: HTTPTransfer.Outcome?
    private var lastReport: ContinuousClock.Instant?

    /// A progress display needs no more than about ten updates a second.
    private static let reportInterval: Duration = .milliseconds(100)

    init(_ request: HTTPTransfer.Request) { self.request = request }

    /// The bytes of the tile on disk so far, and how many it will have (when known).
    var progress: (bytes: Int64, expected: Int64?) { (resumedAt + received, expected) }

    /// Takes a response's status and headers (`header` looks one up by name, any case); true
    /// when its body is to be written, false when the transfer should stop.
    mutating func respond(status: Int, header: (String) -> String?) -> Bool {
        switch status {
        case 200:
            resumedAt = 0
            expected = header("Content-Length").flatMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
            if let expected, expected > request.maximumBytes {
                outcome = .tooLarge(bytes: expected)
                return false
            }
            guard open(truncating: true) else { return false }
            recordValidator(header)
            return true
        case 206:
            guard let range = HTTPTransfer.contentRange(header("Content-Range")), range.start == request.offset else {
                // Not the bytes asked for: start the tile again.
                outcome = .rangeNotSatisfiable(total: nil)
                return false
            }
            resumedAt = request.offset
            expected = range.total
            if let total = range.total, total > request.maximumBytes {
                outcome = .tooLarge(bytes: total)
                return false
            }
            return open(truncating: false)
        case 404:
            outcome = .notFound
        case 416:
            outcome = .rangeNotSatisfiable(total: HTTPTransfer.contentRange(header("Content-Range"))?.total)
        default:
            outcome = .status(status)
        }
        return false
    }

    /// Appends a chunk of the body; false when the transfer should stop (too long, or the disk
    /// refuses it). `report` is set when a progress update is due.
    mutating func write(_ chunk: UnsafeRawBufferPointer, report: inout (Int64, Int64?)?) -> Bool {
        guard let output else { return false }
        let total = resumedAt + received + Int64(chunk.count)
        if total > request.maximumBytes {
            outcome = .tooLarge(bytes: total)
            close()
            return false
        }
        do {
            try output.write(contentsOf: Data(chunk))
        } catch {
            outcome = .localFailure("cannot write \(request.partPath): \(error.localizedDescription)")
            close()
            return false
        }
        received += Int64(chunk.count)
        let now = ContinuousClock.now
        if lastReport == nil || now - lastReport! >= Self.reportInterval {
            lastReport = now
            report = (resumedAt + received, expected)
        }
        return true
    }

    /// The outcome once the transfer has ended: `failure` says why it broke off (nil when the
    /// transport saw no error).
    mutating func finish(failure: String?) -> HTTPTransfer.Outcome {
        close()
        let total = resumedAt + received
        if let outcome { return outcome }
        if let failure { return .failed(failure, bytes: total, expected: expected) }
        if let expected, total != expected { return .failed("connection closed early", bytes: total, expected: expected) }
        return .complete(received: received, resumedAt: resumedAt)
    }

    /// Records why the transport gave up before `finish` (a refused response, a local error).
    mutating func fail(_ outcome: HTTPTransfer.Outcome) {
        if self.outcome == nil { self.outcome = outcome }
    }

    private mutating func close() {
        try? output?.close()
        output = nil
    }

    /// Opens the part file for this response: emptied for a full body, appended to for a range.
    private mutating func open(truncating: Bool) -> Bool {
        let path = request.partPath
        if truncating || !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                outcome = .localFailure("cannot create \(path)")
                return false
            }
        }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            outcome = .localFailure("cannot write \(path)")
            return false
        }
        do {
            // Append exactly after the kept bytes the range was asked for.
            try handle.truncate(atOffset: truncating ? 0 : UInt64(request.offset))
            try handle.seekToEnd()
        } catch {
            outcome = .localFailure("cannot write \(path): \(error.localizedDescription)")
            return false
        }
        output = handle
        return true
    }

    /// Keeps what identifies this version of the file: a strong ETag (a weak one may not be
    /// used with If-Range, RFC 9110 §13.1.5), else Last-Modified; nothing when neither is given.
    private func recordValidator(_ header: (String) -> String?) {
        try? FileManager.default.removeItem(atPath: request.validatorPath)
        let etag = header("ETag").flatMap { $0.hasPrefix("W/") ? nil : $0 }
        guard let value = etag ?? header("Last-Modified") else { return }
        try? value.write(toFile: request.validatorPath, atomically: true, encoding: .utf8)
    }
}
