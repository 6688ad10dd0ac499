// libFuzzer target for the Sensor Logger importer, its zip reader and inflater. The first input
// byte steers: with bit 7 set the rest is a zip archive, opened as an export the way
// `tapseek batch` opens a path (format detection, then the importer of the detected format);
// otherwise the rest is Metadata.csv, NUL, Orientation.csv, NUL, Location.csv, chunked into lines
// as the control byte's low bits say (see lineReader).
//
// Checks: nothing traps; an archive or stream failure is thrown, never trapped; records come in
// line order; every reading imported is valid reading JSON once encoded (see drain).

import Foundation
@testable import TapSeekCore

#if canImport(Glibc)
import Glibc
#endif

@_cdecl("LLVMFuzzerTestOneInput")
public func sensorLoggerFuzzInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    guard let control = input.first else { return 0 }
    if control & 0x80 != 0 {
        importArchive(Array(input.dropFirst()), input)
    } else {
        importStreams(input.dropFirst(), control: control, input)
    }
    return 0
}

private func importArchive(_ archive: [UInt8], _ input: [UInt8]) {
    let file = memoryFile(archive)
    defer { close(file.fd) }
    guard ZipMembers.isZip(path: file.path), let members = try? ZipMembers(path: file.path) else { return }
    // Every member streams to its end or fails with an error, CRC and length checked.
    for name in members.memberNames {
        guard var lines = try? members.lines(of: name) else { continue }
        var count = 0
        while let line = try? lines.next() {
            count += 1
            guard line.number == count else { violated("line \(line.number) where \(count) was due", input) }
        }
    }
    guard let format = LogFormat.detect(members: members) else { return }
    guard var importer = try? LogImport.open(path: file.path, format: format) else { return }
    drain(&importer, input, maximumRecords: .max)
}

private func importStreams(_ bytes: ArraySlice<UInt8>, control: UInt8, _ input: [UInt8]) {
    let files = parts(bytes, count: 3)
    guard files.count == 3 else { return }
    let platform = try? SensorLoggerImporter.platform(metadata: lineReader(files[0], control: control))
    let orientation = files[1].isEmpty ? nil : lineReader(files[1], control: control)
    guard var importer = try? SensorLoggerImporter(orientation: orientation, location: lineReader(files[2], control: control),
                                                   platform: platform) else { return }
    drain(&importer, input)
}
