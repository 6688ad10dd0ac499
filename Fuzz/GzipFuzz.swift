// libFuzzer target for the gzip reader (GzipMember.unpack), which unpacks `.hgt.gz` tiles that
// `tapseek dem fetch` downloads from servers a user names.
//
// Checks: any bytes either unpack to at most the limit, or give a StreamReadError naming the
// file; never a trap.

@testable import TapSeekCore

@_cdecl("LLVMFuzzerTestOneInput")
public func gzipFuzzInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzInput(data, size)
    let limit = 1 << 20
    do {
        let unpacked = try GzipMember.unpack(input, name: "fuzz.gz", limit: limit)
        guard unpacked.count <= limit else { violated("unpacked \(unpacked.count) bytes past the limit", input) }
    } catch {
        guard error.message.hasPrefix("fuzz.gz: ") else { violated("an error that does not name the file: \(error.message)", input) }
    }
    return 0
}
