import Foundation

/// The time zones of a geocoder index: the timezone-boundary-builder polygons (OpenStreetMap
/// borders, territorial sea included, the open ocean as `Etc/GMT…` zones), each zone filed under
/// one country by tzdata's `zone.tab`, and the overrides for the places where that country is
/// not the country (Kosovo, the Sovereign Base Areas on Cyprus).
///
/// Zones may overlap where countries dispute land or water; the build spreads them over a few
/// layers in which no two zones overlap, so a look-up reads one owner per layer and sees every
/// zone at a point. Sections: `ZONE` (`UInt32` count, then 12-byte records: `UInt32` name
/// string, `UInt16` country (0xFFFF for the ocean), `UInt16` rank, `UInt16` base zone of an
/// override (0xFFFF otherwise), `UInt16` layer), and `Z0GRD`… per layer (``PolygonLayer``).
struct TimeZoneLayers: Sendable {
    /// At most this many layers (the build makes two today).
    static let maximumLayers = 8

    let layers: [PolygonLayer]
    let nameIDs: [UInt32]
    /// Country owner number of each zone, or −1 for the ocean.
    let country: [Int32]
    /// The answer at a point where zones overlap: the smallest rank (overrides, then the smallest
    /// land zone, the ocean last).
    let rank: [UInt16]
    /// The zone an override corrects, or −1.
    let base: [Int32]

    var count: Int { nameIDs.count }

    init(_ raw: UnsafeRawBufferPointer, sections: IndexSections, layerCount: Int, countryCount: Int) throws(GeocoderIndexError) {
        let table = try sections.require("ZONE")
        let count = table.count >= 4 ? Int(raw.loadUnaligned(fromByteOffset: table.lowerBound, as: UInt32.self)) : -1
        guard count >= 0, table.count == 4 + 12 * count else { throw GeocoderIndexError("geocoder index ZONE section is truncated") }
        guard (1...Self.maximumLayers).contains(layerCount) else {
            throw GeocoderIndexError("geocoder index has \(layerCount) zone layers, this build reads 1…\(Self.maximumLayers)")
        }
        var nameIDs: [UInt32] = [], country: [Int32] = [], rank: [UInt16] = [], base: [Int32] = []
        for k in 0..<count {
            let at = table.lowerBound + 4 + 12 * k
            nameIDs.append(raw.loadUnaligned(fromByteOffset: at, as: UInt32.self))
            let c = raw.loadUnaligned(fromByteOffset: at + 4, as: UInt16.self)
            country.append(c == PolygonLayer.noOwner || Int(c) >= countryCount ? -1 : Int32(c))
            rank.append(raw.loadUnaligned(fromByteOffset: at + 6, as: UInt16.self))
            let b = raw.loadUnaligned(fromByteOffset: at + 8, as: UInt16.self)
            base.append(b == PolygonLayer.noOwner || Int(b) >= count ? -1 : Int32(b))
        }
        var layers: [PolygonLayer] = []
        for k in 0..<layerCount {
            layers.append(try PolygonLayer(sections: sections, prefix: "Z\(k)", ownerCount: count, trustsOpenSea: false))
        }
        self.layers = layers
        self.nameIDs = nameIDs
        self.country = country
        self.rank = rank
        self.base = base
    }

    /// The zones holding a point, one per layer at most; −1 in the unused lanes.
    @inline(__always)
    func zones(_ raw: UnsafeRawBufferPointer, x: Double, y: Double) -> SIMD8<Int32> {
        var found = SIMD8<Int32>(repeating: -1)
        for k in layers.indices {
            if let z = layers[k].owner(raw, x: x, y: y, accept: { _ in true }) { found[k] = Int32(z) }
        }
        return found
    }

    /// The zone that answers at a point and the countries of the other zones there that claim
    /// it. An override counts only where its base zone is present, and then hides that zone.
    func answer(_ found: SIMD8<Int32>) -> (zone: Int, claims: [Int32])? {
        var best = -1
        for k in 0..<layers.count {
            let z = Int(found[k])
            guard z >= 0, applies(z, found) else { continue }
            if best < 0 || rank[z] < rank[best] { best = z }
        }
        guard best >= 0 else { return nil }
        var claims: [Int32] = []
        if layers.count > 1 {
            let hidden = base[best]
            for k in 0..<layers.count {
                let z = Int(found[k])
                guard z >= 0, z != best, z != Int(hidden), base[z] < 0 else { continue }
                let c = country[z]
                if c >= 0, c != country[best], !claims.contains(c) { claims.append(c) }
            }
        }
        return (best, claims)
    }

    @inline(__always) private func applies(_ zone: Int, _ found: SIMD8<Int32>) -> Bool {
        let b = base[zone]
        guard b >= 0 else { return true }
        for k in 0..<layers.count where found[k] == b { return true }
        return false
    }
}
