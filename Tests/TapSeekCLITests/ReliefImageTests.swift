import Foundation
import TapSeek
import TapSeekTestSupport
import Testing

/// The report's relief image agrees with the DEM: its PNG, decoded here by a reader written for
/// the test (chunk CRCs, zlib stored blocks, Adler-32), puts its lightest tint where the
/// highest post of the real Säntis tile is, read straight from the `.hgt` bytes.
@Suite struct ReliefImageTests {
    static let tile = SharedData.dem.appendingPathComponent("N47E009.hgt")

    /// Around the Säntis (2502 m), within the tile.
    static let box = (south: 47.20, west: 9.25, north: 47.30, east: 9.45)

    @Test(.enabled(if: SharedData.available(tile)))
    func testLightestPixelIsAtTheHighestPost() throws {
        let bytes = try [UInt8](Data(contentsOf: Self.tile))
        let side = Int(Double(bytes.count / 2).squareRoot())
        #expect(side * side * 2 == bytes.count, "an SRTM tile is a square of big-endian Int16 posts")
        // Highest post inside the box, from the raw bytes (rows from the north edge, 48° N).
        var best = (height: Int.min, latitude: 0.0, longitude: 0.0)
        for row in 0..<side {
            let latitude = 48 - Double(row) / Double(side - 1)
            guard latitude > Self.box.south, latitude < Self.box.north else { continue }
            for column in 0..<side {
                let longitude = 9 + Double(column) / Double(side - 1)
                guard longitude > Self.box.west, longitude < Self.box.east else { continue }
                let i = (row * side + column) * 2
                let h = Int(Int16(bitPattern: UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1])))
                if h > best.height { best = (h, latitude, longitude) }
            }
        }
        #expect(best.height > 2400, "the Säntis is in the box")

        let directory = try SharedData.temporaryDirectory("relief")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createSymbolicLink(at: directory.appendingPathComponent(Self.tile.lastPathComponent), withDestinationURL: Self.tile)
        let catalog = try ElevationCatalog(directory: directory.path)
        let relief = ReliefImage(catalog: catalog, south: Self.box.south, west: Self.box.west, north: Self.box.north, east: Self.box.east, maximumSide: 400)
        let png = try DecodedPNG(relief.png(shading: 0))
        #expect(png.width == relief.width && png.height == relief.height)

        var lightest = (luma: -1.0, x: 0, y: 0)
        for y in 0..<png.height {
            for x in 0..<png.width {
                let (r, g, b, a) = png.pixel(x, y)
                guard a == 255 else { continue }
                let luma = 0.299 * Double(r) + 0.587 * Double(g) + 0.114 * Double(b)
                if luma > lightest.luma { lightest = (luma, x, y) }
            }
        }
        let latitude = Self.box.north - (Double(lightest.y) + 0.5) * (Self.box.north - Self.box.south) / Double(png.height)
        let longitude = Self.box.west + (Double(lightest.x) + 0.5) * (Self.box.east - Self.box.west) / Double(png.width)
        // Within one post (3″) plus one pixel: the pixel centres sample between posts.
        let post = 1 / Double(side - 1)
        let pixel = (Self.box.north - Self.box.south) / Double(png.height)
        #expect(abs(latitude - best.latitude) <= post + pixel, "lightest pixel at \(latitude), highest post at \(best.latitude)")
        #expect(abs(longitude - best.longitude) <= post + (Self.box.east - Self.box.west) / Double(png.width))
        // And the shaded picture the report embeds keeps the summit among its lightest pixels.
        let shaded = try DecodedPNG(relief.png())
        let summit = shaded.pixel(lightest.x, lightest.y)
        let summitLuma = 0.299 * Double(summit.0) + 0.587 * Double(summit.1) + 0.114 * Double(summit.2)
        var lighter = 0, opaque = 0
        for y in 0..<shaded.height {
            for x in 0..<shaded.width {
                let (r, g, b, a) = shaded.pixel(x, y)
                guard a == 255 else { continue }
                opaque += 1
                if 0.299 * Double(r) + 0.587 * Double(g) + 0.114 * Double(b) > summitLuma { lighter += 1 }
            }
        }
        #expect(Double(lighter) < 0.02 * Double(opaque), "the summit is among the lightest 2 % with the hillshade on")
    }

    @Test func testPNGHeaderChecksumsAndPixelsRoundTrip() throws {
        // 3 × 70 000 pixels: the image data spans several stored blocks.
        let width = 3, height = 70_000
        let rgba = (0..<(width * height * 4)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) }
        let png = try DecodedPNG(PNGEncoder.encode(rgba: rgba, width: width, height: height))
        #expect(png.width == width && png.height == height)
        #expect(png.rgba == rgba)
    }
}

/// An RGBA PNG of stored zlib blocks, filter None, read back with every checksum verified.
struct DecodedPNG {
    var width = 0, height = 0
    var rgba: [UInt8] = []

    struct Invalid: Error, CustomStringConvertible { var description: String }

    init(_ file: [UInt8]) throws {
        guard file.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { throw Invalid(description: "no PNG signature") }
        func u32(_ i: Int) -> Int { Int(file[i]) << 24 | Int(file[i + 1]) << 16 | Int(file[i + 2]) << 8 | Int(file[i + 3]) }
        var i = 8, idat: [UInt8] = []
        while i < file.count {
            let length = u32(i)
            let type = String(decoding: file[(i + 4)..<(i + 8)], as: UTF8.self)
            let body = Array(file[(i + 8)..<(i + 8 + length)])
            guard UInt32(u32(i + 8 + length)) == Self.crc(Array(file[(i + 4)..<(i + 8 + length)])) else { throw Invalid(description: "bad CRC in \(type)") }
            switch type {
            case "IHDR":
                width = Int(body[0]) << 24 | Int(body[1]) << 16 | Int(body[2]) << 8 | Int(body[3])
                height = Int(body[4]) << 24 | Int(body[5]) << 16 | Int(body[6]) << 8 | Int(body[7])
                guard body[8] == 8, body[9] == 6 else { throw Invalid(description: "not 8-bit RGBA") }
            case "IDAT": idat += body
            default: break
            }
            i += 12 + length
        }
        guard idat.count >= 6, (Int(idat[0]) << 8 | Int(idat[1])) % 31 == 0 else { throw Invalid(description: "bad zlib header") }
        var raw: [UInt8] = [], p = 2, last = false
        while !last {
            last = idat[p] & 1 == 1
            guard idat[p] >> 1 & 3 == 0 else { throw Invalid(description: "not a stored block") }
            let length = Int(idat[p + 1]) | Int(idat[p + 2]) << 8
            guard length ^ (Int(idat[p + 3]) | Int(idat[p + 4]) << 8) == 0xFFFF else { throw Invalid(description: "bad LEN/NLEN") }
            raw += idat[(p + 5)..<(p + 5 + length)]
            p += 5 + length
        }
        var a = 1, b = 0
        for byte in raw { a = (a + Int(byte)) % 65_521; b = (b + a) % 65_521 }
        guard b << 16 | a == Int(idat[p]) << 24 | Int(idat[p + 1]) << 16 | Int(idat[p + 2]) << 8 | Int(idat[p + 3]) else { throw Invalid(description: "bad Adler-32") }
        let stride = width * 4 + 1
        guard raw.count == stride * height else { throw Invalid(description: "wrong data size") }
        for row in 0..<height {
            guard raw[row * stride] == 0 else { throw Invalid(description: "filter other than None") }
            rgba += raw[(row * stride + 1)..<((row + 1) * stride)]
        }
    }

    func pixel(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8, UInt8) {
        let i = (y * width + x) * 4
        return (rgba[i], rgba[i + 1], rgba[i + 2], rgba[i + 3])
    }

    /// CRC-32 bit by bit (no table), as ISO 3309 defines it.
    static func crc(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            c ^= UInt32(byte)
            for _ in 0..<8 { c = c & 1 == 1 ? (c >> 1) ^ 0xEDB8_8320 : c >> 1 }
        }
        return ~c
    }
}
