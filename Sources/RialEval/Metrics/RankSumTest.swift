import Foundation

/// The Wilcoxon-Mann-Whitney rank-sum test of two independent samples, two-sided: is one
/// sample's location shifted against the other's? `bench-compare` uses it on the p50s of
/// repeated `bench` reports, as Go's benchstat does on repeated benchmark runs: on a
/// shared virtual machine the run-to-run drift is larger than the spread within one run,
/// so each report's p50 counts as one observation.
///
/// - Tied values get their mean rank (midranks).
/// - `exact` (at most `exactLimit` values in all): the p-value is the share of the
///   `C(n1 + n2, n1)` ways of choosing the first sample's ranks from the pooled midranks
///   whose rank sum lies at least as far from its mean `n1 (n1 + n2 + 1) / 2` as the
///   observed one. Ties are therefore exact too (the permutation distribution of the
///   midranks, not the tie-free table). Counted with doubled midranks, which are integers,
///   so "at least as far" has no rounding.
/// - `normal` (more values): the normal approximation with the tie-corrected variance
///   `n1 n2 / 12 ((N + 1) - Σ (t³ - t) / (N (N - 1)))` and a continuity correction of 1/2.
/// - Fewer than one value in either sample, or a non-finite value: `pValue` NaN.
///
/// Written here because no statistics library is among this project's dependencies; the
/// test is short and its exact distribution is checked against hand calculations.
public struct RankSumTest: Sendable, Equatable {
    public enum Method: String, Sendable, Codable {
        case exact, normal
    }

    /// Pooled sizes up to which the distribution is counted exactly: about `N` x `n1` x
    /// the largest doubled rank sum steps of counting, about a million at 20 and 20.
    public static let exactLimit = 40

    /// Rank sum of the first sample (midranks in the pooled sample).
    public var rankSum: Double
    /// `U = rankSum - n1 (n1 + 1) / 2`: the number of (first, second) pairs with the first
    /// larger, ties counting 1/2.
    public var u: Double
    /// Two-sided p-value.
    public var pValue: Double
    public var method: Method
    public var firstCount: Int
    public var secondCount: Int

    public init(first: [Double], second: [Double]) {
        firstCount = first.count
        secondCount = second.count
        let n1 = first.count, n2 = second.count, total = n1 + n2
        guard n1 > 0, n2 > 0, (first + second).allSatisfy(\.isFinite) else {
            rankSum = .nan
            u = .nan
            pValue = .nan
            method = .exact
            return
        }
        let doubledRanks = Self.doubledMidranks(first + second)
        let doubledSum = doubledRanks[..<n1].reduce(0, +)
        rankSum = Double(doubledSum) / 2
        u = rankSum - Double(n1 * (n1 + 1)) / 2
        if total <= Self.exactLimit {
            method = .exact
            pValue = Self.exactPValue(doubledRanks: doubledRanks, firstCount: n1, observed: doubledSum)
        } else {
            method = .normal
            pValue = Self.normalPValue(doubledRanks: doubledRanks, firstCount: n1, rankSum: rankSum)
        }
    }

    /// The smallest two-sided p-value the exact test can give for samples of these sizes
    /// (complete separation, no ties): `2 / C(n1 + n2, n1)`, at most 1. With 3 and 3 it is
    /// 0.1, so no difference can reach p < 0.05; with 4 and 4 it is 0.029.
    public static func smallestPValue(firstCount: Int, secondCount: Int) -> Double {
        guard firstCount > 0, secondCount > 0 else { return 1 }
        var ways = 1.0
        for i in 0..<min(firstCount, secondCount) {
            ways = ways * Double(firstCount + secondCount - i) / Double(i + 1)
        }
        return min(1, 2 / ways)
    }

    /// Twice each value's midrank in `values` (1-based ranks; integers because a tied run
    /// from rank `a` to `b` has midrank `(a + b) / 2`).
    static func doubledMidranks(_ values: [Double]) -> [Int] {
        let order = values.indices.sorted { values[$0] < values[$1] }
        var ranks = [Int](repeating: 0, count: values.count)
        var start = 0
        while start < order.count {
            var end = start
            while end + 1 < order.count, values[order[end + 1]] == values[order[start]] { end += 1 }
            // Ranks start + 1 ... end + 1, doubled midrank start + end + 2.
            for position in start...end { ranks[order[position]] = start + end + 2 }
            start = end + 1
        }
        return ranks
    }

    /// Counts, over every choice of `firstCount` of the pooled doubled midranks, how many
    /// choices' sums lie at least as far from the mean as `observed`, by dynamic
    /// programming over (values chosen, sum).
    static func exactPValue(doubledRanks: [Int], firstCount: Int, observed: Int) -> Double {
        let total = doubledRanks.count
        let maximumSum = doubledRanks.sorted(by: >).prefix(firstCount).reduce(0, +)
        let width = maximumSum + 1
        // ways[k * width + s]: choices of k values with doubled sum s (Double: C(40, 20) is
        // about 1.4e11, exact in a Double's 53 bits).
        var ways = [Double](repeating: 0, count: (firstCount + 1) * width)
        ways[0] = 1
        for rank in doubledRanks {
            for k in stride(from: firstCount, through: 1, by: -1) {
                let row = k * width, previous = (k - 1) * width
                for s in stride(from: maximumSum, through: rank, by: -1) where ways[previous + s - rank] != 0 {
                    ways[row + s] += ways[previous + s - rank]
                }
            }
        }
        // Doubled mean rank sum: 2 * n1 (N + 1) / 2.
        let mean = firstCount * (total + 1)
        let distance = abs(observed - mean)
        var extreme = 0.0, all = 0.0
        let row = firstCount * width
        for s in 0...maximumSum where ways[row + s] != 0 {
            all += ways[row + s]
            if abs(s - mean) >= distance { extreme += ways[row + s] }
        }
        return min(1, extreme / all)
    }

    static func normalPValue(doubledRanks: [Int], firstCount: Int, rankSum: Double) -> Double {
        let n1 = Double(firstCount), n = Double(doubledRanks.count), n2 = n - n1
        var tieTerm = 0.0
        var counts: [Int: Int] = [:]
        for rank in doubledRanks { counts[rank, default: 0] += 1 }
        for t in counts.values where t > 1 { tieTerm += Double(t * t * t - t) }
        let variance = n1 * n2 / 12 * ((n + 1) - tieTerm / (n * (n - 1)))
        guard variance > 0 else { return 1 }
        let deviation = max(0, abs(rankSum - n1 * (n + 1) / 2) - 0.5)
        return min(1, erfc(deviation / (2 * variance).squareRoot()))
    }
}
