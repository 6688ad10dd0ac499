/// Builds a gazetteer index (``GazetteerLayout``) from GeoNames rows and, for a re-import, the
/// rows of an existing index that the new files do not replace.
///
/// Memory: 24 bytes a feature plus its name, 16 bytes a key plus its folded bytes — about
/// 0.5 GiB for the 4–5 million kept rows of GeoNames' `allCountries`.
public struct GazetteerBuilder {
    struct Record {
        var latitude: Int32
        var longitude: Int32
        var geonameID: UInt32
        var nameOffset: UInt32
        var nameLength: UInt16
        var elevation: Int16
        var code: UInt16
        var country: UInt16
    }

    struct Key {
        var offset: UInt32
        var length: UInt16
        var flags: UInt8
        var feature: UInt32
    }

    private var records: [Record] = []
    private var names: [UInt8] = []
    private var keys: [Key] = []
    private var keyBytes: [UInt8] = []
    private var codes: [[UInt8]] = []
    private var codeIndex: [[UInt8]: UInt16] = [:]

    /// Alternate names longer than this (bytes) are not keys: no one types them.
    static let longestKeyedName = 200

    public init() {}

    /// Features added so far.
    public var featureCount: Int { records.count }

    /// Adds one feature, found by its name and every alternate name (GeoNames' comma-separated
    /// column).
    /// - Throws: ``GazetteerError`` when the index would outgrow its format (4 GiB of names or
    ///   keys, 65 535 feature codes).
    public mutating func add(_ feature: GazetteerFeature, alternateNames: Substring) throws(GazetteerError) {
        let index = UInt32(records.count)
        let name = Array(feature.name.utf8.prefix(Int(UInt16.max)))
        guard names.count + name.count < Int(UInt32.max) else { throw GazetteerError("the places index would exceed 4 GiB of names") }
        let code = try codeNumber(class: feature.featureClass, code: feature.featureCode)
        records.append(Record(
            latitude: Int32((feature.latitude * 1e6).rounded()), longitude: Int32((feature.longitude * 1e6).rounded()),
            geonameID: feature.geonameID, nameOffset: UInt32(names.count), nameLength: UInt16(name.count),
            elevation: feature.elevation.map { Int16(clamping: Int($0.rounded())) } ?? GazetteerLayout.unknownElevation,
            code: code, country: Self.countryNumber(feature.isoCountryCode)))
        names.append(contentsOf: name)
        var seen: [String] = []
        func addKeys(of text: Substring, own: Bool) throws(GazetteerError) {
            for key in NameFolding.keys(text) where !seen.contains(key) {
                seen.append(key)
                try append(key: key, own: own, feature: index)
            }
        }
        try addKeys(of: Substring(feature.name), own: true)
        for alternate in alternateNames.split(separator: ",") where alternate.utf8.count <= Self.longestKeyedName {
            try addKeys(of: alternate, own: false)
        }
    }

    /// Copies every feature of `existing` whose country is not in `replaced`, with all its keys:
    /// re-importing a country replaces its rows and keeps the others'.
    public mutating func keep(from existing: Gazetteer, except replaced: Set<String>) throws(GazetteerError) {
        var newIndex = [UInt32](repeating: UInt32.max, count: existing.featureCount)
        for i in 0..<existing.featureCount {
            let f = existing.feature(at: i)
            guard !replaced.contains(f.isoCountryCode) else { continue }
            newIndex[i] = UInt32(records.count)
            let name = Array(f.name.utf8)
            records.append(Record(
                latitude: Int32((f.latitude * 1e6).rounded()), longitude: Int32((f.longitude * 1e6).rounded()),
                geonameID: f.geonameID, nameOffset: UInt32(names.count), nameLength: UInt16(name.count),
                elevation: f.elevation.map { Int16(clamping: Int($0.rounded())) } ?? GazetteerLayout.unknownElevation,
                code: try codeNumber(class: f.featureClass, code: f.featureCode), country: Self.countryNumber(f.isoCountryCode)))
            names.append(contentsOf: name)
        }
        for k in 0..<existing.keyCount {
            let (key, own, feature) = existing.key(at: k)
            let mapped = newIndex[feature]
            guard mapped != UInt32.max else { continue }
            guard keyBytes.count + key.count < Int(UInt32.max) else { throw GazetteerError("the places index would exceed 4 GiB of keys") }
            keys.append(Key(offset: UInt32(keyBytes.count), length: UInt16(key.count), flags: own ? GazetteerLayout.ownName : 0, feature: mapped))
            keyBytes.append(contentsOf: key)
        }
    }

    private mutating func append(key: String, own: Bool, feature: UInt32) throws(GazetteerError) {
        let bytes = key.utf8
        guard bytes.count <= Int(UInt16.max) else { return }
        guard keyBytes.count + bytes.count < Int(UInt32.max) else { throw GazetteerError("the places index would exceed 4 GiB of keys") }
        keys.append(Key(offset: UInt32(keyBytes.count), length: UInt16(bytes.count), flags: own ? GazetteerLayout.ownName : 0, feature: feature))
        keyBytes.append(contentsOf: bytes)
    }

    private mutating func codeNumber(class featureClass: Character, code: String) throws(GazetteerError) -> UInt16 {
        let entry = [featureClass.asciiValue ?? UInt8(ascii: "?")] + Array(code.utf8.prefix(6))
        if let n = codeIndex[entry] { return n }
        guard codes.count < Int(UInt16.max) else { throw GazetteerError("more than 65 535 feature codes") }
        let n = UInt16(codes.count)
        codes.append(entry)
        codeIndex[entry] = n
        return n
    }

    static func countryNumber(_ code: String) -> UInt16 {
        let b = Array(code.utf8)
        guard b.count == 2 else { return 0 }
        return UInt16(b[0]) | UInt16(b[1]) << 8
    }

    /// The index's bytes: features in grid order, keys sorted.
    public func build() -> [UInt8] {
        // Features by grid cell, then latitude: neighbours in space are neighbours in memory.
        let cellOf = records.map { r in
            let c = GazetteerLayout.cell(latitude: Double(r.latitude) / 1e6, longitude: Double(r.longitude) / 1e6)
            return GazetteerLayout.cellID(row: c.row, column: c.column)
        }
        var order = Array(0..<records.count)
        order.sort { a, b in
            cellOf[a] != cellOf[b] ? cellOf[a] < cellOf[b] : (records[a].latitude, records[a].longitude, records[a].geonameID) < (records[b].latitude, records[b].longitude, records[b].geonameID)
        }
        var position = [UInt32](repeating: 0, count: records.count)
        for (newIndex, old) in order.enumerated() { position[old] = UInt32(newIndex) }

        var sortedKeys = keys.map { Key(offset: $0.offset, length: $0.length, flags: $0.flags, feature: position[Int($0.feature)]) }
        keyBytes.withUnsafeBufferPointer { pool in
            let base = pool.baseAddress
            sortedKeys.sort { a, b in
                let n = min(Int(a.length), Int(b.length))
                let c = n == 0 ? 0 : memcmpBytes(base! + Int(a.offset), base! + Int(b.offset), n)
                if c != 0 { return c < 0 }
                if a.length != b.length { return a.length < b.length }
                if a.flags != b.flags { return a.flags > b.flags }
                return a.feature < b.feature
            }
        }

        var cells: [(UInt32, UInt32)] = []
        for (newIndex, old) in order.enumerated() where cells.last?.0 != cellOf[old] {
            cells.append((cellOf[old], UInt32(newIndex)))
        }
        var countryCounts: [UInt16: Int] = [:]
        for r in records { countryCounts[r.country, default: 0] += 1 }
        let countries = countryCounts.sorted { a, b in
            let x = Self.countryString(a.key), y = Self.countryString(b.key)
            return x < y
        }

        func aligned(_ n: Int) -> Int { (n + 7) & ~7 }
        let featuresAt = GazetteerLayout.headerSize
        let namesAt = featuresAt + records.count * GazetteerLayout.featureSize
        let keysAt = aligned(namesAt + names.count)
        let keyBytesAt = keysAt + sortedKeys.count * GazetteerLayout.keySize
        let cellsAt = aligned(keyBytesAt + keyBytes.count)
        let codesAt = cellsAt + cells.count * GazetteerLayout.cellSize
        let countriesAt = codesAt + codes.count * GazetteerLayout.codeSize
        let end = countriesAt + countries.count * GazetteerLayout.countrySize

        var out = [UInt8](repeating: 0, count: end)
        out.withUnsafeMutableBytes { raw in
            func u16(_ v: UInt16, _ at: Int) { raw.storeBytes(of: v.littleEndian, toByteOffset: at, as: UInt16.self) }
            func u32(_ v: UInt32, _ at: Int) { raw.storeBytes(of: v.littleEndian, toByteOffset: at, as: UInt32.self) }
            func u64(_ v: Int, _ at: Int) { raw.storeBytes(of: UInt64(v).littleEndian, toByteOffset: at, as: UInt64.self) }
            for (i, b) in GazetteerLayout.magic.enumerated() { raw[i] = b }
            u32(GazetteerLayout.version, 8)
            for (i, n) in [records.count, sortedKeys.count, cells.count, codes.count, countries.count].enumerated() { u32(UInt32(n), 12 + 4 * i) }
            for (i, o) in [featuresAt, namesAt, keysAt, keyBytesAt, cellsAt, codesAt, countriesAt, end].enumerated() { u64(o, 32 + 8 * i) }
            for (newIndex, old) in order.enumerated() {
                let r = records[old], at = featuresAt + newIndex * GazetteerLayout.featureSize
                u32(UInt32(bitPattern: r.latitude), at)
                u32(UInt32(bitPattern: r.longitude), at + 4)
                u32(r.geonameID, at + 8)
                u32(r.nameOffset, at + 12)
                u16(r.nameLength, at + 16)
                u16(UInt16(bitPattern: r.elevation), at + 18)
                u16(r.code, at + 20)
                u16(r.country, at + 22)
            }
            names.withUnsafeBytes { raw.baseAddress!.advanced(by: namesAt).copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            for (i, k) in sortedKeys.enumerated() {
                let at = keysAt + i * GazetteerLayout.keySize
                u32(k.offset, at)
                u16(k.length, at + 4)
                raw[at + 6] = k.flags
                u32(k.feature, at + 8)
            }
            keyBytes.withUnsafeBytes { if $0.count > 0 { raw.baseAddress!.advanced(by: keyBytesAt).copyMemory(from: $0.baseAddress!, byteCount: $0.count) } }
            for (i, c) in cells.enumerated() {
                u32(c.0, cellsAt + i * GazetteerLayout.cellSize)
                u32(c.1, cellsAt + i * GazetteerLayout.cellSize + 4)
            }
            for (i, c) in codes.enumerated() {
                let at = codesAt + i * GazetteerLayout.codeSize
                raw[at] = c[0]
                raw[at + 1] = UInt8(c.count - 1)
                for (j, b) in c.dropFirst().enumerated() { raw[at + 2 + j] = b }
            }
            for (i, c) in countries.enumerated() {
                let at = countriesAt + i * GazetteerLayout.countrySize
                u16(c.key, at)
                u32(UInt32(c.value), at + 4)
            }
        }
        return out
    }

    static func countryString(_ n: UInt16) -> String {
        n == 0 ? "" : String(decoding: [UInt8(n & 0xFF), UInt8(n >> 8)], as: UTF8.self)
    }
}

/// `memcmp` without importing the C library here: byte order of the first `n` bytes.
@inline(__always)
private func memcmpBytes(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ n: Int) -> Int {
    var i = 0
    while i < n {
        let x = a[i], y = b[i]
        if x != y { return x < y ? -1 : 1 }
        i += 1
    }
    return 0
}
