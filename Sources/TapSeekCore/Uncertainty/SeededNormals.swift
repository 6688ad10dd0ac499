import Foundation

/// Standard normal numbers from a seed, the same on every machine and thread: SplitMix64
/// (Steele, Lea & Flood 2014) for uniform bits, Box–Muller for normals. A sample's numbers come
/// from its own generator, seeded from (seed, sample index), so that results do not depend on
/// how samples are shared among threads.
public struct SeededNormals: Sendable {
    private var state: UInt64
    private var spare: Double?

    /// The generator of sample `index` of a run with `seed`.
    public init(seed: UInt64, index: Int) {
        state = seed &* 0x9E37_79B9_7F4A_7C15 ^ (UInt64(truncatingIfNeeded: index) &+ 0x632B_E59B_D9B4_E019)
        _ = nextBits()
    }

    private mutating func nextBits() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform number in (0, 1).
    private mutating func uniform() -> Double { (Double(nextBits() >> 11) + 0.5) / 9_007_199_254_740_992 }

    /// The next standard normal number.
    public mutating func next() -> Double {
        if let s = spare {
            spare = nil
            return s
        }
        let r = (-2 * log(uniform())).squareRoot(), theta = 2 * Double.pi * uniform()
        spare = r * sin(theta)
        return r * cos(theta)
    }
}
