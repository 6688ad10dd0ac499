import Foundation

/// Whole look-ups answered by one descent: wherever the time zone, country and region are the
/// same all over a cell, a ``QuadGrid`` cell of the answer tree says so, and names the few
/// places (at most six in all but a few cells) that can be nearest anywhere in it. Built by
/// `AnswerTree` in scripts/geocoder_index/answer_tree.py, which documents how the cells and their
/// candidates are chosen; a look-up there reads one record instead of two zone layers, the region
/// layer and a k-d tree. Where only the region varies over a cell (a region's border crosses it,
/// or the region comes from the nearest-border search, as in territorial waters) the answer says
/// to ask the region layer. Cells near zone borders and in disputed areas carry no answer, and
/// the look-up takes the long way.
///
/// Sections:
/// - `AGRD`, `ANOD`: the grid and nodes; a code with tag 1 is an answer at word offset payload
///   of `AREC`, tag 0 the long way, tag 2 an internal node (3 is not used).
/// - `AREC`: records of `UInt32` words: a header (low 16 bits the answer's tuple, high 16 the
///   candidate count), then the candidates' place record numbers in ascending order.
/// - `ATUP`: `UInt32` count, then 8-byte tuples: `UInt16` zone, country and region (0xFFFF none;
///   for the region also 0xFFFE, ask the region layer), and a pad.
struct AnswerTree: Sendable {
    let cells: QuadGrid
    let records: Int, recordWords: Int
    /// Per tuple: the zone, country and region, −1 for none; the region also ``askRegionLayer``.
    let zone: [Int32], country: [Int32], region: [Int32]
    static let askRegionLayer: Int32 = -2
    /// The region field's code for ``askRegionLayer`` in `ATUP`.
    static let askRegionLayerCode: UInt16 = 0xFFFE

    init(_ raw: UnsafeRawBufferPointer, sections: IndexSections, zoneCount: Int, countryCount: Int,
         regionCount: Int) throws(GeocoderIndexError) {
        cells = try QuadGrid(sections: sections, prefix: "A")
        let recordRange = try sections.require("AREC", stride: 4)
        records = recordRange.lowerBound
        recordWords = recordRange.count / 4
        let table = try sections.require("ATUP")
        let count = table.count >= 4 ? Int(raw.loadUnaligned(fromByteOffset: table.lowerBound, as: UInt32.self)) : -1
        guard count >= 0, table.count == 4 + 8 * count else { throw GeocoderIndexError("geocoder index ATUP section is truncated") }
        func field(_ k: Int, _ at: Int, _ limit: Int) throws(GeocoderIndexError) -> Int32 {
            let v = raw.loadUnaligned(fromByteOffset: table.lowerBound + 4 + 8 * k + at, as: UInt16.self)
            guard v != PolygonLayer.noOwner else { return -1 }
            if at == 4 && v == Self.askRegionLayerCode { return Self.askRegionLayer }
            guard Int(v) < limit else { throw GeocoderIndexError("geocoder index answer \(k) names a missing zone, country or region") }
            return Int32(v)
        }
        var zone: [Int32] = [], country: [Int32] = [], region: [Int32] = []
        for k in 0..<count {
            zone.append(try field(k, 0, zoneCount))
            country.append(try field(k, 2, countryCount))
            region.append(try field(k, 4, regionCount))
        }
        self.zone = zone
        self.country = country
        self.region = region
    }

    /// The answer at (x, y): its tuple and the byte range of its candidates' place numbers, or
    /// nil where the look-up must take the long way (or the index is damaged there).
    @inline(__always)
    func answer(_ raw: UnsafeRawBufferPointer, x: Double, y: Double) -> (tuple: Int, candidates: Range<Int>)? {
        let cell = cells.locate(raw, x: x, y: y)
        guard cell.tag == QuadGrid.tagOwner else { return nil }
        let at = cell.payload
        guard at < recordWords else { return nil }
        let head = raw.loadUnaligned(fromByteOffset: records + 4 * at, as: UInt32.self)
        let tuple = Int(head & 0xFFFF), count = Int(head >> 16)
        guard tuple < zone.count, at + 1 + count <= recordWords else { return nil }
        return (tuple, (records + 4 * (at + 1))..<(records + 4 * (at + 1 + count)))
    }
}
