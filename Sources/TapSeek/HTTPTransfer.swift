import Foundation

/// One GET of a tile into its `.part` file, streamed chunk by chunk so that an interruption
/// leaves every received byte on disk for a later Range request.
///
/// The transport is the platform's: `URLSession` on Apple's platforms (``URLSessionTransfer``),
/// libcurl elsewhere (``CurlTransfer``), loaded when the first tile is requested. Linking
/// FoundationNetworking instead would load libcurl and the thirty-odd libraries it needs at every
/// start of `tapseek`, about 7 ms here, though most runs never download (issue 14, point 8).
/// Both hand the response to a ``PartFileWriter``, which decides what it means.
enum HTTPTransfer {
    enum Outcome: Sendable {
        /// The body arrived in full: `received` bytes this time, appended after `resumedAt`.
        case complete(received: Int64, resumedAt: Int64)
        case notFound
        case status(Int)
        /// 416: the kept part already reaches (or passes) the end; the server's total if given.
        case rangeNotSatisfiable(total: Int64?)
        case failed(String, bytes: Int64, expected: Int64?)
        /// No connection was made: the host's name did not resolve (`resolved` false: offline,
        /// or no such host), or no connection to it could be opened. `detail` is the
        /// transport's own sentence.
        case unreachable(host: String, resolved: Bool, detail: String)
        case localFailure(String)
        /// The response is longer than the request's `maximumBytes` (announced or sent).
        case tooLarge(bytes: Int64)
    }

    /// What to fetch and where it goes.
    struct Request: Sendable {
        var url: URL
        var partPath: String
        var validatorPath: String
        /// Bytes already in the part file: asked for from here on when > 0, if the file still
        /// matches `ifRange`.
        var offset: Int64
        var ifRange: String?
        /// Seconds without a byte after which the transfer fails.
        var timeout: TimeInterval
        /// The most bytes the whole file may have: more is not a tile, whatever the server says.
        var maximumBytes: Int64

        /// The request's headers beyond the URL.
        var headers: [(name: String, value: String)] {
            // Byte ranges must count the stored bytes, not a transparently decoded stream.
            var headers = [("Accept-Encoding", "identity")]
            if offset > 0 {
                headers.append(("Range", "bytes=\(offset)-"))
                if let ifRange { headers.append(("If-Range", ifRange)) }
            }
            return headers
        }
    }

    /// Requests `url` (bytes from `offset` on when > 0, if the file still matches `ifRange`)
    /// and writes the body to `partPath`; a full response records its validator at
    /// `validatorPath` for a later resume.
    static func run(url: URL, partPath: String, validatorPath: String, offset: Int64, ifRange: String?,
                    timeout: TimeInterval, maximumBytes: Int64, onProgress: @escaping @Sendable (Int64, Int64?) -> Void) async -> Outcome {
        let request = Request(url: url, partPath: partPath, validatorPath: validatorPath, offset: offset, ifRange: ifRange,
                              timeout: timeout, maximumBytes: maximumBytes)
        #if canImport(Darwin)
        return await URLSessionTransfer.run(request, onProgress: onProgress)
        #else
        return await CurlTransfer.run(request, onProgress: onProgress)
        #endif
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
