/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
/// OOPSLA 2014): a tiny seeded generator whose output is fixed for a seed.
/// The one seeded generator of the package: dataset splits, sample selection, the
/// synthetic generator's streams and the tests' fuzz inputs all draw from it.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in `0..<bound` without modulo bias: draws `r` until
    /// `r >= 2^64 mod bound`, returns `r mod bound`. `bound` must be positive.
    public mutating func bounded(_ bound: UInt64) -> UInt64 {
        precondition(bound > 0, "bound must be positive")
        let threshold = (0 &- bound) % bound
        while true {
            let r = next()
            if r >= threshold { return r % bound }
        }
    }
}
