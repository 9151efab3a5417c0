/// One row of a threshold table: what a candidate decision threshold gives, per attack
/// species and pooled, with intervals, so a researcher can pick an operating point.
///
/// Accept = `score >= threshold`. Per species: APCER with a Wilson interval (a single
/// proportion; clusters ignored, as `MethodMetrics.APCERSummary`), and whether the
/// species counts in the max (`PresentationAttackMetrics.minimumAttacks`). Pooled APCER,
/// the max APCER and BPCER carry cluster-bootstrap percentile intervals at this fixed
/// threshold (the threshold itself is not resampled here; `APCERAtBPCER` resamples it).
///
/// JSON: `{"reason", "threshold", "apcer_per_species", "apcer_per_species_ci",
/// "attacks_per_species", "species_below_minimum", "apcer_pooled", "apcer_pooled_ci",
/// "apcer_max", "apcer_max_species", "apcer_max_ci", "bpcer", "bpcer_ci"}`.
public struct ThresholdRow: Sendable, Equatable, Codable {
    /// Why the row is there: `bpcer_1`, `bpcer_5`, `bpcer_10` (the threshold of
    /// `APCERAtBPCER` at that BPCER, in %), `apcer_max_1`, `apcer_max_5`,
    /// `apcer_max_10` (of `BPCERAtAPCER`, max over species; `apcer_pooled_X` when no
    /// species has enough attacks for a max), `eer` (`EqualErrorRate.threshold`),
    /// `decision` (the configured threshold).
    public var reason: String
    public var threshold: Double
    public var apcerPerSpecies: [String: Double]
    public var apcerPerSpeciesCI: [String: ConfidenceInterval]
    public var attacksPerSpecies: [String: Int]
    /// Species left out of `apcerMax` for too few attacks, sorted.
    public var speciesBelowMinimum: [String]
    public var apcerPooled: Double
    public var apcerPooledCI: ConfidenceInterval?
    public var apcerMax: Double
    public var apcerMaxSpecies: String?
    public var apcerMaxCI: ConfidenceInterval?
    public var bpcer: Double
    public var bpcerCI: ConfidenceInterval?

    enum CodingKeys: String, CodingKey {
        case reason, threshold
        case apcerPerSpecies = "apcer_per_species"
        case apcerPerSpeciesCI = "apcer_per_species_ci"
        case attacksPerSpecies = "attacks_per_species"
        case speciesBelowMinimum = "species_below_minimum"
        case apcerPooled = "apcer_pooled"
        case apcerPooledCI = "apcer_pooled_ci"
        case apcerMax = "apcer_max"
        case apcerMaxSpecies = "apcer_max_species"
        case apcerMaxCI = "apcer_max_ci"
        case bpcer
        case bpcerCI = "bpcer_ci"
    }

    init(reason: String, pad: PresentationAttackMetrics, level: Double) {
        self.reason = reason
        threshold = pad.threshold
        apcerPerSpecies = Dictionary(uniqueKeysWithValues: pad.species.map { ($0.species, $0.apcer) })
        apcerPerSpeciesCI = Dictionary(
            uniqueKeysWithValues: pad.species.map {
                ($0.species, ConfidenceInterval.wilson(successes: $0.accepted, trials: $0.attacks, level: level))
            })
        attacksPerSpecies = Dictionary(uniqueKeysWithValues: pad.species.map { ($0.species, $0.attacks) })
        speciesBelowMinimum = pad.species.filter { !$0.countsInMax }.map(\.species)
        apcerPooled = pad.apcerPooled
        apcerMax = pad.apcerMax
        apcerMaxSpecies = pad.apcerMaxSpecies
        bpcer = pad.bpcer
    }

    /// Rows at `thresholds` (reason, value; none NaN) for `prepared`, with bootstrap
    /// intervals from one set of resamples shared by all rows: one pass over the sorted
    /// samples per resample for all rows (`WeightedThresholdSweep.rates(at:weights:)`), or
    /// with few clusters each row from its prefix counts (`useClusterPrefix` false: always
    /// the pass; tests compare the two).
    static func rows(
        prepared: RankedSamples, thresholds: [(reason: String, threshold: Double)], minimumAttacks: Int,
        settings: BootstrapSettings, useClusterPrefix: Bool = true
    ) -> [ThresholdRow] {
        var rows = thresholds.map { item in
            ThresholdRow(
                reason: item.reason,
                pad: PresentationAttackMetrics(
                    prepared: prepared, threshold: item.threshold, minimumAttacks: minimumAttacks),
                level: settings.confidenceLevel)
        }
        guard settings.resamples > 0, !rows.isEmpty else { return rows }
        let sweep = WeightedThresholdSweep(
            prepared: prepared, eligible: prepared.speciesCounts.map { $0 >= max(1, minimumAttacks) })
        let levels = thresholds.map(\.threshold)
        let resampler = ClusterResampler(clusterCount: prepared.clusterCount, settings: settings)
        // Few clusters: each row's counts from its own prefix row (the same rates).
        let prefix =
            useClusterPrefix && settings.resamples >= 16 && sweep.prefixPays
            ? sweep.prefix(atThresholds: levels) : nil
        let replicates = resampler.map { _, weights in
            switch weights {
            case .narrow(let w):
                prefix.map { sweep.rates(at: levels, weights: w, prefix: $0) } ?? sweep.rates(at: levels, weights: w)
            case .wide(let w):
                prefix.map { sweep.rates(at: levels, weights: w, prefix: $0) } ?? sweep.rates(at: levels, weights: w)
            }
        }
        for index in rows.indices {
            rows[index].apcerPooledCI = .bootstrapPercentile(
                replicates.map { $0[index].apcerPooled }, settings: settings)
            rows[index].apcerMaxCI = .bootstrapPercentile(replicates.map { $0[index].apcerMax }, settings: settings)
            rows[index].bpcerCI = .bootstrapPercentile(replicates.map { $0[index].bpcer }, settings: settings)
        }
        return rows
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        reason = try c.decode(String.self, forKey: .reason)
        threshold = try c.decodeNullable(.threshold)
        apcerPerSpecies = try c.decodeIfPresent([String: Double].self, forKey: .apcerPerSpecies) ?? [:]
        apcerPerSpeciesCI = try c.decodeIfPresent([String: ConfidenceInterval].self, forKey: .apcerPerSpeciesCI) ?? [:]
        attacksPerSpecies = try c.decodeIfPresent([String: Int].self, forKey: .attacksPerSpecies) ?? [:]
        speciesBelowMinimum = try c.decodeIfPresent([String].self, forKey: .speciesBelowMinimum) ?? []
        apcerPooled = try c.decodeNullable(.apcerPooled)
        apcerPooledCI = try c.decodeIfPresent(ConfidenceInterval.self, forKey: .apcerPooledCI)
        apcerMax = try c.decodeNullable(.apcerMax)
        apcerMaxSpecies = try c.decodeIfPresent(String.self, forKey: .apcerMaxSpecies)
        apcerMaxCI = try c.decodeIfPresent(ConfidenceInterval.self, forKey: .apcerMaxCI)
        bpcer = try c.decodeNullable(.bpcer)
        bpcerCI = try c.decodeIfPresent(ConfidenceInterval.self, forKey: .bpcerCI)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(reason, forKey: .reason)
        try c.encodeNullable(threshold, forKey: .threshold)
        try c.encode(apcerPerSpecies, forKey: .apcerPerSpecies)
        try c.encode(apcerPerSpeciesCI, forKey: .apcerPerSpeciesCI)
        try c.encode(attacksPerSpecies, forKey: .attacksPerSpecies)
        try c.encode(speciesBelowMinimum, forKey: .speciesBelowMinimum)
        try c.encodeNullable(apcerPooled, forKey: .apcerPooled)
        try c.encodeIfPresent(apcerPooledCI, forKey: .apcerPooledCI)
        try c.encodeNullable(apcerMax, forKey: .apcerMax)
        try c.encodeIfPresent(apcerMaxSpecies, forKey: .apcerMaxSpecies)
        try c.encodeIfPresent(apcerMaxCI, forKey: .apcerMaxCI)
        try c.encodeNullable(bpcer, forKey: .bpcer)
        try c.encodeIfPresent(bpcerCI, forKey: .bpcerCI)
    }
}

/// The EER's threshold used as an operating point: the rates it really gives.
///
/// `EqualErrorRate` interpolates between ROC points; with ties (or between two distinct
/// scores) a decision at its threshold (`score >= threshold`) does not give APCER =
/// BPCER = EER. This is `PresentationAttackMetrics` at `EqualErrorRate.threshold`.
///
/// JSON (`MethodMetrics.eer_operating_point`): `{"threshold", "apcer_pooled",
/// "apcer_max", "apcer_max_species", "bpcer"}`.
public struct EEROperatingPoint: Sendable, Equatable, Codable {
    public var threshold: Double
    public var apcerPooled: Double
    public var apcerMax: Double
    public var apcerMaxSpecies: String?
    public var bpcer: Double

    enum CodingKeys: String, CodingKey {
        case threshold
        case apcerPooled = "apcer_pooled"
        case apcerMax = "apcer_max"
        case apcerMaxSpecies = "apcer_max_species"
        case bpcer
    }

    /// The rates of `samples` at `eer.threshold` (NaN everywhere when it is NaN).
    /// The same from `prepared` (`PresentationAttackMetrics.init(prepared:threshold:minimumAttacks:)`).
    init(prepared: RankedSamples, eer: EqualErrorRate, minimumAttacks: Int = 1) {
        threshold = eer.threshold
        guard eer.threshold.isFinite else {
            (apcerPooled, apcerMax, apcerMaxSpecies, bpcer) = (.nan, .nan, nil, .nan)
            return
        }
        let pad = PresentationAttackMetrics(
            prepared: prepared, threshold: eer.threshold, minimumAttacks: minimumAttacks)
        apcerPooled = pad.apcerPooled
        apcerMax = pad.apcerMax
        apcerMaxSpecies = pad.apcerMaxSpecies
        bpcer = pad.bpcer
    }

    public init(samples: [ScoredSample], eer: EqualErrorRate, minimumAttacks: Int = 1) {
        threshold = eer.threshold
        guard eer.threshold.isFinite else {
            (apcerPooled, apcerMax, apcerMaxSpecies, bpcer) = (.nan, .nan, nil, .nan)
            return
        }
        let pad = PresentationAttackMetrics(samples: samples, threshold: eer.threshold, minimumAttacks: minimumAttacks)
        apcerPooled = pad.apcerPooled
        apcerMax = pad.apcerMax
        apcerMaxSpecies = pad.apcerMaxSpecies
        bpcer = pad.bpcer
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        threshold = try c.decodeNullable(.threshold)
        apcerPooled = try c.decodeNullable(.apcerPooled)
        apcerMax = try c.decodeNullable(.apcerMax)
        apcerMaxSpecies = try c.decodeIfPresent(String.self, forKey: .apcerMaxSpecies)
        bpcer = try c.decodeNullable(.bpcer)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeNullable(threshold, forKey: .threshold)
        try c.encodeNullable(apcerPooled, forKey: .apcerPooled)
        try c.encodeNullable(apcerMax, forKey: .apcerMax)
        try c.encodeIfPresent(apcerMaxSpecies, forKey: .apcerMaxSpecies)
        try c.encodeNullable(bpcer, forKey: .bpcer)
    }
}
