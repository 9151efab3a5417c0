/// Every metric of one method on one evaluation set: what a run writes under
/// `metrics.<method>` in `results.json` (specs/evaluation.md).
///
/// Score convention: higher = more likely a real scene; positive class = bona fide;
/// accepted when `score >= threshold`. Computed by `compute(samples:configuration:)`,
/// a pure function (no I/O) that never traps on data: undefined values are NaN in Swift,
/// `null` in JSON, and listed in `warnings`.
///
/// | JSON key | property | meaning |
/// |---|---|---|
/// | `n_samples` | `sampleCount` | samples given |
/// | `n_excluded` | `excludedCount` | left out for a NaN/infinite score |
/// | `n_bona_fide`, `n_attack` | | evaluated samples per class |
/// | `n_clusters` | `clusterCount` | bootstrap clusters (groups + ungrouped samples) |
/// | `threshold` | | the operating threshold |
/// | `auc`, `auc_ci` | | ROC AUC (`ROCCurve`) and its cluster-bootstrap interval |
/// | `average_precision` | | step-sum AP, bona fide positive (`PrecisionRecallCurve`) |
/// | `eer`, `eer_threshold`, `eer_ci` | | `EqualErrorRate` and its interval |
/// | `apcer` | | `APCERSummary`: per species, max, pooled, intervals |
/// | `bpcer`, `bpcer_ci` | | BPCER at `threshold` |
/// | `acer`, `acer_ci` | | (APCER max + BPCER) / 2 |
/// | `bpcer20`, `bpcer20_threshold` | | BPCER at APCER (max over species) <= 5 % (`BPCERAtAPCER`) |
/// | `bpcer100`, `bpcer100_threshold` | | the same at 1 % |
/// | `bpcer20_pooled`, `bpcer20_pooled_threshold`, `bpcer100_pooled`, `bpcer100_pooled_threshold` | | with pooled APCER |
/// | `tpr_at_operating_point`, `tpr_ci` | | 1 - BPCER |
/// | `confusion` | | `BinaryConfusionMatrix` at `threshold` |
/// | `warnings` | | `MetricsWarning` raw values |
/// | `breakdowns` | | `MetricsBreakdown`, absent when none requested |
/// | `ties` | | `ScoreTies`: share of scored samples in a tie, largest tie block |
/// | `eer_operating_point` | | `EEROperatingPoint`: the rates `eer_threshold` really gives |
/// | `apcer_at_bpcer` | | `APCERAtBPCER` at BPCER 1 %, 5 %, 10 %, intervals on rates and threshold |
/// | `threshold_table` | | `ThresholdRow`s at the BPCER/APCER targets, the EER and decision thresholds |
///
/// The reports' "APCER max" is `apcer.max_counted`: the maximum over the species with at
/// least `MetricsConfiguration.minimumAttacksPerSpecies` attacks (`apcer.min_attacks_for_max`;
/// the others are listed in `apcer.species_below_minimum`); so are the max APCERs of
/// `eer_operating_point`, `apcer_at_bpcer` and `threshold_table`. The older keys keep their
/// meaning for comparison with earlier results and gates: `apcer.max`, `acer`, `bpcer20`
/// and `bpcer100` take the maximum over every species. The new keys are absent from results
/// written before they existed.
///
/// Intervals (`*_ci`) are `ConfidenceInterval` objects carrying their method, level,
/// resample count and seed; they are absent when the bootstrap is disabled. A `+inf`
/// threshold ("accept nothing") is also written as `null`.
public struct MethodMetrics: Sendable, Equatable, Codable {
    /// APCER at the operating threshold: per attack species, the maximum, pooled.
    ///
    /// JSON: `{"per_species": {species: rate}, "attacks_per_species": {species: n},
    /// "per_species_ci": {species: Wilson interval}, "max", "max_species", "max_ci",
    /// "pooled", "pooled_ci", "min_attacks_for_max", "species_below_minimum",
    /// "max_counted", "max_counted_species", "max_counted_ci"}`. `max` is over every
    /// species; `max_counted` over the species with at least `min_attacks_for_max` attacks
    /// (NaN when none has), its interval the cluster bootstrap of `threshold_table`'s
    /// `decision` row.
    public struct APCERSummary: Sendable, Equatable, Codable {
        public var perSpecies: [String: Double]
        public var attacksPerSpecies: [String: Int]
        /// Wilson intervals of each species' APCER (single proportions, clusters ignored).
        public var perSpeciesCI: [String: ConfidenceInterval]
        public var max: Double
        public var maxSpecies: String?
        /// Cluster-bootstrap interval of the maximum.
        public var maxCI: ConfidenceInterval?
        public var pooled: Double
        public var pooledCI: ConfidenceInterval?
        /// Fewest attacks a species needs to count in `max` (nil in older results: all counted).
        public var minimumAttacksForMax: Int?
        /// Species with fewer attacks, left out of `max` (sorted).
        public var speciesBelowMinimum: [String]
        /// The maximum over the species with at least `minimumAttacksForMax` attacks.
        public var maxCounted: Double
        public var maxCountedSpecies: String?
        public var maxCountedCI: ConfidenceInterval?

        enum CodingKeys: String, CodingKey {
            case perSpecies = "per_species"
            case attacksPerSpecies = "attacks_per_species"
            case perSpeciesCI = "per_species_ci"
            case max
            case maxSpecies = "max_species"
            case maxCI = "max_ci"
            case pooled
            case pooledCI = "pooled_ci"
            case minimumAttacksForMax = "min_attacks_for_max"
            case speciesBelowMinimum = "species_below_minimum"
            case maxCounted = "max_counted"
            case maxCountedSpecies = "max_counted_species"
            case maxCountedCI = "max_counted_ci"
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            perSpecies = try c.decodeIfPresent([String: Double].self, forKey: .perSpecies) ?? [:]
            attacksPerSpecies = try c.decodeIfPresent([String: Int].self, forKey: .attacksPerSpecies) ?? [:]
            perSpeciesCI = try c.decodeIfPresent([String: ConfidenceInterval].self, forKey: .perSpeciesCI) ?? [:]
            max = try c.decodeNullable(.max)
            maxSpecies = try c.decodeIfPresent(String.self, forKey: .maxSpecies)
            maxCI = try c.decodeIfPresent(ConfidenceInterval.self, forKey: .maxCI)
            pooled = try c.decodeNullable(.pooled)
            pooledCI = try c.decodeIfPresent(ConfidenceInterval.self, forKey: .pooledCI)
            minimumAttacksForMax = try c.decodeIfPresent(Int.self, forKey: .minimumAttacksForMax)
            speciesBelowMinimum = try c.decodeIfPresent([String].self, forKey: .speciesBelowMinimum) ?? []
            maxCounted = try c.decodeNullable(.maxCounted)
            maxCountedSpecies = try c.decodeIfPresent(String.self, forKey: .maxCountedSpecies)
            maxCountedCI = try c.decodeIfPresent(ConfidenceInterval.self, forKey: .maxCountedCI)
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(perSpecies, forKey: .perSpecies)
            try c.encode(attacksPerSpecies, forKey: .attacksPerSpecies)
            try c.encode(perSpeciesCI, forKey: .perSpeciesCI)
            try c.encodeNullable(max, forKey: .max)
            try c.encodeIfPresent(maxSpecies, forKey: .maxSpecies)
            try c.encodeIfPresent(maxCI, forKey: .maxCI)
            try c.encodeNullable(pooled, forKey: .pooled)
            try c.encodeIfPresent(pooledCI, forKey: .pooledCI)
            try c.encodeIfPresent(minimumAttacksForMax, forKey: .minimumAttacksForMax)
            try c.encode(speciesBelowMinimum, forKey: .speciesBelowMinimum)
            try c.encodeNullable(maxCounted, forKey: .maxCounted)
            try c.encodeIfPresent(maxCountedSpecies, forKey: .maxCountedSpecies)
            try c.encodeIfPresent(maxCountedCI, forKey: .maxCountedCI)
        }

        /// `pad` with every species counted (`max`), `counted` with the minimum.
        init(
            _ pad: PresentationAttackMetrics, counted: PresentationAttackMetrics,
            intervals: ClusterBootstrap.Intervals?,
            countedCI: ConfidenceInterval?, level: Double
        ) {
            perSpecies = Dictionary(uniqueKeysWithValues: pad.species.map { ($0.species, $0.apcer) })
            attacksPerSpecies = Dictionary(uniqueKeysWithValues: pad.species.map { ($0.species, $0.attacks) })
            perSpeciesCI = Dictionary(
                uniqueKeysWithValues: pad.species.map {
                    ($0.species, ConfidenceInterval.wilson(successes: $0.accepted, trials: $0.attacks, level: level))
                })
            max = pad.apcerMax
            maxSpecies = pad.apcerMaxSpecies
            maxCI = intervals?.apcerMax
            pooled = pad.apcerPooled
            pooledCI = intervals?.apcerPooled
            minimumAttacksForMax = counted.minimumAttacks
            speciesBelowMinimum = counted.species.filter { !$0.countsInMax }.map(\.species)
            maxCounted = counted.apcerMax
            maxCountedSpecies = counted.apcerMaxSpecies
            maxCountedCI = countedCI
        }
    }

    public var sampleCount: Int
    public var excludedCount: Int
    public var bonaFideCount: Int
    public var attackCount: Int
    public var clusterCount: Int
    public var threshold: Double
    public var auc: Double
    public var aucCI: ConfidenceInterval?
    public var averagePrecision: Double
    public var eer: Double
    public var eerThreshold: Double
    public var eerCI: ConfidenceInterval?
    public var apcer: APCERSummary
    public var bpcer: Double
    public var bpcerCI: ConfidenceInterval?
    public var acer: Double
    public var acerCI: ConfidenceInterval?
    public var bpcer20: Double
    public var bpcer20Threshold: Double
    public var bpcer100: Double
    public var bpcer100Threshold: Double
    public var bpcer20Pooled: Double
    public var bpcer20PooledThreshold: Double
    public var bpcer100Pooled: Double
    public var bpcer100PooledThreshold: Double
    public var tprAtOperatingPoint: Double
    public var tprCI: ConfidenceInterval?
    public var confusion: BinaryConfusionMatrix
    public var warnings: [MetricsWarning]
    public var breakdowns: MetricsBreakdown?
    public var ties: ScoreTies?
    public var eerOperatingPoint: EEROperatingPoint?
    public var apcerAtBPCER: [APCERAtBPCER]?
    public var thresholdTable: [ThresholdRow]?

    enum CodingKeys: String, CodingKey {
        case sampleCount = "n_samples"
        case excludedCount = "n_excluded"
        case bonaFideCount = "n_bona_fide"
        case attackCount = "n_attack"
        case clusterCount = "n_clusters"
        case threshold, auc
        case aucCI = "auc_ci"
        case averagePrecision = "average_precision"
        case eer
        case eerThreshold = "eer_threshold"
        case eerCI = "eer_ci"
        case apcer, bpcer
        case bpcerCI = "bpcer_ci"
        case acer
        case acerCI = "acer_ci"
        case bpcer20
        case bpcer20Threshold = "bpcer20_threshold"
        case bpcer100
        case bpcer100Threshold = "bpcer100_threshold"
        case bpcer20Pooled = "bpcer20_pooled"
        case bpcer20PooledThreshold = "bpcer20_pooled_threshold"
        case bpcer100Pooled = "bpcer100_pooled"
        case bpcer100PooledThreshold = "bpcer100_pooled_threshold"
        case tprAtOperatingPoint = "tpr_at_operating_point"
        case tprCI = "tpr_ci"
        case confusion, warnings, breakdowns, ties
        case eerOperatingPoint = "eer_operating_point"
        case apcerAtBPCER = "apcer_at_bpcer"
        case thresholdTable = "threshold_table"
    }

    /// All metrics of `samples` under `configuration` (call `configuration.validate()`
    /// first; a negative resample count is taken as 0).
    ///
    /// - Complexity: O(n log n) plus O(n) per bootstrap resample (parallel) plus the
    ///   breakdowns.
    public static func compute(samples: [ScoredSample], configuration: MetricsConfiguration = .standard)
        -> MethodMetrics
    {
        MethodMetrics(samples: samples, configuration: configuration)
    }

    private init(samples: [ScoredSample], configuration: MetricsConfiguration) {
        let threshold = configuration.threshold
        var settings = configuration.bootstrap
        settings.resamples = Swift.max(0, settings.resamples)
        let prepared = RankedSamples(samples: samples)
        let ranked = prepared.ranked
        let curve = ROCCurve(ranked: ranked, excluded: prepared.excluded, inputWarnings: prepared.inputWarnings)
        let pr = PrecisionRecallCurve(ranked: ranked, excluded: prepared.excluded, inputWarnings: [])
        let eer = EqualErrorRate(curve: curve)
        let minimum = Swift.max(1, configuration.minimumAttacksPerSpecies)
        let pad = PresentationAttackMetrics(prepared: prepared, threshold: threshold)
        let counted = PresentationAttackMetrics(prepared: prepared, threshold: threshold, minimumAttacks: minimum)
        let intervals = ClusterBootstrap(prepared: prepared, threshold: threshold).intervals(settings)
        // Every species counts in the older keys (bpcer20, bpcer100); the table's APCER rows
        // use the minimum.
        let at = { (target: Double, kind: BPCERAtAPCER.APCERKind) in
            BPCERAtAPCER(ranked: prepared, target: target, kind: kind)
        }
        let atCounted = { (target: Double, kind: BPCERAtAPCER.APCERKind) in
            BPCERAtAPCER(ranked: prepared, target: target, kind: kind, minimumAttacks: minimum)
        }
        let (b20, b100) = (at(0.05, .maxOverSpecies), at(0.01, .maxOverSpecies))
        let (p20, p100) = (at(0.05, .pooled), at(0.01, .pooled))
        let atBPCER = APCERAtBPCER.compute(
            prepared: prepared, targets: APCERAtBPCER.standardTargets, minimumAttacks: minimum,
            bootstrap: settings.resamples > 0 ? settings : nil)
        ties = ScoreTies(ranked: ranked)
        eerOperatingPoint = EEROperatingPoint(prepared: prepared, eer: eer, minimumAttacks: minimum)
        apcerAtBPCER = atBPCER
        var candidates: [(reason: String, threshold: Double)] = atBPCER.map {
            ("bpcer_\(Self.percent($0.target))", $0.threshold)
        }
        for target in [0.01, 0.05, 0.10] {
            let byMax = atCounted(target, .maxOverSpecies)
            let point = byMax.threshold.isNaN ? at(target, .pooled) : byMax
            let kind = byMax.threshold.isNaN ? "pooled" : "max"
            candidates.append(("apcer_\(kind)_\(Self.percent(target))", point.threshold))
        }
        candidates.append(("eer", eer.threshold))
        candidates.append(("decision", threshold))
        let table =
            ranked.positiveCount > 0 && ranked.negativeCount > 0
            ? ThresholdRow.rows(
                prepared: prepared, thresholds: candidates.filter { !$0.threshold.isNaN }, minimumAttacks: minimum,
                settings: settings)
            : []
        thresholdTable = table

        sampleCount = samples.count
        excludedCount = prepared.excluded
        bonaFideCount = ranked.positiveCount
        attackCount = ranked.negativeCount
        clusterCount = prepared.clusterCount
        self.threshold = threshold
        auc = curve.auc
        aucCI = intervals?.auc
        averagePrecision = pr.averagePrecision
        self.eer = eer.rate
        eerThreshold = eer.threshold
        eerCI = intervals?.eer
        apcer = APCERSummary(
            pad, counted: counted, intervals: intervals,
            countedCI: table.first { $0.reason == "decision" }?.apcerMaxCI, level: settings.confidenceLevel)
        bpcer = pad.bpcer
        bpcerCI = intervals?.bpcer
        acer = pad.acer
        acerCI = intervals?.acer
        (bpcer20, bpcer20Threshold) = (b20.bpcer, b20.threshold)
        (bpcer100, bpcer100Threshold) = (b100.bpcer, b100.threshold)
        (bpcer20Pooled, bpcer20PooledThreshold) = (p20.bpcer, p20.threshold)
        (bpcer100Pooled, bpcer100PooledThreshold) = (p100.bpcer, p100.threshold)
        tprAtOperatingPoint = pad.truePositiveRate
        tprCI = intervals?.truePositiveRate
        confusion = BinaryConfusionMatrix(samples: prepared.samples, threshold: threshold)
        confusion.excludedCount = prepared.excluded
        var warnings = curve.warnings
        if let intervals,
            [intervals.auc, intervals.eer, intervals.bpcer, intervals.apcerMax]
                .contains(where: { ($0.undefinedResamples ?? 0) > 0 })
        {
            warnings.append(.undefinedBootstrapResamples)
        }
        self.warnings = warnings
        breakdowns =
            configuration.breakdowns.isEmpty
            ? nil
            : MetricsBreakdown(
                prepared: prepared, threshold: threshold, dimensions: configuration.breakdowns,
                level: settings.confidenceLevel)
    }

    /// `0.05` -> `5`, for row names.
    static func percent(_ rate: Double) -> String { SVGNumber.format(rate * 100, decimals: 2) }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        sampleCount = try c.decode(Int.self, forKey: .sampleCount)
        excludedCount = try c.decodeIfPresent(Int.self, forKey: .excludedCount) ?? 0
        bonaFideCount = try c.decode(Int.self, forKey: .bonaFideCount)
        attackCount = try c.decode(Int.self, forKey: .attackCount)
        clusterCount = try c.decodeIfPresent(Int.self, forKey: .clusterCount) ?? 0
        threshold = try c.decodeNullable(.threshold)
        auc = try c.decodeNullable(.auc)
        aucCI = try c.decodeIfPresent(ConfidenceInterval.self, forKey: .aucCI)
        averagePrecision = try c.decodeNullable(.averagePrecision)
        eer = try c.decodeNullable(.eer)
        eerThreshold = try c.decodeNullable(.eerThreshold)
        eerCI = try c.decodeIfPresent(ConfidenceInterval.self, forKey: .eerCI)
        apcer = try c.decode(APCERSummary.self, forKey: .apcer)
        bpcer = try c.decodeNullable(.bpcer)
        bpcerCI = try c.decodeIfPresent(ConfidenceInterval.self, forKey: .bpcerCI)
        acer = try c.decodeNullable(.acer)
        acerCI = try c.decodeIfPresent(ConfidenceInterval.self, forKey: .acerCI)
        bpcer20 = try c.decodeNullable(.bpcer20)
        bpcer20Threshold = try c.decodeNullable(.bpcer20Threshold)
        bpcer100 = try c.decodeNullable(.bpcer100)
        bpcer100Threshold = try c.decodeNullable(.bpcer100Threshold)
        bpcer20Pooled = try c.decodeNullable(.bpcer20Pooled)
        bpcer20PooledThreshold = try c.decodeNullable(.bpcer20PooledThreshold)
        bpcer100Pooled = try c.decodeNullable(.bpcer100Pooled)
        bpcer100PooledThreshold = try c.decodeNullable(.bpcer100PooledThreshold)
        tprAtOperatingPoint = try c.decodeNullable(.tprAtOperatingPoint)
        tprCI = try c.decodeIfPresent(ConfidenceInterval.self, forKey: .tprCI)
        confusion = try c.decode(BinaryConfusionMatrix.self, forKey: .confusion)
        warnings = try c.decodeIfPresent([MetricsWarning].self, forKey: .warnings) ?? []
        breakdowns = try c.decodeIfPresent(MetricsBreakdown.self, forKey: .breakdowns)
        ties = try c.decodeIfPresent(ScoreTies.self, forKey: .ties)
        eerOperatingPoint = try c.decodeIfPresent(EEROperatingPoint.self, forKey: .eerOperatingPoint)
        apcerAtBPCER = try c.decodeIfPresent([APCERAtBPCER].self, forKey: .apcerAtBPCER)
        thresholdTable = try c.decodeIfPresent([ThresholdRow].self, forKey: .thresholdTable)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(sampleCount, forKey: .sampleCount)
        try c.encode(excludedCount, forKey: .excludedCount)
        try c.encode(bonaFideCount, forKey: .bonaFideCount)
        try c.encode(attackCount, forKey: .attackCount)
        try c.encode(clusterCount, forKey: .clusterCount)
        try c.encodeNullable(threshold, forKey: .threshold)
        try c.encodeNullable(auc, forKey: .auc)
        try c.encodeIfPresent(aucCI, forKey: .aucCI)
        try c.encodeNullable(averagePrecision, forKey: .averagePrecision)
        try c.encodeNullable(eer, forKey: .eer)
        try c.encodeNullable(eerThreshold, forKey: .eerThreshold)
        try c.encodeIfPresent(eerCI, forKey: .eerCI)
        try c.encode(apcer, forKey: .apcer)
        try c.encodeNullable(bpcer, forKey: .bpcer)
        try c.encodeIfPresent(bpcerCI, forKey: .bpcerCI)
        try c.encodeNullable(acer, forKey: .acer)
        try c.encodeIfPresent(acerCI, forKey: .acerCI)
        try c.encodeNullable(bpcer20, forKey: .bpcer20)
        try c.encodeNullable(bpcer20Threshold, forKey: .bpcer20Threshold)
        try c.encodeNullable(bpcer100, forKey: .bpcer100)
        try c.encodeNullable(bpcer100Threshold, forKey: .bpcer100Threshold)
        try c.encodeNullable(bpcer20Pooled, forKey: .bpcer20Pooled)
        try c.encodeNullable(bpcer20PooledThreshold, forKey: .bpcer20PooledThreshold)
        try c.encodeNullable(bpcer100Pooled, forKey: .bpcer100Pooled)
        try c.encodeNullable(bpcer100PooledThreshold, forKey: .bpcer100PooledThreshold)
        try c.encodeNullable(tprAtOperatingPoint, forKey: .tprAtOperatingPoint)
        try c.encodeIfPresent(tprCI, forKey: .tprCI)
        try c.encode(confusion, forKey: .confusion)
        try c.encode(warnings, forKey: .warnings)
        try c.encodeIfPresent(breakdowns, forKey: .breakdowns)
        try c.encodeIfPresent(ties, forKey: .ties)
        try c.encodeIfPresent(eerOperatingPoint, forKey: .eerOperatingPoint)
        try c.encodeIfPresent(apcerAtBPCER, forKey: .apcerAtBPCER)
        try c.encodeIfPresent(thresholdTable, forKey: .thresholdTable)
    }
}
