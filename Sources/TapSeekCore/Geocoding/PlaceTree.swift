import Foundation

/// The populated places of a geocoder index: for each country, an implicit k-d tree over the
/// places' reduced-latitude unit vectors (``Ellipsoid/reducedUnitVector(latitude:longitude:)``),
/// so that neither the antimeridian nor the poles need care, read in place.
///
/// A country's places occupy a contiguous range of records in two parallel sections:
/// - `PLACEKD`, 16 bytes each for the search: the unit vector as `Float32` x, y, z (about 0.5 m
///   on the ground, below GeoNames' own 5-decimal precision) and the split axis (0, 1, 2) as a
///   `Float32`;
/// - `PLACE`, 8 bytes each for the answer: the name and second-level division as string ids
///   (`0xFFFFFFFF` none).
///
/// A range longer than ``bucket`` places (the build's choice, from `META`) splits at its middle
/// record: records before it lie at or below it along its axis, records after it at or above.
struct PlaceTree: Sendable {
    static let searchRecordSize = 16
    static let recordSize = 8
    /// Ranges of at most this many places are scanned, not split.
    let bucket: Int
    let search: Int
    let records: Int
    let count: Int

    init(sections: IndexSections, bucket: Int) throws(GeocoderIndexError) {
        guard bucket >= 1 else { throw GeocoderIndexError("geocoder index META lacks a valid placeBucket") }
        self.bucket = bucket
        let searchRange = try sections.require("PLACEKD", stride: Self.searchRecordSize)
        let range = try sections.require("PLACE", stride: Self.recordSize)
        guard searchRange.count / Self.searchRecordSize == range.count / Self.recordSize else {
            throw GeocoderIndexError("geocoder index PLACE and PLACEKD disagree on the number of places")
        }
        search = searchRange.lowerBound
        records = range.lowerBound
        count = range.count / Self.recordSize
    }

    /// A place found: its record index and the squared chord between unit vectors.
    struct Hit {
        var index: Int
        var chord2: Float
    }

    @inline(__always) private func node(_ raw: UnsafeRawBufferPointer, _ i: Int) -> SIMD4<Float> {
        raw.loadUnaligned(fromByteOffset: search + Self.searchRecordSize * i, as: SIMD4<Float>.self)
    }

    /// The place nearest to the point whose reduced unit vector is `q`, among records `range`.
    func nearest(_ raw: UnsafeRawBufferPointer, to q: SIMD3<Double>, in range: Range<Int>) -> Hit? {
        nearest(raw, to: q, in: range, within: .infinity, accepting: AnyPlace())
    }

    /// The nearest place that `filter` accepts, among records `range`, no farther than the
    /// squared chord `within2`; `filter` is asked only about places nearer than the best so far.
    func nearest<F: PlaceFilter>(_ raw: UnsafeRawBufferPointer, to q: SIMD3<Double>, in range: Range<Int>,
                                 within within2: Float, accepting filter: F) -> Hit? {
        guard !range.isEmpty, range.lowerBound >= 0, range.upperBound <= count, let base = raw.baseAddress else { return nil }
        var best = Hit(index: -1, chord2: within2)
        let q4 = SIMD4<Float>(Float(q.x), Float(q.y), Float(q.z), 0)
        // Every record the search reads lies in `range`, checked above to lie in the section: it
        // reads them through a plain pointer, without a bounds and overflow check per record.
        search(Records(base: base + search), q4, range.lowerBound, range.upperBound, offsets: .zero, reach2: 0, filter, &best)
        return best.index >= 0 ? best : nil
    }

    /// The `PLACEKD` records, read by index with no checks: only for indices already checked.
    private struct Records {
        let base: UnsafeRawPointer
        @inline(__always) subscript(i: Int) -> SIMD4<Float> {
            base.loadUnaligned(fromByteOffset: i &* PlaceTree.searchRecordSize, as: SIMD4<Float>.self)
        }
    }

    /// Searches records `lo..<hi`, whose box (bounded by the split planes above them) lies
    /// `offsets` from q along each axis, `reach2` = |offsets|² away in all: the incremental
    /// distance of Arya and Mount (1993), so that a box is skipped when it lies farther than the
    /// best place so far, not only when the splitting plane does. A far query (the north of
    /// Canada, hundreds of kilometres from any town) otherwise opens most of the tree.
    private func search<F: PlaceFilter>(_ records: Records, _ q: SIMD4<Float>, _ lo: Int, _ hi: Int,
                                        offsets: SIMD4<Float>, reach2: Float, _ filter: F, _ best: inout Hit) {
        if hi &- lo <= bucket {
            var i = lo
            while i < hi {
                consider(records[i], q, i, filter, &best)
                i &+= 1
            }
            return
        }
        let mid = (lo &+ hi) >> 1
        let split = records[mid]
        consider(split, q, mid, filter, &best)
        // The axis is stored as a Float (0, 1 or 2); a damaged one (NaN, huge) must not trap the
        // conversion to Int, so it is compared instead.
        let axis = split.w >= 2 ? 2 : split.w >= 1 ? 1 : 0
        let d = q[axis] - split[axis]
        // The far side's box lies beyond the plane: |d| along this axis instead of the offset
        // its parent's box had. Rounding in single precision is covered by a margin (1e-5 of the
        // distance): a box is opened rather than wrongly skipped.
        var far = offsets
        far[axis] = d
        let farReach2 = max(0, reach2 - offsets[axis] * offsets[axis] + d * d) * (1 - 1e-5)
        if d < 0 {
            search(records, q, lo, mid, offsets: offsets, reach2: reach2, filter, &best)
            if farReach2 <= best.chord2 { search(records, q, mid &+ 1, hi, offsets: far, reach2: farReach2, filter, &best) }
        } else {
            search(records, q, mid &+ 1, hi, offsets: offsets, reach2: reach2, filter, &best)
            if farReach2 <= best.chord2 { search(records, q, lo, mid, offsets: far, reach2: farReach2, filter, &best) }
        }
    }

    /// Takes place `i` at `p` if it is nearer than the best so far, or as near with a smaller
    /// record number: the answer is the same whatever order places are met in (the k-d search
    /// and ``nearest(_:to:candidates:)`` meet them differently).
    @inline(__always) private func consider<F: PlaceFilter>(_ p: SIMD4<Float>, _ q: SIMD4<Float>, _ i: Int, _ filter: F, _ best: inout Hit) {
        var e = p - q
        e.w = 0
        let d2 = (e * e).sum()
        if d2 < best.chord2 || (d2 == best.chord2 && (best.index < 0 || i < best.index)), filter.accepts(i) { best = Hit(index: i, chord2: d2) }
    }

    /// The nearest of the places whose `UInt32` record numbers fill the byte range `candidates`
    /// (an ``AnswerTree`` record's), by the same rule as the k-d search; nil when there are none
    /// or one lies outside the section (a damaged index).
    func nearest(_ raw: UnsafeRawBufferPointer, to q: SIMD3<Double>, candidates: Range<Int>) -> Hit? {
        guard let base = raw.baseAddress else { return nil }
        var best = Hit(index: -1, chord2: .infinity)
        let q4 = SIMD4<Float>(Float(q.x), Float(q.y), Float(q.z), 0)
        let records = Records(base: base + search)
        var at = candidates.lowerBound
        while at < candidates.upperBound {
            let i = Int(raw.loadUnaligned(fromByteOffset: at, as: UInt32.self))
            guard i < count else { return nil }
            consider(records[i], q4, i, AnyPlace(), &best)
            at &+= 4
        }
        return best.index >= 0 ? best : nil
    }

    /// The reduced unit vector of record `i` (stored in single precision).
    func unitVector(_ raw: UnsafeRawBufferPointer, _ i: Int) -> SIMD3<Double> {
        let v = node(raw, i)
        return SIMD3(Double(v.x), Double(v.y), Double(v.z))
    }

    /// String ids of record `i`'s name and second-level division.
    func strings(_ raw: UnsafeRawBufferPointer, _ i: Int) -> (name: UInt32, admin2: UInt32) {
        let at = records + Self.recordSize * i
        return (raw.loadUnaligned(fromByteOffset: at, as: UInt32.self), raw.loadUnaligned(fromByteOffset: at + 4, as: UInt32.self))
    }
}

/// Which places a search may answer (``PlaceTree/nearest(_:to:in:within:accepting:)``).
protocol PlaceFilter {
    /// Whether record `i` may be the answer.
    func accepts(_ i: Int) -> Bool
}

/// Every place: the plain nearest-place search.
struct AnyPlace: PlaceFilter {
    @inline(__always) func accepts(_ i: Int) -> Bool { true }
}
