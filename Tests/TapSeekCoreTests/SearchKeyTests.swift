import Foundation
import Testing
import TapSeekCore

/// Query normalisation (which the index builder mirrors) and the edit distance, against cases
/// worked by hand.
struct SearchKeyTests {
    @Test(arguments: [
        ("Zürich", "zurich"), ("ZÜRICH", "zurich"), ("São Paulo", "sao paulo"), ("Straße", "strasse"),
        ("Saint-Gervais-les-Bains", "saint gervais les bains"), ("  New   York  ", "new york"), ("Łódź", "lodz"),
        ("Ærøskøbing", "aeroskobing"), ("St. Moritz", "st moritz"), ("L'Aquila", "l aquila"), ("Москва", "москва"),
        ("東京", "東京"), ("!!!", ""), ("", ""),
    ])
    func normalises(_ text: String, _ key: String) {
        #expect(SearchKey.normalized(text) == key)
    }

    @Test(arguments: [
        ("zurich", "zurich", 0), ("zurch", "zurich", 1), ("zuirch", "zurich", 1), ("zurichh", "zurich", 1),
        ("zxrich", "zurich", 1), ("grindelwlad", "grindelwald", 1), ("lauterbrunen", "lauterbrunnen", 1),
        ("appenzel", "appenzell", 1), ("ab", "ba", 1), ("kitten", "sitting", 3), ("", "abc", 3),
    ])
    func distances(_ a: String, _ b: String, _ expected: Int) {
        let x = Array(a.utf8), y = Array(b.utf8)
        x.withUnsafeBufferPointer { xb in
            y.withUnsafeBufferPointer { yb in
                #expect(SearchKey.distance(xb, yb, limit: 3) == expected)
                #expect(SearchKey.distance(xb, yb, limit: expected - 1) == nil || expected == 0)
            }
        }
    }
}
