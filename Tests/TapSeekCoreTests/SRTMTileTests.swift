import Testing
import TapSeekCore

/// SRTM `.hgt` tiles from their name and raw bytes, without files.
struct SRTMTileTests {
    @Test(arguments: [
        ("N27E086.hgt", 27, 86, false), ("s38e178.hgt.zip", -38, 178, true),
        ("S01W180.HGT", -1, -180, false), ("N00W001.hgt", 0, -1, false),
    ])
    func nameGivesTheSouthWestCorner(name: String, south: Int, west: Int, zipped: Bool) throws {
        let tile = try #require(SRTMTile(fileName: name))
        #expect(tile.south == south && tile.west == west && tile.isZipped == zipped)
    }

    @Test(arguments: ["N27E086.tif", "N27E86.hgt", "X27E086.hgt", "N27E086.hgt.gz", "N2AE086.hgt", "N27E086x.hgt", "N91E000.hgt"])
    func otherNamesAreNotTiles(name: String) {
        #expect(SRTMTile(fileName: name) == nil)
    }

    /// A 3″ tile of posts whose value encodes its place; one void and one negative height.
    @Test func postsAreBigEndianRowsFromTheNorthWithVoidsAsNaN() throws {
        let n = 1201
        var bytes = [UInt8](repeating: 0, count: n * n * 2)
        func put(_ row: Int, _ column: Int, _ value: Int16) {
            let u = UInt16(bitPattern: value), i = 2 * (row * n + column)
            bytes[i] = UInt8(u >> 8)
            bytes[i + 1] = UInt8(u & 0xFF)
        }
        put(0, 0, 4001)
        put(0, 1, 258)
        put(1200, 1200, -424)
        put(600, 3, Int16.min)
        let tile = try #require(SRTMTile(fileName: "S38W005.hgt"))
        let grid = try tile.grid(heights: bytes, path: "S38W005.hgt")
        #expect(grid.rows == n && grid.columns == n)
        #expect(abs(grid.north - -37) < 1e-12 && abs(grid.west - -5) < 1e-12 && abs(grid.south - -38) < 1e-12)
        #expect(abs(grid.latitudeSpacing - 1.0 / 1200) < 1e-15)
        #expect(grid.post(row: 0, column: 0) == 4001)
        #expect(grid.post(row: 0, column: 1) == 258)
        #expect(grid.post(row: 1200, column: 1200) == -424)
        #expect(grid.post(row: 600, column: 3) == nil)
        #expect(grid.heights[600 * n + 3].isNaN)
        #expect(grid.voidFraction == 1.0 / Double(n * n))
    }

    @Test func aFileOfAnotherSizeIsRefusedWithItsPath() throws {
        let tile = try #require(SRTMTile(fileName: "N10E010.hgt"))
        #expect { try tile.grid(heights: [UInt8](repeating: 0, count: 1201 * 1200 * 2), path: "/d/N10E010.hgt") } throws: { error in
            (error as? TerrainFileError)?.description.hasPrefix("/d/N10E010.hgt: ") == true
        }
    }

    @Test func sizesGiveTheResolution() {
        #expect(SRTMTile.postsPerSide(byteCount: 2_884_802) == 1201)
        #expect(SRTMTile.postsPerSide(byteCount: 25_934_402) == 3601)
        #expect(SRTMTile.postsPerSide(byteCount: 2_884_800) == nil)
    }
}
