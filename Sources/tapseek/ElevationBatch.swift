import Foundation
import TapSeek

/// `tapseek elevation --batch`: CSV `lat,lon` lines on stdin → one JSON line each on stdout,
/// in order; a bad line becomes an error record naming it and the run goes on.
struct ElevationBatch {
    let service: ElevationService

    func run() throws {
        var sampler = service.sampler()
        var out = OutputBuffer()
        var lineNumber = 0
        try StandardInputLines.forEach { line in
            lineNumber += 1
            switch CoordinateLine.parse(line) {
            case .success(let p):
                do throws(CoordinateError) {
                    ElevationRecord.write(try sampler.elevation(latitude: p.latitude, longitude: p.longitude), to: &out)
                } catch {
                    ElevationRecord.writeError(line: lineNumber, message: error.message, to: &out)
                }
            case .failure(let error):
                ElevationRecord.writeError(line: lineNumber, message: error.message, to: &out)
            }
            out.newline()
        }
        out.flush()
    }
}

/// Lines of stdin read in large blocks (Linux Foundation has no `FileHandle.bytes`).
enum StandardInputLines {
    /// Calls `body` with each line's bytes, without the `\n`; a last line without one counts.
    static func forEach(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws {
        var pending: [UInt8] = []
        var block = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let n = block.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw InputError("cannot read stdin: \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            try block.withUnsafeBufferPointer { b in
                var start = 0
                for i in 0..<n where b[i] == 0x0A {
                    if pending.isEmpty {
                        try body(UnsafeBufferPointer(rebasing: b[start..<i]))
                    } else {
                        pending.append(contentsOf: b[start..<i])
                        try pending.withUnsafeBufferPointer { try body($0) }
                        pending.removeAll(keepingCapacity: true)
                    }
                    start = i + 1
                }
                pending.append(contentsOf: b[start..<n])
            }
        }
        if !pending.isEmpty { try pending.withUnsafeBufferPointer { try body($0) } }
    }
}
