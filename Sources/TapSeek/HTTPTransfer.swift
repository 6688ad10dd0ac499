import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One GET of a tile into its `.part` file, streamed chunk by chunk so that an interruption
/// leaves every received byte on disk for a later Range request.
final class HTTPTransfer: NSObject, URLSessionDataDelegate, Sendable {
    enum Outcome: Sendable {
        /// The body arrived in full: `received` bytes this time, appended after `resumedAt`.
        case complete(received: Int64, resumedAt: Int64)
        case notFound
        case status(Int)
        /// 416: the kept part already reaches (or passes) the end; the server's total if given.
        case rangeNotSatisfiable(total: Int64?)
        case failed(String, bytes: Int64, expected: Int64?)
        case localFailure(String)
        /// The response is longer than ``SRTMTileFile/maximumFileBytes`` (announced or sent).
        case tooLarge(bytes: Int64)
    }

    private struct State {
        var output: FileHandle?
        var resumedAt: Int64 = 0
        var received: Int64 = 0
        var expected: Int64?
        var outcome: Outcome?
        var lastReport: ContinuousClock.Instant?
        var continuation: CheckedContinuation<Outcome, Never>?
    }

    /// A progress display needs no more than about ten updates a second.
    private static let reportInterval: Duration = .milliseconds(100)

    private let partPath: String
    private let validatorPath: String
    private let offset: Int64
    private let onProgress: @Sendable (Int64, Int64?) -> Void
    private let state = Locked(State())

    private init(partPath: String, validatorPath: String, offset: Int64, onProgress: @escaping @Sendable (Int64, Int64?) -> Void) {
        self.partPath = partPath
        self.validatorPath = validatorPath
        self.offset = offset
        self.onProgress = onProgress
    }

    /// Requests `url` (bytes from `offset` on when > 0, if the file still matches `ifRange`)
    /// and writes the body to `partPath`; a full response records its validator at
    /// `validatorPath` for a later resume.
    static func run(url: URL, partPath: String, validatorPath: String, offset: Int64, ifRange: String?,
                    timeout: TimeInterval, onProgress: @escaping @Sendable (Int64, Int64?) -> Void) async -> Outcome {
        let transfer = HTTPTransfer(partPath: partPath, validatorPath: validatorPath, offset: offset, onProgress: onProgress)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        let session = URLSession(configuration: configuration, delegate: transfer, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        var request = URLRequest(url: url)
        // Byte ranges must count the stored bytes, not a transparently decoded stream.
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        if offset > 0 {
            request.setValue("bytes=\(offset)-", forHTTPHeaderField: "Range")
            if let ifRange { request.setValue(ifRange, forHTTPHeaderField: "If-Range") }
        }
        return await withCheckedContinuation { continuation in
            transfer.state.withLock { $0.continuation = continuation }
            session.dataTask(with: request).resume()
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        guard let http = response as? HTTPURLResponse else {
            state.withLock { $0.outcome = .localFailure("not an HTTP response") }
            completionHandler(.cancel)
            return
        }
        let disposition: URLSession.ResponseDisposition = state.withLock { state in
            switch http.statusCode {
            case 200:
                state.resumedAt = 0
                state.expected = http.expectedContentLength >= 0 ? http.expectedContentLength : nil
                if let expected = state.expected, expected > SRTMTileFile.maximumFileBytes {
                    state.outcome = .tooLarge(bytes: expected)
                    return .cancel
                }
                guard open(truncating: true, state: &state) else { return .cancel }
                recordValidator(of: http)
                return .allow
            case 206:
                let range = Self.contentRange(http.value(forHTTPHeaderField: "Content-Range"))
                guard let range, range.start == offset else {
                    // Not the bytes asked for: start the tile again.
                    state.outcome = .rangeNotSatisfiable(total: nil)
                    return .cancel
                }
                state.resumedAt = offset
                state.expected = range.total
                if let total = range.total, total > SRTMTileFile.maximumFileBytes {
                    state.outcome = .tooLarge(bytes: total)
                    return .cancel
                }
                return open(truncating: false, state: &state) ? .allow : .cancel
            case 404:
                state.outcome = .notFound
                return .cancel
            case 416:
                let range = Self.contentRange(http.value(forHTTPHeaderField: "Content-Range"))
                state.outcome = .rangeNotSatisfiable(total: range?.total)
                return .cancel
            default:
                state.outcome = .status(http.statusCode)
                return .cancel
            }
        }
        completionHandler(disposition)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let report: (Int64, Int64?)? = state.withLock { state in
            guard let output = state.output else { return nil }
            let total = state.resumedAt + state.received + Int64(data.count)
            if total > SRTMTileFile.maximumFileBytes {
                state.outcome = .tooLarge(bytes: total)
                try? output.close()
                state.output = nil
                dataTask.cancel()
                return nil
            }
            do {
                try output.write(contentsOf: data)
            } catch {
                state.outcome = .localFailure("cannot write \(partPath): \(error.localizedDescription)")
                dataTask.cancel()
                return nil
            }
            state.received += Int64(data.count)
            let now = ContinuousClock.now
            if let last = state.lastReport, now - last < Self.reportInterval { return nil }
            state.lastReport = now
            return (state.resumedAt + state.received, state.expected)
        }
        if let (bytes, expected) = report { onProgress(bytes, expected) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        let (continuation, outcome, bytes, expected): (CheckedContinuation<Outcome, Never>?, Outcome, Int64, Int64?) = state.withLock { state in
            try? state.output?.close()
            state.output = nil
            let total = state.resumedAt + state.received
            let outcome: Outcome
            if let decided = state.outcome {
                outcome = decided
            } else if let error {
                outcome = .failed(error.localizedDescription, bytes: total, expected: state.expected)
            } else if let expected = state.expected, total != expected {
                outcome = .failed("connection closed early", bytes: total, expected: expected)
            } else {
                outcome = .complete(received: state.received, resumedAt: state.resumedAt)
            }
            defer { state.continuation = nil }
            return (state.continuation, outcome, total, state.expected)
        }
        if case .complete = outcome { onProgress(bytes, expected) }
        continuation?.resume(returning: outcome)
    }

    /// Opens the part file for this response: emptied for a full body, appended to for a range.
    private func open(truncating: Bool, state: inout State) -> Bool {
        if truncating || !FileManager.default.fileExists(atPath: partPath) {
            guard FileManager.default.createFile(atPath: partPath, contents: nil) else {
                state.outcome = .localFailure("cannot create \(partPath)")
                return false
            }
        }
        guard let handle = FileHandle(forWritingAtPath: partPath) else {
            state.outcome = .localFailure("cannot write \(partPath)")
            return false
        }
        do {
            // Append exactly after the kept bytes the range was asked for.
            try handle.truncate(atOffset: truncating ? 0 : UInt64(offset))
            try handle.seekToEnd()
        } catch {
            state.outcome = .localFailure("cannot write \(partPath): \(error.localizedDescription)")
            return false
        }
        state.output = handle
        return true
    }

    /// Keeps what identifies this version of the file: a strong ETag (a weak one may not be
    /// used with If-Range, RFC 9110 §13.1.5), else Last-Modified; nothing when neither is given.
    private func recordValidator(of response: HTTPURLResponse) {
        try? FileManager.default.removeItem(atPath: validatorPath)
        let etag = response.value(forHTTPHeaderField: "ETag").flatMap { $0.hasPrefix("W/") ? nil : $0 }
        guard let value = etag ?? response.value(forHTTPHeaderField: "Last-Modified") else { return }
        try? value.write(toFile: validatorPath, atomically: true, encoding: .utf8)
    }

    /// `bytes START-END/TOTAL` or `bytes */TOTAL` (RFC 9110 §14.4); TOTAL may be `*`.
    static func contentRange(_ value: String?) -> (start: Int64?, total: Int64?)? {
        guard let value, value.hasPrefix("bytes ") else { return nil }
        let spec = value.dropFirst("bytes ".count)
        let parts = spec.split(separator: "/", maxSplits: 1)
        guard parts.count == 2 else { return nil }
        let total = Int64(parts[1])
        if parts[0] == "*" { return (nil, total) }
        guard let dash = parts[0].firstIndex(of: "-"), let start = Int64(parts[0][..<dash]) else { return nil }
        return (start, total)
    }
}
