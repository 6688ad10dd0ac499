/// Apple's PackBits run-length code (TIFF 6.0, §9): a header byte n, then n + 1 literal bytes
/// (0 ≤ n ≤ 127) or one byte repeated 1 − n times (−127 ≤ n ≤ −1); −128 is skipped.
enum PackBits {
    /// Decodes `input` into all of `output`, ignoring anything after it is full.
    /// - Throws: ``TIFFFormatError`` when the data ends before `output` is full.
    static func decode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws(TIFFFormatError) {
        let capacity = output.count
        var written = 0, position = 0
        while written < capacity, position < input.count {
            let header = Int(Int8(bitPattern: input[position]))
            position += 1
            if header >= 0 {
                let n = min(header + 1, capacity - written, input.count - position)
                output.baseAddress!.advanced(by: written).copyMemory(from: input.baseAddress! + position, byteCount: n)
                written += n
                position += header + 1
            } else if header != -128 {
                guard position < input.count else { break }
                let n = min(1 - header, capacity - written)
                output.baseAddress!.advanced(by: written).initializeMemory(as: UInt8.self, repeating: input[position], count: n)
                written += n
                position += 1
            }
        }
        guard written == capacity else {
            throw TIFFFormatError("the PackBits data ends after \(written) of the \(capacity) bytes expected")
        }
    }
}
