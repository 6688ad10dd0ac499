#if canImport(Darwin)
import Foundation

/// ``HTTPTransfer`` over `URLSession`, on Apple's platforms (where it costs nothing at start).
final class URLSessionTransfer: NSObject, URLSessionDataDelegate, Sendable {
    private struct State {
        var writer: PartFileWriter
        var continuation: CheckedContinuation<HTTPTransfer.Outcome, Never>?
    }

    private let onProgress: @Sendable (Int64, Int64?) -> Void
    private let state: Locked<State>

    private init(_ request: HTTPTransfer.Request, onProgress: @escaping @Sendable (Int64, Int64?) -> Void) {
        self.onProgress = onProgress
        state = Locked(State(writer: PartFileWriter(request)))
    }

    static func run(_ request: HTTPTransfer.Request, onProgress: @escaping @Sendable (Int64, Int64?) -> Void) async -> HTTPTransfer.Outcome {
        let transfer = URLSessionTransfer(request, onProgress: onProgress)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = request.timeout
        let session = URLSession(configuration: configuration, delegate: transfer, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        var urlRequest = URLRequest(url: request.url)
        for header in request.headers { urlRequest.setValue(header.value, forHTTPHeaderField: header.name) }
        return await withCheckedContinuation { continuation in
            transfer.state.withLock { $0.continuation = continuation }
            session.dataTask(with: urlRequest).resume()
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        let take: Bool = state.withLock { state in
            guard let http = response as? HTTPURLResponse else {
                state.writer.fail(.localFailure("not an HTTP response"))
                return false
            }
            return state.writer.respond(status: http.statusCode) { http.value(forHTTPHeaderField: $0) }
        }
        completionHandler(take ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        var report: (Int64, Int64?)?
        let proceed = state.withLock { state in
            data.withUnsafeBytes { state.writer.write($0, report: &report) }
        }
        if !proceed { dataTask.cancel() }
        if let (bytes, expected) = report { onProgress(bytes, expected) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        let (continuation, outcome, progress) = state.withLock { state in
            // A timeout reads as libcurl's does, the same sentence on every platform.
            let code = (error as? URLError)?.code
            let failure = code == .timedOut
                ? "no data for \(state.writer.request.timeout) s" : error?.localizedDescription
            // No connection at all reads as libcurl's does too (exit status 3 in the CLI).
            if let code, let error, ([.cannotFindHost, .dnsLookupFailed, .notConnectedToInternet, .cannotConnectToHost] as [URLError.Code]).contains(code) {
                let url = state.writer.request.url
                state.writer.fail(.unreachable(host: url.host ?? url.absoluteString, resolved: code == .cannotConnectToHost,
                                               detail: error.localizedDescription))
            }
            let outcome = state.writer.finish(failure: failure)
            defer { state.continuation = nil }
            return (state.continuation, outcome, state.writer.progress)
        }
        if case .complete = outcome { onProgress(progress.bytes, progress.expected) }
        continuation?.resume(returning: outcome)
    }
}
#endif
