import Foundation
import Testing
import TapSeekCore
import TapSeekTestSupport

/// The GeoTIFF reader on hand-made files: what a small valid file holds, and hostile files —
/// offsets past the end or into the header, block counts that overflow, compression bombs,
/// enormous or empty sizes — each a one-line error naming the file (or, for a bomb, only the
/// pixels' bytes decoded), never a crash or a hang. Agreement with GDAL on real files is
/// TapSeekGDALTests' GeoTIFFTileTests.
@Suite struct GeoTIFFTileTests {
    /// Writes `bytes` to a fresh file and reads it; the caller removes nothing (the system's
    /// temporary directory is cleaned by the test's own folder below).
    static func read(_ bytes: [UInt8], name: String = "hostile.tif") throws -> (path: String, result: Result<ElevationGrid, TerrainFileError>) {
        let folder = try SharedData.temporaryDirectory("geotiff-hostile")
        let path = folder.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(at: folder) }
        return (path, Result { () throws(TerrainFileError) in try GeoTIFFTile.readGrid(path: path) })
    }

    /// Expects a one-line error naming the file that says `phrase`.
    static func expectError(_ bytes: [UInt8], _ phrase: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (path, result) = try read(bytes)
        guard case .failure(let error) = result else {
            Issue.record("read a grid from a hostile file", sourceLocation: sourceLocation)
            return
        }
        #expect(error.description.hasPrefix(path + ": "), "\(error)", sourceLocation: sourceLocation)
        #expect(!error.description.contains("\n"), "\(error)", sourceLocation: sourceLocation)
        #expect(error.message.contains(phrase), "\(error)", sourceLocation: sourceLocation)
    }

    static func int16(_ values: [Int16]) -> [UInt8] { values.flatMap { [UInt8(truncatingIfNeeded: $0), UInt8(truncatingIfNeeded: $0 >> 8)] } }

    /// A valid 3 × 2 file of posts 1…6 in one strip.
    static var sixPosts: TIFFBuilder { TIFFBuilder.int16(columns: 3, rows: 2, data: int16([1, 2, 3, 4, 5, 6])) }

    /// ``sixPosts`` as one tile of `width × length` pixels.
    static func tiled(width: Int, length: Int) -> TIFFBuilder {
        var file = Self.sixPosts
        file.entries.removeAll { [273, 278, 279].contains($0.tag) }
        file.set(.short(322, [width]))
        file.set(.short(323, [length]))
        file.set(.long(324, [0]))
        file.set(.long(325, [12]))
        return file
    }

    @Test func wellFormedFileGivesItsPostsAndLattice() throws {
        let file = TIFFBuilder.int16(columns: 3, rows: 2, data: Self.int16([1, 2, 3, -32768, 500, -7]))
        let grid = try Self.read(file.bytes()).result.get()
        #expect(grid.rows == 2 && grid.columns == 3)
        #expect(grid.heights.map { $0.isNaN ? 9999 : $0 } == [1, 2, 3, 9999, 500, -7])
        // Pixel-is-area: the first post is the centre of the first pixel.
        #expect(grid.north == 46 + -1 / 3600.0 * 0.5 && grid.west == 8 + 1 / 3600.0 * 0.5)
        #expect(grid.latitudeSpacing == 1 / 3600.0 && grid.longitudeSpacing == 1 / 3600.0)
    }

    @Test func stripPastTheEndIsAnError() throws {
        var file = Self.sixPosts
        file.set(.long(273, [1_000_000]))
        try Self.expectError(file.bytes(), "past the file's end")
        file.set(.long(273, [0]))
        file.set(.long(279, [Int(UInt32.max)]))
        try Self.expectError(file.bytes(), "past the file's end")
    }

    /// The first directory's offset points back at the header: its "entry count" is the
    /// byte-order mark, far more entries than the file holds.
    @Test func directoryOffsetIntoTheHeaderIsAnError() throws {
        var bytes = Self.sixPosts.bytes()
        bytes.replaceSubrange(4..<8, with: [0, 0, 0, 0])
        try Self.expectError(bytes, "entries")
        bytes.replaceSubrange(4..<8, with: [0xFF, 0xFF, 0xFF, 0x7F])
        try Self.expectError(bytes, "outside")
    }

    /// A strip that points into the directory itself decodes whatever bytes lie there, bounded
    /// by its pixels: no loop, no error beyond the values.
    @Test func stripPointingIntoTheDirectoryReadsThoseBytes() throws {
        var file = Self.sixPosts
        file.set(.long(273, [8]))
        let grid = try Self.read(file.bytes(keepOffsets: true)).result.get()
        #expect(grid.heights.count == 6)
    }

    /// A pixel scale or tie point that puts posts off the globe, or at no distance apart (found
    /// by the fuzzer: a look-up then divided by zero).
    static let offTheGlobe: [(scale: [Double], tie: [Double])] = [
        ([1e-300, 1e-300, 0], [0, 0, 0, 8, 46, 0]), ([1.0 / 3600, 1.0 / 3600, 0], [0, 0, 0, 8, 1e308, 0]),
        ([1e300, 1.0 / 3600, 0], [0, 0, 0, 8, 46, 0]), ([1.0 / 3600, 1.0 / 3600, 0], [0, 0, 0, 1e308, 46, 0]),
    ]

    @Test(arguments: offTheGlobe.indices)
    func georeferencingOffTheGlobeIsAnError(case index: Int) throws {
        let (scale, tie) = Self.offTheGlobe[index]
        var file = Self.sixPosts
        file.set(.double(33550, scale))
        file.set(.double(33922, tie))
        try Self.expectError(file.bytes(), "not on the globe")
    }

    @Test func millionByMillionHeaderIsAnError() throws {
        var file = Self.sixPosts
        file.set(.long(256, [1_000_000]))
        file.set(.long(257, [1_000_000]))
        try Self.expectError(file.bytes(), "1000000 × 1000000 pixels, more than")
        file.set(.long(256, [Int(UInt32.max)]))
        file.set(.long(257, [Int(UInt32.max)]))
        try Self.expectError(file.bytes(), "more than")
    }

    /// 16 384² pixels in 16 × 16 tiles: a million tiles, of which the file lists one.
    @Test func tileCountBeyondTheOffsetsIsAnError() throws {
        var file = Self.tiled(width: 16, length: 16)
        file.set(.long(256, [16_384]))
        file.set(.long(257, [16_384]))
        try Self.expectError(file.bytes(), "needs 1048576 tiles but lists 1 offsets")
        // A tile as large as the image cannot make the product of its sides overflow either.
        file.set(.long(322, [Int(UInt32.max)]))
        file.set(.long(323, [Int(UInt32.max)]))
        try Self.expectError(file.bytes(), "is larger than the image")
    }

    @Test func zeroTileSizeIsAnError() throws {
        try Self.expectError(Self.tiled(width: 0, length: 16).bytes(), "tile size is missing or zero")
        var strips = Self.sixPosts
        strips.set(.long(278, [0]))
        try Self.expectError(strips.bytes(), "rows per strip is zero")
    }

    /// A zlib stream of a literal 0 and 400 000 copies of 258 bytes (≈ 100 MB), as the only
    /// strip of a 100 × 100 image: only its 20 000 bytes are decoded.
    @Test func deflateBombDecodesOnlyItsPixels() throws {
        var bits = BitWriter(msbFirst: false)
        bits.write(0x78, width: 8)
        bits.write(0x01, width: 8)
        bits.write(1, width: 1)                 // final block
        bits.write(1, width: 2)                 // fixed Huffman codes
        bits.writeCode(0x30, length: 8)         // literal 0
        for _ in 0..<400_000 {
            bits.writeCode(0xC5, length: 8)     // length 258 (symbol 285)
            bits.writeCode(0, length: 5)        // distance 1
        }
        var file = TIFFBuilder.int16(columns: 100, rows: 100, data: bits.finish())
        file.set(.short(259, [8]))
        let grid = try Self.read(file.bytes()).result.get()
        #expect(grid.heights.count == 10_000 && grid.heights.allSatisfy { $0 == 0 })
    }

    /// LZW codes each one longer than the last (258, 259, … each defined by itself): 3 800
    /// codes claim 7 MB; only the image's bytes are decoded.
    @Test func lzwBombDecodesOnlyItsPixels() throws {
        var bits = BitWriter(msbFirst: true)
        var width = 9, next = 258
        bits.write(256, width: width)
        bits.write(0, width: width)
        for code in 258..<4094 {
            bits.write(code, width: width)
            next += 1
            if next == (1 << width) - 1, width < 12 { width += 1 }
        }
        bits.write(257, width: width)
        var file = TIFFBuilder.int16(columns: 100, rows: 100, data: bits.finish())
        file.set(.short(259, [5]))
        let grid = try Self.read(file.bytes()).result.get()
        #expect(grid.heights.count == 10_000 && grid.heights.allSatisfy { $0 == 0 })
    }

    @Test func compressedDataShorterThanItsPixelsIsAnError() throws {
        var bits = BitWriter(msbFirst: false)
        bits.write(0x78, width: 8)
        bits.write(0x01, width: 8)
        bits.write(1, width: 1)
        bits.write(1, width: 2)
        bits.writeCode(0x30, length: 8)         // one literal 0, then the end of the block
        bits.writeCode(0, length: 7)
        var file = TIFFBuilder.int16(columns: 100, rows: 100, data: bits.finish())
        file.set(.short(259, [8]))
        try Self.expectError(file.bytes(), "ends after 1 of the 20000 bytes")
        file.set(.short(259, [5]))
        try Self.expectError(file.bytes(), "LZW")
        file.set(.short(259, [32773]))
        try Self.expectError(file.bytes(), "PackBits data ends")
        file.set(.short(259, [1]))
        try Self.expectError(file.bytes(), "holds 5 bytes, not the 20000 of its pixels")
    }

    @Test func truncatedFileIsAnError() throws {
        let file = TIFFBuilder.int16(columns: 100, rows: 100, data: [UInt8](repeating: 1, count: 20_000))
        try Self.expectError(Array(file.bytes().prefix(12_000)), "past the file's end")
        try Self.expectError(Array(file.bytes().prefix(30)), "directory")
    }

    /// JPEG, a projected CRS, several bands: valid GeoTIFFs left to GDAL.
    @Test func otherGeoTIFFsAreLeftToGDAL() throws {
        let folder = try SharedData.temporaryDirectory("geotiff-other")
        defer { try? FileManager.default.removeItem(at: folder) }
        let base = Self.sixPosts
        var jpeg = base, projected = base, bands = base, rotated = base
        jpeg.set(.short(259, [7]))
        projected.set(.short(34735, [1, 1, 0, 2, 1024, 0, 1, 1, 3072, 0, 1, 3857]))
        bands.set(.short(277, [3]))
        rotated.set(.double(34264, [1, 0, 0, 8, 0, -1, 0, 46, 0, 0, 1, 0, 0, 0, 0, 1]))
        for (name, file) in [("jpeg", jpeg), ("projected", projected), ("bands", bands), ("rotated", rotated)] {
            let path = folder.appendingPathComponent("\(name).tif").path
            try Data(file.bytes()).write(to: URL(fileURLWithPath: path))
            #expect(try GeoTIFFTile.describe(path: path) == nil, "\(name)")
            #expect { try GeoTIFFTile.readGrid(path: path) } throws: { "\($0)".contains("read it with GDAL") }
        }
        // A catalog without a raster reader skips them with a warning.
        let catalog = try? ElevationCatalog(directory: folder.path)
        #expect(catalog == nil)
    }

    /// Apple's example in TIFF 6.0, §9.
    @Test func packBitsDecodesTheSpecificationsExample() throws {
        var file = TIFFBuilder.int16(columns: 4, rows: 3, data: [0xFE, 0xAA, 0x02, 0x80, 0x00, 0x2A, 0xFD, 0xAA, 0x03, 0x80, 0x00, 0x2A, 0x22, 0xF7, 0xAA])
        file.set(.short(259, [32773]))
        let grid = try Self.read(file.bytes()).result.get()
        let expected: [UInt8] = [0xAA, 0xAA, 0xAA, 0x80, 0x00, 0x2A, 0xAA, 0xAA, 0xAA, 0xAA, 0x80, 0x00, 0x2A, 0x22,
                                 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA]
        #expect(grid.heights == (0..<12).map { Float(Int16(bitPattern: UInt16(expected[2 * $0]) | UInt16(expected[2 * $0 + 1]) << 8)) })
    }
}
