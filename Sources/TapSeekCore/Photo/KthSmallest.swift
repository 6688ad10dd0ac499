extension Array where Element: Comparable {
    /// The `k`-th smallest (from 0) of the first `count` elements, found by quickselect in
    /// expected linear time; those elements are reordered.
    mutating func kthSmallest(_ k: Int, among count: Int) -> Element {
        var lo = 0, hi = count - 1
        while lo < hi {
            let pivot = self[(lo + hi) / 2]
            var i = lo, j = hi
            while i <= j {
                while self[i] < pivot { i += 1 }
                while self[j] > pivot { j -= 1 }
                if i <= j {
                    swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if k <= j { hi = j } else if k >= i { lo = i } else { break }
        }
        return self[k]
    }
}
