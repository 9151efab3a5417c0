/// Finite scores sorted once, descending, with the boundaries of tied blocks: the input
/// of every metric that sweeps a threshold (ROC, PR, EER, BPCER at fixed APCER, the
/// bootstrap).
///
/// Order: descending score, ties by ascending input index (a total order, so the result
/// does not depend on the sort's stability). A block is a maximal run of equal scores
/// (`-0.0 == 0.0`); each block is one threshold of the curves, as in scikit-learn's
/// `confusion_matrix_at_thresholds` (formerly `_binary_clf_curve`). Indices are
/// `Int32`: at most 2^31 - 1 samples (and 2^30 bootstrap clusters).
struct RankedScores: Sendable {
    /// Sorted scores, descending.
    let scores: [Double]
    /// 1 for bona fide, 0 for attack, in sorted order.
    let positive: [UInt8]
    /// Input index of each sorted position.
    let order: [Int32]
    /// Exclusive end (sorted position) of each block of equal scores.
    let blockEnds: [Int32]
    let positiveCount: Int
    let negativeCount: Int

    var count: Int { scores.count }

    /// Sorts `scores` (all finite) with their truth `bonaFide` (same length).
    ///
    /// - Complexity: O(n log n).
    init(finiteScores input: [Double], bonaFide: [Bool]) {
        let n = min(input.count, bonaFide.count)
        var pairs = [(score: Double, index: Int32)]()
        pairs.reserveCapacity(n)
        for i in 0..<n { pairs.append((input[i], Int32(i))) }
        pairs.sort { $0.score > $1.score || ($0.score == $1.score && $0.index < $1.index) }
        var scores = [Double](repeating: 0, count: n)
        var positive = [UInt8](repeating: 0, count: n)
        var order = [Int32](repeating: 0, count: n)
        var blockEnds: [Int32] = []
        var positives = 0
        for (k, pair) in pairs.enumerated() {
            scores[k] = pair.score
            order[k] = pair.index
            if bonaFide[Int(pair.index)] {
                positive[k] = 1
                positives += 1
            }
            if k > 0 && pair.score != pairs[k - 1].score { blockEnds.append(Int32(k)) }
        }
        if n > 0 { blockEnds.append(Int32(n)) }
        self.scores = scores
        self.positive = positive
        self.order = order
        self.blockEnds = blockEnds
        positiveCount = positives
        negativeCount = n - positives
    }

    /// Scores already in the order `init(finiteScores:bonaFide:)` gives (descending; all
    /// finite), with their truth; `order` is the position in this list.
    init(sortedScores: [Double], bonaFide: [Bool]) {
        let n = min(sortedScores.count, bonaFide.count)
        var blockEnds: [Int32] = []
        var positive = [UInt8](repeating: 0, count: n)
        var positives = 0
        for k in 0..<n {
            if bonaFide[k] {
                positive[k] = 1
                positives += 1
            }
            if k > 0 && sortedScores[k] != sortedScores[k - 1] { blockEnds.append(Int32(k)) }
        }
        if n > 0 { blockEnds.append(Int32(n)) }
        scores = Array(sortedScores.prefix(n))
        self.positive = positive
        order = (0..<Int32(n)).map { $0 }
        self.blockEnds = blockEnds
        positiveCount = positives
        negativeCount = n - positives
    }

    /// Cumulative false positives (attacks with `score >= threshold`) and true positives
    /// (bona fide with `score >= threshold`) at each block's threshold, descending; the
    /// arrays `fps`, `tps` and `thresholds` of scikit-learn's
    /// `confusion_matrix_at_thresholds`.
    func cumulativeCounts() -> (fps: [Int], tps: [Int], thresholds: [Double]) {
        var fps: [Int] = [], tps: [Int] = [], thresholds: [Double] = []
        fps.reserveCapacity(blockEnds.count)
        tps.reserveCapacity(blockEnds.count)
        thresholds.reserveCapacity(blockEnds.count)
        var tp = 0, start = 0
        positive.withUnsafeBufferPointer { y in
            for end32 in blockEnds {
                let end = Int(end32)
                for i in start..<end { tp += Int(y[i]) }
                tps.append(tp)
                fps.append(end - tp)
                thresholds.append(scores[end - 1])
                start = end
            }
        }
        return (fps, tps, thresholds)
    }

    /// The area under the ROC curve by the trapezoid rule, from exact integer counts:
    /// `Σ_b N_b (2 TP_before(b) + P_b) / (2 P N)` over tied blocks `b` (a tied block is
    /// the diagonal segment, i.e. its pairs count half). NaN when `P` or `N` is 0.
    var auc: Double {
        guard positiveCount > 0 && negativeCount > 0 else { return .nan }
        var numerator = 0, tp = 0, start = 0
        positive.withUnsafeBufferPointer { y in
            for end32 in blockEnds {
                let end = Int(end32)
                var p = 0
                for i in start..<end { p += Int(y[i]) }
                let negatives = end - start - p
                numerator += negatives * (2 * tp + p)
                tp += p
                start = end
            }
        }
        return Double(numerator) / (2 * Double(positiveCount) * Double(negativeCount))
    }
}

/// The finite-score part of parallel score/truth arrays, and what was dropped.
struct CleanedScores {
    var scores: [Double] = []
    var bonaFide: [Bool] = []
    /// Input indices kept.
    var kept: [Int] = []
    var excluded = 0
    var warnings: [MetricsWarning] = []

    init(scores input: [Double], bonaFide truth: [Bool]) {
        let n = min(input.count, truth.count)
        if input.count != truth.count { warnings.append(.lengthMismatch) }
        scores.reserveCapacity(n)
        bonaFide.reserveCapacity(n)
        kept.reserveCapacity(n)
        for i in 0..<n where input[i].isFinite {
            scores.append(input[i])
            bonaFide.append(truth[i])
            kept.append(i)
        }
        excluded = n - scores.count
        if excluded > 0 { warnings.append(.nonFiniteScoresExcluded) }
    }

    /// The class warnings for what was kept: `empty`, `noBonaFide`, `noAttack`.
    static func classWarnings(positives: Int, negatives: Int) -> [MetricsWarning] {
        if positives + negatives == 0 { return [.empty] }
        var warnings: [MetricsWarning] = []
        if positives == 0 { warnings.append(.noBonaFide) }
        if negatives == 0 { warnings.append(.noAttack) }
        return warnings
    }
}
