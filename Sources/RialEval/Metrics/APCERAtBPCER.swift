/// APCER at the threshold where BPCER reaches a target (the reverse of `BPCERAtAPCER`),
/// with cluster-bootstrap intervals on the rates and on the threshold.
///
/// Candidate thresholds are `+inf` (accept nothing: APCER 0, BPCER 1) and every distinct
/// score, as in `BPCERAtAPCER`. BPCER only falls as the threshold falls, so the chosen
/// threshold is the highest candidate whose BPCER is `<= target`: the lowest APCER
/// subject to the constraint. When BPCER drops past the target inside one tied block,
/// that block's score is the threshold and the achieved `bpcer` is below the target.
/// `BPCER <= target` is compared on the correctly rounded quotient (exact at equality:
/// 1/20 <= 0.05 holds). Accept = `score >= threshold`.
///
/// At that threshold: `apcerPooled` (all attacks accepted / all attacks) and `apcerMax`
/// (the maximum over the species with at least `minimumAttacks` attacks, see
/// `PresentationAttackMetrics`).
///
/// Intervals (cluster bootstrap, `ClusterBootstrap`'s resamples): each resample chooses
/// its own threshold by the same rule on the weighted counts, and the interval of the
/// threshold, of the pooled APCER and of the max APCER are the percentile intervals over
/// resamples (a resample without bona fide or attacks is undefined). The threshold
/// interval says how far the operating point moves from one sample of groups to another.
///
/// NaN values without bona fide, without attacks, or for a target outside 0...1.
///
/// JSON: `{"target_bpcer", "threshold", "threshold_ci", "bpcer", "apcer_pooled",
/// "apcer_pooled_ci", "apcer_max", "apcer_max_species", "apcer_max_ci"}`.
public struct APCERAtBPCER: Sendable, Equatable, Codable {
    /// The BPCER target, 0...1.
    public var target: Double
    /// Accept when `score >= threshold`; `+inf` (JSON `null`) only for a target of 1.
    public var threshold: Double
    public var thresholdCI: ConfidenceInterval?
    /// BPCER achieved at `threshold`, `<= target`.
    public var bpcer: Double
    public var apcerPooled: Double
    public var apcerPooledCI: ConfidenceInterval?
    public var apcerMax: Double
    public var apcerMaxSpecies: String?
    public var apcerMaxCI: ConfidenceInterval?

    /// The targets of `MethodMetrics.apcerAtBPCER`: BPCER 1 %, 5 %, 10 %.
    public static let standardTargets = [0.01, 0.05, 0.10]

    enum CodingKeys: String, CodingKey {
        case target = "target_bpcer"
        case threshold
        case thresholdCI = "threshold_ci"
        case bpcer
        case apcerPooled = "apcer_pooled"
        case apcerPooledCI = "apcer_pooled_ci"
        case apcerMax = "apcer_max"
        case apcerMaxSpecies = "apcer_max_species"
        case apcerMaxCI = "apcer_max_ci"
    }

    /// APCER of `samples` at BPCER `target`, without intervals.
    public init(samples: [ScoredSample], target: Double, minimumAttacks: Int = 1) {
        let prepared = RankedSamples(samples: samples)
        self = Self.compute(prepared: prepared, targets: [target], minimumAttacks: minimumAttacks, bootstrap: nil)[0]
    }

    init(
        target: Double, threshold: Double, bpcer: Double, apcerPooled: Double, apcerMax: Double,
        apcerMaxSpecies: String?
    ) {
        self.target = target
        self.threshold = threshold
        self.bpcer = bpcer
        self.apcerPooled = apcerPooled
        self.apcerMax = apcerMax
        self.apcerMaxSpecies = apcerMaxSpecies
    }

    /// One entry per target (same order), with intervals when `bootstrap` has resamples.
    ///
    /// - Complexity: O(n) for the point values, O(n + targets · species) per resample.
    /// `useClusterPrefix` false: every resample by the pass over the samples (tests compare the two).
    static func compute(
        prepared: RankedSamples, targets: [Double], minimumAttacks: Int, bootstrap: BootstrapSettings?,
        useClusterPrefix: Bool = true
    ) -> [APCERAtBPCER] {
        let eligible = prepared.speciesCounts.map { $0 >= minimumAttacks }
        let sweep = WeightedThresholdSweep(prepared: prepared, eligible: eligible)
        var results = sweep.points(targets: targets, weights: nil as UnsafeBufferPointer<UInt8>?).enumerated().map {
            index, point in
            APCERAtBPCER(
                target: targets[index], threshold: point.threshold, bpcer: point.bpcer,
                apcerPooled: point.apcerPooled, apcerMax: point.apcerMax,
                apcerMaxSpecies: point.apcerMaxSpecies.map { prepared.species[$0] })
        }
        guard let settings = bootstrap, settings.resamples > 0 else { return results }
        let resampler = ClusterResampler(clusterCount: prepared.clusterCount, settings: settings)
        // Few clusters: each resample from per-cluster prefix counts (the same points).
        let prefix = useClusterPrefix && settings.resamples >= 16 && sweep.prefixPays ? sweep.prefix() : nil
        let replicates = resampler.map { _, weights in
            switch weights {
            case .narrow(let w):
                prefix.map { sweep.points(targets: targets, weights: w, prefix: $0) }
                    ?? sweep.points(targets: targets, weights: w)
            case .wide(let w):
                prefix.map { sweep.points(targets: targets, weights: w, prefix: $0) }
                    ?? sweep.points(targets: targets, weights: w)
            }
        }
        for index in targets.indices {
            func interval(_ value: (WeightedThresholdSweep.Point) -> Double) -> ConfidenceInterval {
                .bootstrapPercentile(replicates.map { value($0[index]) }, settings: settings)
            }
            results[index].thresholdCI = interval(\.threshold)
            results[index].apcerPooledCI = interval(\.apcerPooled)
            results[index].apcerMaxCI = interval(\.apcerMax)
        }
        return results
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        target = try c.decodeNullable(.target)
        threshold = try c.decodeNullable(.threshold)
        thresholdCI = try c.decodeIfPresent(ConfidenceInterval.self, forKey: .thresholdCI)
        bpcer = try c.decodeNullable(.bpcer)
        apcerPooled = try c.decodeNullable(.apcerPooled)
        apcerPooledCI = try c.decodeIfPresent(ConfidenceInterval.self, forKey: .apcerPooledCI)
        apcerMax = try c.decodeNullable(.apcerMax)
        apcerMaxSpecies = try c.decodeIfPresent(String.self, forKey: .apcerMaxSpecies)
        apcerMaxCI = try c.decodeIfPresent(ConfidenceInterval.self, forKey: .apcerMaxCI)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeNullable(target, forKey: .target)
        try c.encodeNullable(threshold, forKey: .threshold)
        try c.encodeIfPresent(thresholdCI, forKey: .thresholdCI)
        try c.encodeNullable(bpcer, forKey: .bpcer)
        try c.encodeNullable(apcerPooled, forKey: .apcerPooled)
        try c.encodeIfPresent(apcerPooledCI, forKey: .apcerPooledCI)
        try c.encodeNullable(apcerMax, forKey: .apcerMax)
        try c.encodeIfPresent(apcerMaxSpecies, forKey: .apcerMaxSpecies)
        try c.encodeIfPresent(apcerMaxCI, forKey: .apcerMaxCI)
    }
}

/// The descending-threshold sweep of `APCERAtBPCER`, on unit or bootstrap weights.
struct WeightedThresholdSweep: Sendable {
    /// The operating point chosen for one target.
    struct Point: Sendable {
        var threshold: Double
        var bpcer: Double
        var apcerPooled: Double
        var apcerMax: Double
        /// Species index of the max (the first by name on a tie).
        var apcerMaxSpecies: Int?

        static let undefined = Point(threshold: .nan, bpcer: .nan, apcerPooled: .nan, apcerMax: .nan)
    }

    let ranked: RankedScores
    let speciesOfSorted: [Int32]
    let clusterOfSorted: [Int32]
    let speciesCount: Int
    /// Species that count in the max.
    let eligible: [Bool]
    /// Bona fide samples per cluster, and attacks per (cluster, species) pair with any:
    /// the weighted class totals of a resample in O(clusters + pairs), not O(n).
    let positivesPerCluster: [Int32]
    let attackEntries: [(cluster: Int32, species: Int32, count: Int32)]
    /// Each tied block's samples summed per (cluster, species; -1 = bona fide).
    let entries: TiedBlockEntries

    init(prepared: RankedSamples, eligible: [Bool]) {
        entries = TiedBlockEntries(
            blockEnds: prepared.ranked.blockEnds, clusterOfSorted: prepared.clusterOfSorted,
            codeOfSorted: prepared.speciesOfSorted)
        ranked = prepared.ranked
        speciesOfSorted = prepared.speciesOfSorted
        clusterOfSorted = prepared.clusterOfSorted
        speciesCount = prepared.species.count
        self.eligible = eligible
        var positives = [Int32](repeating: 0, count: prepared.clusterCount)
        var pairs: [Int: Int32] = [:]
        for k in 0..<ranked.count {
            let g = Int(clusterOfSorted[k]), s = Int(speciesOfSorted[k])
            if s < 0 { positives[g] += 1 } else { pairs[g * max(1, speciesCount) + s, default: 0] += 1 }
        }
        positivesPerCluster = positives
        let width = max(1, speciesCount)
        attackEntries = pairs.keys.sorted().map { key in (Int32(key / width), Int32(key % width), pairs[key]!) }
    }

    /// The point of each target; sample weight `weights[cluster]`, or 1 for nil.
    ///
    /// - Complexity: O(clusters + pairs) for the totals, then one pass over the sorted
    ///   samples that stops once every target is settled.
    func points<W: FixedWidthInteger>(targets: [Double], weights: UnsafeBufferPointer<W>?) -> [Point] {
        let (positives, negatives, attacks) = totals(weights: weights)
        var results = [Point](repeating: .undefined, count: targets.count)
        guard positives > 0, negatives > 0 else { return results }
        var pending = targets.indices.filter { targets[$0] >= 0 && targets[$0] <= 1 }
        var accepted = [Int](repeating: 0, count: speciesCount)
        var acceptedAll = 0, tp = 0

        func point(threshold: Double) -> Point {
            self.point(
                threshold: threshold, tp: tp, accepted: accepted, acceptedAll: acceptedAll,
                totals: (positives, negatives, attacks))
        }
        func settle(threshold: Double) {
            let bpcer = Double(positives - tp) / Double(positives)
            pending.removeAll { index in
                guard bpcer <= targets[index] else { return false }
                results[index] = point(threshold: threshold)
                return true
            }
        }
        settle(threshold: .infinity)
        // The largest pending target: a block whose BPCER is above it settles nothing, so
        // `settle` (a pass over the pending targets) runs only where one can settle.
        var largestPending = pending.map { targets[$0] }.max() ?? -.infinity
        var start = 0
        // The entries through buffers (this loop runs over every sample once per resample).
        entries.count.withUnsafeBufferPointer { counts in
            entries.cluster.withUnsafeBufferPointer { clusters in
                entries.code.withUnsafeBufferPointer { codes in
                    for (b, end32) in entries.blockEnds.enumerated() {
                        if pending.isEmpty { break }
                        let end = Int(end32)
                        var blockWeight = 0
                        for e in start..<end {
                            let w = Int(counts[e]) * (weights.map { Int($0[Int(clusters[e])]) } ?? 1)
                            blockWeight += w
                            Self.add(w, code: Int(codes[e]), tp: &tp, accepted: &accepted, acceptedAll: &acceptedAll)
                        }
                        // A block of weight 0 is not in this resample: its score is no candidate.
                        if blockWeight > 0 && Double(positives - tp) / Double(positives) <= largestPending {
                            settle(threshold: ranked.scores[Int(ranked.blockEnds[b]) - 1])
                            largestPending = pending.map { targets[$0] }.max() ?? -.infinity
                        }
                        start = end
                    }
                }
            }
        }
        return results
    }

    /// Counts an entry of weight `w` and class `code` (-1 bona fide, else its species) as accepted.
    @inline(__always)
    static func add(_ w: Int, code s: Int, tp: inout Int, accepted: inout [Int], acceptedAll: inout Int) {
        if s < 0 {
            tp += w
        } else {
            accepted[s] += w
            acceptedAll += w
        }
    }

    /// The operating point at `threshold` with weighted counts `tp` (bona fide accepted),
    /// `accepted` (attacks accepted per species, `acceptedAll` in all) of `totals`.
    func point(
        threshold: Double, tp: Int, accepted: [Int], acceptedAll: Int,
        totals: (positives: Int, negatives: Int, attacks: [Int])
    ) -> Point {
        var maxRate = Double.nan
        var maxSpecies: Int?
        for s in 0..<speciesCount where eligible[s] && totals.attacks[s] > 0 {
            let rate = Double(accepted[s]) / Double(totals.attacks[s])
            if maxSpecies == nil || rate > maxRate {
                maxRate = rate
                maxSpecies = s
            }
        }
        return Point(
            threshold: threshold, bpcer: Double(totals.positives - tp) / Double(totals.positives),
            apcerPooled: Double(acceptedAll) / Double(totals.negatives), apcerMax: maxRate, apcerMaxSpecies: maxSpecies)
    }

    /// The weighted bona fide and attack totals, and attacks per species.
    func totals<W: FixedWidthInteger>(weights: UnsafeBufferPointer<W>?) -> (
        positives: Int, negatives: Int, attacks: [Int]
    ) {
        func weight(cluster g: Int32) -> Int { weights.map { Int($0[Int(g)]) } ?? 1 }
        var positives = 0, negatives = 0
        var attacks = [Int](repeating: 0, count: speciesCount)
        for (g, count) in positivesPerCluster.enumerated() where count > 0 {
            positives += weight(cluster: Int32(g)) * Int(count)
        }
        for entry in attackEntries {
            let w = weight(cluster: entry.cluster) * Int(entry.count)
            attacks[Int(entry.species)] += w
            negatives += w
        }
        return (positives, negatives, attacks)
    }

    /// Pooled APCER, max APCER and BPCER at each fixed threshold (accept `score >=
    /// threshold`; no NaN threshold), as `OperatingPointTally.rates` defines them (NaN
    /// where a class, or for the max every eligible species, has weight 0), for all
    /// thresholds in one pass over the sorted samples.
    ///
    /// - Complexity: O(clusters + pairs + n + thresholds · species).
    func rates<W: FixedWidthInteger>(at thresholds: [Double], weights: UnsafeBufferPointer<W>?) -> [(
        apcerPooled: Double, apcerMax: Double, bpcer: Double
    )] {
        let (positives, negatives, attacks) = totals(weights: weights)
        func weight(_ e: Int) -> Int {
            Int(entries.count[e]) * (weights.map { Int($0[Int(entries.cluster[e])]) } ?? 1)
        }
        var results = [(apcerPooled: Double, apcerMax: Double, bpcer: Double)](
            repeating: (.nan, .nan, .nan), count: thresholds.count)
        var accepted = [Int](repeating: 0, count: speciesCount)
        var acceptedAll = 0, tp = 0, b = 0, e = 0
        for index in thresholds.indices.sorted(by: { thresholds[$0] > thresholds[$1] }) {
            let threshold = thresholds[index]
            // Whole tied blocks: a block's samples share its score.
            while b < ranked.blockEnds.count && ranked.scores[Int(ranked.blockEnds[b]) - 1] >= threshold {
                while e < Int(entries.blockEnds[b]) {
                    Self.add(
                        weight(e), code: Int(entries.code[e]), tp: &tp, accepted: &accepted, acceptedAll: &acceptedAll)
                    e += 1
                }
                b += 1
            }
            results[index] = fixedRates(
                tp: tp, accepted: accepted, acceptedAll: acceptedAll, totals: (positives, negatives, attacks))
        }
        return results
    }

    /// Pooled APCER, max APCER and BPCER from weighted counts (see `rates(at:weights:)`).
    func fixedRates(
        tp: Int, accepted: [Int], acceptedAll: Int, totals: (positives: Int, negatives: Int, attacks: [Int])
    )
        -> (apcerPooled: Double, apcerMax: Double, bpcer: Double)
    {
        var maxRate = Double.nan
        for s in 0..<speciesCount where eligible[s] && totals.attacks[s] > 0 {
            let rate = Double(accepted[s]) / Double(totals.attacks[s])
            maxRate = maxRate.isNaN ? rate : max(maxRate, rate)
        }
        return (
            totals.negatives > 0 ? Double(acceptedAll) / Double(totals.negatives) : .nan, maxRate,
            totals.positives > 0 ? Double(totals.positives - tp) / Double(totals.positives) : .nan
        )
    }

    /// Cumulative counts of the sweep's entries (`BlockPrefixCounts`): column `g` the
    /// bona fide samples of cluster `g`, column `G + p` the attacks of the `p`-th
    /// (cluster, species) pair of `attackEntries`. With them a resample's weighted counts
    /// at a row cost O(clusters + pairs), so `points` and `rates` need no pass over every
    /// sample when clusters are few (the same numbers).
    struct Prefix: Sendable {
        let counts: BlockPrefixCounts
        /// The prefix row of each threshold given to `prefix(atThresholds:)` (else empty).
        let rowOfThreshold: [Int]
    }

    /// Whether prefix rows beat a pass over the entries: `64 (G + pairs) <= entries`.
    var prefixPays: Bool { 64 * (positivesPerCluster.count + attackEntries.count) <= entries.entryCount }

    /// The prefix with a row every `max(1024, 8 (G + pairs))` entries (for `points`).
    func prefix() -> Prefix {
        let width = positivesPerCluster.count + attackEntries.count
        return Prefix(
            counts: prefixCounts(
                at: BlockPrefixCounts.blocks(every: max(1024, 8 * width), blockEnds: entries.blockEnds)),
            rowOfThreshold: [])
    }

    /// The prefix with one row at each of `thresholds` (none NaN): the blocks with score
    /// `>= threshold` counted (for `rates(at:weights:prefix:)` at the same thresholds).
    func prefix(atThresholds thresholds: [Double]) -> Prefix {
        let blockCounts = thresholds.map { threshold in
            // Blocks by decreasing score: the count of leading blocks with score >= threshold.
            var low = 0, high = ranked.blockEnds.count
            while low < high {
                let mid = (low + high) / 2
                if ranked.scores[Int(ranked.blockEnds[mid]) - 1] >= threshold { low = mid + 1 } else { high = mid }
            }
            return low
        }
        let order = blockCounts.indices.sorted { blockCounts[$0] < blockCounts[$1] }
        var rowOfThreshold = [Int](repeating: 0, count: thresholds.count)
        for (row, index) in order.enumerated() { rowOfThreshold[index] = row }
        return Prefix(counts: prefixCounts(at: order.map { blockCounts[$0] }), rowOfThreshold: rowOfThreshold)
    }

    private func prefixCounts(at blocks: [Int]) -> BlockPrefixCounts {
        let g = positivesPerCluster.count, width = max(1, speciesCount)
        var pairIndex: [Int: Int32] = [:]
        for (p, entry) in attackEntries.enumerated() {
            pairIndex[Int(entry.cluster) * width + Int(entry.species)] = Int32(g + p)
        }
        let column = (0..<entries.entryCount).map { e -> Int32 in
            let code = Int(entries.code[e])
            return code < 0 ? entries.cluster[e] : pairIndex[Int(entries.cluster[e]) * width + code]!
        }
        return BlockPrefixCounts(
            column: column, count: entries.count, blockEnds: entries.blockEnds, width: g + attackEntries.count,
            at: blocks)
    }

    /// Weighted (bona fide accepted, attacks accepted per species and in all) at `row`.
    private func state<W: FixedWidthInteger>(row: Int, prefix: BlockPrefixCounts, weights: UnsafeBufferPointer<W>)
        -> (tp: Int, accepted: [Int], acceptedAll: Int)
    {
        let g = positivesPerCluster.count
        var accepted = [Int](repeating: 0, count: speciesCount)
        var all = 0
        prefix.counts.withUnsafeBufferPointer { t in
            let base = row * prefix.width
            for (p, entry) in attackEntries.enumerated() {
                let w = Int(weights[Int(entry.cluster)]) &* Int(t[base + g + p])
                accepted[Int(entry.species)] &+= w
                all &+= w
            }
        }
        return (truePositives(row: row, prefix: prefix, weights: weights), accepted, all)
    }

    /// Weighted bona fide accepted at `row`.
    private func truePositives<W: FixedWidthInteger>(
        row: Int, prefix: BlockPrefixCounts, weights: UnsafeBufferPointer<W>
    )
        -> Int
    {
        prefix.weighted(row: row, columns: 0..<positivesPerCluster.count) { Int(weights[$0]) }
    }

    /// `points(targets:weights:)` from `prefix` (`prefix()`): each target from the last
    /// row whose BPCER is above it (BPCER never rises along the sweep), then block by block
    /// as the full pass (the same points).
    func points<W: FixedWidthInteger>(targets: [Double], weights: UnsafeBufferPointer<W>, prefix: Prefix) -> [Point] {
        let totals = totals(weights: weights)
        let positives = totals.positives
        var results = [Point](repeating: .undefined, count: targets.count)
        guard positives > 0, totals.negatives > 0 else { return results }
        let rows = prefix.counts
        for index in targets.indices where targets[index] >= 0 && targets[index] <= 1 {
            let target = targets[index]
            if 1.0 <= target {
                results[index] = point(
                    threshold: .infinity, tp: 0, accepted: [Int](repeating: 0, count: speciesCount), acceptedAll: 0,
                    totals: totals)
                continue
            }
            // Row 0 accepts nothing: BPCER 1 > target.
            var low = 0, high = rows.rows - 1
            while low < high {
                let mid = (low + high + 1) / 2
                let tp = truePositives(row: mid, prefix: rows, weights: weights)
                if Double(positives - tp) / Double(positives) > target { low = mid } else { high = mid - 1 }
            }
            var (tp, accepted, acceptedAll) = state(row: low, prefix: rows, weights: weights)
            var e = rows.entries[low], b = rows.blocks[low]
            while b < entries.blockEnds.count {
                let end = Int(entries.blockEnds[b])
                var blockWeight = 0
                while e < end {
                    let w = Int(entries.count[e]) * Int(weights[Int(entries.cluster[e])])
                    blockWeight += w
                    Self.add(w, code: Int(entries.code[e]), tp: &tp, accepted: &accepted, acceptedAll: &acceptedAll)
                    e += 1
                }
                if blockWeight > 0 && Double(positives - tp) / Double(positives) <= target {
                    results[index] = point(
                        threshold: ranked.scores[Int(ranked.blockEnds[b]) - 1], tp: tp, accepted: accepted,
                        acceptedAll: acceptedAll, totals: totals)
                    break
                }
                b += 1
            }
        }
        return results
    }

    /// `rates(at:weights:)` from `prefix` (`prefix(atThresholds: thresholds)`): each
    /// threshold's counts from its own row (the same rates).
    func rates<W: FixedWidthInteger>(at thresholds: [Double], weights: UnsafeBufferPointer<W>, prefix: Prefix) -> [(
        apcerPooled: Double, apcerMax: Double, bpcer: Double
    )] {
        let totals = totals(weights: weights)
        return thresholds.indices.map { index in
            let (tp, accepted, acceptedAll) = state(
                row: prefix.rowOfThreshold[index], prefix: prefix.counts, weights: weights)
            return fixedRates(tp: tp, accepted: accepted, acceptedAll: acceptedAll, totals: totals)
        }
    }
}
