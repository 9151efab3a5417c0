/// Which per-subset breakdowns `MethodMetrics` computes.
public enum BreakdownDimension: String, Sendable, Codable, CaseIterable {
    /// Per `species` (label).
    case label
    /// Per tag; a sample with several tags is in several subsets.
    case tag
    /// Per named `group` (ungrouped samples are not listed).
    case group
    /// Per attestation level (nil counts as `none`).
    case attestation
}

/// Metrics of one subset of samples (one label, tag, group or attestation level).
///
/// Counts, `mean_score`, the acceptance rate and APCER/BPCER are over the subset's own
/// samples at the operating threshold, with Wilson intervals (single proportions; they
/// ignore clustering). `auc`, `eer` and `eer_threshold` are over the subset, except for
/// an attack label: there they are that species against ALL bona fide samples
/// (`auc_against_all_bona_fide` true), so each attack species gets its own AUC. NaN
/// (JSON `null`) where undefined, with `warnings`.
public struct BreakdownEntry: Sendable, Equatable, Codable {
    public var key: String
    public var nBonaFide: Int
    public var nAttack: Int
    /// Mean score of the subset.
    public var meanScore: Double
    /// Share of the subset with `score >= threshold`.
    public var acceptanceRate: Double
    public var acceptanceCI: ConfidenceInterval
    /// Attacks of the subset accepted / attacks of the subset.
    public var apcer: Double
    public var apcerCI: ConfidenceInterval
    /// Bona fide of the subset rejected / bona fide of the subset.
    public var bpcer: Double
    public var bpcerCI: ConfidenceInterval
    public var auc: Double
    public var eer: Double
    public var eerThreshold: Double
    public var aucAgainstAllBonaFide: Bool
    public var warnings: [MetricsWarning]

    enum CodingKeys: String, CodingKey {
        case key
        case nBonaFide = "n_bona_fide"
        case nAttack = "n_attack"
        case meanScore = "mean_score"
        case acceptanceRate = "acceptance_rate"
        case acceptanceCI = "acceptance_ci"
        case apcer
        case apcerCI = "apcer_ci"
        case bpcer
        case bpcerCI = "bpcer_ci"
        case auc, eer
        case eerThreshold = "eer_threshold"
        case aucAgainstAllBonaFide = "auc_against_all_bona_fide"
        case warnings
    }

    /// The entry for `subset` (finite scores only) at `threshold`; `reference` (all bona
    /// fide samples) is added for the AUC/EER when `aucAgainstAllBonaFide`.
    init(key: String, subset: [ScoredSample], reference: [ScoredSample]?, threshold: Double, level: Double) {
        self.init(
            key: key, rows: Array(subset.indices), scores: subset.map(\.score), bonaFide: subset.map(\.bonaFide),
            curve: ROCCurve(samples: (reference ?? []) + subset), againstAllBonaFide: reference != nil,
            threshold: threshold, level: level)
    }

    /// The entry for the samples `rows` of the columns `scores` (finite) and `bonaFide`,
    /// with the ROC `curve` of those samples (plus every bona fide one when
    /// `againstAllBonaFide`). Sums run in `rows` order.
    init(
        key: String, rows: [Int], scores: [Double], bonaFide: [Bool], curve: ROCCurve, againstAllBonaFide: Bool,
        threshold: Double, level: Double
    ) {
        self.key = key
        var bonaFideCount = 0, attackCount = 0, accepted = 0, attacksAccepted = 0, bonaFideRejected = 0
        var sum: Double = 0
        for i in rows {
            let score = scores[i]
            sum += score
            if score >= threshold { accepted += 1 }
            if bonaFide[i] {
                bonaFideCount += 1
                if score < threshold { bonaFideRejected += 1 }
            } else {
                attackCount += 1
                if score >= threshold { attacksAccepted += 1 }
            }
        }
        nBonaFide = bonaFideCount
        nAttack = attackCount
        meanScore = rows.isEmpty ? .nan : sum / Double(rows.count)
        acceptanceRate = rows.isEmpty ? .nan : Double(accepted) / Double(rows.count)
        acceptanceCI = .wilson(successes: accepted, trials: rows.count, level: level)
        apcer = attackCount == 0 ? .nan : Double(attacksAccepted) / Double(attackCount)
        apcerCI = .wilson(successes: attacksAccepted, trials: attackCount, level: level)
        bpcer = bonaFideCount == 0 ? .nan : Double(bonaFideRejected) / Double(bonaFideCount)
        bpcerCI = .wilson(successes: bonaFideRejected, trials: bonaFideCount, level: level)
        auc = curve.auc
        let eer = EqualErrorRate(curve: curve)
        self.eer = eer.rate
        eerThreshold = eer.threshold
        aucAgainstAllBonaFide = againstAllBonaFide
        warnings = curve.warnings
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        key = try c.decode(String.self, forKey: .key)
        nBonaFide = try c.decode(Int.self, forKey: .nBonaFide)
        nAttack = try c.decode(Int.self, forKey: .nAttack)
        meanScore = try c.decodeNullable(.meanScore)
        acceptanceRate = try c.decodeNullable(.acceptanceRate)
        acceptanceCI = try c.decode(ConfidenceInterval.self, forKey: .acceptanceCI)
        apcer = try c.decodeNullable(.apcer)
        apcerCI = try c.decode(ConfidenceInterval.self, forKey: .apcerCI)
        bpcer = try c.decodeNullable(.bpcer)
        bpcerCI = try c.decode(ConfidenceInterval.self, forKey: .bpcerCI)
        auc = try c.decodeNullable(.auc)
        eer = try c.decodeNullable(.eer)
        eerThreshold = try c.decodeNullable(.eerThreshold)
        aucAgainstAllBonaFide = try c.decodeIfPresent(Bool.self, forKey: .aucAgainstAllBonaFide) ?? false
        warnings = try c.decodeIfPresent([MetricsWarning].self, forKey: .warnings) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(key, forKey: .key)
        try c.encode(nBonaFide, forKey: .nBonaFide)
        try c.encode(nAttack, forKey: .nAttack)
        try c.encodeNullable(meanScore, forKey: .meanScore)
        try c.encodeNullable(acceptanceRate, forKey: .acceptanceRate)
        try c.encode(acceptanceCI, forKey: .acceptanceCI)
        try c.encodeNullable(apcer, forKey: .apcer)
        try c.encode(apcerCI, forKey: .apcerCI)
        try c.encodeNullable(bpcer, forKey: .bpcer)
        try c.encode(bpcerCI, forKey: .bpcerCI)
        try c.encodeNullable(auc, forKey: .auc)
        try c.encodeNullable(eer, forKey: .eer)
        try c.encodeNullable(eerThreshold, forKey: .eerThreshold)
        try c.encode(aucAgainstAllBonaFide, forKey: .aucAgainstAllBonaFide)
        try c.encode(warnings, forKey: .warnings)
    }
}

/// Per-label, per-tag, per-group and per-attestation metrics of one method.
///
/// Each list is sorted by key (UTF-8 order); a dimension not requested is nil (absent
/// from the JSON). Samples with a non-finite score are left out of every subset.
/// JSON: `{"per_label": [entry...], "per_tag": [...], "per_group": [...],
/// "per_attestation": [...]}`, entries as `BreakdownEntry`.
public struct MetricsBreakdown: Sendable, Equatable, Codable {
    public var perLabel: [BreakdownEntry]?
    public var perTag: [BreakdownEntry]?
    public var perGroup: [BreakdownEntry]?
    public var perAttestation: [BreakdownEntry]?

    enum CodingKeys: String, CodingKey {
        case perLabel = "per_label"
        case perTag = "per_tag"
        case perGroup = "per_group"
        case perAttestation = "per_attestation"
    }

    /// The requested breakdowns of `samples` at `threshold`, Wilson intervals at `level`.
    ///
    /// - Complexity: O(n log n) per dimension (each subset is sorted for its AUC).
    public init(
        samples input: [ScoredSample], threshold: Double,
        dimensions: [BreakdownDimension] = BreakdownDimension.allCases,
        level: Double = 0.95
    ) {
        self.init(
            finite: input.filter { $0.score.isFinite }, prepared: nil, threshold: threshold,
            dimensions: dimensions, level: level)
    }

    /// The same for `prepared.samples`, whose subsets' curves are read off `prepared`'s
    /// sorted order instead of sorting each subset again.
    init(prepared: RankedSamples, threshold: Double, dimensions: [BreakdownDimension], level: Double) {
        self.init(
            finite: prepared.samples, prepared: prepared, threshold: threshold, dimensions: dimensions, level: level)
    }

    /// `samples`: all finite; `prepared`: nil, or prepared from exactly `samples`.
    private init(
        finite samples: [ScoredSample], prepared: RankedSamples?, threshold: Double,
        dimensions: [BreakdownDimension], level: Double
    ) {
        let n = samples.count
        let scores = samples.map(\.score), isBonaFide = samples.map(\.bonaFide)
        let bonaFideRows = (0..<n).filter { isBonaFide[$0] }
        // Equal scores keep their input order inside a subset's sort, which the sorted order of
        // all samples gives too, except that -0.0 and 0.0 are equal but print apart: then sort.
        let sorted = prepared.flatMap { p in
            p.ranked.scores.contains { $0 == 0 && $0.sign == .minus } ? nil : p
        }
        /// The ROC curve of `rows`, with every bona fide sample too when `withBonaFide`.
        func curve(_ rows: [Int], withBonaFide: Bool) -> ROCCurve {
            guard let sorted else {
                // As the subset's own sort sees them: the bona fide reference, then the subset.
                let list = (withBonaFide ? bonaFideRows : []) + rows
                return ROCCurve(scores: list.map { scores[$0] }, bonaFide: list.map { isBonaFide[$0] })
            }
            var marked = [Bool](repeating: false, count: n)
            for i in rows { marked[i] = true }
            if withBonaFide { for i in bonaFideRows { marked[i] = true } }
            var curveScores: [Double] = [], truth: [Bool] = []
            for (k, index) in sorted.ranked.order.enumerated() where marked[Int(index)] {
                curveScores.append(sorted.ranked.scores[k])
                truth.append(sorted.ranked.positive[k] == 1)
            }
            return ROCCurve(
                ranked: RankedScores(sortedScores: curveScores, bonaFide: truth), excluded: 0, inputWarnings: [])
        }
        /// `visit(i, add)` calls `add` with each key of sample `i`.
        func entries(_ visit: (Int, (String) -> Void) -> Void, attackLabelsAgainstBonaFide: Bool = false)
            -> [BreakdownEntry]
        {
            var subsets: [String: [Int]] = [:]
            for i in 0..<n {
                // Each distinct key of a sample once: its keys are visited together.
                visit(i) { key in if subsets[key]?.last != i { subsets[key, default: []].append(i) } }
            }
            return subsets.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }.map { key in
                let rows = subsets[key]!
                let againstAll = attackLabelsAgainstBonaFide && rows.allSatisfy { !isBonaFide[$0] }
                return BreakdownEntry(
                    key: key, rows: rows, scores: scores, bonaFide: isBonaFide,
                    curve: curve(rows, withBonaFide: againstAll), againstAllBonaFide: againstAll,
                    threshold: threshold, level: level)
            }
        }
        let wanted = Set(dimensions)
        perLabel =
            wanted.contains(.label)
            ? entries({ i, add in add(samples[i].species) }, attackLabelsAgainstBonaFide: true) : nil
        perTag = wanted.contains(.tag) ? entries { i, add in for tag in samples[i].tags { add(tag) } } : nil
        perGroup = wanted.contains(.group) ? entries { i, add in if let group = samples[i].group { add(group) } } : nil
        perAttestation =
            wanted.contains(.attestation) ? entries { i, add in add(samples[i].attestation ?? "none") } : nil
    }
}
