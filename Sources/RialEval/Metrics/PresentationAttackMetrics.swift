/// ISO/IEC 30107-3 presentation-attack detection error rates at one decision threshold.
///
/// A sample is accepted as bona fide when `score >= threshold`.
/// - APCER of species `s` = attacks of `s` accepted / attacks of `s`; a species is an
///   attack sample's `species` (its label). `apcerMax` = the maximum over the species
///   with at least `minimumAttacks` attacks (the standard's headline APCER; a species
///   with fewer attacks has a rate too coarse to be a maximum, 1 of 2 is 50 %, so it is
///   listed with `countsInMax` false and left out; NaN when no species has enough),
///   `apcerMaxAllSpecies` = the maximum over every species, `apcerPooled` = all attacks
///   accepted / all attacks.
/// - BPCER = bona fide rejected (`score < threshold`) / bona fide.
/// - ACER = (apcerMax + BPCER) / 2 (ISO/IEC 30107-3:2017; the 2023 edition no longer
///   recommends it, it is kept for comparison with published results).
/// - `truePositiveRate` = 1 - BPCER.
///
/// Undefined rates are NaN: APCER without attacks (`noAttack`), BPCER without bona fide
/// (`noBonaFide`), ACER when either is. Non-finite scores are excluded and counted.
public struct PresentationAttackMetrics: Sendable, Equatable {
    /// One attack species' APCER.
    public struct SpeciesRate: Sendable, Equatable {
        public var species: String
        /// Attack samples of this species (> 0).
        public var attacks: Int
        /// Of them, accepted (`score >= threshold`).
        public var accepted: Int
        /// `accepted / attacks`.
        public var apcer: Double
        /// `attacks >= minimumAttacks`: the species takes part in `apcerMax`.
        public var countsInMax: Bool = true
    }

    public var threshold: Double
    /// Sorted by species name (UTF-8 order).
    public var species: [SpeciesRate]
    /// Fewest attacks a species needs to count in `apcerMax`.
    public var minimumAttacks: Int
    /// Maximum APCER over the species with enough attacks; NaN without such a species.
    public var apcerMax: Double
    /// The species reaching `apcerMax` (the first by name on a tie); nil when NaN.
    public var apcerMaxSpecies: String?
    /// Maximum APCER over every species; NaN without attacks.
    public var apcerMaxAllSpecies: Double
    /// All attacks accepted / all attacks; NaN without attacks.
    public var apcerPooled: Double
    public var bonaFideCount: Int
    public var bonaFideRejected: Int
    public var attackCount: Int
    public var attackAccepted: Int
    /// NaN without bona fide.
    public var bpcer: Double
    public var acer: Double
    /// `1 - bpcer`.
    public var truePositiveRate: Double
    public var excludedCount: Int
    public var warnings: [MetricsWarning]

    /// The rates of `samples` at `threshold` (any value; NaN accepts nothing, like `+inf`);
    /// `minimumAttacks` (values below 1 count as 1) as in the type's comment.
    ///
    /// - Complexity: O(n + s log s) for `s` species.
    public init(samples input: [ScoredSample], threshold: Double, minimumAttacks: Int = 1) {
        var perSpecies: [String: (attacks: Int, accepted: Int)] = [:]
        var bonaFide = 0, rejected = 0, excluded = 0
        for sample in input {
            guard sample.score.isFinite else {
                excluded += 1
                continue
            }
            let accepted = sample.score >= threshold
            if sample.bonaFide {
                bonaFide += 1
                if !accepted { rejected += 1 }
            } else {
                perSpecies[sample.species, default: (0, 0)].attacks += 1
                if accepted { perSpecies[sample.species, default: (0, 0)].accepted += 1 }
            }
        }
        let names = perSpecies.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        self.init(
            threshold: threshold, minimumAttacks: minimumAttacks,
            counts: names.map { ($0, perSpecies[$0]!.attacks, perSpecies[$0]!.accepted) }, bonaFide: bonaFide,
            rejected: rejected, excluded: excluded)
    }

    /// The same rates for `prepared.samples` (all finite), from its sorted order: the
    /// accepted samples (`score >= threshold`) are a prefix of it, and species are numbered
    /// in the name order `init(samples:...)` sorts them in.
    ///
    /// - Complexity: O(log n + accepted).
    init(prepared: RankedSamples, threshold: Double, minimumAttacks: Int = 1) {
        let scores = prepared.ranked.scores
        // First sorted position not accepted (scores descend; NaN accepts nothing).
        var low = 0, high = scores.count
        while low < high {
            let middle = (low + high) / 2
            if scores[middle] >= threshold { low = middle + 1 } else { high = middle }
        }
        var accepted = [Int](repeating: 0, count: prepared.species.count)
        var bonaFideAccepted = 0
        prepared.speciesOfSorted.withUnsafeBufferPointer { species in
            for k in 0..<low {
                let s = Int(species[k])
                if s < 0 { bonaFideAccepted += 1 } else { accepted[s] += 1 }
            }
        }
        self.init(
            threshold: threshold, minimumAttacks: minimumAttacks,
            counts: prepared.species.indices.map { (prepared.species[$0], prepared.speciesCounts[$0], accepted[$0]) },
            bonaFide: prepared.ranked.positiveCount, rejected: prepared.ranked.positiveCount - bonaFideAccepted,
            excluded: 0)
    }

    /// From the counts: per species (sorted by name; each with attacks) attacks and
    /// accepted, bona fide and rejected, samples excluded.
    init(
        threshold: Double, minimumAttacks: Int, counts: [(species: String, attacks: Int, accepted: Int)],
        bonaFide: Int, rejected: Int, excluded: Int
    ) {
        self.threshold = threshold
        self.minimumAttacks = max(1, minimumAttacks)
        species = counts.map { c in
            SpeciesRate(
                species: c.species, attacks: c.attacks, accepted: c.accepted,
                apcer: Double(c.accepted) / Double(c.attacks), countsInMax: c.attacks >= max(1, minimumAttacks))
        }
        var maxRate = Double.nan
        var maxSpecies: String?
        for rate in species where rate.countsInMax && (maxSpecies == nil || rate.apcer > maxRate) {
            maxRate = rate.apcer
            maxSpecies = rate.species
        }
        apcerMax = maxRate
        apcerMaxSpecies = maxSpecies
        apcerMaxAllSpecies = species.map(\.apcer).max() ?? .nan
        attackCount = species.reduce(0) { $0 + $1.attacks }
        attackAccepted = species.reduce(0) { $0 + $1.accepted }
        apcerPooled = attackCount > 0 ? Double(attackAccepted) / Double(attackCount) : .nan
        bonaFideCount = bonaFide
        bonaFideRejected = rejected
        bpcer = bonaFide > 0 ? Double(rejected) / Double(bonaFide) : .nan
        acer = (apcerMax + bpcer) / 2
        truePositiveRate = 1 - bpcer
        excludedCount = excluded
        warnings =
            (excluded > 0 ? [.nonFiniteScoresExcluded] : [])
            + CleanedScores.classWarnings(positives: bonaFide, negatives: attackCount)
    }
}

/// BPCER at the threshold where APCER reaches a target (ISO/IEC 30107-3 BPCER20 for
/// 5 %, BPCER100 for 1 %).
///
/// Candidate thresholds are `+inf` (accept nothing: APCER 0, BPCER 1) and every distinct
/// score. APCER only grows as the threshold falls, so the chosen threshold is the
/// smallest candidate whose APCER is `<= target`: the best BPCER subject to the
/// constraint. When APCER jumps past the target inside one tied block, the block's
/// threshold is not allowed and the previous (higher) one is used; the achieved
/// `apcer` is then below the target. APCER is either
/// - `maxOverSpecies` (default, `bpcer20` in `MethodMetrics`): every species with at
///   least `minimumAttacks` attacks must meet the target, the standard's per-species
///   reading (as `PresentationAttackMetrics.apcerMax`; NaN when no species has enough);
///   or
/// - `pooled` (`bpcer20_pooled`): all attacks together, i.e. the ROC's FPR.
/// `APCER <= target` is compared on the correctly rounded quotient, which is exact at
/// equality (3/60 <= 0.05 holds).
///
/// NaN `bpcer`, `apcer` and `threshold` without bona fide, without attacks, or for a
/// target outside 0...1 (or NaN).
public struct BPCERAtAPCER: Sendable, Equatable {
    /// How APCER is taken over attack species.
    public enum APCERKind: String, Sendable, Codable, CaseIterable {
        case maxOverSpecies = "max_over_species"
        case pooled
    }

    /// The APCER target, 0...1 (0.05 for BPCER20).
    public var target: Double
    public var kind: APCERKind
    /// The chosen threshold (accept when `score >= threshold`); `+inf` when even the
    /// highest score exceeds the target.
    public var threshold: Double
    /// BPCER at `threshold`.
    public var bpcer: Double
    /// APCER achieved at `threshold`, `<= target`.
    public var apcer: Double

    /// BPCER of `samples` at APCER `target` (non-finite scores excluded).
    public init(
        samples: [ScoredSample], target: Double, kind: APCERKind = .maxOverSpecies, minimumAttacks: Int = 1
    ) {
        self.init(ranked: RankedSamples(samples: samples), target: target, kind: kind, minimumAttacks: minimumAttacks)
    }

    init(ranked prepared: RankedSamples, target: Double, kind: APCERKind, minimumAttacks: Int = 1) {
        self.target = target
        self.kind = kind
        let ranked = prepared.ranked
        let positives = ranked.positiveCount, negatives = ranked.negativeCount
        let counts = prepared.speciesCounts
        let eligible = counts.map { $0 >= max(1, minimumAttacks) }
        guard positives > 0 && negatives > 0, target >= 0, target <= 1,
            kind == .pooled || eligible.contains(true)
        else {
            threshold = .nan
            bpcer = .nan
            apcer = .nan
            return
        }
        var accepted = [Int](repeating: 0, count: counts.count)
        var acceptedAll = 0, tp = 0, current = 0.0
        var best = (threshold: Double.infinity, tp: 0, apcer: 0.0)
        var start = 0
        outer: for end32 in ranked.blockEnds {
            let end = Int(end32)
            for k in start..<end {
                let s = Int(prepared.speciesOfSorted[k])
                if s < 0 {
                    tp += 1
                } else {
                    accepted[s] += 1
                    acceptedAll += 1
                    switch kind {
                    case .maxOverSpecies:
                        if eligible[s] { current = max(current, Double(accepted[s]) / Double(counts[s])) }
                    case .pooled: current = Double(acceptedAll) / Double(negatives)
                    }
                }
            }
            if current > target { break outer }
            best = (ranked.scores[end - 1], tp, current)
            start = end
        }
        threshold = best.threshold
        bpcer = Double(positives - best.tp) / Double(positives)
        apcer = best.apcer
    }
}
