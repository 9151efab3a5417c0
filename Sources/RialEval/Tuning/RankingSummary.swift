/// The quality numbers tuning optimises and reports, computed on plain arrays (the fast
/// path of `rial-bench tune`): scores sorted once, descending, in tied blocks.
///
/// Conventions are the package's (specs/evaluation.md): higher = more likely bona fide,
/// accept when `score >= threshold`, ROC positive class = bona fide, ties are one ROC
/// step (a diagonal segment), APCER per attack species with the maximum over species
/// as the headline. Non-finite scores are left out.
public struct RankingSummary: Sendable {
    /// Finite scores, descending.
    let scores: [Double]
    let bonaFide: [Bool]
    /// Attack species index (-1 for bona fide).
    let species: [Int32]
    /// Exclusive ends of the blocks of equal scores.
    let blockEnds: [Int]
    public let positives: Int
    public let negatives: Int
    let speciesTotals: [Int]

    /// - Parameters:
    ///   - scores: one per sample; non-finite ones are left out.
    ///   - bonaFide: truth per sample.
    ///   - species: attack species per sample (`0..<speciesCount`; ignored for bona fide).
    public init(scores input: [Double], bonaFide truth: [Bool], species kinds: [Int32], speciesCount: Int) {
        let order = Self.descendingOrder(input)
        let pairs = order.map { (input[Int($0)], $0) }
        var totals = [Int](repeating: 0, count: speciesCount)
        var s: [Double] = [], b: [Bool] = [], k: [Int32] = [], ends: [Int] = []
        s.reserveCapacity(pairs.count)
        b.reserveCapacity(pairs.count)
        k.reserveCapacity(pairs.count)
        var positives = 0
        for (position, (score, index)) in pairs.enumerated() {
            if position > 0 && score != s[position - 1] { ends.append(position) }
            s.append(score)
            let real = truth[Int(index)]
            b.append(real)
            if real {
                positives += 1
                k.append(-1)
            } else {
                let kind = kinds[Int(index)]
                k.append(kind)
                totals[Int(kind)] += 1
            }
        }
        if !pairs.isEmpty { ends.append(pairs.count) }
        scores = s
        bonaFide = b
        species = k
        blockEnds = ends
        self.positives = positives
        negatives = pairs.count - positives
        speciesTotals = totals
    }

    /// Indices of the finite values of `values`, by descending value, ties by ascending
    /// index (`-0.0 == 0.0`): a stable least-significant-digit radix sort on the keys
    /// `~order(v)`, where `order` maps a double's bits to an unsigned integer with the
    /// same order (sign bit flipped for positives, all bits for negatives). Eight passes
    /// of one byte; a pass where every key has the same byte is skipped.
    ///
    /// - Complexity: O(n) (at most 8 passes), against O(n log n) comparisons: tuning sorts
    ///   once per candidate weight vector.
    static func descendingOrder(_ values: [Double]) -> [Int32] {
        var keys: [UInt64] = [], index: [Int32] = []
        keys.reserveCapacity(values.count)
        index.reserveCapacity(values.count)
        for (i, v) in values.enumerated() where v.isFinite {
            let bits = (v + 0.0).bitPattern // -0.0 + 0.0 = +0.0
            let ascending = bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
            keys.append(~ascending)
            index.append(Int32(i))
        }
        let n = keys.count
        var keys2 = [UInt64](repeating: 0, count: n), index2 = [Int32](repeating: 0, count: n)
        var counts = [Int](repeating: 0, count: 256)
        for shift in stride(from: 0, to: 64, by: 8) {
            for k in 0..<256 { counts[k] = 0 }
            for key in keys { counts[Int((key >> UInt64(shift)) & 0xFF)] += 1 }
            if counts.contains(n) { continue }
            var total = 0
            for k in 0..<256 {
                let c = counts[k]
                counts[k] = total
                total += c
            }
            for j in 0..<n {
                let digit = Int((keys[j] >> UInt64(shift)) & 0xFF)
                let to = counts[digit]
                counts[digit] = to + 1
                keys2[to] = keys[j]
                index2[to] = index[j]
            }
            swap(&keys, &keys2)
            swap(&index, &index2)
        }
        return index
    }

    /// ROC AUC by the trapezoid rule over the tied blocks (= `sklearn.metrics.roc_auc_score`);
    /// NaN when a class is missing.
    public var auc: Double {
        guard positives > 0 && negatives > 0 else { return .nan }
        var tp = 0, start = 0
        var twiceArea = 0
        for end in blockEnds {
            var pos = 0
            for i in start..<end where bonaFide[i] { pos += 1 }
            let neg = end - start - pos
            twiceArea += neg * (2 * tp + pos)
            tp += pos
            start = end
        }
        return Double(twiceArea) / (2 * Double(positives) * Double(negatives))
    }

    /// The ROC points `(fpr, tpr)` from `(0, 0)`, one per tied block (pooled APCER and
    /// 1 - BPCER at each distinct score as the threshold).
    public var rocPoints: [(fpr: Double, tpr: Double)] {
        guard positives > 0 && negatives > 0 else { return [] }
        var points: [(Double, Double)] = [(0, 0)]
        var tp = 0, fp = 0, start = 0
        for end in blockEnds {
            for i in start..<end { if bonaFide[i] { tp += 1 } else { fp += 1 } }
            points.append((Double(fp) / Double(negatives), Double(tp) / Double(positives)))
            start = end
        }
        return points
    }

    /// Standardised partial AUC over pooled APCER (FPR) in `0...maxFPR`, exactly as
    /// `sklearn.metrics.roc_auc_score(y, s, max_fpr=maxFPR)`: the area under the ROC up to
    /// `maxFPR` (the last segment interpolated linearly), then McClish's correction
    /// `(1 + (A - maxFPR²/2) / (maxFPR - maxFPR²/2)) / 2`, so 0.5 is chance and 1 perfect.
    /// NaN when a class is missing or `maxFPR` is outside (0, 1].
    public func partialAUC(maxFPR: Double) -> Double {
        guard maxFPR > 0 && maxFPR <= 1 else { return .nan }
        let points = rocPoints
        guard points.count >= 2 else { return .nan }
        var area = 0.0
        for i in 1..<points.count {
            let (x0, y0) = points[i - 1], (x1, y1) = points[i]
            if x1 <= maxFPR {
                area += (x1 - x0) * (y0 + y1) / 2
                continue
            }
            if x0 < maxFPR {
                let y = y0 + (y1 - y0) * (maxFPR - x0) / (x1 - x0)
                area += (maxFPR - x0) * (y0 + y) / 2
            }
            break
        }
        let minArea = maxFPR * maxFPR / 2
        return (1 + (area - minArea) / (maxFPR - minArea)) / 2
    }

    /// The highest threshold whose BPCER on these samples is `<= target`: with the bona
    /// fide scores ascending `u_0 <= u_1 <= ...` and `r` the largest count with
    /// `r / N+ <= target`, `u_r` (fewer than `r + 1` bona fide lie strictly below it; any
    /// higher threshold rejects at least `r + 1`). NaN without bona fide or for a target
    /// outside 0...1; `-inf` when `r = N+` (every bona fide may be rejected).
    public func thresholdForBPCER(_ target: Double) -> Double {
        guard positives > 0, target >= 0, target <= 1 else { return .nan }
        let allowed = Self.largestCount(target, of: positives)
        guard allowed < positives else { return -.infinity }
        // The (allowed)-th bona fide score from the bottom, 0-based: walk from the lowest.
        var seen = 0
        for i in stride(from: scores.count - 1, through: 0, by: -1) where bonaFide[i] {
            if seen == allowed { return scores[i] }
            seen += 1
        }
        return .nan
    }

    /// The lowest threshold whose APCER on these samples is `<= target`, among `+inf` and
    /// the distinct scores (the candidates of `BPCERAtAPCER`, which this equals):
    /// `maxOverSpecies` requires every species to meet the target, otherwise pooled.
    /// NaN without attacks or for a target outside 0...1.
    public func thresholdForAPCER(_ target: Double, maxOverSpecies: Bool = true) -> Double {
        guard negatives > 0, target >= 0, target <= 1 else { return .nan }
        var accepted = [Int](repeating: 0, count: speciesTotals.count)
        var acceptedAll = 0, start = 0, current = 0.0
        var best = Double.infinity
        for end in blockEnds {
            for i in start..<end where !bonaFide[i] {
                let s = Int(species[i])
                accepted[s] += 1
                acceptedAll += 1
                current =
                    maxOverSpecies
                    ? max(current, Double(accepted[s]) / Double(speciesTotals[s]))
                    : Double(acceptedAll) / Double(negatives)
            }
            if current > target { break }
            best = scores[end - 1]
            start = end
        }
        return best
    }

    /// Rates at `threshold` (accept when `score >= threshold`): BPCER, pooled APCER,
    /// and the APCER of each species (NaN for a species without attacks here).
    public func rates(at threshold: Double) -> (bpcer: Double, apcerPooled: Double, apcerPerSpecies: [Double]) {
        var rejected = 0, acceptedAll = 0
        var accepted = [Int](repeating: 0, count: speciesTotals.count)
        for i in scores.indices {
            let accept = scores[i] >= threshold
            if bonaFide[i] {
                if !accept { rejected += 1 }
            } else if accept {
                acceptedAll += 1
                accepted[Int(species[i])] += 1
            }
        }
        return (
            positives > 0 ? Double(rejected) / Double(positives) : .nan,
            negatives > 0 ? Double(acceptedAll) / Double(negatives) : .nan,
            speciesTotals.indices.map {
                speciesTotals[$0] > 0 ? Double(accepted[$0]) / Double(speciesTotals[$0]) : .nan
            }
        )
    }

    /// The maximum over species with attacks of `perSpecies` (NaN when none).
    public static func maxRate(_ perSpecies: [Double]) -> Double {
        perSpecies.filter { !$0.isNaN }.max() ?? .nan
    }

    /// The largest `r` in `0...n` with `r / n <= target`, the quotient correctly rounded
    /// (so 3/60 <= 0.05 holds).
    static func largestCount(_ target: Double, of n: Int) -> Int {
        var r = min(n, max(0, Int((target * Double(n)).rounded(.down))))
        while r < n && Double(r + 1) / Double(n) <= target { r += 1 }
        while r > 0 && Double(r) / Double(n) > target { r -= 1 }
        return r
    }
}
