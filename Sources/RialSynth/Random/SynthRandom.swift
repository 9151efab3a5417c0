import Foundation
import RialMedia

/// The synthetic generator's only source of randomness: SplitMix64 (Steele, Lea and
/// Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014).
///
/// Every sample gets its own generator derived from (dataset seed, sample index), so
/// output is byte-identical for the same seed whatever the number of worker threads.
public struct SynthRandom: RandomNumberGenerator, Sendable {
    private var generator: SplitMix64

    public init(seed: UInt64) { generator = SplitMix64(seed: seed) }

    /// The generator for sample `index` of a dataset seeded with `seed`.
    public init(seed: UInt64, stream index: UInt64) {
        var mixer = SynthRandom(seed: seed ^ 0x5DEE_CE66_D1CE_4E5B)
        for _ in 0..<2 { _ = mixer.next() }
        generator = SplitMix64(seed: mixer.next() &+ index &* 0xD1B5_4A32_D192_ED03)
    }

    public mutating func next() -> UInt64 { generator.next() }

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
