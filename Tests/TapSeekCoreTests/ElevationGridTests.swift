import Testing
@testable import TapSeekCore

/// The summary values an ``ElevationGrid`` computes from its posts.
struct ElevationGridTests {
    /// The vectorised extent (sixteen posts at a time, then the rest) against a plain loop, for
    /// every length up to 70 and voids first, last, everywhere and nowhere.
    @Test func extentIsTheLowestAndHighestKnownPostAndTheVoidCount() {
        var generator = SystemRandomNumberGenerator()
        for count in 0...70 {
            for pattern in 0..<6 {
                let heights: [Float] = (0..<count).map { i in
                    let void: Bool
                    switch pattern {
                    case 0: void = false
                    case 1: void = true
                    case 2: void = i == 0 || i == count - 1
                    case 3: void = i % 16 == 15
                    default: void = Bool.random(using: &generator)
                    }
                    return void ? .nan : Float.random(in: -500...9000, using: &generator).rounded()
                }
                let known = heights.filter { !$0.isNaN }
                let (lowest, highest, voids) = ElevationGrid.extent(of: heights)
                #expect(voids == count - known.count)
                #expect(lowest == (known.min() ?? .infinity) && highest == (known.max() ?? -.infinity),
                        "\(count) posts, pattern \(pattern)")
            }
        }
    }
}
