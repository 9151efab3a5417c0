/// The detection error trade-off curve: APCER (pooled) against BPCER over thresholds,
/// exactly as scikit-learn's `det_curve(y_true, y_score)` (sklearn 1.9,
/// `sklearn/metrics/_ranking.py`, default `drop_intermediate=False`).
///
/// Mapping to sklearn: `y_true` = 1 for bona fide (`real_scene`, the positive class, as
/// every ROC here), `y_score` = the score (higher = more likely bona fide). sklearn's
/// `fpr` = attacks with `score >= t` / attacks = pooled APCER; its `fnr` = bona fide
/// with `score < t` / bona fide = BPCER. So `apcer[k]`, `bpcer[k]` and `thresholds[k]`
/// are sklearn's `fpr[k]`, `fnr[k]`, `thresholds[k]`.
///
/// Construction (sklearn's): the ROC points with `+inf` first (`ROCCurve`), cut to the
/// stretch from the last point with no attack accepted to the first point with every
/// bona fide accepted, then reversed, so thresholds increase, APCER falls and BPCER
/// rises along the arrays.
///
/// sklearn raises when a class is missing; here the arrays are empty and `warnings` say
/// why (`noAttack`, `noBonaFide`, `empty`). Non-finite scores are excluded, as `ROCCurve`.
public struct DETCurve: Sendable, Equatable {
    /// Pooled APCER (sklearn `fpr`), non-increasing.
    public var apcer: [Double]
    /// BPCER (sklearn `fnr`), non-decreasing.
    public var bpcer: [Double]
    /// Increasing; a `+inf` threshold (accept nothing) can only be the last.
    public var thresholds: [Double]
    public var bonaFideCount: Int
    public var attackCount: Int
    public var warnings: [MetricsWarning]

    /// The DET points of `curve` (the full curve, not `droppingIntermediatePoints()`).
    public init(curve: ROCCurve) {
        bonaFideCount = curve.bonaFideCount
        attackCount = curve.attackCount
        warnings = curve.warnings
        apcer = []
        bpcer = []
        thresholds = []
        let p = curve.bonaFideCount, n = curve.attackCount
        guard p > 0, n > 0 else { return }
        let fps = curve.falsePositives, tps = curve.truePositives
        // sklearn: first_ind = searchsorted(fps, fps[0], 'right') - 1; last_ind = searchsorted(tps, tps[-1]) + 1.
        let first = (fps.lastIndex { $0 == fps[0] }) ?? 0
        let last = (tps.firstIndex { $0 == p }) ?? (tps.count - 1)
        guard first <= last else { return }
        for k in stride(from: last, through: first, by: -1) {
            apcer.append(Double(fps[k]) / Double(n))
            bpcer.append(Double(p - tps[k]) / Double(p))
            thresholds.append(curve.thresholds[k])
        }
    }

    /// The DET curve of `scores` against `bonaFide` (true = bona fide).
    public init(scores: [Double], bonaFide: [Bool]) {
        self.init(curve: ROCCurve(scores: scores, bonaFide: bonaFide))
    }
}
