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
        let order = Self.descendingOrder(Array(input.prefix(n)))
        var scores = [Double](repeating: 0, count: n)
        var positive = [UInt8](repeating: 0, count: n)
        var blockEnds: [Int32] = []
        var positives = 0
        for k in 0..<n {
            let index = Int(order[k])
            scores[k] = input[index]
            if bonaFide[index] {
                positive[k] = 1
                positives += 1
            }
            if k > 0 && scores[k] != scores[k - 1] { blockEnds.append(Int32(k)) }
        }
        if n > 0 { blockEnds.append(Int32(n)) }
        self.scores = scores
        self.positive = positive
        self.order = order
        self.blockEnds = blockEnds
        positiveCount = positives
        negativeCount = n - positives
    }

    /// Below this many scores the comparison sort is used (the radix sort's 2 MiB of
    /// counts would cost more than it saves).
    static let radixMinimum = 4_096

    /// Input indices of `scores` (no NaN) in descending score, ties by ascending index.
    ///
    /// Large inputs take a stable LSD radix sort on 16-bit digits of an order-preserving
    /// key (`-0.0` read as `0.0`, so the two tie as `==` says); small ones the standard
    /// library's sort with the same total order. Written here because the standard
    /// library's sort with a comparator took a third of a million-sample report's CPU (every
    /// curve sorts its scores) and no library on this machine sorts doubles by key; the
    /// order is the same (`RankedScoresTests`).
    static func descendingOrder(_ scores: [Double]) -> [Int32] {
        let n = scores.count
        if n < radixMinimum {
            var order = (0..<Int32(n)).map { $0 }
            order.sort { scores[Int($0)] > scores[Int($1)] || (scores[Int($0)] == scores[Int($1)] && $0 < $1) }
            return order
        }
        // Ascending key = descending score: IEEE 754 bits made monotonic, then inverted.
        var keys = scores.map { score -> UInt64 in
            let bits = (score == 0 ? 0.0 : score).bitPattern
            let ascending = bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
            return ~ascending
        }
        var order = (0..<Int32(n)).map { $0 }
        var spareKeys = [UInt64](repeating: 0, count: n)
        var spareOrder = [Int32](repeating: 0, count: n)
        var counts = [Int](repeating: 0, count: 4 << 16)
        keys.withUnsafeBufferPointer { k in
            counts.withUnsafeMutableBufferPointer { c in
                for key in k {
                    for digit in 0..<4 { c[digit << 16 | Int((key >> (16 * UInt64(digit))) & 0xFFFF)] += 1 }
                }
            }
        }
        for digit in 0..<4 {
            let shift = 16 * UInt64(digit), base = digit << 16
            // A digit every key shares does not reorder anything.
            if counts[base + Int((keys[0] >> shift) & 0xFFFF)] == n { continue }
            var sum = 0
            for b in base..<(base + (1 << 16)) {
                let c = counts[b]
                counts[b] = sum
                sum += c
            }
            keys.withUnsafeBufferPointer { k in
                order.withUnsafeBufferPointer { o in
                    spareKeys.withUnsafeMutableBufferPointer { sk in
                        spareOrder.withUnsafeMutableBufferPointer { so in
                            counts.withUnsafeMutableBufferPointer { c in
                                for i in 0..<n {
                                    let key = k[i]
                                    let b = base + Int((key >> shift) & 0xFFFF)
                                    let position = c[b]
                                    c[b] = position + 1
                                    sk[position] = key
                                    so[position] = o[i]
                                }
                            }
                        }
                    }
                }
            }
            swap(&keys, &spareKeys)
            swap(&order, &spareOrder)
        }
        return order
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
