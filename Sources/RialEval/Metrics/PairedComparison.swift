import Foundation

/// Paired comparison of two methods' AUC on the same samples: cluster bootstrap of the
/// difference `AUC(second) - AUC(first)`.
///
/// Samples are paired by `id`; the truth, species and cluster come from `first`. A
/// sample missing from either set, with a non-finite score in either, with a different
/// `bonaFide` in `second`, or repeating an id already paired, is left out
/// (`unpairedSamplesExcluded`). Each resample draws clusters once
/// (`ClusterResampler`) and weights both methods' scores with the same multiplicities,
/// so the interval reflects the paired design (the two AUCs are correlated).
/// - `interval`: percentile interval of the resampled differences (defined ones only).
/// - `pValue`: two-sided, `min(1, 2 (min(#Δ* <= 0, #Δ* >= 0) + 1) / (B + 1))` over the
///   `B` defined resampled differences `Δ*` (the bootstrap percentile test with the
///   usual +1 so it is never 0; its resolution is about `2 / B`).
/// Without both classes every value is NaN.
public struct PairedAUCComparison: Sendable, Equatable {
    public var aucFirst: Double
    public var aucSecond: Double
    /// `aucSecond - aucFirst`.
    public var difference: Double
    /// Interval of `difference`; nil when the bootstrap is disabled (0 resamples).
    public var interval: ConfidenceInterval?
    /// NaN when the bootstrap is disabled or no resample is defined.
    public var pValue: Double
    /// Samples paired and compared.
    public var pairedCount: Int
    /// Samples of the larger set that were not paired.
    public var excludedCount: Int
    public var warnings: [MetricsWarning]

    /// Compares `first` and `second` (two methods' scores of the same samples).
    ///
    /// - Complexity: O(n log n) plus O(n) per resample for each method.
    public init(first: [ScoredSample], second: [ScoredSample], settings: BootstrapSettings = .standard) {
        var secondByID: [String: ScoredSample] = [:]
        for sample in second where secondByID[sample.id] == nil { secondByID[sample.id] = sample }
        var pairedFirst: [ScoredSample] = [], secondScores: [Double] = []
        var used = Set<String>()
        for sample in first {
            guard sample.score.isFinite, let other = secondByID[sample.id], other.score.isFinite,
                other.bonaFide == sample.bonaFide, used.insert(sample.id).inserted
            else { continue }
            pairedFirst.append(sample)
            secondScores.append(other.score)
        }
        pairedCount = pairedFirst.count
        excludedCount = max(first.count, second.count) - pairedCount
        let truth = pairedFirst.map(\.bonaFide)
        let rankedFirst = RankedScores(finiteScores: pairedFirst.map(\.score), bonaFide: truth)
        let rankedSecond = RankedScores(finiteScores: secondScores, bonaFide: truth)
        warnings =
            (excludedCount > 0 ? [.unpairedSamplesExcluded] : [])
            + CleanedScores.classWarnings(positives: rankedFirst.positiveCount, negatives: rankedFirst.negativeCount)
        aucFirst = rankedFirst.auc
        aucSecond = rankedSecond.auc
        difference = aucSecond - aucFirst

        guard settings.resamples > 0 else {
            interval = nil
            pValue = .nan
            return
        }
        let numbering = ClusterNumbering(keys: pairedFirst.map(\.clusterKey)).ranked(by: rankedFirst)
        let curveFirst = WeightedCurve(
            ranked: rankedFirst,
            clusterOfSorted: rankedFirst.order.map { numbering.indexOfItem[Int($0)] },
            clusterCount: numbering.count)
        let curveSecond = WeightedCurve(
            ranked: rankedSecond,
            clusterOfSorted: rankedSecond.order.map { numbering.indexOfItem[Int($0)] },
            clusterCount: numbering.count)
        let differences = ClusterResampler(clusterCount: numbering.count, settings: settings).map { _, weights in
            curveSecond.aucAndEER(weights: weights).auc - curveFirst.aucAndEER(weights: weights).auc
        }
        let interval = ConfidenceInterval.bootstrapPercentile(differences, settings: settings)
        self.interval = interval
        let defined = differences.filter { !$0.isNaN }
        if defined.isEmpty {
            pValue = .nan
        } else {
            let atMost = defined.filter { $0 <= 0 }.count, atLeast = defined.filter { $0 >= 0 }.count
            pValue = min(1, 2 * Double(min(atMost, atLeast) + 1) / Double(defined.count + 1))
        }
        if interval.undefinedResamples ?? 0 > 0 { warnings.append(.undefinedBootstrapResamples) }
    }
}

/// McNemar's test of two methods' paired decisions on the same samples.
///
/// With `b` = samples only the first method decides correctly and `c` = only the second
/// (the discordant pairs), under H0 both are equally accurate and `b ~ Bin(b + c, 1/2)`:
/// - `b + c < 25`: exact two-sided binomial `p = min(1, 2 Σ_{i <= min(b,c)} C(b+c, i) / 2^(b+c))`
///   (`b + c = 0` gives p = 1);
/// - otherwise the chi-square statistic with Edwards' continuity correction
///   `χ² = max(0, |b - c| - 1)² / (b + c)`, 1 degree of freedom, `p = erfc(sqrt(χ²/2))`.
/// A decision is correct when `(score >= threshold) == bonaFide`.
public struct McNemarTest: Sendable, Equatable, Codable {
    /// Which distribution gave `pValue`.
    public enum Method: String, Sendable, Codable {
        case exactBinomial = "exact_binomial"
        case chiSquareContinuityCorrected = "chi_square_continuity_corrected"
    }

    /// `b`: first correct, second wrong.
    public var onlyFirstCorrect: Int
    /// `c`: first wrong, second correct.
    public var onlySecondCorrect: Int
    public var bothCorrect: Int
    public var bothWrong: Int
    public var method: Method
    /// `χ²` for the chi-square method; nil for the exact test.
    public var statistic: Double?
    public var pValue: Double

    enum CodingKeys: String, CodingKey {
        case onlyFirstCorrect = "only_first_correct"
        case onlySecondCorrect = "only_second_correct"
        case bothCorrect = "both_correct"
        case bothWrong = "both_wrong"
        case method, statistic
        case pValue = "p_value"
    }

    /// The test from the 2x2 table of paired correctness (negative counts count as 0).
    public init(onlyFirstCorrect b: Int, onlySecondCorrect c: Int, bothCorrect: Int = 0, bothWrong: Int = 0) {
        let b = max(0, b), c = max(0, c)
        onlyFirstCorrect = b
        onlySecondCorrect = c
        self.bothCorrect = max(0, bothCorrect)
        self.bothWrong = max(0, bothWrong)
        let n = b + c
        if n < 25 {
            method = .exactBinomial
            statistic = nil
            var tail = 0.0, term = 1.0 // C(n, 0)
            for i in 0...min(b, c) {
                if i > 0 { term *= Double(n - i + 1) / Double(i) }
                tail += term
            }
            pValue = n == 0 ? 1 : min(1, 2 * tail / pow(2, Double(n)))
        } else {
            method = .chiSquareContinuityCorrected
            let corrected = Double(max(0, abs(b - c) - 1))
            let chi = corrected * corrected / Double(n)
            statistic = chi
            pValue = erfc((chi / 2).squareRoot())
        }
    }

    /// The test from per-sample correctness; arrays of different length use the common
    /// prefix.
    public init(firstCorrect: [Bool], secondCorrect: [Bool]) {
        var b = 0, c = 0, both = 0, neither = 0
        for (x, y) in zip(firstCorrect, secondCorrect) {
            switch (x, y) {
            case (true, false): b += 1
            case (false, true): c += 1
            case (true, true): both += 1
            case (false, false): neither += 1
            }
        }
        self.init(onlyFirstCorrect: b, onlySecondCorrect: c, bothCorrect: both, bothWrong: neither)
    }

    /// The test of the decisions `score >= threshold` of two score sets, paired by `id`
    /// as `PairedAUCComparison` pairs them (non-finite scores and unpaired samples left out).
    public init(first: [ScoredSample], second: [ScoredSample], firstThreshold: Double, secondThreshold: Double) {
        var secondByID: [String: ScoredSample] = [:]
        for sample in second where secondByID[sample.id] == nil { secondByID[sample.id] = sample }
        var used = Set<String>()
        var firstCorrect: [Bool] = [], secondCorrect: [Bool] = []
        for sample in first {
            guard sample.score.isFinite, let other = secondByID[sample.id], other.score.isFinite,
                other.bonaFide == sample.bonaFide, used.insert(sample.id).inserted
            else { continue }
            firstCorrect.append((sample.score >= firstThreshold) == sample.bonaFide)
            secondCorrect.append((other.score >= secondThreshold) == sample.bonaFide)
        }
        self.init(firstCorrect: firstCorrect, secondCorrect: secondCorrect)
    }
}
