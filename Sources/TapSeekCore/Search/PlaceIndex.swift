import Foundation

/// Offline place search (forward geocoding) over one index file built by
/// `scripts/build-search-index.sh` (layout in `scripts/build_search_index.py`): GeoNames places
/// by every name they are known by, read in place from memory-mapped bytes.
///
/// A query is normalised like the names (``SearchKey/normalized(_:)``: case, accents and ß do
/// not matter; "ue" finds "ü"), then matched:
/// 1. **exactly**, by binary search over the sorted keys: quality 1 on a place's own name, 0.97
///    on another of its names;
/// 2. **by prefix** (queries of 3 bytes or more), when fewer than the asked-for places matched
///    exactly: quality 0.6;
/// 3. **with typing errors**, when fewer than the asked-for places matched exactly: one edit
///    (an insertion, deletion, substitution or swap of neighbours) for queries of 4 bytes or
///    more, by looking up every variant of the query one edit away: quality 0.85; and when none
///    is found, two edits for queries of 8 bytes or more, from the keys' padded byte trigrams
///    and verified by edit distance: quality 0.7.
///
/// Ranking: quality, then size (the order of magnitude of the population), then distance to
/// `near`, then population. Immutable and `Sendable`.
public struct PlaceIndex: Sendable {
    /// What a search finds.
    public struct Match: Sendable, Hashable {
        public var name: String
        public var latitude: Double
        public var longitude: Double
        /// ISO 3166-1 alpha-2.
        public var isoCountryCode: String
        public var country: String?
        /// `locality` (a GeoNames populated place).
        public var kind: String
        public var population: Int
        /// How well the query matched, 0…1 (see the type's description).
        public var score: Double
        /// Metres from `near`, when given.
        public var distance: Double?
    }

    /// How a search is narrowed and ordered.
    public struct Options: Sendable {
        /// Most matches answered.
        public var limit: Int
        /// Only places of this country (ISO 3166-1 alpha-2, any case).
        public var country: String?
        /// Nearer places first among equals.
        public var near: (latitude: Double, longitude: Double)?

        public init(limit: Int = 5, country: String? = nil, near: (latitude: Double, longitude: Double)? = nil) {
            self.limit = limit
            self.country = country
            self.near = near
        }
    }

    /// The format this reader understands.
    public static let formatVersion: UInt32 = 1
    static let kinds = ["locality", "peak"]
    static let pad: UInt8 = 0x01

    private let data: Data
    public let placeCount: Int
    public let keyCount: Int
    private let trigramCount: Int
    private let places: Int, names: Int, keys: Int, keyBytes: Int, trigrams: Int, postings: Int
    private let countryNames: [String: String]

    /// Opens an index held in `data` (memory-mapped, ideally).
    /// - Throws: ``GeocoderIndexError`` when the bytes are not a search index of this format.
    public init(data: Data) throws(GeocoderIndexError) {
        self.data = data
        let parsed: Result<([Int], [Int], [String: String]), GeocoderIndexError> = data.withUnsafeBytes { raw in
            guard raw.count >= 96, Array(raw[0..<8]) == Array("TSSEARCH".utf8) else {
                return .failure(GeocoderIndexError("not a TapSeek place-search index (bad magic)"))
            }
            func u32(_ at: Int) -> Int { Int(raw.loadUnaligned(fromByteOffset: at, as: UInt32.self).littleEndian) }
            func u64(_ at: Int) -> Int { Int(raw.loadUnaligned(fromByteOffset: at, as: UInt64.self).littleEndian) }
            guard u32(8) == Int(Self.formatVersion) else {
                return .failure(GeocoderIndexError("place-search index format \(u32(8)), this build reads format \(Self.formatVersion); rebuild it with scripts/build-search-index.sh"))
            }
            let counts = (0..<5).map { u32(12 + 4 * $0) }
            let offsets = (0..<8).map { u64(32 + 8 * $0) }
            guard offsets[7] == raw.count, zip(offsets, offsets.dropFirst()).allSatisfy({ $0 <= $1 }),
                  offsets[1] - offsets[0] >= 32 * counts[0], offsets[3] - offsets[2] >= 12 * counts[1],
                  offsets[5] - offsets[4] >= 12 * counts[2], offsets[7] - offsets[6] >= 64 * counts[3] else {
                return .failure(GeocoderIndexError("place-search index is truncated or damaged; rebuild it with scripts/build-search-index.sh"))
            }
            var countries: [String: String] = [:]
            for i in 0..<counts[3] {
                let at = offsets[6] + 64 * i
                let code = String(decoding: raw[at..<(at + 2)], as: UTF8.self)
                let length = min(Int(raw[at + 2]), 61)
                countries[code] = String(decoding: raw[(at + 3)..<(at + 3 + length)], as: UTF8.self)
            }
            return .success((counts, offsets, countries))
        }
        let (counts, offsets, countries) = try parsed.get()
        placeCount = counts[0]
        keyCount = counts[1]
        trigramCount = counts[2]
        (places, names, keys, keyBytes, trigrams, postings) = (offsets[0], offsets[1], offsets[2], offsets[3], offsets[4], offsets[5])
        countryNames = countries
    }

    /// Opens an index file, memory-mapped.
    public init(contentsOf url: URL) throws(GeocoderIndexError) {
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .alwaysMapped)
        } catch {
            throw GeocoderIndexError("cannot read the place-search index \(url.path): \(error.localizedDescription)")
        }
        try self.init(data: data)
    }

    /// The English name of a country by its ISO code.
    public func countryName(_ code: String) -> String? { countryNames[code.uppercased()] }

    /// The places whose names match `query`, best first (see the type's description). An empty
    /// query, or one that normalises to nothing, finds nothing.
    public func search(_ query: String, options: Options = Options()) -> [Match] {
        let key = SearchKey.normalized(query)
        guard !key.isEmpty, key.utf8.count <= 255, options.limit > 0 else { return [] }
        let country = options.country?.uppercased()
        return data.withUnsafeBytes { raw in
            var found: [Int: Double] = [:]   // place → best quality
            Array(key.utf8).withUnsafeBufferPointer { query in
                func accept(_ keyIndex: Int, _ quality: Double) {
                    let place = self.place(ofKey: keyIndex, raw)
                    if let country, self.countryCode(place, raw) != country { return }
                    let q = quality - (self.isPrimary(keyIndex, raw) ? 0 : 0.03)
                    if q > found[place] ?? -1 { found[place] = q }
                }
                // Exact, then prefix.
                var i = lowerBound(query, raw)
                while i < keyCount, compare(key: i, query, raw) == 0 {
                    accept(i, 1)
                    i += 1
                }
                if query.count >= 3, found.count < options.limit {
                    var scanned = 0
                    while i < keyCount, scanned < Self.prefixScan, hasPrefix(key: i, query, raw) {
                        accept(i, 0.6)
                        i += 1
                        scanned += 1
                    }
                }
                let exactPlaces = found.values.filter { $0 > 0.9 }.count
                if exactPlaces < options.limit, query.count >= 4 {
                    let before = found.count
                    oneEdit(query, raw) { accept($0, 0.85) }
                    if found.count == before, query.count >= 8 {
                        twoEdits(query, raw) { accept($0, 0.7) }
                    }
                }
            }
            return ranked(found, options: options, raw)
        }
    }

    /// At most this many keys are taken by one prefix: a short prefix of a common name would
    /// otherwise cost milliseconds for matches that rank last.
    static let prefixScan = 1000

    // MARK: Records

    private func place(ofKey k: Int, _ raw: UnsafeRawBufferPointer) -> Int {
        Int(raw.loadUnaligned(fromByteOffset: keys + 12 * k + 8, as: UInt32.self).littleEndian)
    }

    private func isPrimary(_ k: Int, _ raw: UnsafeRawBufferPointer) -> Bool { raw[keys + 12 * k + 6] & 1 != 0 }

    private func keyBytes(_ k: Int, _ raw: UnsafeRawBufferPointer) -> UnsafeBufferPointer<UInt8> {
        let at = keys + 12 * k
        let offset = Int(raw.loadUnaligned(fromByteOffset: at, as: UInt32.self).littleEndian)
        let length = Int(raw.loadUnaligned(fromByteOffset: at + 4, as: UInt16.self).littleEndian)
        let base = raw.baseAddress!.advanced(by: keyBytes + offset).assumingMemoryBound(to: UInt8.self)
        return UnsafeBufferPointer(start: base, count: length)
    }

    private func countryCode(_ p: Int, _ raw: UnsafeRawBufferPointer) -> String {
        let at = places + 32 * p + 26
        return String(decoding: raw[at..<(at + 2)], as: UTF8.self)
    }

    private func match(_ p: Int, _ raw: UnsafeRawBufferPointer) -> Match {
        let at = places + 32 * p
        let nameOffset = Int(raw.loadUnaligned(fromByteOffset: at + 20, as: UInt32.self).littleEndian)
        let nameLength = Int(raw.loadUnaligned(fromByteOffset: at + 24, as: UInt16.self).littleEndian)
        let code = countryCode(p, raw)
        return Match(name: String(decoding: raw[(names + nameOffset)..<(names + nameOffset + nameLength)], as: UTF8.self),
                     latitude: raw.loadUnaligned(fromByteOffset: at, as: Double.self),
                     longitude: raw.loadUnaligned(fromByteOffset: at + 8, as: Double.self),
                     isoCountryCode: code, country: countryNames[code], kind: Self.kinds[min(Int(raw[at + 28]), 1)],
                     population: Int(raw.loadUnaligned(fromByteOffset: at + 16, as: UInt32.self).littleEndian), score: 0, distance: nil)
    }

    // MARK: Exact and prefix

    private func compare(key k: Int, _ q: UnsafeBufferPointer<UInt8>, _ raw: UnsafeRawBufferPointer) -> Int {
        let b = keyBytes(k, raw)
        let n = min(b.count, q.count)
        for i in 0..<n where b[i] != q[i] { return b[i] < q[i] ? -1 : 1 }
        return b.count == q.count ? 0 : (b.count < q.count ? -1 : 1)
    }

    private func hasPrefix(key k: Int, _ q: UnsafeBufferPointer<UInt8>, _ raw: UnsafeRawBufferPointer) -> Bool {
        let b = keyBytes(k, raw)
        guard b.count >= q.count else { return false }
        for i in 0..<q.count where b[i] != q[i] { return false }
        return true
    }

    /// The first key not less than `q` (within `range`, all keys by default).
    private func lowerBound(_ q: UnsafeBufferPointer<UInt8>, _ raw: UnsafeRawBufferPointer, in range: Range<Int>? = nil) -> Int {
        var lo = range?.lowerBound ?? 0, hi = range?.upperBound ?? keyCount
        while lo < hi {
            let mid = (lo + hi) / 2
            if compare(key: mid, q, raw) < 0 { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    // MARK: Typing errors

    /// Letters tried in substitutions and insertions: those of normalised Latin-script names.
    private static let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789 ".utf8)

    /// Calls `found` with every key one edit from `q`: each deletion, swap of neighbours,
    /// substitution and insertion of `q` (letters from ``alphabet`` and `q` itself) looked up
    /// exactly. A variant edited at byte i keeps the query's first i bytes, so it is searched
    /// only among the keys that start so, and not at all once no key does.
    private func oneEdit(_ q: UnsafeBufferPointer<UInt8>, _ raw: UnsafeRawBufferPointer, found: (Int) -> Void) {
        let word = Array(q)
        let letters = Array(Set(Self.alphabet + word)).sorted()
        var range = 0..<keyCount   // keys starting with word[0..<i]
        func probe(_ v: [UInt8]) {
            // A variant reached twice (a doubled letter) is found twice: harmless.
            guard !v.isEmpty, v != word else { return }
            v.withUnsafeBufferPointer { vb in
                var i = lowerBound(vb, raw, in: range)
                while i < range.upperBound, compare(key: i, vb, raw) == 0 {
                    found(i)
                    i += 1
                }
            }
        }
        for i in 0...word.count {
            if i > 0 {
                range = prefixRange(word[0..<i], raw, in: range)
                if range.isEmpty { return }
            }
            var v = word
            for c in letters {
                v.insert(c, at: i)
                probe(v)
                v.remove(at: i)
            }
            guard i < word.count else { break }
            v.remove(at: i)
            probe(v)
            v = word
            if i + 1 < word.count {
                v.swapAt(i, i + 1)
                probe(v)
                v = word
            }
            for c in letters where c != word[i] {
                v[i] = c
                probe(v)
            }
        }
    }

    /// The keys within `range` that start with `prefix` (a range of sorted keys).
    private func prefixRange(_ prefix: ArraySlice<UInt8>, _ raw: UnsafeRawBufferPointer, in range: Range<Int>) -> Range<Int> {
        Array(prefix).withUnsafeBufferPointer { p in
            let start = lowerBound(p, raw, in: range)
            var lo = start, hi = range.upperBound
            while lo < hi {
                let mid = (lo + hi) / 2
                if hasPrefix(key: mid, p, raw) { lo = mid + 1 } else { hi = mid }
            }
            return start..<lo
        }
    }

    /// Calls `found` with every key two edits from `q`. Candidates share at least all but six
    /// of the query's padded byte trigrams (an edit touches at most three; two swaps, eight,
    /// escape this filter) and are verified by edit distance.
    private func twoEdits(_ q: UnsafeBufferPointer<UInt8>, _ raw: UnsafeRawBufferPointer, found: (Int) -> Void) {
        let padded = [Self.pad, Self.pad] + Array(q) + [Self.pad]
        var grams = Set<UInt32>()
        for i in 0..<(padded.count - 2) {
            grams.insert(UInt32(padded[i]) << 16 | UInt32(padded[i + 1]) << 8 | UInt32(padded[i + 2]))
        }
        let threshold = grams.count - 6
        guard threshold >= 2 else { return }
        var counts = [UInt8](repeating: 0, count: keyCount)
        var candidates: [Int] = []
        for gram in grams {
            guard let (start, count) = postingList(gram, raw) else { continue }
            for e in 0..<count {
                let k = Int(raw.loadUnaligned(fromByteOffset: postings + 4 * (start + e), as: UInt32.self).littleEndian)
                counts[k] &+= 1
                if Int(counts[k]) == threshold { candidates.append(k) }
            }
        }
        for k in candidates where SearchKey.distance(q, keyBytes(k, raw), limit: 2) == 2 { found(k) }
    }

    /// Where the posting list of a trigram starts (in entries) and how long it is.
    private func postingList(_ gram: UInt32, _ raw: UnsafeRawBufferPointer) -> (Int, Int)? {
        var lo = 0, hi = trigramCount
        while lo < hi {
            let mid = (lo + hi) / 2
            let t = raw.loadUnaligned(fromByteOffset: trigrams + 12 * mid, as: UInt32.self).littleEndian
            if t == gram {
                let at = trigrams + 12 * mid
                return (Int(raw.loadUnaligned(fromByteOffset: at + 4, as: UInt32.self).littleEndian),
                        Int(raw.loadUnaligned(fromByteOffset: at + 8, as: UInt32.self).littleEndian))
            }
            if t < gram { lo = mid + 1 } else { hi = mid }
        }
        return nil
    }

    // MARK: Ranking

    private func ranked(_ found: [Int: Double], options: Options, _ raw: UnsafeRawBufferPointer) -> [Match] {
        // Rank on numbers read in place; build only the matches answered.
        struct Entry { var place: Int, score: Double, size: Int, population: Int, distance: Double? }
        let entries = found.map { place, quality -> Entry in
            let at = places + 32 * place
            let population = Int(raw.loadUnaligned(fromByteOffset: at + 16, as: UInt32.self).littleEndian)
            var distance: Double?
            if let near = options.near {
                distance = Ellipsoid.wgs84.lambertDistance(latitude1: near.latitude, longitude1: near.longitude,
                                                           latitude2: raw.loadUnaligned(fromByteOffset: at, as: Double.self),
                                                           longitude2: raw.loadUnaligned(fromByteOffset: at + 8, as: Double.self))
            }
            return Entry(place: place, score: (quality * 100).rounded() / 100,
                         size: population > 0 ? Int(log10(Double(population))) : 0, population: population, distance: distance)
        }
        let best = entries.sorted { a, b in
            if a.score != b.score { return a.score > b.score }
            if a.size != b.size { return a.size > b.size }
            if let da = a.distance, let db = b.distance, da != db { return da < db }
            if a.population != b.population { return a.population > b.population }
            return a.place < b.place
        }.prefix(options.limit)
        return best.map { e in
            var m = match(e.place, raw)
            m.score = e.score
            m.distance = e.distance
            return m
        }
    }
}
