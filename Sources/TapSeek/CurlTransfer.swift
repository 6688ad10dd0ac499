#if !canImport(Darwin)
import Foundation

/// ``HTTPTransfer`` over libcurl's easy interface (``CurlLibrary``), on a thread of its own:
/// `curl_easy_perform` blocks until the transfer ends. Redirects are followed (HTTP and HTTPS
/// only); a transfer with no byte for the request's timeout fails.
enum CurlTransfer {
    static func run(_ request: HTTPTransfer.Request, onProgress: @escaping @Sendable (Int64, Int64?) -> Void) async -> HTTPTransfer.Outcome {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: perform(request, onProgress: onProgress)) }.start()
        }
    }

    /// What libcurl's callbacks share, all of them on the performing thread.
    private final class Context {
        var writer: PartFileWriter
        let onProgress: @Sendable (Int64, Int64?) -> Void
        let timeout: Duration
        /// The latest response's status and headers (names in lower case): a redirect's are
        /// replaced by those of the response it leads to.
        var status = 0
        var headers: [String: String] = [:]
        /// Whether the body is written, once the writer has seen the response.
        var takesBody: Bool?
        var lastActivity = ContinuousClock.now
        var timedOut = false

        init(_ request: HTTPTransfer.Request, onProgress: @escaping @Sendable (Int64, Int64?) -> Void) {
            writer = PartFileWriter(request)
            self.onProgress = onProgress
            timeout = .milliseconds(Int64((request.timeout * 1000).rounded(.up)))
        }

        func respond() {
            takesBody = writer.respond(status: status) { headers[$0.lowercased()] }
        }

        static func from(_ user: UnsafeMutableRawPointer?) -> Context { Unmanaged<Context>.fromOpaque(user!).takeUnretainedValue() }
    }

    private static let onHeader: CurlLibrary.DataCallback = { data, size, count, user in
        let context = Context.from(user)
        let length = size * count
        context.lastActivity = .now
        let line = String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        if line.hasPrefix("HTTP/") {
            // A new response (after a redirect or an interim 1xx): its own status and headers.
            let fields = line.split(separator: " ")
            context.status = fields.count >= 2 ? Int(fields[1]) ?? 0 : 0
            context.headers = [:]
        } else if let colon = line.firstIndex(of: ":") {
            context.headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return length
    }

    private static let onBody: CurlLibrary.DataCallback = { data, size, count, user in
        let context = Context.from(user)
        let length = size * count
        context.lastActivity = .now
        // The first bytes of a body: the response they belong to is complete.
        if context.takesBody == nil { context.respond() }
        var report: (Int64, Int64?)?
        guard context.takesBody == true, context.writer.write(UnsafeRawBufferPointer(start: data, count: length), report: &report) else {
            return length == 0 ? 1 : 0   // anything but `length` stops the transfer
        }
        if let (bytes, expected) = report { context.onProgress(bytes, expected) }
        return length
    }

    private static let onTick: CurlLibrary.ProgressCallback = { user, _, _, _, _ in
        let context = Context.from(user)
        guard ContinuousClock.now - context.lastActivity > context.timeout else { return 0 }
        context.timedOut = true
        return 1
    }

    private static func perform(_ request: HTTPTransfer.Request, onProgress: @escaping @Sendable (Int64, Int64?) -> Void) -> HTTPTransfer.Outcome {
        let curl: CurlLibrary
        switch CurlLibrary.shared {
        case .success(let library): curl = library
        case .failure(let error): return .localFailure("cannot download: \(error.message)")
        }
        guard let easy = curl.easyInit() else { return .localFailure("cannot download: curl_easy_init failed") }
        defer { curl.cleanup(easy) }
        var headerList: OpaquePointer?
        for header in request.headers { headerList = curl.listAppend(headerList, "\(header.name): \(header.value)") }
        defer { curl.listFree(headerList) }

        let context = Context(request, onProgress: onProgress)
        var errorBuffer = [CChar](repeating: 0, count: CurlLibrary.errorBufferSize)
        let code: Int32 = withExtendedLifetime(context) {
            let user = UnsafeRawPointer(Unmanaged.passUnretained(context).toOpaque())
            return errorBuffer.withUnsafeMutableBufferPointer { buffer in
                request.url.absoluteString.withCString { url in
                    _ = curl.setPointer(easy, CurlLibrary.url, url)
                    _ = curl.setPointer(easy, CurlLibrary.httpHeader, UnsafeRawPointer(headerList))
                    _ = curl.setPointer(easy, CurlLibrary.errorBuffer, buffer.baseAddress)
                    _ = curl.setPointer(easy, CurlLibrary.userAgent, "tapseek")
                    _ = curl.setLong(easy, CurlLibrary.followLocation, 1)
                    _ = curl.setLong(easy, CurlLibrary.maximumRedirects, 10)
                    // Older libcurl lacks these two options and ignores them with an error code.
                    _ = curl.setPointer(easy, CurlLibrary.protocols, "http,https")
                    _ = curl.setPointer(easy, CurlLibrary.redirectProtocols, "http,https")
                    _ = curl.setLong(easy, CurlLibrary.noSignal, 1)
                    _ = curl.setLong(easy, CurlLibrary.connectTimeoutMilliseconds, max(1, Int(request.timeout * 1000)))
                    _ = curl.setPointer(easy, CurlLibrary.headerFunction, unsafeBitCast(onHeader, to: UnsafeRawPointer.self))
                    _ = curl.setPointer(easy, CurlLibrary.headerData, user)
                    _ = curl.setPointer(easy, CurlLibrary.writeFunction, unsafeBitCast(onBody, to: UnsafeRawPointer.self))
                    _ = curl.setPointer(easy, CurlLibrary.writeData, user)
                    _ = curl.setLong(easy, CurlLibrary.noProgress, 0)
                    _ = curl.setPointer(easy, CurlLibrary.progressFunction, unsafeBitCast(onTick, to: UnsafeRawPointer.self))
                    _ = curl.setPointer(easy, CurlLibrary.progressData, user)
                    return curl.perform(easy)
                }
            }
        }

        var failure: String?
        if code == CurlLibrary.couldNotResolveHost || code == CurlLibrary.couldNotResolveProxy || code == CurlLibrary.couldNotConnect,
           context.status == 0 {
            let detail = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            context.writer.fail(.unreachable(host: request.url.host ?? request.url.absoluteString, resolved: code == CurlLibrary.couldNotConnect,
                                             detail: detail.isEmpty ? curl.errorText(code).map { String(cString: $0) } ?? "libcurl error \(code)" : detail))
        } else if context.timedOut {
            failure = "no data for \(request.timeout) s"
        } else if code != CurlLibrary.ok {
            let detail = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            failure = detail.isEmpty ? curl.errorText(code).map { String(cString: $0) } ?? "libcurl error \(code)" : detail
        } else if context.takesBody == nil, context.status != 0 {
            // A response without a body (an empty tile, a bare 404): judged now.
            context.respond()
        }
        let outcome = context.writer.finish(failure: failure)
        if case .complete = outcome {
            let progress = context.writer.progress
            onProgress(progress.bytes, progress.expected)
        }
        return outcome
    }
}
#endif
