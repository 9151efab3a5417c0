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

    /// Calls `statistic(r, weights)` for every resample `r` in `0..<settings.resamples`
    /// (concurrently when `settings.parallel`); `weights` has `clusterCount` elements.
    func forEachResample(_ statistic: @escaping @Sendable (Int, ResampleWeights) -> Void) {
        let resamples = settings.resamples
        guard resamples > 0 else { return }
        var seeder = SplitMix64(seed: settings.seed)
        let seeds = (0..<resamples).map { _ in seeder.next() }
        let clusters = clusterCount, alwaysWide = alwaysWide
        let workers = settings.parallel ? max(1, min(ProcessInfo.processInfo.activeProcessorCount, resamples)) : 1
        let work: @Sendable (Int) -> Void = { worker in
            var narrow = [UInt8](repeating: 0, count: alwaysWide ? 0 : clusters)
            var wide: [Int32] = []
            for r in stride(from: worker, to: resamples, by: workers) {
                let fits = !alwaysWide && narrow.withUnsafeMutableBufferPointer { w in
                    guard Self.draw(into: w, seed: seeds[r]) else { return false }
                    statistic(r, .narrow(UnsafeBufferPointer(w)))
                    return true
                }
                guard !fits else { continue }
                if wide.isEmpty { wide = [Int32](repeating: 0, count: clusters) }
                wide.withUnsafeMutableBufferPointer { w in
                    _ = Self.draw(into: w, seed: seeds[r])
                    statistic(r, .wide(UnsafeBufferPointer(w)))
                }
            }
        }
        if workers > 1 {
            DispatchQueue.concurrentPerform(iterations: workers, execute: work)
        } else {
            work(0)
        }
    }

    /// Fills `weights` with the multiplicities of `weights.count` uniform draws; false
    /// when a multiplicity does not fit `W` (then `weights` is garbage). One byte
    /// overflows only for more than 255 clusters and then with probability below
    /// `G / 256!`: practically never, but `forEachResample` redraws wide if it happens.
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

/// Per-resample results written by concurrent workers, each into its own slots.
final class ResampleSlots: @unchecked Sendable {
    /// `values[metric * resamples + r]`.
    private let values: UnsafeMutableBufferPointer<Double>
    let metrics: Int
    let resamples: Int

    init(metrics: Int, resamples: Int) {
        self.metrics = metrics
        self.resamples = resamples
        values = .allocate(capacity: max(1, metrics * resamples))
        values.initialize(repeating: .nan)
    }

    deinit { values.deallocate() }

    func store(_ value: Double, metric: Int, resample r: Int) { values[metric * resamples + r] = value }

    /// The values of `metric` over all resamples, in resample order.
    func values(of metric: Int) -> [Double] { Array(values[(metric * resamples)..<((metric + 1) * resamples)]) }

    /// The percentile interval of `metric` over its defined (non-NaN) resamples.
    func interval(of metric: Int, settings: BootstrapSettings) -> ConfidenceInterval {
        let defined = values(of: metric).filter { !$0.isNaN }.sorted()
        let tail = (1 - settings.confidenceLevel) / 2
        return ConfidenceInterval(lower: ConfidenceInterval.quantile(sorted: defined, tail),
                                  upper: ConfidenceInterval.quantile(sorted: defined, 1 - tail),
                                  level: settings.confidenceLevel, method: .clusterBootstrapPercentile,
                                  resamples: resamples, seed: settings.seed, undefinedResamples: resamples - defined.count)
    }
}
