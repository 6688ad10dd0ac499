import Foundation

/// Linux Foundation has no gzip decoder, so the system's `gzip` (Debian: essential package)
/// unpacks `.hgt.gz` downloads, streaming file to file.
enum Gunzip {
    /// Unpacks `source` into `target`, stopping with a `.corrupt` error as soon as the output
    /// passes `limit` bytes (a gzip bomb: 1 MB of zeros can unpack to 1 GB).
    static func run(_ source: String, into target: String, limit: Int64) throws(TileFetchError) {
        #if os(Linux) || os(macOS)
        guard let gzip = executable("gzip") else {
            throw TileFetchError(.local, "gzip is needed to unpack .gz tiles but is not on PATH")
        }
        guard FileManager.default.createFile(atPath: target, contents: nil),
              let output = FileHandle(forWritingAtPath: target) else {
            throw TileFetchError(.local, "cannot write \(target)")
        }
        defer { try? output.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: gzip)
        process.arguments = ["-dc", source]
        let unpacked = Pipe()
        process.standardOutput = unpacked
        let errors = Pipe()
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw TileFetchError(.local, "cannot run \(gzip): \(error.localizedDescription)")
        }
        // Stream gzip's output through here, counting, rather than into the file directly.
        let reader = unpacked.fileHandleForReading
        var written: Int64 = 0
        var writeFailure: String?
        while let chunk = try? reader.read(upToCount: 1 << 20), !chunk.isEmpty {
            written += Int64(chunk.count)
            if written > limit { break }
            do { try output.write(contentsOf: chunk) } catch {
                writeFailure = error.localizedDescription
                break
            }
        }
        if written > limit || writeFailure != nil { process.terminate() }
        try? reader.close()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if let writeFailure { throw TileFetchError(.local, "cannot write \(target): \(writeFailure)") }
        if written > limit {
            throw TileFetchError(.corrupt, "gzip data unpacks to more than \(limit) bytes (a tile has at most \(SRTMTileFile.validByteCounts[1]))")
        }
        guard process.terminationStatus == 0 else {
            let line = message.split(separator: "\n").first.map(String.init) ?? "exit status \(process.terminationStatus)"
            throw TileFetchError(.corrupt, "gzip data is damaged: \(line)")
        }
        #else
        // No subprocesses on iOS, tvOS or watchOS: fetch raw .hgt or .hgt.zip tiles there.
        throw TileFetchError(.local, "unpacking .gz tiles needs the gzip program, which this platform does not have")
        #endif
    }

    /// The first executable called `name` on PATH.
    static func executable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
