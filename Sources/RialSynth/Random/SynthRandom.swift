import Foundation

/// The synthetic generator's only source of randomness: SplitMix64 (Steele, Lea and
/// Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014).
///
/// Every sample gets its own generator derived from (dataset seed, sample index), so
/// output is byte-identical for the same seed whatever the number of worker threads.
public struct SynthRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// The generator for sample `index` of a dataset seeded with `seed`.
    public init(seed: UInt64, stream index: UInt64) {
        var mixer = SynthRandom(seed: seed ^ 0x5DEE_CE66_D1CE_4E5B)
        for _ in 0..<2 { _ = mixer.next() }
        state = mixer.next() &+ index &* 0xD1B5_4A32_D192_ED03
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1) with 24 bits of precision.
    public mutating func unit() -> Float { Float(next() >> 40) * 0x1p-24 }

    /// Uniform in `range`.
    public mutating func uniform(_ range: ClosedRange<Float>) -> Float {
        range.lowerBound + (range.upperBound - range.lowerBound) * unit()
    }

    /// Standard normal by the Box-Muller transform.
    public mutating func gaussian() -> Float {
        let u1 = max(Double(next() >> 11) * 0x1p-53, .leastNonzeroMagnitude)
        let u2 = Double(next() >> 11) * 0x1p-53
        return Float((-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2))
    }
}
