import Foundation

/// Copernicus GLO-30-like tiles and EGM2008-like geoid grids made for tests from the shared data.
public enum CopernicusFixture {
    /// A 1° COG as the public bucket serves one: 3 600 × 3 600 Float32 posts, DEFLATE with
    /// predictor 3, 1 024-pixel tiles, pixel-is-point with the first post on the tile's north-west
    /// corner (GDAL's origin half a post further out), made with `gdal_translate` from the shared
    /// `N46E008.tif` and written to `file`, whatever its name says.
    public static func writeTile(to file: URL) throws {
        let source = SharedData.dem.appendingPathComponent("N46E008.tif")
        guard SharedData.exists(source) else { throw SharedData.ToolFailure(description: SharedData.missing(source)) }
        let half = 0.5 / 3600
        try SharedData.run("gdal_translate", ["-q", "-of", "COG", "-ot", "Float32", "-r", "bilinear", "-outsize", "3600", "3600",
                                               "-a_ullr", "\(8 - half)", "\(47 + half)", "\(9 - half)", "\(46 + half)",
                                               "-mo", "AREA_OR_POINT=Point", "-co", "COMPRESS=DEFLATE", "-co", "PREDICTOR=3",
                                               "-co", "BLOCKSIZE=1024", source.path, file.path])
    }

    /// The EGM96 15′ grid PROJ ships, with `difference(latitude, longitude)` added to every post,
    /// written as a GTX file to `file`: a stand-in for EGM2008 whose difference from EGM96 is
    /// known in closed form wherever it is linear (bilinear interpolation reproduces it exactly).
    public static func writeGeoid(to file: URL, difference: (Double, Double) -> Double) throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "/usr/share/proj/egm96_15.gtx")))
        func double(_ at: Int) -> Double { Double(bitPattern: (0..<8).reduce(UInt64(0)) { $0 << 8 | UInt64(bytes[at + $1]) }) }
        func int(_ at: Int) -> Int { Int(Int32(bitPattern: (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(bytes[at + $1]) })) }
        let south = double(0), west = double(8), dy = double(16), dx = double(24), rows = int(32), columns = int(36)
        for r in 0..<rows {
            for c in 0..<columns {
                let at = 40 + 4 * (r * columns + c)
                let bits = (0..<4).reduce(UInt32(0)) { $0 << 8 | UInt32(bytes[at + $1]) }
                let value = Float(Double(Float(bitPattern: bits)) + difference(south + Double(r) * dy, west + Double(c) * dx))
                for k in 0..<4 { bytes[at + k] = UInt8(truncatingIfNeeded: value.bitPattern >> (24 - 8 * UInt32(k))) }
            }
        }
        try Data(bytes).write(to: file)
    }
}
