import Foundation

/// The first band of a TIFF image directory — one sample per pixel, in strips or tiles —
/// decoded to `Float` the way GDAL's GTiff driver and libtiff decode it: compression none,
/// DEFLATE (8, 32946), LZW (5) or PackBits (32773); predictor 1, 2 or 3; Int16, UInt16, Int32,
/// Float32 or Float64 samples in either byte order.
///
/// Every count is bounded before anything is allocated: the image's posts by `maximumPosts`,
/// a block's decoded bytes by ``maximumBlockBytes``, the number of blocks by the offsets the
/// directory holds; every block must lie inside the file. Anything else TIFF allows (JPEG,
/// several samples per pixel, bit-reversed fill order, …) is reported as unsupported, for
/// GDAL to read.
struct TIFFRaster {
    enum SampleType {
        case int16, uint16, int32, float32, float64

        /// Bytes per sample.
        var width: Int {
            switch self {
            case .int16, .uint16: return 2
            case .int32, .float32: return 4
            case .float64: return 8
            }
        }
    }

    /// Tags read (TIFF 6.0, §8; TIFF Technote 2 for tiles).
    enum Tag {
        static let imageWidth: UInt16 = 256, imageLength: UInt16 = 257, bitsPerSample: UInt16 = 258
        static let compression: UInt16 = 259, fillOrder: UInt16 = 266, stripOffsets: UInt16 = 273
        static let samplesPerPixel: UInt16 = 277, rowsPerStrip: UInt16 = 278, stripByteCounts: UInt16 = 279
        static let predictor: UInt16 = 317
        static let tileWidth: UInt16 = 322, tileLength: UInt16 = 323, tileOffsets: UInt16 = 324
        static let tileByteCounts: UInt16 = 325, sampleFormat: UInt16 = 339
    }

    /// The largest block decoded, bytes (a 1° 1″ tile stored as a single Float32 strip is 52 MB).
    static let maximumBlockBytes = 1 << 28
    /// Pixels of a 1024 × 1024 tile, the largest COG writers use by default.
    static let largeTilePixels = 1 << 20

    let columns: Int
    let rows: Int
    let sampleType: SampleType
    let compression: Int
    let predictor: Int
    let bigEndian: Bool
    /// Size of a block (a tile, or a strip the image's width wide), pixels.
    let blockColumns: Int
    let blockRows: Int
    let isTiled: Bool
    let blocksAcross: Int
    let blocksDown: Int
    /// Where each block's bytes lie in the file, row of blocks by row.
    let blockOffsets: [Int]
    let blockByteCounts: [Int]

    /// Reads the layout from the image's directory.
    /// - Throws: ``TIFFFormatError``: malformed (a zero or enormous size, too few offsets), or
    ///   unsupported (a compression, sample type or layout this reader leaves to GDAL).
    init<Bytes>(directory d: TIFFDirectory<Bytes>, maximumPosts: Int) throws(TIFFFormatError) {
        guard let columns = d.integer(Tag.imageWidth), let rows = d.integer(Tag.imageLength) else {
            throw TIFFFormatError("the image has no width or height")
        }
        guard columns > 0, rows > 0 else { throw TIFFFormatError("the image is \(columns) × \(rows) pixels") }
        let (posts, overflow) = columns.multipliedReportingOverflow(by: rows)
        guard !overflow, posts <= maximumPosts else {
            throw TIFFFormatError("the image claims \(columns) × \(rows) pixels, more than the \(maximumPosts) a DEM file may have")
        }
        self.columns = columns
        self.rows = rows
        guard d.integer(Tag.samplesPerPixel) ?? 1 == 1 else {
            throw TIFFFormatError("\(d.integer(Tag.samplesPerPixel)!) samples per pixel (several bands)", unsupported: true)
        }
        guard d.integer(Tag.fillOrder) ?? 1 == 1 else { throw TIFFFormatError("bit-reversed fill order", unsupported: true) }
        let bits = d.integer(Tag.bitsPerSample) ?? 1, format = d.integer(Tag.sampleFormat) ?? 1
        switch (bits, format) {
        case (16, 2): sampleType = .int16
        case (16, 1): sampleType = .uint16
        case (32, 2): sampleType = .int32
        case (32, 3): sampleType = .float32
        case (64, 3): sampleType = .float64
        default: throw TIFFFormatError("\(bits)-bit samples of format \(format)", unsupported: true)
        }
        compression = d.integer(Tag.compression) ?? 1
        guard [1, 5, 8, 32946, 32773].contains(compression) else {
            throw TIFFFormatError("compression \(compression)", unsupported: true)
        }
        predictor = d.integer(Tag.predictor) ?? 1
        guard predictor == 1 || predictor == 2 || (predictor == 3 && (sampleType == .float32 || sampleType == .float64)) else {
            throw TIFFFormatError("predictor \(predictor) on \(sampleType) samples", unsupported: true)
        }
        bigEndian = d.bigEndian

        let offsetsTag: UInt16, countsTag: UInt16
        if d.entries[Tag.tileWidth] != nil || d.entries[Tag.tileOffsets] != nil {
            isTiled = true
            guard let w = d.integer(Tag.tileWidth), let h = d.integer(Tag.tileLength), w > 0, h > 0 else {
                throw TIFFFormatError("a tile size is missing or zero")
            }
            blockColumns = w
            blockRows = h
            offsetsTag = Tag.tileOffsets
            countsTag = Tag.tileByteCounts
        } else {
            isTiled = false
            let perStrip = d.integer(Tag.rowsPerStrip) ?? rows
            guard perStrip > 0 else { throw TIFFFormatError("rows per strip is zero") }
            blockColumns = columns
            blockRows = min(perStrip, rows)
            offsetsTag = Tag.stripOffsets
            countsTag = Tag.stripByteCounts
        }
        // A block (whose buffer each decoding thread holds) no larger than the image or a
        // 1024 × 1024 tile, whichever is larger, and than the bound: the product of its sides
        // cannot overflow once each side is bounded.
        let largestBlock = min(max(posts, Self.largeTilePixels), Self.maximumBlockBytes / sampleType.width)
        guard blockColumns <= Self.maximumBlockBytes, blockRows <= Self.maximumBlockBytes,
              blockColumns * blockRows <= largestBlock else {
            throw TIFFFormatError("a block of \(blockColumns) × \(blockRows) pixels is larger than the image and than \(Self.largeTilePixels) pixels")
        }
        blocksAcross = (columns + blockColumns - 1) / blockColumns
        blocksDown = (rows + blockRows - 1) / blockRows
        let blocks = blocksAcross * blocksDown
        guard d.count(offsetsTag) >= blocks, d.count(countsTag) >= blocks else {
            throw TIFFFormatError("the image needs \(blocks) \(isTiled ? "tiles" : "strips") but lists \(d.count(offsetsTag)) offsets and \(d.count(countsTag)) byte counts")
        }
        var offsets = [Int](), counts = [Int]()
        offsets.reserveCapacity(blocks)
        counts.reserveCapacity(blocks)
        for i in 0..<blocks {
            guard let o = d.integer(offsetsTag, at: i), let c = d.integer(countsTag, at: i), o >= 0, c >= 0 else {
                throw TIFFFormatError("block \(i)'s offset or byte count is unreadable")
            }
            offsets.append(o)
            counts.append(c)
        }
        blockOffsets = offsets
        blockByteCounts = counts
    }

    /// A rectangle of the image's pixels: first row and column, and how many of each.
    struct Region: Hashable {
        let row: Int, column: Int, rows: Int, columns: Int
    }

    /// Whether a region starts on a block's first pixel and ends at a block's end or the image's:
    /// the regions ``decode(from:into:noData:region:)`` decodes, each block wholly in or out.
    func isBlockAligned(_ r: Region) -> Bool {
        r.row >= 0 && r.column >= 0 && r.rows >= 1 && r.columns >= 1
            && r.row % blockRows == 0 && r.column % blockColumns == 0
            && r.row + r.rows <= rows && r.column + r.columns <= columns
            && ((r.row + r.rows) % blockRows == 0 || r.row + r.rows == rows)
            && ((r.column + r.columns) % blockColumns == 0 || r.column + r.columns == columns)
    }

    /// Decodes the blocks of `region` (block-aligned; the whole image when nil) into `heights`
    /// (the region's `rows × columns`, row-major), each sample converted to `Float` as GDAL
    /// converts it and `noData` replaced by NaN; blocks on all cores when there are several and
    /// they are large, or on `workers` threads when given. Blocks outside the region are not
    /// touched.
    /// - Throws: ``TIFFFormatError`` for the first block that lies outside `file` or cannot be decoded.
    func decode(from file: UnsafeRawBufferPointer, into heights: UnsafeMutableBufferPointer<Float>,
                noData: Float?, region: Region? = nil, workers: Int? = nil) throws(TIFFFormatError) {
        let region = region ?? Region(row: 0, column: 0, rows: rows, columns: columns)
        precondition(isBlockAligned(region) && heights.count == region.rows * region.columns, "block-aligned region")
        let across = (region.column / blockColumns)...((region.column + region.columns - 1) / blockColumns)
        let down = (region.row / blockRows)...((region.row + region.rows - 1) / blockRows)
        let indices = down.flatMap { d in across.map { d * blocksAcross + $0 } }
        let blocks = indices.count
        let blockBytes = blockColumns * blockRows * sampleType.width
        let target = SharedBuffers(file: file, base: heights.baseAddress!, region: region)
        let workers = min(blocks, workers ?? (blocks > 1 && blocks * blockBytes >= Self.parallelBytes
            ? ProcessInfo.processInfo.activeProcessorCount : 1))
        if workers == 1 {
            let scratch = BlockScratch(blockBytes: blockBytes, rowBytes: blockColumns * sampleType.width)
            for i in indices { try decodeBlock(i, into: target, noData: noData, scratch: scratch) }
            return
        }
        let failure = Locked<TIFFFormatError?>(nil)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            let scratch = BlockScratch(blockBytes: blockBytes, rowBytes: blockColumns * sampleType.width)
            for k in stride(from: worker, to: blocks, by: workers) {
                if failure.withLock({ $0 != nil }) { return }
                do throws(TIFFFormatError) {
                    try decodeBlock(indices[k], into: target, noData: noData, scratch: scratch)
                } catch {
                    failure.withLock { if $0 == nil { $0 = error } }
                    return
                }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// Below this many decoded bytes, one thread decodes faster than several start.
    private static let parallelBytes = 4 << 20

    /// The file's bytes, read by several threads, and the heights' storage, written by several
    /// threads at once: each block's pixels are its own, so no two threads write the same post.
    private struct SharedBuffers: @unchecked Sendable {
        let file: UnsafeRawBufferPointer
        let base: UnsafeMutablePointer<Float>
        /// The pixels `base` holds.
        let region: Region

        /// Where the image's pixel (row, column), inside the region, is stored.
        func at(row: Int, column: Int) -> UnsafeMutablePointer<Float> {
            base + (row - region.row) * region.columns + (column - region.column)
        }
    }

    /// One thread's buffers: a decoded block and a row for predictor 3.
    private final class BlockScratch {
        let block: UnsafeMutableRawBufferPointer
        let row: UnsafeMutableRawBufferPointer
        init(blockBytes: Int, rowBytes: Int) {
            // A COG's 4 MiB tile buffer in 2 MiB pages: two page faults instead of a thousand.
            let hugePage = 2 << 20
            block = .allocate(byteCount: blockBytes, alignment: blockBytes >= hugePage ? hugePage : 16)
            HugePages.advise(block)
            row = .allocate(byteCount: rowBytes, alignment: 16)
        }
        deinit {
            block.deallocate()
            row.deallocate()
        }
    }

    private func decodeBlock(_ index: Int, into target: SharedBuffers, noData: Float?,
                             scratch: BlockScratch) throws(TIFFFormatError) {
        let file = target.file
        let across = index % blocksAcross, down = index / blocksAcross
        let firstRow = down * blockRows, firstColumn = across * blockColumns
        let validRows = min(blockRows, rows - firstRow), validColumns = min(blockColumns, columns - firstColumn)
        // Only the rows inside the image are decoded: a strip holds no others, and a tile's
        // padding rows past the image's edge come last in its data, so decoding stops before them.
        let width = sampleType.width
        let byteCount = validRows * blockColumns * width
        let offset = blockOffsets[index], stored = blockByteCounts[index]
        if offset == 0 && stored == 0 {
            // A block never written (GDAL's SPARSE_OK): GDAL fills it with the nodata value, else 0.
            fill(target, firstRow: firstRow, firstColumn: firstColumn, rows: validRows, columns: validColumns,
                 value: noData == nil ? 0 : .nan)
            return
        }
        guard offset <= file.count, stored <= file.count - offset else {
            throw TIFFFormatError("\(isTiled ? "tile" : "strip") \(index) (\(stored) bytes at \(offset)) lies past the file's end (\(file.count) bytes)")
        }
        let input = UnsafeRawBufferPointer(rebasing: file[offset..<(offset + stored)])
        do {
            let block = UnsafeMutableRawBufferPointer(rebasing: scratch.block[0..<byteCount])
            switch compression {
            case 1:
                guard stored >= byteCount else {
                    throw TIFFFormatError("\(isTiled ? "tile" : "strip") \(index) holds \(stored) bytes, not the \(byteCount) of its pixels")
                }
                block.copyMemory(from: UnsafeRawBufferPointer(rebasing: input[0..<byteCount]))
            case 5:
                try LZWDecoder.decode(input, into: block)
            case 32773:
                try PackBits.decode(input, into: block)
            default:
                do throws(DeflateError) { try InflateBuffer.decodeZlib(input, into: block) } catch {
                    throw TIFFFormatError("\(isTiled ? "tile" : "strip") \(index): corrupt DEFLATE data (\(error.reason))")
                }
            }
            let littleEndianMachine = 1.littleEndian == 1
            if predictor == 3 && sampleType == .float32 {
                // Straight from the decoded bytes to the posts (a Copernicus COG's layout).
                let bytes = block.bindMemory(to: UInt8.self).baseAddress!
                for r in 0..<validRows {
                    let destination = target.at(row: firstRow + r, column: firstColumn)
                    TIFFPredictor.undoFloatingPoint(row: bytes + r * blockColumns * width, samples: blockColumns,
                                                    into: destination, count: validColumns)
                    if let noData { Self.markVoids(destination, count: validColumns, noData: noData) }
                }
                return
            }
            if predictor == 3 {
                TIFFPredictor.undoFloatingPoint64(block, rows: validRows, samples: blockColumns, scratch: scratch.row)
            } else {
                if bigEndian == littleEndianMachine, width > 1 { Self.swapBytes(block, width: width) }
                if predictor == 2 { TIFFPredictor.undoHorizontal(block, rows: validRows, samples: blockColumns, width: width) }
            }
            convert(UnsafeRawBufferPointer(block), into: target, firstRow: firstRow, firstColumn: firstColumn,
                    rows: validRows, columns: validColumns, noData: noData)
        }
    }

    /// Reverses the bytes of every sample.
    private static func swapBytes(_ block: UnsafeMutableRawBufferPointer, width: Int) {
        switch width {
        case 2:
            let values = block.bindMemory(to: UInt16.self)
            for v in values.indices { values[v] = values[v].byteSwapped }
        case 4:
            let values = block.bindMemory(to: UInt32.self)
            for v in values.indices { values[v] = values[v].byteSwapped }
        default:
            let values = block.bindMemory(to: UInt64.self)
            for v in values.indices { values[v] = values[v].byteSwapped }
        }
    }

    /// Copies a decoded block's pixels inside the image into the heights, as `Float`: integers
    /// rounded to nearest, doubles beyond `Float`'s range clamped to its largest finite value
    /// (GDAL's `GDALCopyWords`); posts equal to `noData` become NaN.
    private func convert(_ block: UnsafeRawBufferPointer, into target: SharedBuffers, firstRow: Int, firstColumn: Int,
                         rows validRows: Int, columns validColumns: Int, noData: Float?) {
        let missing = noData ?? .nan
        // Inlined at each sample type with its conversion, so that the loop vectorises: left a
        // call with a closure, it cost 16 instructions a post (10 M of a 62 km window's load).
        @inline(__always) func copy<T>(_: T.Type, _ value: (T) -> Float) {
            let samples = block.bindMemory(to: T.self).baseAddress!
            for r in 0..<validRows {
                let source = samples + r * blockColumns
                let destination = target.at(row: firstRow + r, column: firstColumn)
                for c in 0..<validColumns {
                    let v = value(source[c])
                    destination[c] = v == missing ? .nan : v
                }
            }
        }
        switch sampleType {
        case .int16: copy(Int16.self) { Float($0) }
        case .uint16: copy(UInt16.self) { Float($0) }
        case .int32: copy(Int32.self) { Float($0) }
        case .float32: copy(Float.self) { $0 }
        case .float64: copy(Double.self) { Self.clampedFloat($0) }
        }
    }

    /// Posts equal to `noData` become NaN (branch-free, so that the compiler vectorises it).
    private static func markVoids(_ posts: UnsafeMutablePointer<Float>, count: Int, noData: Float) {
        for c in 0..<count {
            let v = posts[c]
            posts[c] = v == noData ? .nan : v
        }
    }

    /// A double as GDAL stores it in a Float32 buffer: beyond the largest finite float, that
    /// float (infinities and NaN kept).
    static func clampedFloat(_ value: Double) -> Float {
        if value.isInfinite || value.isNaN { return Float(value) }
        if value > Double(Float.greatestFiniteMagnitude) { return .greatestFiniteMagnitude }
        if value < -Double(Float.greatestFiniteMagnitude) { return -.greatestFiniteMagnitude }
        return Float(value)
    }

    private func fill(_ target: SharedBuffers, firstRow: Int, firstColumn: Int, rows: Int, columns validColumns: Int, value: Float) {
        for r in 0..<rows {
            target.at(row: firstRow + r, column: firstColumn).update(repeating: value, count: validColumns)
        }
    }
}
