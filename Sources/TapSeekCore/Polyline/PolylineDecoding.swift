extension Polyline {
    /// Reads an encoded polyline written at `precision` (Google's 5 digits unless told otherwise).
    ///
    /// Each coordinate comes back as `units / 10^digits` degrees, the `Double` nearest the decimal
    /// the string stores. Decoding is strict and total: it never reads past the end of the string,
    /// never traps, and accepts exactly the strings ``encode(_:precision:)`` can produce, so
    /// `encode(decode(s)) == s` for every accepted `s`. The empty string is the empty path.
    ///
    /// - Throws: ``PolylineError`` with the zero-based character offset of the first problem: a
    ///   character outside `?`…`~`, a value cut off by the end of the string, a latitude without
    ///   a longitude, or a value that takes a latitude beyond ±90° or a longitude beyond ±180°
    ///   (which ``encode(_:precision:)`` would refuse). Non-canonical values (a redundant
    ///   final zero chunk, which no encoder writes) are read as other decoders read them.
    public static func decode(
        _ encoded: String,
        precision: PolylinePrecision = .google
    ) throws(PolylineError) -> [Coordinate] {
        try decode(utf8: encoded.utf8, precision: precision)
    }

    /// Reads an encoded polyline given as its UTF-8 (that is, ASCII) bytes; otherwise the same as
    /// ``decode(_:precision:)``. Offsets in errors count bytes from the start of `bytes`.
    public static func decode<Bytes: Sequence<UInt8>>(
        utf8 bytes: Bytes,
        precision: PolylinePrecision = .google
    ) throws(PolylineError) -> [Coordinate] {
        // The closures of `withContiguousStorageIfAvailable` rethrow untyped errors, so the typed
        // error travels out inside a `Result`.
        let contiguous = bytes.withContiguousStorageIfAvailable { buffer in
            Result { () throws(PolylineError) in try decode(buffer: buffer, precision: precision) }
        }
        if let contiguous { return try contiguous.get() }
        return try Array(bytes).withUnsafeBufferPointer { buffer in
            Result { () throws(PolylineError) in try decode(buffer: buffer, precision: precision) }
        }.get()
    }

    /// The decoder proper, over bytes in memory.
    static func decode(
        buffer: UnsafeBufferPointer<UInt8>,
        precision: PolylinePrecision
    ) throws(PolylineError) -> [Coordinate] {
        // A first pass over the bytes, 16 at a time. Every value ends in exactly one character
        // without the continuation bit, so half their number bounds the coordinates and the
        // result is allocated once. And when every character is valid and the last one ends a
        // value, no value can run off the end, so the main loop may skip both per-character checks.
        let (valueEnds, allValid) = scan(buffer)
        let endsCleanly = buffer.last.map { $0 &- characterOffset < continuationChunk } ?? true
        if allValid && endsCleanly {
            return try decodeValues(buffer, precision: precision, capacity: valueEnds / 2, checked: false)
        }
        return try decodeValues(buffer, precision: precision, capacity: valueEnds / 2, checked: true)
    }

    /// Counts the characters that end a value (an upper bound: some invalid bytes count too)
    /// and tells whether every byte is a valid character.
    private static func scan(_ buffer: UnsafeBufferPointer<UInt8>) -> (valueEnds: Int, allValid: Bool) {
        typealias Lanes = SIMD16<UInt8>
        var valueEnds = 0
        var seen = Lanes(repeating: 0)
        var index = 0
        if let base = buffer.baseAddress.map(UnsafeRawPointer.init) {
            while buffer.count - index >= Lanes.scalarCount {
                // Per-lane counters are bytes: empty them into `valueEnds` every 255 blocks.
                var ends = Lanes(repeating: 0)
                let blocks = min(Int(UInt8.max), (buffer.count - index) / Lanes.scalarCount)
                for _ in 0..<blocks {
                    let chunks = base.loadUnaligned(fromByteOffset: index, as: Lanes.self) &- characterOffset
                    // Chunks below 0x20 wrap to 0xE0 or more when 0x20 is taken off: bit 7 set.
                    ends &+= (chunks &- continuationChunk) &>> 7
                    seen |= chunks
                    index += Lanes.scalarCount
                }
                valueEnds &+= Int(SIMD16<UInt16>(truncatingIfNeeded: ends).wrappedSum())
            }
        }
        // A valid chunk is at most 63: bits 6 and 7 clear.
        var invalidBits = (seen & ~largestChunk).max()
        while index < buffer.count {
            let chunk = buffer[index] &- characterOffset
            valueEnds &+= chunk < continuationChunk ? 1 : 0
            invalidBits |= chunk & ~largestChunk
            index += 1
        }
        return (valueEnds, invalidBits == 0)
    }

    /// Reads latitude/longitude pairs. `checked` is false only when the caller has verified that
    /// every character is valid and that the last one ends a value; it is a constant at both
    /// call sites, so each gets its own loop.
    @inline(__always)
    private static func decodeValues(
        _ buffer: UnsafeBufferPointer<UInt8>,
        precision: PolylinePrecision,
        capacity: Int,
        checked: Bool
    ) throws(PolylineError) -> [Coordinate] {
        let scale = precision.unitsPerDegree
        var failure: PolylineError?
        let coordinates = [Coordinate](unsafeUninitializedCapacity: capacity) { out, count in
            var offset = 0
            var latitude: Int64 = 0
            var longitude: Int64 = 0
            do throws(PolylineError) {
                while offset < buffer.count {
                    let latitudeStart = offset
                    latitude = try accumulate(
                        readDelta(buffer, &offset, checked: checked), onto: latitude,
                        limit: precision.latitudeUnits, valueStart: latitudeStart)
                    guard offset < buffer.count else {
                        throw PolylineError(.missingLongitude, at: latitudeStart)
                    }
                    let longitudeStart = offset
                    longitude = try accumulate(
                        readDelta(buffer, &offset, checked: checked), onto: longitude,
                        limit: precision.longitudeUnits, valueStart: longitudeStart)
                    // Division, not multiplication by 10⁻ᵖ (inexact): the result is the Double
                    // nearest the stored decimal.
                    out[count] = Coordinate(latitude: Double(latitude) / scale, longitude: Double(longitude) / scale)
                    count += 1
                }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return coordinates
    }

    /// A chunk at or above this (0x20) has the continuation bit: another chunk follows.
    private static let continuationChunk = UInt8(continuationBit)
    /// The largest chunk a character can carry: `~` (126) − 63.
    private static let largestChunk: UInt8 = 63
    /// Shift of the 12th chunk, the last one a value within the range can need.
    private static let largestChunkShift: UInt64 = 55

    /// Reads one zig-zag varint starting at `offset` and leaves `offset` just past it.
    @inline(__always)
    private static func readDelta(
        _ buffer: UnsafeBufferPointer<UInt8>,
        _ offset: inout Int,
        checked: Bool
    ) throws(PolylineError) -> Int64 {
        let start = offset
        if !checked && buffer.count - offset >= chunksPerWord {
            // Eight characters at once, without a branch per character: valid characters are
            // 63…126 (checked up front), so subtracting 63 from every byte borrows nowhere.
            let characters = UInt64(littleEndian: UnsafeRawPointer(buffer.baseAddress! + offset).loadUnaligned(as: UInt64.self))
            let chunks = characters &- repeatedBytes(characterOffset)
            let ends = ~chunks & repeatedBytes(UInt8(continuationBit))
            if ends != 0 {
                let count = ends.trailingZeroBitCount / 8 + 1
                // Bytes up to and including the first one without the continuation bit.
                let used = ((ends & (0 &- ends)) &<< 3) &- 1
                let zigzag = gatherChunks(chunks & used & repeatedBytes(UInt8(chunkMask)))
                // A redundant final zero chunk (a non-canonical value, which no encoder writes
                // but other decoders read) means what it adds: nothing.
                offset += count
                return Int64(bitPattern: zigzag >> 1) ^ -Int64(bitPattern: zigzag & 1)
            }
        }
        var chunk = try readChunk(buffer, &offset, valueStart: start, checked: checked)
        var zigzag = chunk & chunkMask
        if chunk >= continuationBit {
            var shift: UInt64 = 0
            repeat {
                shift += UInt64(chunkBits)
                guard shift <= largestChunkShift else { throw PolylineError(.valueOutOfRange, at: start) }
                chunk = try readChunk(buffer, &offset, valueStart: start, checked: checked)
                zigzag |= (chunk & chunkMask) << shift
            } while chunk >= continuationBit
        }
        return Int64(bitPattern: zigzag >> 1) ^ -Int64(bitPattern: zigzag & 1)
    }

    /// The 6-bit chunk of the character at `offset`, advancing past it.
    @inline(__always)
    private static func readChunk(
        _ buffer: UnsafeBufferPointer<UInt8>,
        _ offset: inout Int,
        valueStart: Int,
        checked: Bool
    ) throws(PolylineError) -> UInt64 {
        if checked {
            guard offset < buffer.count else { throw PolylineError(.truncatedValue, at: valueStart) }
        }
        let byte = buffer[offset]
        // Wrapping subtraction sends bytes below 63 above 192, so one comparison checks both ends.
        let chunk = byte &- characterOffset
        if checked {
            guard chunk <= largestChunk else { throw PolylineError(.invalidCharacter(byte), at: offset) }
        }
        offset += 1
        return UInt64(chunk)
    }

    /// Adds a difference (below 2⁵⁹ in magnitude) to a running coordinate (within ±`limit`, at
    /// most 180 × 10¹⁵ < 2⁵⁸): no overflow is possible, and the sum is checked against the limit.
    @inline(__always)
    private static func accumulate(_ delta: Int64, onto running: Int64, limit: Int64,
                                   valueStart: Int) throws(PolylineError) -> Int64 {
        let sum = running + delta
        guard sum.magnitude <= UInt64(limit) else { throw PolylineError(.valueOutOfRange, at: valueStart) }
        return sum
    }
}
