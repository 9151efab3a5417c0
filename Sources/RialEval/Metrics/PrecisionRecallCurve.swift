/// Precision and recall of the bona fide class per threshold, and the average precision,
/// exactly as scikit-learn's `precision_recall_curve` and `average_precision_score`
/// (sklearn 1.9, `sklearn/metrics/_ranking.py`).
///
/// Positive class = bona fide; accepted when `score >= threshold`. With `TP_k`, `FP_k`
/// the bona fide and attacks accepted at the k-th distinct score (descending):
/// `precision = TP / (TP + FP)`, `recall = TP / P`. sklearn's conventions are kept:
/// - the arrays run by increasing threshold (`thresholds` ascending, recall
///   non-increasing) and end with the extra point precision 1, recall 0, which has no
///   threshold (`precision.count == recall.count == thresholds.count + 1`);
/// - `averagePrecision = Σ_n (R_{n-1} - R_n) P_{n-1}` over that order, i.e. the step
///   sum `Σ (R_n - R_{n-1}) P_n` by decreasing threshold, not interpolated; clipped at 0.
///
/// Bad input never traps: no bona fide sample gives recall 1 at every threshold and
/// `averagePrecision` 0 (as sklearn, which warns), warning `noBonaFide`; no attack gives
/// precision 1 and AP 1 (`noAttack`); no sample gives `precision [1]`, `recall [0]`,
/// no thresholds and AP NaN (`empty`). Non-finite scores are excluded.
public struct PrecisionRecallCurve: Sendable, Equatable {
    /// Precision per threshold (ascending thresholds), then 1.
    public var precision: [Double]
    /// Recall per threshold (ascending thresholds, so non-increasing), then 0.
    public var recall: [Double]
    /// The distinct scores, ascending.
    public var thresholds: [Double]
    /// Step-sum average precision, 0...1; NaN without samples.
    public var averagePrecision: Double
    public var bonaFideCount: Int
    public var attackCount: Int
    public var excludedCount: Int
    public var warnings: [MetricsWarning]

    /// The curve of `scores` against `bonaFide`. `dropIntermediate` as sklearn's option
    /// of that name (default false there too): of each run of thresholds with equal true
    /// positives keep only the first and the last (a vertical run on the plot).
    /// `averagePrecision` is always computed on the full curve, as sklearn does.
    ///
    /// - Complexity: O(n log n).
    public init(scores: [Double], bonaFide: [Bool], dropIntermediate: Bool = false) {
        let cleaned = CleanedScores(scores: scores, bonaFide: bonaFide)
        self.init(
            ranked: RankedScores(finiteScores: cleaned.scores, bonaFide: cleaned.bonaFide),
            excluded: cleaned.excluded, inputWarnings: cleaned.warnings, dropIntermediate: dropIntermediate)
    }

    /// The curve of the samples' scores against their `bonaFide` truth.
    public init(samples: [ScoredSample], dropIntermediate: Bool = false) {
        self.init(scores: samples.map(\.score), bonaFide: samples.map(\.bonaFide), dropIntermediate: dropIntermediate)
    }

    /// sklearn's `average_precision_score(bonaFide, scores)`; see the type's comment.
    public static func averagePrecision(scores: [Double], bonaFide: [Bool]) -> Double {
        PrecisionRecallCurve(scores: scores, bonaFide: bonaFide).averagePrecision
    }

    init(ranked: RankedScores, excluded: Int, inputWarnings: [MetricsWarning], dropIntermediate: Bool = false) {
        let counts = ranked.cumulativeCounts()
        let positives = ranked.positiveCount
        bonaFideCount = positives
        attackCount = ranked.negativeCount
        excludedCount = excluded
        warnings = inputWarnings + CleanedScores.classWarnings(positives: positives, negatives: ranked.negativeCount)

        let full = Self.points(fps: counts.fps, tps: counts.tps, thresholds: counts.thresholds, positives: positives)
        if ranked.count == 0 {
            averagePrecision = .nan
        } else {
            var sum = 0.0
            for i in 0..<(full.recall.count - 1) { sum += (full.recall[i] - full.recall[i + 1]) * full.precision[i] }
            averagePrecision = max(0, sum)
        }
        if dropIntermediate && counts.tps.count > 2 {
            let tps = counts.tps
            var keep = [0]
            for i in 1..<(tps.count - 1) where tps[i] != tps[i - 1] || tps[i + 1] != tps[i] { keep.append(i) }
            keep.append(tps.count - 1)
            let dropped = Self.points(
                fps: keep.map { counts.fps[$0] }, tps: keep.map { tps[$0] },
                thresholds: keep.map { counts.thresholds[$0] }, positives: positives)
            (precision, recall, thresholds) = (dropped.precision, dropped.recall, dropped.thresholds)
        } else {
            (precision, recall, thresholds) = (full.precision, full.recall, full.thresholds)
        }
    }

    /// sklearn's arrays from descending-threshold counts: reversed, plus the (1, 0) end.
    private static func points(fps: [Int], tps: [Int], thresholds: [Double], positives: Int)
        -> (precision: [Double], recall: [Double], thresholds: [Double])
    {
        var precision: [Double] = [], recall: [Double] = []
        precision.reserveCapacity(tps.count + 1)
        recall.reserveCapacity(tps.count + 1)
        for k in stride(from: tps.count - 1, through: 0, by: -1) {
            let predicted = tps[k] + fps[k]
            precision.append(predicted != 0 ? Double(tps[k]) / Double(predicted) : 0)
            recall.append(positives > 0 ? Double(tps[k]) / Double(positives) : 1)
        }
        precision.append(1)
        recall.append(0)
        return (precision, recall, thresholds.reversed())
    }
}
