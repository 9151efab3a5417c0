/// Seeded cluster-bootstrap percentile intervals for AUC, EER and the operating-point
/// rates (APCER max and pooled, BPCER, ACER, TPR at a threshold).
///
/// Whole clusters (`ScoredSample.group`, or the sample alone) are resampled with
/// replacement (`ClusterResampler`), so correlated captures of one session or scene do
/// not narrow the interval. Each resample is a multiplicity per cluster; every statistic
/// is its weighted version over the scores sorted once:
/// - AUC: `Σ_b N_b (2 TP_before + P_b) / (2 P N)` over tied blocks with weighted counts
///   (= sklearn `roc_auc_score(..., sample_weight=w)`), O(n) per resample;
/// - EER: the `EqualErrorRate` crossing rate on the weighted ROC points, in the same
///   pass (exact integer crossing test, stops testing after the crossing);
/// - rates at `threshold`: from per-cluster counts, O(clusters + cluster-species pairs).
/// The interval is the `(1 ± level)/2` quantiles (type 7, linear) of the resamples where
/// the statistic is defined; resamples that lack a class are left out and counted.
///
/// - Complexity: O(n log n) to prepare, O(n) per resample, spread over the cores.
public struct ClusterBootstrap: Sendable {
    /// The seven statistics of `intervals`.
    public struct Intervals: Sendable, Equatable {
        public var auc: ConfidenceInterval
        public var eer: ConfidenceInterval
        public var apcerMax: ConfidenceInterval
        public var apcerPooled: ConfidenceInterval
        public var bpcer: ConfidenceInterval
        public var acer: ConfidenceInterval
        public var truePositiveRate: ConfidenceInterval
    }

    let curve: WeightedCurve
    let tally: OperatingPointTally
    public let threshold: Double

    /// Clusters found (distinct groups plus ungrouped samples with a finite score).
    public var clusterCount: Int { curve.clusterCount }

    /// Prepares `samples` (non-finite scores excluded) for resampling; rates are taken
    /// at `threshold` (accept when `score >= threshold`).
    public init(samples: [ScoredSample], threshold: Double) {
        self.init(prepared: RankedSamples(samples: samples), threshold: threshold)
    }

    /// Parallel arrays: `clusters[i]` any integer label of sample `i`'s cluster (numbered
    /// internally as `ClusterNumbering` describes: by highest score, ties by label). All
    /// attacks count as one species, so `apcerMax == apcerPooled`. Non-finite scores are
    /// excluded; of arrays of different lengths the common prefix is used.
    public init(scores: [Double], bonaFide: [Bool], clusters: [Int], threshold: Double = 0.5) {
        let n = min(scores.count, bonaFide.count, clusters.count)
        let kept = (0..<n).filter { scores[$0].isFinite }
        let ranked = RankedScores(finiteScores: kept.map { scores[$0] }, bonaFide: kept.map { bonaFide[$0] })
        let numbering = ClusterNumbering(integers: kept.map { clusters[$0] }).ranked(by: ranked)
        let clusterOfSorted = ranked.order.map { numbering.indexOfItem[Int($0)] }
        let speciesOfSorted: [Int32] = ranked.positive.map { $0 == 1 ? -1 : 0 }
        curve = WeightedCurve(ranked: ranked, clusterOfSorted: clusterOfSorted, clusterCount: numbering.count)
        tally = OperatingPointTally(
            ranked: ranked, clusterOfSorted: clusterOfSorted, speciesOfSorted: speciesOfSorted,
            speciesCount: 1, clusterCount: numbering.count, threshold: threshold)
        self.threshold = threshold
    }

    /// `minimumAttacks`: the fewest attacks (in the original samples) a species needs to
    /// count in the APCER max, as `PresentationAttackMetrics`.
    init(prepared: RankedSamples, threshold: Double, minimumAttacks: Int = 1) {
        curve = WeightedCurve(
            ranked: prepared.ranked, clusterOfSorted: prepared.clusterOfSorted,
            clusterCount: prepared.clusterCount)
        tally = OperatingPointTally(prepared: prepared, threshold: threshold, minimumAttacks: minimumAttacks)
        self.threshold = threshold
    }

    /// The intervals for `settings`; nil when `settings.resamples == 0`.
    public func intervals(_ settings: BootstrapSettings = .standard) -> Intervals? {
        guard settings.resamples > 0 else { return nil }
        let replicates = replicates(settings)
        func interval(_ metric: KeyPath<Replicate, Double>) -> ConfidenceInterval {
            .bootstrapPercentile(replicates.map { $0[keyPath: metric] }, settings: settings)
        }
        return Intervals(
            auc: interval(\.auc), eer: interval(\.eer), apcerMax: interval(\.apcerMax),
            apcerPooled: interval(\.apcerPooled), bpcer: interval(\.bpcer), acer: interval(\.acer),
            truePositiveRate: interval(\.truePositiveRate))
    }

    /// The metrics of one resample (NaN where undefined).
    struct Replicate: Sendable, Equatable {
        var auc: Double
        var eer: Double
        var apcerMax: Double
        var apcerPooled: Double
        var bpcer: Double
        /// `(apcerMax + bpcer) / 2`.
        var acer: Double
        /// `1 - bpcer`.
        var truePositiveRate: Double
    }

    /// The metrics of every resample, in resample order.
    /// `useClusterSummary` false: every resample by the pass over every sample (tests
    /// compare the two).
    func replicates(_ settings: BootstrapSettings, alwaysWide: Bool = false, useClusterSummary: Bool = true)
        -> [Replicate]
    {
        let curve = curve, tally = tally
        let resampler = ClusterResampler(clusterCount: curve.clusterCount, settings: settings, alwaysWide: alwaysWide)
        // Few clusters: each resample from per-cluster sums (the same numbers, far less work).
        let summary = settings.resamples >= 16 && useClusterSummary && curve.summaryPays ? curve.clusterSummary() : nil
        return resampler.map { _, weights in
            let rates = tally.rates(weights: weights)
            let totals = (rates.bonaFide, rates.attacks)
            let (auc, eer) =
                summary.map { curve.aucAndEER(weights: weights, totals: totals, summary: $0) }
                ?? curve.aucAndEER(weights: weights, totals: totals)
            return Replicate(
                auc: auc, eer: eer, apcerMax: rates.apcerMax, apcerPooled: rates.apcerPooled,
                bpcer: rates.bpcer, acer: (rates.apcerMax + rates.bpcer) / 2,
                truePositiveRate: 1 - rates.bpcer)
        }
    }
}

/// Ranked scores with each sorted position's cluster: weighted AUC and EER in one pass.
struct WeightedCurve: Sendable {
    let ranked: RankedScores
    let clusterCount: Int
    /// `cluster << 1 | isBonaFide` per entry of `TiedBlockEntries` (each tied block's
    /// samples summed per cluster and class): one stream for the hot loop.
    let packed: [Int32]
    /// Samples per entry of `packed`.
    let counts: [Int32]
    /// Exclusive end (entry index) of each tied block.
    let entryEnds: [Int32]
    /// Bona fide and attack samples per cluster.
    let positivesPerCluster: [Int32]
    let negativesPerCluster: [Int32]

    init(ranked: RankedScores, clusterOfSorted: [Int32], clusterCount: Int) {
        self.ranked = ranked
        self.clusterCount = clusterCount
        var positives = [Int32](repeating: 0, count: clusterCount)
        var negatives = [Int32](repeating: 0, count: clusterCount)
        for (k, g) in clusterOfSorted.enumerated() {
            if ranked.positive[k] == 1 { positives[Int(g)] += 1 } else { negatives[Int(g)] += 1 }
        }
        let entries = TiedBlockEntries(
            blockEnds: ranked.blockEnds, clusterOfSorted: clusterOfSorted,
            codeOfSorted: ranked.positive.map { Int32($0) })
        packed = zip(entries.cluster, entries.code).map { $0 << 1 | $1 }
        counts = entries.count
        entryEnds = entries.blockEnds
        positivesPerCluster = positives
        negativesPerCluster = negatives
    }

    /// AUC and EER with sample weight = `weights[cluster]`; NaN when a class has weight 0.
    ///
    /// Two phases over the tied blocks. Until the EER crossing, each block's point is
    /// tested with the exact integer form of `EERTracker` (`d = (P - TP) N - FP P`,
    /// crossing at the first `d <= 0`, linear interpolation from the previous point).
    /// A block of weight 0 repeats the previous point (same `d` and `FP`), which leaves
    /// the crossing rate unchanged, so it needs no test (only the EER threshold, not
    /// computed here, would depend on it). After the crossing only the AUC sum remains.
    func aucAndEER(weights: ResampleWeights, totals: (positive: Int, negative: Int)? = nil) -> (
        auc: Double, eer: Double
    ) {
        switch weights {
        case .narrow(let w): aucAndEER(weights: w, totals: totals)
        case .wide(let w): aucAndEER(weights: w, totals: totals)
        }
    }

    /// The EER at the first point with `d <= 0` (`fp` its weighted false positives), by
    /// linear interpolation from the previous point (`previousFP`, `previousD > 0`).
    @inline(__always)
    static func crossing(fp: Int, d: Int, previousFP: Int, previousD: Int, negatives: Int) -> Double {
        let fpr = Double(fp) / Double(negatives)
        let previousFPR = Double(previousFP) / Double(negatives)
        let alpha = Double(previousD) / Double(previousD &- d)
        return d == 0 ? fpr : previousFPR + alpha * (fpr - previousFPR)
    }

    /// The weighted class totals `Σ_g w_g P_g`, `Σ_g w_g N_g`.
    func totals<W: FixedWidthInteger>(weights: UnsafeBufferPointer<W>) -> (positive: Int, negative: Int) {
        var totalPositive = 0, totalNegative = 0
        positivesPerCluster.withUnsafeBufferPointer { p in
            negativesPerCluster.withUnsafeBufferPointer { q in
                for g in 0..<weights.count {
                    let w = Int(weights[g])
                    totalPositive &+= w &* Int(p[g])
                    totalNegative &+= w &* Int(q[g])
                }
            }
        }
        return (totalPositive, totalNegative)
    }

    /// See `aucAndEER(weights:totals:)`; `totals` when the caller already has them.
    func aucAndEER<W: FixedWidthInteger>(weights: UnsafeBufferPointer<W>, totals known: (positive: Int, negative: Int)?)
        -> (auc: Double, eer: Double)
    {
        let (totalPositive, totalNegative) = known ?? totals(weights: weights)
        guard totalPositive > 0 && totalNegative > 0 else { return (.nan, .nan) }
        let positives = totalPositive, negatives = totalNegative
        var numerator = 0, tp = 0, fp = 0
        var eer = Double.nan
        packed.withUnsafeBufferPointer { packed in
            counts.withUnsafeBufferPointer { counts in
                entryEnds.withUnsafeBufferPointer { ends in
                    var k = 0, b = 0
                    // Phase 1: up to and including the block where FPR reaches FNR. The start
                    // point (0, 0) has d = P N > 0.
                    var previousD = positives &* negatives, previousFP = 0
                    while b < ends.count {
                        let end = Int(ends[b])
                        var total = 0, pos = 0
                        repeat {
                            let code = Int(packed[k])
                            let w = Int(weights[code >> 1]) &* Int(counts[k])
                            total &+= w
                            pos &+= w & (0 &- (code & 1))
                            k &+= 1
                        } while k < end
                        b &+= 1
                        let neg = total &- pos
                        numerator &+= neg &* (2 &* tp &+ pos)
                        tp &+= pos
                        fp &+= neg
                        let d = (positives &- tp) &* negatives &- fp &* positives
                        if d <= 0 {
                            eer = Self.crossing(
                                fp: fp, d: d, previousFP: previousFP, previousD: previousD, negatives: negatives)
                            break
                        }
                        previousD = d
                        previousFP = fp
                    }
                    // Phase 2: AUC only.
                    while b < ends.count {
                        let end = Int(ends[b])
                        var total = 0, pos = 0
                        repeat {
                            let code = Int(packed[k])
                            let w = Int(weights[code >> 1]) &* Int(counts[k])
                            total &+= w
                            pos &+= w & (0 &- (code & 1))
                            k &+= 1
                        } while k < end
                        b &+= 1
                        numerator &+= (total &- pos) &* (2 &* tp &+ pos)
                        tp &+= pos
                    }
                }
            }
        }
        let auc = Double(numerator) / (2 * Double(totalPositive) * Double(totalNegative))
        return (auc, eer)
    }

    /// What makes a resample's AUC and EER cost O(G² + G log n) plus a short pass, instead
    /// of a pass over every sample, when there are few clusters `G` (a large run's groups;
    /// `G² <= entries`).
    ///
    /// - AUC: the numerator `Σ_b N_b (2 TP_before + P_b)` is a quadratic form in the
    ///   cluster weights, `Σ_g Σ_h w_g w_h pairs[g G + h]` with
    ///   `pairs[g G + h] = Σ_b negatives_b(g) (2 positivesBefore_b(h) + positives_b(h))`
    ///   (unweighted counts of block `b`), or its transpose (the same form): the same integer.
    /// - EER: the weighted `TP` and `FP` at every `prefix` row (`BlockPrefixCounts`,
    ///   columns `2g + isBonaFide`) give `d` there; `d` never rises along the sweep, so a
    ///   binary search finds the last row with `d > 0`, and the crossing is found from
    ///   that row by the same block-by-block test as the full pass.
    struct ClusterSummary: Sendable {
        let pairs: [Int]
        let prefix: BlockPrefixCounts
    }

    /// Whether the summary is cheaper than the pass: `G² <= entries` (the quadratic form's
    /// plain multiply-adds against the pass's gathers, per resample).
    var summaryPays: Bool { clusterCount > 0 && clusterCount * clusterCount <= packed.count }

    /// The summary (see `ClusterSummary`).
    func clusterSummary() -> ClusterSummary {
        let g = clusterCount
        // `wᵀ M w = wᵀ Mᵀ w`, so `pairs` may hold M or its transpose: built row by row from
        // the class with fewer entries (each of its entries adds one row segment of G).
        var pairs = [Int](repeating: 0, count: g * g)
        let positiveEntries = packed.count { $0 & 1 == 1 }
        let fromPositives = 2 * positiveEntries <= packed.count
        // Samples of the other class per cluster in the blocks before the current one.
        var before = [Int](repeating: 0, count: g)
        var totals = [Int](repeating: 0, count: g)
        for k in packed.indices where (packed[k] & 1 == 1) != fromPositives {
            totals[Int(packed[k] >> 1)] += Int(counts[k])
        }
        var blockOther: [(cluster: Int, count: Int)] = []
        var start = 0
        for end32 in entryEnds {
            let end = Int(end32)
            blockOther.removeAll(keepingCapacity: true)
            for k in start..<end where (packed[k] & 1 == 1) != fromPositives {
                blockOther.append((Int(packed[k] >> 1), Int(counts[k])))
            }
            for k in start..<end where (packed[k] & 1 == 1) == fromPositives {
                let row = Int(packed[k] >> 1) * g, c = Int(counts[k])
                pairs.withUnsafeMutableBufferPointer { m in
                    before.withUnsafeBufferPointer { p in
                        totals.withUnsafeBufferPointer { t in
                            if fromPositives {
                                // Row h of Mᵀ: a positive of h (count c) in block b adds, for every g,
                                // c (2 negatives of g after b + negatives of g in b)
                                // = c (2 N_g - 2 negativesBefore_b(g) - negatives_b(g)); the last term below.
                                for h in 0..<g { m[row + h] &+= c &* (2 &* (t[h] &- p[h])) }
                            } else {
                                // Row g of M: a negative of g adds c (2 positivesBefore_b(h) + positives_b(h)).
                                for h in 0..<g { m[row + h] &+= 2 &* c &* p[h] }
                            }
                        }
                    }
                }
                for (h, other) in blockOther { pairs[row + h] &+= fromPositives ? -(c &* other) : c &* other }
            }
            for (h, other) in blockOther { before[h] += other }
            start = end
        }
        let prefix = BlockPrefixCounts(
            column: packed, count: counts, blockEnds: entryEnds, width: 2 * g,
            at: BlockPrefixCounts.blocks(every: max(1024, 8 * g), blockEnds: entryEnds))
        return ClusterSummary(pairs: pairs, prefix: prefix)
    }

    /// `aucAndEER(weights:totals:)` from `summary` (the same values).
    func aucAndEER(weights: ResampleWeights, totals: (positive: Int, negative: Int), summary: ClusterSummary) -> (
        auc: Double, eer: Double
    ) {
        switch weights {
        case .narrow(let w): aucAndEER(weights: w, totals: totals, summary: summary)
        case .wide(let w): aucAndEER(weights: w, totals: totals, summary: summary)
        }
    }

    func aucAndEER<W: FixedWidthInteger>(
        weights: UnsafeBufferPointer<W>, totals: (positive: Int, negative: Int), summary: ClusterSummary
    ) -> (auc: Double, eer: Double) {
        let (positives, negatives) = totals
        guard positives > 0 && negatives > 0 else { return (.nan, .nan) }
        let g = clusterCount
        var numerator = 0
        summary.pairs.withUnsafeBufferPointer { m in
            for a in 0..<g {
                let wa = Int(weights[a])
                if wa == 0 { continue }
                var row = 0
                for h in 0..<g { row &+= Int(weights[h]) &* m[a * g + h] }
                numerator &+= wa &* row
            }
        }
        let auc = Double(numerator) / (2 * Double(positives) * Double(negatives))
        let prefix = summary.prefix
        /// Weighted (TP, FP) at prefix row `r`.
        func state(_ r: Int) -> (tp: Int, fp: Int) {
            prefix.counts.withUnsafeBufferPointer { t in
                var tp = 0, fp = 0
                let base = r * prefix.width
                for c in 0..<g {
                    let w = Int(weights[c])
                    fp &+= w &* Int(t[base + 2 * c])
                    tp &+= w &* Int(t[base + 2 * c + 1])
                }
                return (tp, fp)
            }
        }
        func d(_ s: (tp: Int, fp: Int)) -> Int { (positives &- s.tp) &* negatives &- s.fp &* positives }
        // Row 0 is the start point (0, 0), d = P N > 0.
        var low = 0, high = prefix.rows - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if d(state(mid)) > 0 { low = mid } else { high = mid - 1 }
        }
        var (tp, fp) = state(low)
        var previousD = d((tp, fp)), previousFP = fp
        var eer = Double.nan
        packed.withUnsafeBufferPointer { packed in
            counts.withUnsafeBufferPointer { counts in
                entryEnds.withUnsafeBufferPointer { ends in
                    var k = prefix.entries[low], b = prefix.blocks[low]
                    while b < ends.count {
                        let end = Int(ends[b])
                        var total = 0, pos = 0
                        while k < end {
                            let code = Int(packed[k])
                            let w = Int(weights[code >> 1]) &* Int(counts[k])
                            total &+= w
                            pos &+= w & (0 &- (code & 1))
                            k &+= 1
                        }
                        b &+= 1
                        tp &+= pos
                        fp &+= total &- pos
                        let d = (positives &- tp) &* negatives &- fp &* positives
                        if d <= 0 {
                            eer = Self.crossing(
                                fp: fp, d: d, previousFP: previousFP, previousD: previousD, negatives: negatives)
                            break
                        }
                        previousD = d
                        previousFP = fp
                    }
                }
            }
        }
        return (auc, eer)
    }
}

/// Per-cluster counts at a fixed threshold, so the operating-point rates of a resample
/// cost O(clusters + cluster-species pairs), not O(n).
struct OperatingPointTally: Sendable {
    /// One (cluster, species) pair with attacks.
    struct Entry: Sendable {
        var cluster: Int32
        var species: Int32
        var attacks: Int32
        var accepted: Int32
    }

    let speciesCount: Int
    /// Species that count in the APCER max (all by default).
    var eligible: [Bool]
    let bonaFidePerCluster: [Int32]
    let bonaFideRejectedPerCluster: [Int32]
    /// Sorted by cluster, then species.
    let entries: [Entry]

    init(
        ranked: RankedScores, clusterOfSorted: [Int32], speciesOfSorted: [Int32], speciesCount: Int,
        clusterCount: Int, threshold: Double
    ) {
        self.speciesCount = speciesCount
        eligible = [Bool](repeating: true, count: speciesCount)
        var bonaFide = [Int32](repeating: 0, count: clusterCount)
        var rejected = [Int32](repeating: 0, count: clusterCount)
        var pairs: [Int: Entry] = [:]
        for k in 0..<ranked.count {
            let g = clusterOfSorted[k], accepted = ranked.scores[k] >= threshold
            let s = speciesOfSorted[k]
            if s < 0 {
                bonaFide[Int(g)] += 1
                if !accepted { rejected[Int(g)] += 1 }
            } else {
                let key = Int(g) * speciesCount + Int(s)
                pairs[key, default: Entry(cluster: g, species: s, attacks: 0, accepted: 0)].attacks += 1
                if accepted { pairs[key]!.accepted += 1 }
            }
        }
        bonaFidePerCluster = bonaFide
        bonaFideRejectedPerCluster = rejected
        entries = pairs.keys.sorted().map { pairs[$0]! }
    }

    /// The tally of `prepared` at `threshold`; species with fewer than `minimumAttacks`
    /// attacks do not count in the max.
    init(prepared: RankedSamples, threshold: Double, minimumAttacks: Int) {
        self.init(
            ranked: prepared.ranked, clusterOfSorted: prepared.clusterOfSorted,
            speciesOfSorted: prepared.speciesOfSorted, speciesCount: prepared.species.count,
            clusterCount: prepared.clusterCount, threshold: threshold)
        eligible = prepared.speciesCounts.map { $0 >= max(1, minimumAttacks) }
    }

    /// APCER max/pooled and BPCER with sample weight = `weights[cluster]`; NaN where a
    /// class (or, for the max, every species) has weight 0.
    func rates(weights: ResampleWeights)
        -> (apcerMax: Double, apcerPooled: Double, bpcer: Double, bonaFide: Int, attacks: Int)
    {
        switch weights {
        case .narrow(let w): rates(weights: w)
        case .wide(let w): rates(weights: w)
        }
    }

    /// See `rates(weights:)`; also the weighted bona fide and attack totals.
    func rates<W: FixedWidthInteger>(weights: UnsafeBufferPointer<W>)
        -> (apcerMax: Double, apcerPooled: Double, bpcer: Double, bonaFide: Int, attacks: Int)
    {
        var bonaFide = 0, rejected = 0
        bonaFidePerCluster.withUnsafeBufferPointer { total in
            bonaFideRejectedPerCluster.withUnsafeBufferPointer { below in
                for g in 0..<weights.count {
                    let w = Int(weights[g])
                    bonaFide &+= w &* Int(total[g])
                    rejected &+= w &* Int(below[g])
                }
            }
        }
        var attacks = [Int](repeating: 0, count: speciesCount)
        var accepted = [Int](repeating: 0, count: speciesCount)
        entries.withUnsafeBufferPointer { entries in
            for e in entries {
                let w = Int(weights[Int(e.cluster)])
                attacks[Int(e.species)] &+= w &* Int(e.attacks)
                accepted[Int(e.species)] &+= w &* Int(e.accepted)
            }
        }
        var apcerMax = Double.nan
        var allAttacks = 0, allAccepted = 0
        for s in 0..<speciesCount where attacks[s] > 0 {
            let rate = Double(accepted[s]) / Double(attacks[s])
            if eligible[s] { apcerMax = apcerMax.isNaN ? rate : max(apcerMax, rate) }
            allAttacks += attacks[s]
            allAccepted += accepted[s]
        }
        let pooled = allAttacks > 0 ? Double(allAccepted) / Double(allAttacks) : .nan
        let bpcer = bonaFide > 0 ? Double(rejected) / Double(bonaFide) : .nan
        return (apcerMax, pooled, bpcer, bonaFide, allAttacks)
    }
}
