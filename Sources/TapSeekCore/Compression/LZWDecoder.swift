/// TIFF's LZW (TIFF 6.0, §13): codes read most significant bit first, 9 bits wide growing to
/// 12, 256 clears the table, 257 ends the data, and the width grows one code early (when the
/// next free code reaches 511, 1023, 2047), as libtiff writes it.
///
/// Every code stands for a string that already lies in the output (the string of the code
/// before it, one byte longer), so the table holds only where each string starts and how long
/// it is. Decoding stops when the output is full, so a bomb costs no more than the buffer.
enum LZWDecoder {
    private static let clearCode = 256, endCode = 257, firstFree = 258
    private static let maximumWidth = 12

    /// Decodes `input` into all of `output`.
    /// - Throws: ``TIFFFormatError`` for an invalid code, the pre-1990 LZW variant, or data that
    ///   ends before `output` is full.
    static func decode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws(TIFFFormatError) {
        guard let out = output.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        if input.count >= 2, input[0] == 0, input[1] & 1 == 1 {
            // The old LZW of libtiff before 5.0 (bits in the other order): no writer in use
            // makes it, and libtiff reads it only for compatibility.
            throw TIFFFormatError("old-style LZW data", unsupported: true)
        }
        let capacity = output.count
        var starts = [Int](repeating: 0, count: 1 << maximumWidth)
        var lengths = [Int](repeating: 0, count: 1 << maximumWidth)
        var width = 9, next = firstFree
        var previous = -1   // code of the string written last; -1 right after a clear
        var written = 0
        var buffer: UInt64 = 0, bitCount = 0, position = 0
        try starts.withUnsafeMutableBufferPointer { (starts) throws(TIFFFormatError) in
            try lengths.withUnsafeMutableBufferPointer { (lengths) throws(TIFFFormatError) in
                while written < capacity {
                    while bitCount < width {
                        guard position < input.count else {
                            throw TIFFFormatError("the LZW data ends after \(written) of the \(capacity) bytes expected")
                        }
                        buffer = buffer << 8 | UInt64(input[position])
                        position += 1
                        bitCount += 8
                    }
                    let code = Int((buffer >> UInt64(bitCount - width)) & ((1 << UInt64(width)) - 1))
                    bitCount -= width
                    if code == clearCode {
                        width = 9
                        next = firstFree
                        previous = -1
                        continue
                    }
                    if code == endCode {
                        throw TIFFFormatError("the LZW data ends after \(written) of the \(capacity) bytes expected")
                    }
                    let start = written
                    if previous < 0 {
                        guard code < 256 else { throw TIFFFormatError("LZW code \(code) follows a clear") }
                        out[written] = UInt8(code)
                        written += 1
                        previous = code
                        continue
                    }
                    guard code <= next, code < 1 << maximumWidth else {
                        throw TIFFFormatError("LZW code \(code) is not yet in the table (next \(next))")
                    }
                    // The previous string grows by the first byte of this one; for the code
                    // about to be defined (KwKwK) that byte is its own first, which the
                    // overlapping copy below produces.
                    let previousStart = previous < 256 ? start - 1 : start - lengths[previous]
                    let previousLength = previous < 256 ? 1 : lengths[previous]
                    if next < 1 << maximumWidth {
                        starts[next] = previousStart
                        lengths[next] = previousLength + 1
                    }
                    if code < 256 {
                        out[written] = UInt8(code)
                        written += 1
                    } else {
                        let from = starts[code]
                        let n = min(lengths[code], capacity - written)
                        for i in 0..<n { out[written + i] = out[from + i] }
                        written += n
                    }
                    if next < 1 << maximumWidth { next += 1 }
                    if next == (1 << width) - 1, width < maximumWidth { width += 1 }
                    previous = code
                }
            }
        }
    }
}
