import RialDetection

/// Error rates when the aggregate's output level is the decision: a sample is accepted
/// at level `L` when its confidence level is `L` or higher.
///
/// For each level above SUSPICIOUS: APCER per species and pooled = attacks at `>= L` /
/// attacks, BPCER = bona fide below `L` / bona fide, each with a Wilson interval (single
/// proportions: clusters ignored). Samples without an aggregate level are left out.
/// The level is the product's displayed one (caps included), not the ranking score.
///
/// JSON (`RunResults.aggregate_levels`, per data kind): `{"level", "n_bona_fide",
/// "n_attack", "apcer_pooled", "apcer_pooled_ci", "apcer_per_species",
/// "attacks_per_species", "bpcer", "bpcer_ci"}`.
public struct OutputLevelRow: Sendable, Equatable, Codable {
    public var level: ConfidenceLevel
    public var nBonaFide: Int
    public var nAttack: Int
    public var apcerPooled: Double
    public var apcerPooledCI: ConfidenceInterval
    public var apcerPerSpecies: [String: Double]
    public var attacksPerSpecies: [String: Int]
    public var bpcer: Double
    public var bpcerCI: ConfidenceInterval

    enum CodingKeys: String, CodingKey {
        case level
        case nBonaFide = "n_bona_fide"
        case nAttack = "n_attack"
        case apcerPooled = "apcer_pooled"
        case apcerPooledCI = "apcer_pooled_ci"
        case apcerPerSpecies = "apcer_per_species"
        case attacksPerSpecies = "attacks_per_species"
        case bpcer
        case bpcerCI = "bpcer_ci"
    }

    /// One row per level LOW...VERY_HIGH for `samples` (level, truth, species), Wilson
    /// intervals at `confidence`.
    public static func rows(
        samples: [(level: ConfidenceLevel, bonaFide: Bool, species: String)], confidence: Double = 0.95
    ) -> [OutputLevelRow] {
        let bonaFide = samples.filter(\.bonaFide), attacks = samples.filter { !$0.bonaFide }
        var attacksPerSpecies: [String: Int] = [:]
        for a in attacks { attacksPerSpecies[a.species, default: 0] += 1 }
        return ConfidenceLevel.shown(samples.map(\.level)).filter { $0 > .suspicious }.map { level in
            let rejected = bonaFide.filter { $0.level < level }.count
            let accepted = attacks.filter { $0.level >= level }
            var acceptedPerSpecies: [String: Int] = [:]
            for a in accepted { acceptedPerSpecies[a.species, default: 0] += 1 }
            return OutputLevelRow(
                level: level, nBonaFide: bonaFide.count, nAttack: attacks.count,
                apcerPooled: attacks.isEmpty ? .nan : Double(accepted.count) / Double(attacks.count),
                apcerPooledCI: .wilson(successes: accepted.count, trials: attacks.count, level: confidence),
                apcerPerSpecies: attacksPerSpecies.reduce(into: [:]) { rates, entry in
                    rates[entry.key] = Double(acceptedPerSpecies[entry.key] ?? 0) / Double(entry.value)
                },
                attacksPerSpecies: attacksPerSpecies,
                bpcer: bonaFide.isEmpty ? .nan : Double(rejected) / Double(bonaFide.count),
                bpcerCI: .wilson(successes: rejected, trials: bonaFide.count, level: confidence))
        }
    }

    public init(
        level: ConfidenceLevel, nBonaFide: Int, nAttack: Int, apcerPooled: Double, apcerPooledCI: ConfidenceInterval,
        apcerPerSpecies: [String: Double], attacksPerSpecies: [String: Int], bpcer: Double,
        bpcerCI: ConfidenceInterval
    ) {
        self.level = level
        self.nBonaFide = nBonaFide
        self.nAttack = nAttack
        self.apcerPooled = apcerPooled
        self.apcerPooledCI = apcerPooledCI
        self.apcerPerSpecies = apcerPerSpecies
        self.attacksPerSpecies = attacksPerSpecies
        self.bpcer = bpcer
        self.bpcerCI = bpcerCI
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        level = try c.decode(ConfidenceLevel.self, forKey: .level)
        nBonaFide = try c.decode(Int.self, forKey: .nBonaFide)
        nAttack = try c.decode(Int.self, forKey: .nAttack)
        apcerPooled = try c.decodeNullable(.apcerPooled)
        apcerPooledCI = try c.decode(ConfidenceInterval.self, forKey: .apcerPooledCI)
        apcerPerSpecies = try c.decodeIfPresent([String: Double].self, forKey: .apcerPerSpecies) ?? [:]
        attacksPerSpecies = try c.decodeIfPresent([String: Int].self, forKey: .attacksPerSpecies) ?? [:]
        bpcer = try c.decodeNullable(.bpcer)
        bpcerCI = try c.decode(ConfidenceInterval.self, forKey: .bpcerCI)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(level, forKey: .level)
        try c.encode(nBonaFide, forKey: .nBonaFide)
        try c.encode(nAttack, forKey: .nAttack)
        try c.encodeNullable(apcerPooled, forKey: .apcerPooled)
        try c.encode(apcerPooledCI, forKey: .apcerPooledCI)
        try c.encode(apcerPerSpecies, forKey: .apcerPerSpecies)
        try c.encode(attacksPerSpecies, forKey: .attacksPerSpecies)
        try c.encodeNullable(bpcer, forKey: .bpcer)
        try c.encode(bpcerCI, forKey: .bpcerCI)
    }
}
