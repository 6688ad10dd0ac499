import Foundation

/// `scripts/tile-test-server.py` serving one directory on 127.0.0.1 for the life of a test.
/// It stops when this object goes away: closing its stdin ends it.
public final class LoopbackTileServer {
    public let port: Int
    private let process = Process()
    private let input = Pipe()
    private let log: URL

    public init(directory: URL, options: [String] = []) throws {
        log = FileManager.default.temporaryDirectory.appendingPathComponent("tapseek-tile-server-\(UUID().uuidString).log")
        let script = SharedData.projectRoot.appendingPathComponent("scripts/tile-test-server.py")
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // A server outlives a test starved of CPU by a busy parallel run (its idle stop is a
        // safety net; it stops anyway when this process closes its stdin).
        process.arguments = ["python3", script.path, "--directory", directory.path, "--log", log.path, "--idle-timeout", "900"] + options
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        // The first line, once it listens, is "PORT <n>".
        var text = ""
        while !text.contains("\n") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5).prefix { $0.isNumber }) else {
            throw StartFailure(description: "scripts/tile-test-server.py did not start: \(text)")
        }
        self.port = port
    }

    deinit {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: log)
    }

    public struct StartFailure: Error, CustomStringConvertible {
        public let description: String
    }

    /// `http://127.0.0.1:PORT/path`.
    public func url(_ path: String) -> String { "http://127.0.0.1:\(port)/\(path)" }

    /// The requests so far, one "METHOD PATH RANGE" line each (RANGE "-" when none).
    public var requests: [String] {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }
}
