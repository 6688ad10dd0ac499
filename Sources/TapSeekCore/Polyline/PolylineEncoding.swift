extension Polyline {
    /// Writes `coordinates` as an encoded polyline at `precision` (Google's 5 digits unless
    /// told otherwise).
    ///
    /// Each latitude and longitude is multiplied by 10^digits and rounded half away from zero,
    /// as Google's and the common open-source encoders do, so the string holds every coordinate
    /// to within half a unit (0.5 × 10⁻ᵈⁱᵍⁱᵗˢ degree). An empty array encodes as "".
    ///
    /// - Throws: ``PolylineEncodingError`` naming the first coordinate whose latitude is not
    ///   within ``latitudeRange`` or whose longitude is not within ``longitudeRange`` (NaN and
    ///   infinities included).
    public static func encode(
        _ coordinates: [Coordinate],
        precision: PolylinePrecision = .google
    ) throws(PolylineEncodingError) -> String {
        let scale = precision.unitsPerDegree
        var failure: PolylineEncodingError?

        // Written byte by byte into scratch space sized for the worst case (no per-character
        // String work), then copied once into a String of the exact length, so that a long-lived
        // result does not keep the worst case's memory.
        let text = withUnsafeTemporaryAllocation(
            of: UInt8.self, capacity: coordinates.count * maximumCharactersPerCoordinate
        ) { scratch in
            var written = 0
            var previousLatitude: Int64 = 0
            var previousLongitude: Int64 = 0
            for (index, coordinate) in coordinates.enumerated() {
                guard let latitudeUnits = units(coordinate.latitude, limit: 90, scale: scale) else {
                    failure = PolylineEncodingError(
                        index: index, field: .latitude, value: coordinate.latitude, precision: precision)
                    return ""
                }
                guard let longitudeUnits = units(coordinate.longitude, limit: 180, scale: scale) else {
                    failure = PolylineEncodingError(
                        index: index, field: .longitude, value: coordinate.longitude, precision: precision)
                    return ""
                }
                written = writeValue(latitudeUnits - previousLatitude, into: scratch, at: written)
                written = writeValue(longitudeUnits - previousLongitude, into: scratch, at: written)
                previousLatitude = latitudeUnits
                previousLongitude = longitudeUnits
            }
            return String(unsafeUninitializedCapacity: written) { text in
                _ = text.initialize(fromContentsOf: scratch[..<written])
                return written
            }
        }
        if let failure { throw failure }
        return text
    }

    /// `degrees × scale` rounded half away from zero, or nil when `degrees` is NaN or beyond
    /// ±`limit`. Rounds by truncating to an integer (one instruction) and looking at the
    /// remainder, which is exact (a product of 2⁵² or more has no fraction); `rounded()` would
    /// be a libm call per value. Within ±`limit` the product rounds to at most `limit × scale`
    /// units, an integer that a `Double` holds exactly up to 15 digits, so the units stay in range.
    @inline(__always)
    static func units(_ degrees: Double, limit: Double, scale: Double) -> Int64? {
        // NaN fails this comparison too; within ±180° × 10¹⁵ the conversion cannot trap.
        guard degrees.magnitude <= limit else { return nil }
        let scaled = degrees * scale
        let truncated = Int64(scaled)
        let remainder = scaled - Double(truncated)
        // Two comparisons turned into 0 or 1, not branches: the remainders of real data are
        // random, and a mispredicted branch per value would cost more than the rest.
        let up: Int64 = remainder >= 0.5 ? 1 : 0
        let down: Int64 = remainder <= -0.5 ? 1 : 0
        return truncated + up - down
    }

    /// Writes one signed difference in zig-zag form (sign in the lowest bit, so small magnitudes
    /// of either sign stay short), least significant chunk first. Returns the new end index.
    ///
    /// Needs 8 writable bytes from `start`, which the worst-case sizing of `encode` leaves:
    /// a value starts at most 12 × (values before it) bytes in, and 24 per coordinate are allocated.
    @inline(__always)
    private static func writeValue(_ delta: Int64, into out: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        var zigzag = UInt64(bitPattern: (delta << 1) ^ (delta >> 63))
        let count = chunkCount(zigzag)
        if count <= chunksPerWord {
            // All characters at once, without a branch per character: real differences are 1 to
            // 4 characters at random, and a mispredicted loop exit per value costs more.
            assert(out.count - start >= chunksPerWord, "encode's buffer lost its slack")
            let continuation = repeatedBytes(UInt8(continuationBit)) & ((1 << (8 * UInt64(count - 1))) &- 1)
            let word = (spreadChunks(zigzag) | continuation) &+ repeatedBytes(characterOffset)
            UnsafeMutableRawPointer(out.baseAddress! + start).storeBytes(of: word.littleEndian, as: UInt64.self)
            return start + count
        }
        var index = start
        while zigzag >= continuationBit {
            out[index] = UInt8(truncatingIfNeeded: (zigzag & chunkMask) | continuationBit) &+ characterOffset
            zigzag >>= UInt64(chunkBits)
            index += 1
        }
        out[index] = UInt8(truncatingIfNeeded: zigzag) &+ characterOffset
        return index + 1
    }
}
