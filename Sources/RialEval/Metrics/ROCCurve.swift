/// The receiver operating characteristic of scores against bona fide truth, exactly as
/// scikit-learn's `roc_curve(y_true, y_score, drop_intermediate=False)` and
/// `roc_auc_score` define it (sklearn 1.9, `sklearn/metrics/_ranking.py`).
///
/// Positive class = bona fide (`real_scene`); a sample is accepted at threshold `t` when
/// `score >= t`. Scores are sorted descending (stably); there is one threshold per
/// distinct score, highest first, preceded by `+inf` so that the curve starts at (0, 0):
/// point `k` has `fpr = FP_k / N`, `tpr = TP_k / P` with `FP_k`, `TP_k` the attacks and
/// bona fide with `score >= thresholds[k]`. Tied scores form one threshold, so a tie
/// between classes is a diagonal segment. `auc` is the trapezoid area under the points
/// (computed from exact integer counts: equal to sklearn's up to rounding, ~1e-16).
///
/// Bad input never traps:
/// - no attack: `fpr` all NaN, `auc` NaN, warning `noAttack` (sklearn: NaN plus an
///   `UndefinedMetricWarning`); no bona fide: `tpr` all NaN, `auc` NaN, `noBonaFide`;
/// - no samples: the single point `(NaN, NaN)` at `+inf`, `auc` NaN, `empty`;
/// - NaN/infinite scores are excluded (sklearn raises), `nonFiniteScoresExcluded`;
/// - arrays of different length: the common prefix, `lengthMismatch`.
public struct ROCCurve: Sendable, Equatable {
    /// False positive rate (= pooled APCER) per threshold, 0...1, non-decreasing.
    public var falsePositiveRates: [Double]
    /// True positive rate (= 1 - BPCER) per threshold, 0...1, non-decreasing.
    public var truePositiveRates: [Double]
    /// `+inf`, then the distinct scores in descending order.
    public var thresholds: [Double]
    /// Attacks with `score >= thresholds[k]` (0 at `+inf`).
    public var falsePositives: [Int]
    /// Bona fide samples with `score >= thresholds[k]` (0 at `+inf`).
    public var truePositives: [Int]
    /// Area under the curve, 0...1; NaN when a class is missing.
    public var auc: Double
    public var bonaFideCount: Int
    public var attackCount: Int
    /// Samples left out for a non-finite score.
    public var excludedCount: Int
    public var warnings: [MetricsWarning]

    /// The curve of `scores` (any finite values, higher = more likely bona fide) against
    /// `bonaFide` (true = positive class).
    ///
    /// - Complexity: O(n log n) for the sort, O(n) after.
    public init(scores: [Double], bonaFide: [Bool]) {
        let cleaned = CleanedScores(scores: scores, bonaFide: bonaFide)
        self.init(
            ranked: RankedScores(finiteScores: cleaned.scores, bonaFide: cleaned.bonaFide),
            excluded: cleaned.excluded, inputWarnings: cleaned.warnings)
    }

    /// The curve of the samples' scores against their `bonaFide` truth.
    public init(samples: [ScoredSample]) {
        self.init(scores: samples.map(\.score), bonaFide: samples.map(\.bonaFide))
    }

    init(ranked: RankedScores, excluded: Int, inputWarnings: [MetricsWarning]) {
        let counts = ranked.cumulativeCounts()
        self.init(
            fps: [0] + counts.fps, tps: [0] + counts.tps, thresholds: [.infinity] + counts.thresholds,
            auc: ranked.auc, positives: ranked.positiveCount, negatives: ranked.negativeCount,
            excluded: excluded,
            warnings: inputWarnings
                + CleanedScores.classWarnings(
                    positives: ranked.positiveCount,
                    negatives: ranked.negativeCount))
    }

    private init(
        fps: [Int], tps: [Int], thresholds: [Double], auc: Double, positives: Int, negatives: Int,
        excluded: Int, warnings: [MetricsWarning]
    ) {
        falsePositives = fps
        truePositives = tps
        self.thresholds = thresholds
        falsePositiveRates = fps.map { negatives > 0 ? Double($0) / Double(negatives) : .nan }
        truePositiveRates = tps.map { positives > 0 ? Double($0) / Double(positives) : .nan }
        self.auc = auc
        bonaFideCount = positives
        attackCount = negatives
        excludedCount = excluded
        self.warnings = warnings
    }

    /// The same curve for plotting, as sklearn's default `drop_intermediate=True`: of the
    /// threshold points after `+inf`, keep the first, the last, and every point where the
    /// second difference of the false or of the true positive counts is non-zero
    /// (a corner); with at most 2 such points nothing is dropped. The dropped points lie
    /// on straight segments between kept ones, so `auc` is unchanged.
    public func droppingIntermediatePoints() -> ROCCurve {
        let fps = Array(falsePositives.dropFirst()), tps = Array(truePositives.dropFirst())
        let levels = Array(thresholds.dropFirst())
        guard fps.count > 2 else { return self }
        var keep = [0]
        for i in 1..<(fps.count - 1) {
            let corner = fps[i - 1] - 2 * fps[i] + fps[i + 1] != 0 || tps[i - 1] - 2 * tps[i] + tps[i + 1] != 0
            if corner { keep.append(i) }
        }
        keep.append(fps.count - 1)
        return ROCCurve(
            fps: [0] + keep.map { fps[$0] }, tps: [0] + keep.map { tps[$0] },
            thresholds: [.infinity] + keep.map { levels[$0] }, auc: auc,
            positives: bonaFideCount, negatives: attackCount, excluded: excludedCount,
            warnings: warnings)
    }
}
