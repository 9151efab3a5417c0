import RialMedia

/// Fractions of samples for `train`, `val` and `test`.
public struct SplitFractions: Sendable, Equatable, Codable {
    public var train: Double
    public var val: Double
    public var test: Double

    /// 0.6 / 0.2 / 0.2.
    public static let standard = SplitFractions(uncheckedTrain: 0.6, val: 0.2, test: 0.2)

    /// Returns `nil` unless every fraction is finite and in 0...1 and they sum to 1
    /// within 1e-6.
    public init?(train: Double, val: Double, test: Double) {
        let all = [train, val, test]
        guard all.allSatisfy({ $0.isFinite && $0 >= 0 && $0 <= 1 }),
            abs(all.reduce(0, +) - 1) <= 1e-6
        else { return nil }
        self.init(uncheckedTrain: train, val: val, test: test)
    }

    private init(uncheckedTrain train: Double, val: Double, test: Double) {
        self.train = train
        self.val = val
        self.test = test
    }
}

/// Assigns `train`/`val`/`test` by group, deterministically from a seed.
///
/// Algorithm (stable across platforms and Swift versions):
/// 1. Group samples by `DatasetSample.groupKey` (a sample without `group` is its own
///    group) and sort the groups: named groups by the UTF-8 bytes of the name, then
///    single samples by the bytes of their id.
/// 2. Shuffle the groups with Fisher-Yates driven by `SplitMix64(seed:)`: for
///    `i = n-1 ... 1`, swap `i` with `j = SplitMix64.bounded(i + 1)`.
/// 3. Walk the shuffled groups keeping `c`, the number of samples placed so far, out of
///    `N`. A group of `s` samples goes to `train` when its midpoint `c + s/2` is below
///    `train * N`, else to `val` when below `(train + val) * N`, else to `test`.
///
/// Every group lands in exactly one split. With many small groups the split sizes are
/// within half the largest group of `fraction * N`; a few large groups make them coarser.
public enum DatasetSplitter {
    /// The split of every group.
    ///
    /// - Complexity: O(n log n) in the number of samples.
    public static func assignments(
        for samples: [DatasetSample], seed: UInt64,
        fractions: SplitFractions
    ) -> [DatasetGroupKey: DatasetSplit] {
        var sizes: [DatasetGroupKey: Int] = [:]
        for sample in samples { sizes[sample.groupKey, default: 0] += 1 }
        var groups = sizes.keys.sorted()
        var rng = SplitMix64(seed: seed)
        if groups.count > 1 {
            for i in stride(from: groups.count - 1, through: 1, by: -1) {
                let j = Int(rng.bounded(UInt64(i + 1)))
                groups.swapAt(i, j)
            }
        }
        let total = Double(samples.count)
        let trainEnd = fractions.train * total
        let valEnd = (fractions.train + fractions.val) * total
        var placed = 0
        var result: [DatasetGroupKey: DatasetSplit] = [:]
        for group in groups {
            let size = sizes[group]!
            let midpoint = Double(placed) + Double(size) / 2
            result[group] = midpoint < trainEnd ? .train : midpoint < valEnd ? .val : .test
            placed += size
        }
        return result
    }

    /// `samples` with `split` set by `assignments(for:seed:fractions:)`; order and every
    /// other field unchanged.
    public static func split(_ samples: [DatasetSample], seed: UInt64, fractions: SplitFractions) -> [DatasetSample] {
        let assignment = assignments(for: samples, seed: seed, fractions: fractions)
        return samples.map { sample in
            var copy = sample
            copy.split = assignment[sample.groupKey] ?? .test
            return copy
        }
    }
}
