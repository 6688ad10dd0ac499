import Foundation
import TapSeek
#if canImport(Glibc)
import Glibc
/// The system's `write(2)` (the enum's own `write` would shadow it).
private let systemWrite = Glibc.write
#elseif canImport(Darwin)
import Darwin
private let systemWrite = Darwin.write
#endif

/// A one-band 8-bit GeoTIFF in EPSG:4326, written byte by byte (baseline TIFF 6.0, little
/// endian, uncompressed strips) so that no library is needed to write a viewshed.
///
/// The georeferencing is GeoTIFF 1.0's: ModelPixelScale (degrees a pixel), one ModelTiepoint
/// tying pixel corner (0, 0) to the north-west corner of the raster, and GeoKeys for a
/// geographic model on WGS84 (EPSG:4326) in degrees, raster type pixel-is-area. GDAL reads the
/// no-data value from its own ASCII tag 42113 (GDAL_NODATA).
enum GeoTIFFFile {
    /// The file's bytes for `grid` (its values as band 1), with `noData` as GDAL's no-data value.
    static func bytes(of grid: ViewshedGrid, noData: UInt8 = ViewshedGrid.noData) -> [UInt8] {
        let rowsPerStrip = max(1, min(grid.rows, 65_536 / max(grid.columns, 1)))
        let strips = (grid.rows + rowsPerStrip - 1) / rowsPerStrip
        let geoKeys: [UInt16] = [
            1, 1, 0, 4,            // key directory 1.1.0, four keys
            1024, 0, 1, 2,         // GTModelTypeGeoKey: geographic latitude–longitude
            1025, 0, 1, 1,         // GTRasterTypeGeoKey: pixel is area
            2048, 0, 1, 4326,      // GeographicTypeGeoKey: WGS 84
            2054, 0, 1, 9102,      // GeogAngularUnitsGeoKey: degree
        ]
        let west = grid.west - grid.longitudeSpacing / 2, north = grid.north + grid.latitudeSpacing / 2
        var entries: [Entry] = [
            .longs(256, [UInt32(grid.columns)]),          // ImageWidth
            .longs(257, [UInt32(grid.rows)]),             // ImageLength
            .shorts(258, [8]),                            // BitsPerSample
            .shorts(259, [1]),                            // Compression: none
            .shorts(262, [1]),                            // PhotometricInterpretation: black is zero
            .longs(273, Array(repeating: 0, count: strips)),   // StripOffsets, filled in below
            .shorts(277, [1]),                            // SamplesPerPixel
            .longs(278, [UInt32(rowsPerStrip)]),          // RowsPerStrip
            .longs(279, (0..<strips).map { UInt32(min(rowsPerStrip, grid.rows - $0 * rowsPerStrip) * grid.columns) }),
            .shorts(284, [1]),                            // PlanarConfiguration: contiguous
            .shorts(339, [1]),                            // SampleFormat: unsigned integer
            .doubles(33550, [grid.longitudeSpacing, grid.latitudeSpacing, 0]),   // ModelPixelScaleTag
            .doubles(33922, [0, 0, 0, west, north, 0]),   // ModelTiepointTag
            .shorts(34735, geoKeys),                      // GeoKeyDirectoryTag
            .ascii(42113, "\(noData)"),                   // GDAL_NODATA
        ]
        // Layout: header, directory, values too long for their entry, then the strips.
        let directorySize = 2 + 12 * entries.count + 4
        var extra = 8 + directorySize
        var extraOffsets: [Int?] = []
        for e in entries {
            let size = e.byteCount
            if size > 4 {
                extraOffsets.append(extra)
                extra += size + size % 2
            } else {
                extraOffsets.append(nil)
            }
        }
        let imageStart = extra
        entries[5] = .longs(273, (0..<strips).map { UInt32(imageStart + $0 * rowsPerStrip * grid.columns) })

        var out: [UInt8] = []
        out.reserveCapacity(imageStart + grid.values.count)
        out += [0x49, 0x49, 42, 0]
        out.appendLittleEndian(UInt32(8))
        out.appendLittleEndian(UInt16(entries.count))
        for (e, offset) in zip(entries, extraOffsets) {
            out.appendLittleEndian(e.tag)
            out.appendLittleEndian(e.type)
            out.appendLittleEndian(UInt32(e.count))
            if let offset {
                out.appendLittleEndian(UInt32(offset))
            } else {
                var inline = e.payload
                inline += [UInt8](repeating: 0, count: 4 - inline.count)
                out += inline
            }
        }
        out.appendLittleEndian(UInt32(0))   // no further directory
        for (e, offset) in zip(entries, extraOffsets) where offset != nil {
            out += e.payload
            if e.byteCount % 2 == 1 { out.append(0) }
        }
        out += grid.values
        return out
    }

    /// Writes the GeoTIFF of `grid` to `path`, or fails with one line naming `option`.
    static func write(_ grid: ViewshedGrid, to path: String, option: String) throws {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw InputError("\(option) \(path): no such folder \(folder)")
        }
        guard writeFile(bytes(of: grid), to: path) else {
            throw InputError("\(option) \(path): cannot be written (permissions, or a folder of that name?)")
        }
    }

    /// Writes `bytes` to the file at `path` (created or truncated) with POSIX calls: false when
    /// it cannot be opened or fully written. `Data.write(to:)` copied the bytes once more and
    /// waited for the disk (`fsync`): about a millisecond of a 30 km viewshed's 60, which no
    /// reader of the file needs (a crash of the system may lose it, as with any tool's output).
    private static func writeFile(_ bytes: [UInt8], to path: String) -> Bool {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { return false }
        var written = 0
        let complete = bytes.withUnsafeBytes { raw -> Bool in
            while written < raw.count {
                let n = systemWrite(descriptor, raw.baseAddress! + written, raw.count - written)
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { return false }
                written += n
            }
            return true
        }
        return close(descriptor) == 0 && complete
    }

    /// One directory entry: a tag and its values.
    enum Entry {
        case shorts(UInt16, [UInt16])
        case longs(UInt16, [UInt32])
        case doubles(UInt16, [Double])
        case ascii(UInt16, String)

        var tag: UInt16 {
            switch self { case .shorts(let t, _), .longs(let t, _), .doubles(let t, _), .ascii(let t, _): return t }
        }
        /// TIFF field types: ASCII 2, SHORT 3, LONG 4, DOUBLE 12.
        var type: UInt16 {
            switch self { case .ascii: return 2; case .shorts: return 3; case .longs: return 4; case .doubles: return 12 }
        }
        var count: Int {
            switch self {
            case .shorts(_, let v): return v.count
            case .longs(_, let v): return v.count
            case .doubles(_, let v): return v.count
            case .ascii(_, let s): return s.utf8.count + 1
            }
        }
        var byteCount: Int { payload.count }
        var payload: [UInt8] {
            var b: [UInt8] = []
            switch self {
            case .shorts(_, let v): for x in v { b.appendLittleEndian(x) }
            case .longs(_, let v): for x in v { b.appendLittleEndian(x) }
            case .doubles(_, let v): for x in v { b.appendLittleEndian(x.bitPattern) }
            case .ascii(_, let s): b += Array(s.utf8) + [0]
            }
            return b
        }
    }
}

private extension Array where Element == UInt8 {
    mutating func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        Swift.withUnsafeBytes(of: value.littleEndian) { append(contentsOf: $0) }
    }
}
