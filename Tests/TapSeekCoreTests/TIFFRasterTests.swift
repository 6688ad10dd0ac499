import Testing
import TapSeekTestSupport

@testable import TapSeekCore

/// TIFF rasters decoded block by block on several threads: the same posts as on one, and the
/// posts that were written. The file is made here: Float32 in tiles (the edge tiles padded past
/// the image with values that must not appear), predictor 3, DEFLATE (zlib's stored blocks).
@Suite struct TIFFRasterTests {
    static let noData: Float = -9999

    /// Predictor 3 on one row of Float32 samples (Adobe's TIFF Technote 3): the samples' bytes
    /// most significant first, as byte planes, each byte less the one before it.
    static func predicted(_ row: [Float]) -> [UInt8] {
        var planes = [UInt8]()
        for shift in [24, 16, 8, 0] { planes += row.map { UInt8(truncatingIfNeeded: $0.bitPattern >> UInt32(shift)) } }
        return planes.indices.map { $0 == 0 ? planes[0] : planes[$0] &- planes[$0 - 1] }
    }

    /// A zlib stream of stored blocks holding `bytes` (checksum not verified: zeros).
    static func zlibStored(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let n = min(65_535, bytes.count - start)
            out += [start + n == bytes.count ? 1 : 0, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            out += bytes[start..<(start + n)]
            start += n
        } while start < bytes.count
        return out + [0, 0, 0, 0]
    }

    /// A `columns × rows` image of `values` in `tile × tile` tiles.
    static func tiledFile(_ values: [Float], columns: Int, rows: Int, tile: Int) -> [UInt8] {
        let across = (columns + tile - 1) / tile, down = (rows + tile - 1) / tile
        var data = [UInt8]()
        var sizes = [Int]()
        for t in 0..<(across * down) {
            var raw = [UInt8]()
            for r in 0..<tile {
                let row = (0..<tile).map { c -> Float in
                    let y = t / across * tile + r, x = t % across * tile + c
                    return y < rows && x < columns ? values[y * columns + x] : 12345.5
                }
                raw += predicted(row)
            }
            let block = zlibStored(raw)
            data += block
            sizes.append(block.count)
        }
        var file = TIFFBuilder.int16(columns: columns, rows: rows, data: data)
        file.entries.removeAll { [273, 278, 279].contains($0.tag) }
        file.set(.short(258, [32]))
        file.set(.short(339, [3]))
        file.set(.short(259, [8]))
        file.set(.short(317, [3]))
        file.set(.short(322, [tile]))
        file.set(.short(323, [tile]))
        file.set(.long(324, [Int](repeating: 0, count: sizes.count)))
        file.set(.long(325, sizes))
        file.set(.ascii(42113, "-9999"))
        return file.bytes()
    }

    static func decode(_ file: [UInt8], workers: Int) throws -> [Float] {
        try file.withUnsafeBytes { bytes in
            let header = try TIFFHeader(of: bytes)
            let directory = try TIFFDirectory(data: bytes, header: header, offset: header.firstDirectory, maximumValueBytes: 1 << 20)
            let raster = try TIFFRaster(directory: directory, maximumPosts: 1 << 20)
            var posts = [Float](repeating: 0, count: raster.rows * raster.columns)
            try posts.withUnsafeMutableBufferPointer { try raster.decode(from: bytes, into: $0, noData: Self.noData, workers: workers) }
            return posts
        }
    }

    @Test(arguments: [(70, 45, 16), (64, 32, 16), (9, 100, 8), (133, 7, 32)])
    func parallelDecodeEqualsSerialDecodeAndTheWrittenPosts(shape: (columns: Int, rows: Int, tile: Int)) throws {
        var random = SplitMix64(seed: UInt64(shape.columns * 1000 + shape.rows))
        let values = (0..<(shape.columns * shape.rows)).map { i -> Float in
            switch random.next() % 10 {
            case 0: return Self.noData
            case 1: return i % 2 == 0 ? -0.0 : .greatestFiniteMagnitude
            default: return Float(Int(random.next() % 900_000) - 100_000) / 97
            }
        }
        let file = Self.tiledFile(values, columns: shape.columns, rows: shape.rows, tile: shape.tile)
        let serial = try Self.decode(file, workers: 1)
        let expected = values.map { $0 == Self.noData ? Float.nan : $0 }
        #expect(serial.elementsEqual(expected) { $0.bitPattern == $1.bitPattern })
        for workers in [2, 3, 8] {
            let parallel = try Self.decode(file, workers: workers)
            #expect(parallel.elementsEqual(serial) { $0.bitPattern == $1.bitPattern }, "\(workers) workers")
        }
    }

    /// Eight bytes' running sums at a time, against one at a time, from every carry.
    @Test func wordPrefixSumsEqualBytePrefixSums() {
        var random = SplitMix64(seed: 11)
        for carry in 0...255 {
            var bytes = (0..<8).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            if carry % 4 == 0 { bytes = [UInt8](repeating: 255, count: 8) }
            var expected = bytes, sum = UInt8(carry)
            for i in 0..<8 {
                sum &+= bytes[i]
                expected[i] = sum
            }
            let last = bytes.withUnsafeMutableBufferPointer { TIFFPredictor.prefixSums($0.baseAddress!, carry: UInt8(carry)) }
            #expect(bytes == expected && last == sum)
        }
    }
}
