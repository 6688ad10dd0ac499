import Foundation

/// Named natural features — summits, passes, glaciers, lakes, and the huts and viewpoints
/// people aim at — from GeoNames dumps, read in place from one index (``GazetteerLayout``):
/// memory-mapped from a file, or from bytes an app ships.
///
/// ```swift
/// let places = try Gazetteer(contentsOf: URL(fileURLWithPath: "places-index.bin"))
/// places.search("Saentis").first?.feature.name          // "Säntis"
/// places.features(near: 47.2494, 9.3422, radius: 500)   // indices of features within 500 m
/// ```
///
/// Immutable and `Sendable`; a look-up reads a few cache lines and allocates nothing until it
/// builds a ``GazetteerFeature``. Data © GeoNames (geonames.org), CC BY 4.0.
public struct Gazetteer: Sendable {
    /// The index file's name inside a data directory.
    public static let fileName = "places-index.bin"

    private let storage: Storage
    public let featureCount: Int
    public let keyCount: Int
    private let cellCount: Int
    private let features: Int, names: Int, keys: Int, keyBytes: Int, cells: Int
    /// Feature codes by their number in the index: class and code.
    private let codes: [(featureClass: Character, code: String, kind: FeatureKind)]
    /// The countries imported and their feature counts, by ISO code (empty: features in no
    /// country).
    public let countries: [(isoCountryCode: String, features: Int)]
    /// The index's size, bytes.
    public var byteCount: Int { storage.bytes.count }

    /// Owns the bytes: a mapped file or a private copy.
    final class Storage: @unchecked Sendable {
        let bytes: UnsafeRawBufferPointer
        private let file: MappedFile?
        private let owned: UnsafeMutableRawBufferPointer?

        init(file: MappedFile) {
            self.file = file
            bytes = file.bytes
            owned = nil
        }

        init(copying source: UnsafeRawBufferPointer) {
            let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(source.count, 1), alignment: 8)
            if source.count > 0 { copy.copyMemory(from: source) }
            owned = copy
            file = nil
            bytes = UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(copy)[0..<source.count])
        }

        deinit { owned?.deallocate() }
    }

    /// Opens an index held in `bytes` (copied once), e.g. one an iOS app ships in its bundle.
    /// - Throws: ``GazetteerError`` when the bytes are not a places index of this format.
    public init(bytes: [UInt8]) throws(GazetteerError) {
        let storage = bytes.withUnsafeBytes { Storage(copying: $0) }
        try self.init(storage: storage)
    }

    /// Opens an index held in `data` (copied once).
    public init(data: Data) throws(GazetteerError) {
        let storage = data.withUnsafeBytes { Storage(copying: $0) }
        try self.init(storage: storage)
    }

    /// Opens an index file, memory-mapped: opening reads the header and the code and country
    /// tables only, microseconds whatever its size.
    public init(contentsOf url: URL) throws(GazetteerError) {
        let file: MappedFile
        do {
            file = try MappedFile(path: url.path)
        } catch {
            throw GazetteerError("cannot read the places index \(url.path): \(error.message)")
        }
        try self.init(storage: Storage(file: file))
    }

    private init(storage: Storage) throws(GazetteerError) {
        self.storage = storage
        let raw = storage.bytes
        guard raw.count >= GazetteerLayout.headerSize, Array(raw[0..<8]) == GazetteerLayout.magic else {
            throw GazetteerError("not a TapSeek places index (bad magic)")
        }
        func u32(_ at: Int) -> Int { Int(raw.loadUnaligned(fromByteOffset: at, as: UInt32.self).littleEndian) }
        func u64(_ at: Int) -> Int { Int(truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self).littleEndian) }
        guard u32(8) == Int(GazetteerLayout.version) else {
            throw GazetteerError("places index format \(u32(8)), this build reads format \(GazetteerLayout.version); import the GeoNames files again")
        }
        let counts = (0..<5).map { u32(12 + 4 * $0) }
        let offsets = (0..<8).map { u64(32 + 8 * $0) }
        guard offsets[0] == GazetteerLayout.headerSize, offsets[7] == raw.count,
              zip(offsets, offsets.dropFirst()).allSatisfy({ $0 <= $1 }),
              offsets[1] - offsets[0] == GazetteerLayout.featureSize * counts[0],
              offsets[3] - offsets[2] == GazetteerLayout.keySize * counts[1],
              offsets[5] - offsets[4] == GazetteerLayout.cellSize * counts[2],
              offsets[6] - offsets[5] == GazetteerLayout.codeSize * counts[3],
              offsets[7] - offsets[6] == GazetteerLayout.countrySize * counts[4] else {
            throw GazetteerError("places index is truncated or damaged; import the GeoNames files again")
        }
        guard counts[0] == 0 || counts[3] > 0, counts[1] == 0 || counts[0] > 0 else {
            throw GazetteerError("places index is damaged (features without codes, or keys without features); import the GeoNames files again")
        }
        featureCount = counts[0]
        keyCount = counts[1]
        cellCount = counts[2]
        (features, names, keys, keyBytes, cells) = (offsets[0], offsets[1], offsets[2], offsets[3], offsets[4])
        var codes: [(Character, String, FeatureKind)] = []
        for i in 0..<counts[3] {
            let at = offsets[5] + GazetteerLayout.codeSize * i
            let featureClass = Character(Unicode.Scalar(raw[at]))
            let code = String(decoding: raw[(at + 2)..<(at + 2 + min(6, Int(raw[at + 1])))], as: UTF8.self)
            codes.append((featureClass, code, FeatureKind(featureClass: featureClass, code: code)))
        }
        self.codes = codes
        var countries: [(String, Int)] = []
        for i in 0..<counts[4] {
            let at = offsets[6] + GazetteerLayout.countrySize * i
            let code = UInt16(raw[at]) | UInt16(raw[at + 1]) << 8
            countries.append((GazetteerBuilder.countryString(code), u32(at + 4)))
        }
        self.countries = countries
        // References inside the sections are checked where they are read (a damaged file gives
        // empty names, never a read out of bounds): opening stays O(1), a page or two of a file
        // that may hold hundreds of megabytes.
    }

    // MARK: Features

    /// Degrees of feature `i`.
    @inline(__always)
    public func coordinates(of i: Int) -> (latitude: Double, longitude: Double) {
        let at = features + GazetteerLayout.featureSize * i
        let raw = storage.bytes
        return (Double(Int32(bitPattern: raw.loadUnaligned(fromByteOffset: at, as: UInt32.self).littleEndian)) / 1e6,
                Double(Int32(bitPattern: raw.loadUnaligned(fromByteOffset: at + 4, as: UInt32.self).littleEndian)) / 1e6)
    }

    /// GeoNames' elevation of feature `i` (metres), without building its strings; nil when unknown.
    @inline(__always)
    public func elevation(of i: Int) -> Double? {
        let e = Int16(bitPattern: storage.bytes.loadUnaligned(fromByteOffset: features + GazetteerLayout.featureSize * i + 18, as: UInt16.self).littleEndian)
        return e == GazetteerLayout.unknownElevation ? nil : Double(e)
    }

    /// The kind of feature `i`, without building its strings.
    @inline(__always)
    public func kind(of i: Int) -> FeatureKind {
        codes[min(codes.count - 1, Int(storage.bytes.loadUnaligned(fromByteOffset: features + GazetteerLayout.featureSize * i + 20, as: UInt16.self).littleEndian))].kind
    }

    /// Feature `i` (0 ..< ``featureCount``).
    public func feature(at i: Int) -> GazetteerFeature {
        let raw = storage.bytes
        let at = features + GazetteerLayout.featureSize * i
        let (latitude, longitude) = coordinates(of: i)
        var nameOffset = Int(raw.loadUnaligned(fromByteOffset: at + 12, as: UInt32.self).littleEndian)
        var nameLength = Int(raw.loadUnaligned(fromByteOffset: at + 16, as: UInt16.self).littleEndian)
        if nameOffset + nameLength > keys - names { (nameOffset, nameLength) = (0, 0) }
        let elevation = Int16(bitPattern: raw.loadUnaligned(fromByteOffset: at + 18, as: UInt16.self).littleEndian)
        let code = codes[min(codes.count - 1, Int(raw.loadUnaligned(fromByteOffset: at + 20, as: UInt16.self).littleEndian))]
        let country = UInt16(raw[at + 22]) | UInt16(raw[at + 23]) << 8
        return GazetteerFeature(
            geonameID: raw.loadUnaligned(fromByteOffset: at + 8, as: UInt32.self).littleEndian,
            name: String(decoding: raw[(names + nameOffset)..<(names + nameOffset + nameLength)], as: UTF8.self),
            latitude: latitude, longitude: longitude,
            elevation: elevation == GazetteerLayout.unknownElevation ? nil : Double(elevation),
            featureClass: code.featureClass, featureCode: code.code, isoCountryCode: GazetteerBuilder.countryString(country))
    }

    /// Key `k` as stored: its folded bytes, whether it is the feature's own name, the feature.
    func key(at k: Int) -> (bytes: [UInt8], own: Bool, feature: Int) {
        let b = keyBuffer(k)
        let at = keys + GazetteerLayout.keySize * k
        return (Array(b), storage.bytes[at + 6] & GazetteerLayout.ownName != 0,
                min(featureCount - 1, Int(storage.bytes.loadUnaligned(fromByteOffset: at + 8, as: UInt32.self).littleEndian)))
    }

    /// Calls `body` with the index of every feature within `radius` metres (horizontal, on a
    /// sphere of the Earth's mean radius; exact enough at the few kilometres asked) of a point,
    /// and its distance.
    public func forEachFeature(near latitude: Double, _ longitude: Double, radius: Double,
                               _ body: (_ index: Int, _ distance: Double) -> Void) {
        guard cellCount > 0, radius >= 0, latitude.isFinite, longitude.isFinite else { return }
        let metresPerDegree = Self.earthRadius * .pi / 180
        let cosLatitude = max(cos(latitude * .pi / 180), 1e-6)
        let dLat = radius / metresPerDegree, dLon = min(180, radius / (metresPerDegree * cosLatitude))
        let low = GazetteerLayout.cell(latitude: latitude - dLat, longitude: longitude - dLon)
        let high = GazetteerLayout.cell(latitude: latitude + dLat, longitude: longitude + dLon)
        // Wrapping across the antimeridian: the column ranges on both sides.
        var columnRanges: [ClosedRange<Int>] = []
        if longitude - dLon < -180 {
            columnRanges = [0...high.column, GazetteerLayout.cell(latitude: 0, longitude: longitude - dLon + 360).column...(GazetteerLayout.columns - 1)]
        } else if longitude + dLon > 180 {
            columnRanges = [low.column...(GazetteerLayout.columns - 1), 0...GazetteerLayout.cell(latitude: 0, longitude: longitude + dLon - 360).column]
        } else {
            columnRanges = [low.column...high.column]
        }
        let radiusSquared = radius * radius
        for row in low.row...high.row {
            for columns in columnRanges {
                let first = GazetteerLayout.cellID(row: row, column: columns.lowerBound)
                let last = GazetteerLayout.cellID(row: row, column: columns.upperBound)
                var c = cellLowerBound(first)
                while c < cellCount, cellID(c) <= last {
                    let end = c + 1 < cellCount ? cellStart(c + 1) : featureCount
                    for i in cellStart(c)..<max(end, cellStart(c)) {
                        let p = coordinates(of: i)
                        var dx = p.longitude - longitude
                        if dx > 180 { dx -= 360 } else if dx < -180 { dx += 360 }
                        let x = dx * metresPerDegree * cosLatitude, y = (p.latitude - latitude) * metresPerDegree
                        let d2 = x * x + y * y
                        if d2 <= radiusSquared { body(i, d2.squareRoot()) }
                    }
                    c += 1
                }
            }
        }
    }

    /// Mean radius of the Earth (IUGG), metres.
    static let earthRadius = 6_371_008.8

    private func cellID(_ c: Int) -> UInt32 {
        storage.bytes.loadUnaligned(fromByteOffset: cells + GazetteerLayout.cellSize * c, as: UInt32.self).littleEndian
    }

    private func cellStart(_ c: Int) -> Int {
        min(featureCount, Int(storage.bytes.loadUnaligned(fromByteOffset: cells + GazetteerLayout.cellSize * c + 4, as: UInt32.self).littleEndian))
    }

    private func cellLowerBound(_ id: UInt32) -> Int {
        var low = 0, high = cellCount
        while low < high {
            let mid = (low + high) / 2
            if cellID(mid) < id { low = mid + 1 } else { high = mid }
        }
        return low
    }

    // MARK: Names

    func keyBuffer(_ k: Int) -> UnsafeRawBufferPointer {
        let raw = storage.bytes
        let at = keys + GazetteerLayout.keySize * k
        let offset = Int(raw.loadUnaligned(fromByteOffset: at, as: UInt32.self).littleEndian)
        let length = Int(raw.loadUnaligned(fromByteOffset: at + 4, as: UInt16.self).littleEndian)
        guard offset + length <= cells - keyBytes else { return UnsafeRawBufferPointer(rebasing: raw[keyBytes..<keyBytes]) }
        return UnsafeRawBufferPointer(rebasing: raw[(keyBytes + offset)..<(keyBytes + offset + length)])
    }

    /// Byte order of key `k` against `query`; with `prefix`, a key that starts with the query
    /// compares equal.
    private func compare(_ k: Int, _ query: [UInt8], prefix: Bool = false) -> Int {
        let b = keyBuffer(k)
        let n = min(b.count, query.count)
        for i in 0..<n where b[i] != query[i] { return b[i] < query[i] ? -1 : 1 }
        if b.count == query.count || (prefix && b.count > query.count) { return 0 }
        return b.count < query.count ? -1 : 1
    }

    private func lowerBound(_ query: [UInt8]) -> Int {
        var low = 0, high = keyCount
        while low < high {
            let mid = (low + high) / 2
            if compare(mid, query) < 0 { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// A feature a search found.
    public struct Match: Sendable, Hashable {
        public var index: Int
        public var feature: GazetteerFeature
        /// 1 for the feature's own name, 0.97 for another of its names, 0.6 for a name the
        /// query begins (queries of 3 bytes or more).
        public var score: Double
        /// Metres from `near`, when given.
        public var distance: Double?
    }

    /// Most keys a prefix search reads.
    static let prefixScan = 2000

    /// The features whose name or an alternate name matches `query` (case, accents and
    /// punctuation ignored; "ae" finds "ä"), best first: by score, then by kind (summits first,
    /// then passes, glaciers, lakes, other terrain, other water, huts and hotels), then nearer
    /// to `near`.
    public func search(_ query: String, limit: Int = 5, country: String? = nil,
                       near: (latitude: Double, longitude: Double)? = nil) -> [Match] {
        let key = Array(NameFolding.queryKey(query).utf8)
        guard !key.isEmpty, limit > 0 else { return [] }
        let country = country?.uppercased()
        var found: [Int: Double] = [:]
        func accept(_ k: Int, _ score: Double) {
            let at = keys + GazetteerLayout.keySize * k
            let feature = Int(storage.bytes.loadUnaligned(fromByteOffset: at + 8, as: UInt32.self).littleEndian)
            guard feature < featureCount else { return }
            if let country, countryCode(of: feature) != country { return }
            let s = score - (storage.bytes[at + 6] & GazetteerLayout.ownName != 0 ? 0 : 0.03)
            if s > found[feature] ?? -1 { found[feature] = s }
        }
        var k = lowerBound(key)
        while k < keyCount, compare(k, key) == 0 {
            accept(k, 1)
            k += 1
        }
        if key.count >= 3, found.count < limit {
            var scanned = 0
            while k < keyCount, scanned < Self.prefixScan, compare(k, key, prefix: true) == 0 {
                accept(k, 0.6)
                k += 1
                scanned += 1
            }
        }
        var matches = found.map { (index, score) -> Match in
            let f = feature(at: index)
            let distance = near.map { Geodesic.inverse(latitude1: $0.latitude, longitude1: $0.longitude, latitude2: f.latitude, longitude2: f.longitude).distance }
            return Match(index: index, feature: f, score: score, distance: distance)
        }
        matches.sort { a, b in
            if a.score != b.score { return a.score > b.score }
            let ka = a.feature.kind, kb = b.feature.kind
            if ka != kb { return ka < kb }
            if let da = a.distance, let db = b.distance, da != db { return da < db }
            if a.feature.elevation != b.feature.elevation { return (a.feature.elevation ?? -1e9) > (b.feature.elevation ?? -1e9) }
            return a.feature.geonameID < b.feature.geonameID
        }
        return Array(matches.prefix(limit))
    }

    private func countryCode(of i: Int) -> String {
        let at = features + GazetteerLayout.featureSize * i
        return GazetteerBuilder.countryString(UInt16(storage.bytes[at + 22]) | UInt16(storage.bytes[at + 23]) << 8)
    }
}

extension Gazetteer {
    /// The feature a name means for someone at a point: among the features whose own or
    /// alternate name is exactly `name` (after folding) within `radius` metres, the first by
    /// kind — a summit before a pass, glacier, lake, other terrain, water, and a hut or hotel
    /// last ("Eiger" is the mountain, not Hotel Eiger) — then the nearest. nil when none.
    public func feature(named name: String, near latitude: Double, _ longitude: Double, within radius: Double) -> Match? {
        search(name, limit: Self.namedCandidates, near: (latitude, longitude))
            .filter { $0.score >= 0.97 && ($0.distance ?? .infinity) <= radius }
            .min { a, b in
                let ka = a.feature.kind, kb = b.feature.kind
                return ka != kb ? ka < kb : (a.distance ?? .infinity) < (b.distance ?? .infinity)
            }
    }

    /// Features of one name considered: every exact match of a common name nearby.
    static let namedCandidates = 500
}
