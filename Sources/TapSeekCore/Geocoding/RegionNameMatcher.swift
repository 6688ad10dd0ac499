import Foundation

/// Tells whether a place's second-level division names another first-level region of its
/// country: GeoNames files Neuilly-sur-Seine under "Departement des Hauts-de-Seine", and where
/// Natural Earth's regions are France's departments, that names the region Hauts-de-Seine, so
/// the town is not in Paris whatever the generalised region polygons say (issue 38: the Eiffel
/// Tower got Neuilly-sur-Seine and Hauts-de-Seine under "Paris").
///
/// A division names a region when the region's words end it ("Provincia di Cosenza",
/// "County Cork", "Sir Powys"), compared without case or accents; "Loire" does not end
/// "Loire-Atlantique", and "Washington County" names no state. Words are hashed (FNV-1a over
/// the folded bytes), so that a look-up allocates nothing: a few tens of nanoseconds.
struct RegionNameMatcher: Sendable {
    /// The regions' words, hashed, one region after another: region r's are
    /// `words[wordStarts[r]..<wordStarts[r + 1]]`, none for a region without a name.
    private let words: [UInt64]
    private let wordStarts: [Int32]
    /// (country, hash of the last word) of every named region with a country, ascending, and
    /// the region of each: a binary search finds a division's candidates. Flat arrays rather
    /// than an array and a dictionary entry per region: built on every opening of the index,
    /// those allocations made it 14 M instructions, the most of opening it.
    private let keys: [UInt64]
    private let keyRegions: [Int32]

    /// Most words of a division compared (its last ones).
    static let maximumWords = 12

    /// - Parameters:
    ///   - names: region names by owner number.
    ///   - countries: each region's country owner number (−1 for none).
    init(names: [String?], countries: [Int]) {
        var words: [UInt64] = [], wordStarts: [Int32] = [0]
        var pairs: [(key: UInt64, region: Int32)] = []
        words.reserveCapacity(4 * names.count)
        wordStarts.reserveCapacity(names.count + 1)
        for (r, name) in names.enumerated() {
            let start = words.count
            if var name {
                name.withUTF8 { Self.forEachWord(UnsafeRawBufferPointer($0)) { words.append($0) } }
            }
            wordStarts.append(Int32(words.count))
            if words.count > start, countries[r] >= 0 { pairs.append((Self.key(words[words.count - 1], country: countries[r]), Int32(r))) }
        }
        pairs.sort { $0.key != $1.key ? $0.key < $1.key : $0.region < $1.region }
        self.words = words
        self.wordStarts = wordStarts
        keys = pairs.map(\.key)
        keyRegions = pairs.map(\.region)
    }

    /// Whether `division` (UTF-8) names a region of `country` other than `region`, and not
    /// `region` itself.
    func namesAnotherRegion(_ division: UnsafeRawBufferPointer, region: Int32, country: Int) -> Bool {
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: Self.maximumWords) { buffer in
            let count = Self.lastWordHashes(division, into: buffer)
            guard count > 0 else { return false }
            let key = Self.key(buffer[count - 1], country: country)
            var lo = 0, hi = keys.count
            while lo < hi {
                let mid = (lo + hi) >> 1
                if keys[mid] < key { lo = mid + 1 } else { hi = mid }
            }
            var other = false
            while lo < keys.count, keys[lo] == key {
                let r = keyRegions[lo]
                lo += 1
                let start = Int(wordStarts[Int(r)]), n = Int(wordStarts[Int(r) + 1]) - start
                guard n <= count else { continue }
                var k = 0
                while k < n, words[start + n - 1 - k] == buffer[count - 1 - k] { k += 1 }
                guard k == n else { continue }
                if r == region { return false }
                other = true
            }
            return other
        }
    }

    private static func key(_ lastWord: UInt64, country: Int) -> UInt64 {
        lastWord ^ (UInt64(truncatingIfNeeded: country &+ 1) &* 0x9E37_79B9_7F4A_7C15)
    }

    /// The hashes of the last ``maximumWords`` words of `utf8`, in order, into `buffer`; their count.
    static func lastWordHashes(_ utf8: UnsafeRawBufferPointer, into buffer: UnsafeMutableBufferPointer<UInt64>) -> Int {
        var count = 0
        forEachWord(utf8) { hash in
            if count == buffer.count {
                for k in 1..<buffer.count { buffer[k - 1] = buffer[k] }
                count -= 1
            }
            buffer[count] = hash
            count += 1
        }
        return count
    }

    /// The first scalar of the Latin ranges folded ahead (U+00C0 À … U+024F ɏ).
    private static let latinStart = 0xC0
    /// Those scalars folded, once per process.
    private static let foldedLatin: [[UInt8]] = (0xC0..<0x250).map { value in
        Array(String(Unicode.Scalar(UInt32(value)).map(Character.init) ?? " ").utf8).withUnsafeBytes { fold($0) }
    }

    /// A scalar's letters and digits, without case or accents (é → e); empty for anything else.
    private static func fold(_ scalarBytes: UnsafeRawBufferPointer) -> [UInt8] {
        let folded = String(decoding: scalarBytes, as: UTF8.self)
            .folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil)
        var bytes: [UInt8] = []
        for scalar in folded.unicodeScalars where scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
            bytes += Array(String(scalar).utf8)
        }
        return bytes
    }

    private static let fnvOffset: UInt64 = 0xCBF2_9CE4_8422_2325
    private static let fnvPrime: UInt64 = 0x0000_0100_0000_01B3

    /// Calls `body` with the hash of each word: runs of letters and digits, lower-cased, accents
    /// dropped (é → e, ß → ss); everything else separates words.
    private static func forEachWord(_ utf8: UnsafeRawBufferPointer, _ body: (UInt64) -> Void) {
        var hash = fnvOffset
        var inWord = false
        func add(_ byte: UInt8) {
            hash = (hash ^ UInt64(byte)) &* fnvPrime
            inWord = true
        }
        func end() {
            if inWord { body(hash) }
            hash = fnvOffset
            inWord = false
        }
        var i = 0
        while i < utf8.count {
            let byte = utf8[i]
            if byte < 0x80 {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): add(byte)
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): add(byte | 0x20)
                default: end()
                }
                i += 1
                continue
            }
            // A multi-byte scalar: its length from the lead byte; Latin letters from a table,
            // others folded on the spot (rare: most names here are ASCII).
            let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2
            let scalarBytes = UnsafeRawBufferPointer(rebasing: utf8[i..<min(i + length, utf8.count)])
            let folded: [UInt8]
            if length == 2, scalarBytes.count == 2 {
                let value = (Int(byte & 0x1F) << 6) | Int(scalarBytes[1] & 0x3F)
                folded = value >= latinStart && value < latinStart + foldedLatin.count ? foldedLatin[value - latinStart] : fold(scalarBytes)
            } else {
                folded = fold(scalarBytes)
            }
            if folded.isEmpty { end() } else { folded.forEach(add) }
            i += length
        }
        end()
    }
}
