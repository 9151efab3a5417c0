import RialMedia

/// Cross-validation folds that never split a group: every sample of a group (a
/// repository, a session, a live/on-screen pair) lands in the same fold, so a held-out
/// fold never shares a scene, device or session with the data a fit saw.
///
/// `folds[i]` is the fold (0-based) of sample `i`.
public struct GroupFolds: Sendable, Equatable {
    /// Fold of each sample, `0..<count`.
    public let folds: [Int]
    /// Number of folds.
    public let count: Int
    /// Name of each fold (`fold 1`, ... or the held-out source).
    public let names: [String]

    public init(folds: [Int], count: Int, names: [String]) {
        self.folds = folds
        self.count = count
        self.names = names
    }

    /// Group K-fold, balanced by sample count and deterministic for `seed`.
    ///
    /// Algorithm: the distinct groups are put in a seeded random order (Fisher-Yates with
    /// `SplitMix64(seed)`), then stably sorted by size, largest first, and each is given
    /// to the fold with the fewest samples so far (the lowest fold number on a tie):
    /// scikit-learn's `GroupKFold` greedy balancing, with the seed deciding only among
    /// groups of equal size. With fewer groups than `k`, `count` is the number of groups.
    ///
    /// - Parameters:
    ///   - groups: the group key of each sample (a sample without a group gets its own
    ///     key, e.g. its id).
    ///   - k: folds wanted, >= 2.
    ///   - seed: the order of groups of equal size.
    public static func groupKFold(groups: [String], k: Int, seed: UInt64) -> GroupFolds {
        var index: [String: Int] = [:]
        var sizes: [Int] = []
        var groupOf = [Int](repeating: 0, count: groups.count)
        for (i, g) in groups.enumerated() {
            if let j = index[g] {
                sizes[j] += 1
                groupOf[i] = j
            } else {
                index[g] = sizes.count
                groupOf[i] = sizes.count
                sizes.append(1)
            }
        }
        // First-appearance order depends on the input order; sort names so only the seed decides.
        let names = index.keys.sorted()
        var order = names.map { index[$0]! }
        var rng = SplitMix64(seed: seed)
        if order.count > 1 {
            for i in stride(from: order.count - 1, to: 0, by: -1) {
                let j = Int(rng.bounded(UInt64(i + 1)))
                order.swapAt(i, j)
            }
        }
        let position = Dictionary(uniqueKeysWithValues: order.enumerated().map { ($1, $0) })
        order.sort { sizes[$0] != sizes[$1] ? sizes[$0] > sizes[$1] : position[$0]! < position[$1]! }
        let count = max(1, min(k, sizes.count))
        var load = [Int](repeating: 0, count: count)
        var foldOfGroup = [Int](repeating: 0, count: sizes.count)
        for g in order {
            var best = 0
            for f in 1..<count where load[f] < load[best] { best = f }
            foldOfGroup[g] = best
            load[best] += sizes[g]
        }
        return GroupFolds(
            folds: groupOf.map { foldOfGroup[$0] }, count: count, names: (1...count).map { "fold \($0)" })
    }

    /// Leave-one-source-out: one fold per distinct source, sorted by name; fold `f` holds
    /// every sample of source `names[f]`.
    public static func leaveOneSourceOut(sources: [String]) -> GroupFolds {
        let names = Array(Set(sources)).sorted()
        let index = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
        return GroupFolds(folds: sources.map { index[$0]! }, count: names.count, names: names)
    }

    /// The samples of fold `f` (held out) and the others (training), in input order.
    public func split(_ f: Int) -> (training: [Int], heldOut: [Int]) {
        var training: [Int] = [], heldOut: [Int] = []
        for (i, fold) in folds.enumerated() {
            if fold == f { heldOut.append(i) } else { training.append(i) }
        }
        return (training, heldOut)
    }
}
