// Helpers shared by the libFuzzer targets in this folder. scripts/fuzz.sh compiles this file into
// every target, beside the target's own file, against TapSeekCore built with -enable-testing.

import Foundation
@testable import TapSeekCore

#if canImport(Glibc)
import Glibc
#endif

/// The fuzzer's input as an array (inputs are small: -max_len keeps them so).
func fuzzInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: size))
}

/// Stops the run with a message libFuzzer reports as a crash: an invariant did not hold.
func violated(_ what: String, _ input: [UInt8]) -> Never {
    let shown = input.count <= 512 ? " for input \(input)" : ""
    fatalError("invariant violated: \(what)\(shown)")
}

/// Checks what every grid a reader returns must hold: its shape matches its heights, its
/// spacing is positive, and a look-up at its corner does not trap.
func checkGrid(_ grid: ElevationGrid, _ input: [UInt8]) {
    guard grid.rows >= 2, grid.columns >= 2, grid.heights.count == grid.rows * grid.columns else {
        violated("a \(grid.rows) × \(grid.columns) grid holds \(grid.heights.count) heights", input)
    }
    guard grid.latitudeSpacing > 0, grid.longitudeSpacing > 0 else {
        violated("a grid with spacing \(grid.latitudeSpacing) × \(grid.longitudeSpacing)", input)
    }
    _ = grid.interpolate(latitude: grid.north, longitude: grid.west)
}

/// Splits `bytes` at NUL bytes into at most `count` parts (the last keeps any further NULs), so
/// that one input can carry several files.
func parts(_ bytes: ArraySlice<UInt8>, count: Int) -> [[UInt8]] {
    bytes.split(separator: 0, maxSplits: count - 1, omittingEmptySubsequences: false).map(Array.init)
}

/// A line reader over bytes in memory whose chunking the `control` byte picks, so that lines
/// split across reads, lines longer than the limit and tiny buffers are all exercised.
func lineReader(_ bytes: [UInt8], control: UInt8) -> LineReader {
    let readSizes = [Int.max, 1, 3, 17]
    let chunkSizes = [4096, 1, 7, 64]
    let lineLimits = [LineReader.defaultMaximumLineLength, 200]
    return LineReader(source: MemoryByteSource(bytes, maximumReadSize: readSizes[Int(control & 3)]),
                      chunkSize: chunkSizes[Int(control >> 2 & 3)],
                      maximumLineLength: lineLimits[Int(control >> 4 & 1)])
}

/// Pulls every record out of an importer, checking what holds for every importer: records come
/// in input order, and every reading it accepts is one the reading JSON decoder accepts back.
/// Without decompression, every record takes at least a line, so `input.count` bounds their number.
func drain(_ source: inout some ImportedRecordSource, _ input: [UInt8], maximumRecords: Int? = nil) {
    let maximumRecords = maximumRecords ?? input.count
    var previousLine = 0
    var records = 0
    while true {
        let record: ImportedRecord?
        do { record = try source.next() } catch { return }
        guard let record else { return }
        records += 1
        guard records <= maximumRecords else { violated("more records (\(records)) than input bytes", input) }
        guard record.line >= previousLine else {
            violated("record of line \(record.line) after one of line \(previousLine)", input)
        }
        previousLine = record.line
        if case .success(let reading) = record.result {
            checkReadingRoundTrip(reading, input)
        }
    }
}

/// A reading written by ``ReadingEncoder`` decodes back to the same reading (times to the
/// millisecond, which is what the encoder keeps).
func checkReadingRoundTrip(_ reading: Reading, _ input: [UInt8]) {
    var original = reading
    original.unknownFields = []
    let json = ReadingEncoder().encode(original)
    var back: Reading
    do {
        back = try ReadingDecoder(requiresOrientation: original.orientation != nil).decode(json)
    } catch {
        violated("the encoder wrote \(json), which the decoder refuses: \(error)", input)
    }
    if let a = original.time, let b = back.time {
        guard abs(a.timeIntervalSince(b)) <= 0.0005 else { violated("time \(a) came back as \(b) from \(json)", input) }
        back.time = a
    }
    guard back == original else { violated("\(json) decodes to \(back), not \(original)", input) }
}

/// A path naming an anonymous in-memory file that holds `bytes`, for APIs that open paths (zip
/// archives are read with pread). Call `close(fd)` when done.
func memoryFile(_ bytes: [UInt8]) -> (path: String, fd: Int32) {
    // An unlinked file in /dev/shm (tmpfs): Glibc's module does not export memfd_create.
    var template = Array("/dev/shm/tapseek-fuzz-XXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else { fatalError("mkstemp failed: \(String(cString: strerror(errno)))") }
    template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
    var written = 0
    while written < bytes.count {
        let n = bytes.withUnsafeBytes { raw in write(fd, raw.baseAddress! + written, bytes.count - written) }
        guard n > 0 else { fatalError("cannot write the fuzz input to memory: \(String(cString: strerror(errno)))") }
        written += n
    }
    return ("/proc/self/fd/\(fd)", fd)
}
