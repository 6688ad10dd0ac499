/// The keys a gazetteer name is found by: the search's normalised form
/// (``SearchKey/normalized(_:)``: lower case, accents removed, punctuation as single spaces), and
/// for names with a German umlaut also its spelt-out form, so that "Saentis" finds "Säntis" as
/// "Santis" does.
///
/// Pure ASCII text — most GeoNames names — is folded byte by byte without Foundation's Unicode
/// decomposition, which costs microseconds a name and would dominate an `allCountries` import.
public enum NameFolding {
    /// The distinct keys of `name`, the plain form first; empty when it folds to nothing.
    public static func keys(_ name: Substring) -> [String] {
        var out: [String] = []
        if let ascii = asciiKey(name.utf8) {
            if !ascii.isEmpty { out.append(ascii) }
            return out
        }
        let plain = SearchKey.normalized(String(name))
        if !plain.isEmpty { out.append(plain) }
        if name.unicodeScalars.contains(where: { umlauts[$0] != nil }) {
            var spelt = String.UnicodeScalarView()
            for scalar in name.unicodeScalars {
                if let s = umlauts[scalar] { spelt.append(contentsOf: s.unicodeScalars) } else { spelt.append(scalar) }
            }
            let alternative = SearchKey.normalized(String(spelt))
            if !alternative.isEmpty, alternative != plain { out.append(alternative) }
        }
        return out
    }

    /// The key a query is looked up by: the same folding as a name's plain key.
    public static func queryKey(_ query: String) -> String {
        asciiKey(Substring(query).utf8) ?? SearchKey.normalized(query)
    }

    /// German umlauts and their spelt-out forms (the decomposed forms reach here composed:
    /// GeoNames' dumps are NFC).
    private static let umlauts: [Unicode.Scalar: String] = [
        "ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue",
    ]

    /// The normalised key of ASCII text, nil when any byte is not ASCII. Letters are lowered,
    /// letters and digits kept, every other run of bytes (punctuation, symbols, spaces, control)
    /// becomes one space between words, exactly as ``SearchKey/normalized(_:)`` folds ASCII.
    static func asciiKey(_ bytes: Substring.UTF8View) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var pendingSpace = false
        for b in bytes {
            guard b < 0x80 else { return nil }
            switch b {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"):
                if pendingSpace { out.append(0x20) }
                pendingSpace = false
                out.append(b | 0x20)
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                if pendingSpace { out.append(0x20) }
                pendingSpace = false
                out.append(b)
            default:
                pendingSpace = !out.isEmpty
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
