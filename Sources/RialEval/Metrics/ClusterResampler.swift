import Foundation
import RialMedia

/// Draws cluster-bootstrap resamples as multiplicity vectors and runs a statistic on
/// each, in parallel, deterministically.
///
/// Resample `r` draws `clusterCount` clusters uniformly with replacement using
/// `SplitMix64(seed: s_r)`, `s_r` the r-th output of `SplitMix64(seed: settings.seed)`;
/// the result is `weights[g]` = how often cluster `g` was drawn (sum = `clusterCount`),
/// so a sample's weight is its cluster's multiplicity. A uniform index is
/// `⌊x · G / 2^64⌋` for a 64-bit draw `x`, redrawn while the low 64 bits of `x · G` are
/// below `2^64 mod G` (Lemire 2019, "Fast random integer generation in an interval"):
/// unbiased, and without a division per draw. The work for resample `r` depends only on `s_r`, so the
/// output is the same on one thread or many.
struct ClusterResampler: Sendable {
    let clusterCount: Int
    let settings: BootstrapSettings
    /// Always use 32-bit multiplicities (for testing the fallback path).
    var alwaysWide = false

    /// `statistic(r, weights)` for every resample `r` in `0..<settings.resamples`, in
    /// resample order (computed concurrently when `settings.parallel`); `weights` has
    /// `clusterCount` elements and is valid only during the call.
    func map<T: Sendable>(_ statistic: @Sendable (Int, ResampleWeights) -> T) -> [T] {
        let resamples = settings.resamples
        guard resamples > 0 else { return [] }
        var seeder = SplitMix64(seed: settings.seed)
        let seeds = (0..<resamples).map { _ in seeder.next() }
        let clusters = clusterCount, alwaysWide = alwaysWide
        // One-byte buffers are reused across resamples (one per worker at most), so a large
        // cluster count costs no allocation per resample.
        let spareNarrow = Locked<[[UInt8]]>([])
        let workers = settings.parallel ? ProcessInfo.processInfo.activeProcessorCount : 1
        return (0..<resamples).concurrentMap(workers: workers) { r in
            if !alwaysWide {
                var narrow = spareNarrow.withLock { $0.popLast() } ?? [UInt8](repeating: 0, count: clusters)
                defer { spareNarrow.withLock { $0.append(narrow) } }
                let result = narrow.withUnsafeMutableBufferPointer { w -> T? in
                    guard Self.draw(into: w, seed: seeds[r]) else { return nil }
                    return statistic(r, .narrow(UnsafeBufferPointer(w)))
                }
                if let result { return result }
            }
            var wide = [Int32](repeating: 0, count: clusters)
            return wide.withUnsafeMutableBufferPointer { w in
                _ = Self.draw(into: w, seed: seeds[r])
                return statistic(r, .wide(UnsafeBufferPointer(w)))
            }
        }
    }

    /// Fills `weights` with the multiplicities of `weights.count` uniform draws; false
    /// when a multiplicity does not fit `W` (then `weights` is garbage). One byte
    /// overflows only for more than 255 clusters and then with probability below
    /// `G / 256!`: practically never, but `map` redraws wide if it happens.
    @discardableResult
    static func draw<W: FixedWidthInteger>(into weights: UnsafeMutableBufferPointer<W>, seed: UInt64) -> Bool {
        let g = UInt64(weights.count)
        guard g > 0 else { return true }
        weights.update(repeating: 0)
        var rng = SplitMix64(seed: seed)
        let rejectBelow = (0 &- g) % g
        var overflow = false
        for _ in 0..<weights.count {
            var product = rng.next().multipliedFullWidth(by: g)
            while product.low < rejectBelow { product = rng.next().multipliedFullWidth(by: g) }
            let (sum, carry) = weights[Int(product.high)].addingReportingOverflow(1)
            weights[Int(product.high)] = sum
            overflow = overflow || carry
        }
        return !overflow
    }
}

/// One resample's multiplicity per cluster: one byte each in the common case (a quarter
/// of the memory traffic of the hot loops), 32 bits after a byte overflowed.
enum ResampleWeights {
    case narrow(UnsafeBufferPointer<UInt8>)
    case wide(UnsafeBufferPointer<Int32>)
}

extension ConfidenceInterval {
    /// The percentile interval of bootstrap `replicates` (one value per resample, NaN
    /// where the statistic was undefined): the `(1 - level)/2` and `(1 + level)/2`
    /// quantiles (`quantile(sorted:_:)`) of the defined values, with the settings'
    /// resample count and seed and the number of undefined resamples. NaN bounds when
    /// no resample is defined.
    static func bootstrapPercentile(_ replicates: [Double], settings: BootstrapSettings) -> ConfidenceInterval {
        let defined = replicates.filter { !$0.isNaN }.sorted()
        let tail = (1 - settings.confidenceLevel) / 2
        return ConfidenceInterval(
            lower: quantile(sorted: defined, tail), upper: quantile(sorted: defined, 1 - tail),
            level: settings.confidenceLevel, method: .clusterBootstrapPercentile,
            resamples: settings.resamples, seed: settings.seed,
            undefinedResamples: settings.resamples - defined.count)
    }
}
