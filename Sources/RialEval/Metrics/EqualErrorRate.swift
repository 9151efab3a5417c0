/// The equal error rate: where the ROC curve crosses `FPR = FNR` (pooled APCER =
/// BPCER), and the threshold there.
///
/// Convention: the ROC points (`+inf` first, then each distinct score descending, as
/// `ROCCurve`) joined by straight segments, which is the curve whose trapezoid area is
/// the AUC. `FPR` rises and `FNR = 1 - TPR` falls along it, so it meets `FPR = FNR`
/// exactly once. With `k` the first point where `FPR_k >= FNR_k` and
/// `d = FNR - FPR`:
/// - `d_k = 0`: `rate = FPR_k`, `threshold = thresholds[k]`;
/// - otherwise the crossing inside segment `k-1 -> k` at `α = d_{k-1} / (d_{k-1} - d_k)`:
///   `rate = FPR_{k-1} + α (FPR_k - FPR_{k-1})` (equal to the FNR there), and
///   `threshold` the same linear interpolation between `thresholds[k-1]` and
///   `thresholds[k]`, or `thresholds[k]` when `thresholds[k-1]` is `+inf`.
/// A threshold strictly between two distinct scores decides like the higher one, so the
/// interpolated threshold marks where the EER lies, not an operating point that reaches
/// it exactly. All scores tied gives 0.5 at that score. The crossing test uses exact
/// integer counts.
///
/// NaN rate and threshold when a class is missing or there are no samples.
public struct EqualErrorRate: Sendable, Equatable {
    /// 0...1 (0.5 or less for a curve at or above the diagonal).
    public var rate: Double
    /// Score threshold of the crossing, see the type's comment.
    public var threshold: Double

    public init(rate: Double, threshold: Double) {
        self.rate = rate
        self.threshold = threshold
    }

    /// The EER of a ROC curve (full or with intermediate points dropped: the rate is the
    /// same, the interpolated threshold may differ).
    public init(curve: ROCCurve) {
        var tracker = EERTracker(positives: curve.bonaFideCount, negatives: curve.attackCount)
        for k in curve.thresholds.indices where !tracker.isDone {
            tracker.add(
                falsePositives: curve.falsePositives[k], truePositives: curve.truePositives[k],
                threshold: curve.thresholds[k])
        }
        self = tracker.result
    }

    /// The EER of `scores` against `bonaFide` (see `ROCCurve` for input handling).
    public init(scores: [Double], bonaFide: [Bool]) {
        self.init(curve: ROCCurve(scores: scores, bonaFide: bonaFide))
    }

    static let undefined = EqualErrorRate(rate: .nan, threshold: .nan)
}

/// Finds the EER crossing while ROC points arrive in descending-threshold order; the
/// counts may be weighted (bootstrap multiplicities). The first point must be (0, 0) at
/// `+inf`; points that repeat the previous counts may be skipped by the caller.
struct EERTracker {
    let positives: Int
    let negatives: Int
    private var previous: (d: Int, fp: Int, threshold: Double)?
    private(set) var result = EqualErrorRate.undefined
    private(set) var isDone: Bool

    init(positives: Int, negatives: Int) {
        self.positives = positives
        self.negatives = negatives
        isDone = positives <= 0 || negatives <= 0
    }

    /// Adds the point with `falsePositives` attacks and `truePositives` bona fide accepted.
    mutating func add(falsePositives fp: Int, truePositives tp: Int, threshold: Double) {
        guard !isDone else { return }
        // d * P * N, exact: FNR - FPR = ((P - tp) N - fp P) / (P N).
        let d = (positives &- tp) &* negatives &- fp &* positives
        guard d <= 0 else {
            previous = (d, fp, threshold)
            return
        }
        let fpr = Double(fp) / Double(negatives)
        if d == 0 || previous == nil {
            result = EqualErrorRate(rate: fpr, threshold: threshold)
        } else if let p = previous {
            let alpha = Double(p.d) / Double(p.d - d)
            let previousFPR = Double(p.fp) / Double(negatives)
            let rate = previousFPR + alpha * (fpr - previousFPR)
            let level = p.threshold.isFinite ? p.threshold + alpha * (threshold - p.threshold) : threshold
            result = EqualErrorRate(rate: rate, threshold: level)
        }
        isDone = true
    }
}
