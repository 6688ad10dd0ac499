/// The format's layout of one value: 5-bit chunks, least significant first, each with a
/// continuation bit (0x20) on all but the last, plus 63 to make a printable character. And the
/// word-at-a-time helpers both directions use: up to eight chunks handled in one `UInt64`, one
/// chunk per byte, byte 0 first (little-endian memory order).
extension Polyline {
    /// Bits of payload in one character.
    static let chunkBits = 5
    static let chunkMask: UInt64 = 0x1F
    /// Set in every chunk of a value but its last.
    static let continuationBit: UInt64 = 0x20
    /// Added to every chunk to land in printable ASCII: 63 is `?`.
    static let characterOffset: UInt8 = 63

    /// Coordinates lie within ±180 × 10¹⁵ units (< 2⁵⁸), so a difference lies within ±2⁵⁹ and
    /// its zig-zag form below 2⁶⁰: at most 12 chunks per value, 24 characters per coordinate.
    static let maximumCharactersPerCoordinate = 24

    /// Chunks that fit a `UInt64` one per byte: values below 2⁴⁰.
    static let chunksPerWord = 8

    /// `byte` in each of the eight bytes of a word.
    @inline(__always)
    static func repeatedBytes(_ byte: UInt8) -> UInt64 {
        UInt64(byte) &* 0x0101_0101_0101_0101
    }

    /// The number of chunks `zigzag` needs: at least one, for zero.
    @inline(__always)
    static func chunkCount(_ zigzag: UInt64) -> Int {
        let bits = UInt64.bitWidth - (zigzag | 1).leadingZeroBitCount
        return (bits + chunkBits - 1) / chunkBits
    }

    /// The low 40 bits of `value` as eight 5-bit chunks, one in the low bits of each byte.
    /// Halves, then quarters, then eighths, each step moving the upper part of every lane up.
    @inline(__always)
    static func spreadChunks(_ value: UInt64) -> UInt64 {
        // Differences along a track are mostly one or two chunks: a shortcut for those.
        if value < 1 << (2 * chunkBits) {
            return (value & 0x1F) | ((value & 0x3E0) << 3)
        }
        var word = (value & 0x0000_0000_000F_FFFF) | ((value & 0x0000_00FF_FFF0_0000) << 12)
        word = (word & 0x0000_03FF_0000_03FF) | ((word & 0x000F_FC00_000F_FC00) << 6)
        word = (word & 0x001F_001F_001F_001F) | ((word & 0x03E0_03E0_03E0_03E0) << 3)
        return word
    }

    /// The inverse of ``spreadChunks(_:)``: eight byte-wide chunks (bits above the low five of
    /// each byte clear) packed into a 40-bit value.
    @inline(__always)
    static func gatherChunks(_ word: UInt64) -> UInt64 {
        var value = (word & 0x001F_001F_001F_001F) | ((word & 0x1F00_1F00_1F00_1F00) >> 3)
        value = (value & 0x0000_03FF_0000_03FF) | ((value & 0x03FF_0000_03FF_0000) >> 6)
        value = (value & 0x0000_0000_000F_FFFF) | ((value & 0x000F_FFFF_0000_0000) >> 12)
        return value
    }
}
