import Foundation

/// Unpacks `.hgt.gz` downloads with TapSeekCore's ``GzipMember`` (no `gzip` program, so it works
/// on every platform).
enum Gunzip {
    /// Unpacks `source` into `target`, refusing with a `.corrupt` error data that is damaged or
    /// unpacks to more than `limit` bytes (a gzip bomb: 1 MB of zeros can unpack to 1 GB).
    static func run(_ source: String, into target: String, limit: Int64) throws(TileFetchError) {
        let packed: Data
        do {
            packed = try Data(contentsOf: URL(fileURLWithPath: source))
        } catch {
            throw TileFetchError(.local, "cannot read \(source): \(error.localizedDescription)")
        }
        let unpacked: [UInt8]
        do {
            unpacked = try GzipMember.unpack([UInt8](packed), name: (source as NSString).lastPathComponent,
                                             limit: Int(clamping: limit))
        } catch {
            throw TileFetchError(.corrupt, error.message)
        }
        guard FileManager.default.createFile(atPath: target, contents: Data(unpacked)) else {
            throw TileFetchError(.local, "cannot write \(target)")
        }
    }
}
