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

    /// Undoes predictor 3 on `rows` rows of `samples` 8-byte samples (Float64), in place;
    /// `scratch` holds at least one row.
    static func undoFloatingPoint64(_ block: UnsafeMutableRawBufferPointer, rows: Int, samples: Int,
                                    scratch: UnsafeMutableRawBufferPointer) {
        let width = 8, rowBytes = samples * width
        let bytes = block.bindMemory(to: UInt8.self).baseAddress!
        let out = scratch.bindMemory(to: UInt64.self)
        for r in 0..<rows {
            let row = bytes + r * rowBytes
            sumPlanes(row, planes: width, samples: samples)
            // Plane p holds byte p of every sample, most significant first.
            for s in 0..<samples {
                var word: UInt64 = 0
                for k in 0..<width { word = word << 8 | UInt64(row[k * samples + s]) }
                out[s] = word
            }
            UnsafeMutableRawPointer(row).copyMemory(from: scratch.baseAddress!, byteCount: rowBytes)
        }
    }

    /// Undoes predictor 3 on one row of `samples` 4-byte samples, whose bytes it sums in place,
    /// and writes its first `count` samples to `out` as floats: one pass from the decoded
    /// bytes to the grid's posts.
    static func undoFloatingPoint(row: UnsafeMutablePointer<UInt8>, samples: Int, into out: UnsafeMutablePointer<Float>, count: Int) {
        sumPlanes(row, planes: 4, samples: samples)
        gatherFloats(row, samples: samples, into: out, count: count)
    }

    /// Assembles the first `count` samples of a row of four summed byte planes, most
    /// significant first, as whole words, which the compiler vectorises.
    @inline(__always) private static func gatherFloats(_ row: UnsafeMutablePointer<UInt8>, samples: Int,
                                                       into out: UnsafeMutablePointer<Float>, count: Int) {
        let p0 = row, p1 = p0 + samples, p2 = p1 + samples, p3 = p2 + samples
        for s in 0..<count {
            out[s] = Float(bitPattern: UInt32(p0[s]) << 24 | UInt32(p1[s]) << 16 | UInt32(p2[s]) << 8 | UInt32(p3[s]))
        }
    }

    /// The running sum, modulo 256, over a row's bytes, in place: the row is `planes` planes of
    /// `samples` bytes, and the sum runs on from each plane into the next.
    ///
    /// A byte at a time that is one long chain of dependent additions. Four planes (Float32)
    /// instead run as four chains side by side — each plane starts from the sum of all bytes
    /// before it, found first by plain (vectorised) totals — each eight bytes at a time
    /// (``prefixSums(_:carry:)``).
    static func sumPlanes(_ row: UnsafeMutablePointer<UInt8>, planes: Int, samples: Int) {
        guard planes == 4 else {
            var sum: UInt8 = 0
            for i in 0..<(planes * samples) {
                sum &+= row[i]
                row[i] = sum
            }
            return
        }
        func total(_ p: UnsafeMutablePointer<UInt8>) -> UInt8 {
            var t: UInt8 = 0
            for i in 0..<samples { t &+= p[i] }
            return t
        }
        let p0 = row, p1 = p0 + samples, p2 = p1 + samples, p3 = p2 + samples
        var c0: UInt8 = 0, c1 = total(p0)
        var c2 = c1 &+ total(p1)
        var c3 = c2 &+ total(p2)
        let whole = samples / 8 * 8
        var i = 0
        while i < whole {
            c0 = prefixSums(p0 + i, carry: c0)
            c1 = prefixSums(p1 + i, carry: c1)
            c2 = prefixSums(p2 + i, carry: c2)
            c3 = prefixSums(p3 + i, carry: c3)
            i += 8
        }
        while i < samples {
            c0 &+= p0[i]
            p0[i] = c0
            c1 &+= p1[i]
            p1[i] = c1
            c2 &+= p2[i]
            p2[i] = c2
            c3 &+= p3[i]
            p3[i] = c3
            i += 1
        }
    }

    /// Replaces 8 bytes at `p` with their running sums modulo 256, starting from `carry`;
    /// returns the last sum.
    ///
    /// Within one 64-bit word: the even and the odd bytes go to 16-bit lanes, where a multiply
    /// by 0x0001_0001_0001_0001 sums every lane with those below it (at most 5 × 255, so no
    /// lane overflows into the next). Byte 2m's sum is the even lanes to m plus the odd lanes
    /// to m − 1; byte 2m + 1's, both to m.
    @inline(__always) static func prefixSums(_ p: UnsafeMutablePointer<UInt8>, carry: UInt8) -> UInt8 {
        let lanes: UInt64 = 0x00FF_00FF_00FF_00FF, spread: UInt64 = 0x0001_0001_0001_0001
        let raw = UnsafeMutableRawPointer(p)
        let x = UInt64(littleEndian: raw.loadUnaligned(as: UInt64.self))
        let even = ((x & lanes) &+ UInt64(carry)) &* spread
        let odd = ((x >> 8) & lanes) &* spread
        let sums = ((even &+ odd << 16) & lanes) | ((even &+ odd) & lanes) << 8
        raw.storeBytes(of: sums.littleEndian, as: UInt64.self)
        return UInt8(truncatingIfNeeded: sums >> 56)
    }
}
