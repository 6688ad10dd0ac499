/// Undoing TIFF's predictors on a decoded block, row by row, in place.
///
/// - 2, horizontal differencing (TIFF 6.0, §14): each sample was stored as its difference from
///   the sample before it in the row, modulo 2ⁿ for n-bit samples; undone by a running sum on
///   the samples as unsigned integers of their width (floats too, on their bit patterns, as
///   libtiff does).
/// - 3, floating point (Adobe's TIFF Technote 3): each row's samples were split into byte
///   planes, most significant byte first whatever the file's byte order, and the bytes
///   differenced; undone by a running sum over the row's bytes and regathering each sample's
///   bytes, giving samples in the machine's byte order.
enum TIFFPredictor {
    /// Undoes predictor 2 on `rows` rows of `samples` samples of `width` bytes, already in the
    /// machine's byte order.
    static func undoHorizontal(_ block: UnsafeMutableRawBufferPointer, rows: Int, samples: Int, width: Int) {
        switch width {
        case 1: accumulate(block, UInt8.self, rows: rows, samples: samples)
        case 2: accumulate(block, UInt16.self, rows: rows, samples: samples)
        case 4: accumulate(block, UInt32.self, rows: rows, samples: samples)
        default: accumulate(block, UInt64.self, rows: rows, samples: samples)
        }
    }

    private static func accumulate<T: FixedWidthInteger & UnsignedInteger>(_ block: UnsafeMutableRawBufferPointer, _: T.Type,
                                                                           rows: Int, samples: Int) {
        let values = block.bindMemory(to: T.self)
        for r in 0..<rows {
            let row = r * samples
            var sum = values[row]
            for c in 1..<max(samples, 1) {
                sum &+= values[row + c]
                values[row + c] = sum
            }
        }
    }

    /// Undoes predictor 3 on `rows` rows of `samples` samples of `width` (4 or 8) bytes;
    /// `scratch` holds at least one row.
    static func undoFloatingPoint(_ block: UnsafeMutableRawBufferPointer, rows: Int, samples: Int, width: Int,
                                  scratch: UnsafeMutableRawBufferPointer) {
        let rowBytes = samples * width
        let bytes = block.bindMemory(to: UInt8.self)
        let planes = scratch.bindMemory(to: UInt8.self)
        for r in 0..<rows {
            let row = r * rowBytes
            var sum: UInt8 = 0
            for i in 0..<rowBytes {
                sum &+= bytes[row + i]
                planes[i] = sum
            }
            // Plane p holds byte p of every sample, most significant first: each sample is
            // assembled as a whole word, which the compiler vectorises.
            let target = UnsafeMutableRawPointer(block.baseAddress! + row)
            switch width {
            case 4:
                let out = target.bindMemory(to: UInt32.self, capacity: samples)
                let p0 = planes.baseAddress!, p1 = p0 + samples, p2 = p1 + samples, p3 = p2 + samples
                for s in 0..<samples {
                    let word = UInt32(p0[s]) << 24 | UInt32(p1[s]) << 16 | UInt32(p2[s]) << 8 | UInt32(p3[s])
                    out[s] = word
                }
            default:
                let out = target.bindMemory(to: UInt64.self, capacity: samples)
                let p = planes.baseAddress!
                for s in 0..<samples {
                    var word: UInt64 = 0
                    for k in 0..<width { word = word << 8 | UInt64(p[k * samples + s]) }
                    out[s] = word
                }
            }
        }
    }
}
