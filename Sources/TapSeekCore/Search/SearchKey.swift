import Foundation

/// How names and queries are compared: the normalised key both are reduced to, and the edit
/// distance between keys. `scripts/build_search_index.py` normalises names the same way; the
/// two must change together.
public enum SearchKey {
    /// Letters spelt out before accents are removed (they have no decomposition).
    private static let spelled: [Unicode.Scalar: String] = [
        "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "đ": "d", "ð": "d", "þ": "th", "ł": "l", "ı": "i", "ħ": "h",
    ]

    /// Lower case, accents removed (compatibility decomposition, combining marks dropped), ß →
    /// ss and a few letters spelt out, punctuation, symbols and spaces as single spaces, trimmed:
    /// "Zürich" → "zurich", "Saint-Gervais-les-Bains" → "saint gervais les bains".
    public static func normalized(_ text: String) -> String {
        var spelt = ""
        for scalar in text.lowercased().unicodeScalars {
            if let s = spelled[scalar] { spelt += s } else { spelt.unicodeScalars.append(scalar) }
        }
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in spelt.decomposedStringWithCompatibilityMapping.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .nonspacingMark:
                continue
            case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
                 .finalPunctuation, .otherPunctuation, .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol,
                 .spaceSeparator, .lineSeparator, .paragraphSeparator, .control, .format, .surrogate, .privateUse, .unassigned:
                pendingSpace = !out.isEmpty
            default:
                if pendingSpace { out.append(" ") }
                pendingSpace = false
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// The optimal-string-alignment distance between two byte strings (insertions, deletions,
    /// substitutions and swaps of neighbours each cost 1), or nil when it exceeds `limit`.
    public static func distance(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, limit: Int) -> Int? {
        let n = a.count, m = b.count
        guard abs(n - m) <= limit else { return nil }
        if n == 0 || m == 0 { return max(n, m) <= limit ? max(n, m) : nil }
        // Three rows of the dynamic programme (the swap needs the one before the last), on the
        // stack: this runs for every candidate of a fuzzy search.
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 3 * (m + 1)) { rows in
            var before = rows.baseAddress!, last = before + (m + 1), row = last + (m + 1)
            for j in 0...m { last[j] = j }
            for i in 1...n {
                row[0] = i
                var smallest = i
                for j in 1...m {
                    let cost = a[i - 1] == b[j - 1] ? 0 : 1
                    var d = min(last[j] + 1, row[j - 1] + 1, last[j - 1] + cost)
                    if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d = min(d, before[j - 2] + 1) }
                    row[j] = d
                    smallest = min(smallest, d)
                }
                if smallest > limit { return nil }
                (before, last, row) = (last, row, before)
            }
            return last[m] <= limit ? last[m] : nil
        }
    }
}
