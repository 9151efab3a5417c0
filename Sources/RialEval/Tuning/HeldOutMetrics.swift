import Foundation
import RialMedia

/// The quality of ranking scores on held-out samples, with cluster-bootstrap intervals
/// (whole `group`s resampled, `ClusterResampler`, the run reports' bootstrap):
/// AUC, APCER at a BPCER target (the threshold taken on these scores: the curve's
/// operating point), and the rates at a given decision threshold (what a deployed
/// configuration would do).
public struct HeldOutMetrics: Sendable, Equatable, Codable {
    /// APCER where BPCER on these samples meets `target`.
    public struct APCERAtBPCER: Sendable, Equatable, Codable {
        public var targetBPCER: Double
        public var threshold: Double
        public var apcerMax: Double
        public var apcerMaxCI: ConfidenceInterval?
        public var apcerPooled: Double
        public var bpcer: Double

        enum CodingKeys: String, CodingKey {
            case targetBPCER = "target_bpcer"
            case threshold
            case apcerMax = "apcer_max"
            case apcerMaxCI = "apcer_max_ci"
            case apcerPooled = "apcer_pooled"
            case bpcer
        }
    }

    /// Rates of the decisions (accept when `score >= threshold`, the threshold of the
    /// configuration that scored the sample).
    public struct OperatingPoint: Sendable, Equatable, Codable {
        public var bpcer: Double
        public var bpcerCI: ConfidenceInterval?
        public var apcerMax: Double
        public var apcerMaxCI: ConfidenceInterval?
        public var apcerPooled: Double
        public var apcerPooledCI: ConfidenceInterval?
        public var apcerPerSpecies: [String: Double]
        public var attacksPerSpecies: [String: Int]

        enum CodingKeys: String, CodingKey {
            case bpcer
            case bpcerCI = "bpcer_ci"
            case apcerMax = "apcer_max"
            case apcerMaxCI = "apcer_max_ci"
            case apcerPooled = "apcer_pooled"
            case apcerPooledCI = "apcer_pooled_ci"
            case apcerPerSpecies = "apcer_per_species"
            case attacksPerSpecies = "attacks_per_species"
        }
    }

    public var samples: Int
    public var bonaFide: Int
    public var attacks: Int
    public var clusters: Int
    public var auc: Double
    public var aucCI: ConfidenceInterval?
    public var apcerAtBPCER: APCERAtBPCER
    public var operatingPoint: OperatingPoint

    enum CodingKeys: String, CodingKey {
        case samples
        case bonaFide = "n_bona_fide"
        case attacks = "n_attack"
        case clusters = "n_clusters"
        case auc
        case aucCI = "auc_ci"
        case apcerAtBPCER = "apcer_at_bpcer"
        case operatingPoint = "operating_point"
    }

    /// Metrics of `scores` (NaN = not scored, left out) with `accepted` the decision of
    /// each sample.
    public init(
        scores: [Double], accepted: [Bool], bonaFide truth: [Bool], species: [String], groups: [String],
        targetBPCER: Double, settings: BootstrapSettings
    ) {
        let kept = scores.indices.filter { scores[$0].isFinite }
        let ranked = kept.map {
            ScoredSample(
                id: "\($0)", score: scores[$0], bonaFide: truth[$0], species: species[$0], group: groups[$0])
        }
        let decisions = kept.map {
            ScoredSample(
                id: "\($0)", score: accepted[$0] ? 1 : 0, bonaFide: truth[$0], species: species[$0],
                group: groups[$0])
        }
        samples = kept.count
        bonaFide = ranked.filter(\.bonaFide).count
        attacks = ranked.count - bonaFide
        let curve = ClusterBootstrap(samples: ranked, threshold: 0.5)
        clusters = curve.clusterCount
        auc = ROCCurve(samples: ranked).auc
        aucCI = settings.resamples > 0 ? curve.intervals(settings)?.auc : nil
        apcerAtBPCER = Self.apcerAtBPCER(ranked, target: targetBPCER, settings: settings)
        let pad = PresentationAttackMetrics(samples: decisions, threshold: 0.5)
        let intervals =
            settings.resamples > 0 ? ClusterBootstrap(samples: decisions, threshold: 0.5).intervals(settings) : nil
        operatingPoint = OperatingPoint(
            bpcer: pad.bpcer, bpcerCI: intervals?.bpcer, apcerMax: pad.apcerMax, apcerMaxCI: intervals?.apcerMax,
            apcerPooled: pad.apcerPooled, apcerPooledCI: intervals?.apcerPooled,
            apcerPerSpecies: Dictionary(uniqueKeysWithValues: pad.species.map { ($0.species, $0.apcer) }),
            attacksPerSpecies: Dictionary(uniqueKeysWithValues: pad.species.map { ($0.species, $0.attacks) }))
    }

    /// APCER (max over species and pooled) at the highest threshold whose BPCER is
    /// `<= target` (`RankingSummary.thresholdForBPCER`), and a cluster-bootstrap interval
    /// of the maximum: each resample recomputes the threshold and the rates with the
    /// cluster multiplicities as sample weights.
    static func apcerAtBPCER(_ samples: [ScoredSample], target: Double, settings: BootstrapSettings) -> APCERAtBPCER {
        // Ascending by score; clusters and species numbered in order of first appearance there.
        let sorted = samples.sorted { $0.score < $1.score || ($0.score == $1.score && $0.id < $1.id) }
        var clusterIndex: [String: Int32] = [:], speciesIndex: [String: Int32] = [:]
        let clusters = sorted.map { s -> Int32 in
            let key = s.group ?? "#\(s.id)"
            if let k = clusterIndex[key] { return k }
            let k = Int32(clusterIndex.count)
            clusterIndex[key] = k
            return k
        }
        let species = sorted.map { s -> Int32 in
            guard !s.bonaFide else { return -1 }
            if let k = speciesIndex[s.species] { return k }
            let k = Int32(speciesIndex.count)
            speciesIndex[s.species] = k
            return k
        }
        let scores = sorted.map(\.score)
        let speciesCount = speciesIndex.count
        // Blocks of equal scores, ascending.
        let blockEnds = scores.indices.filter { $0 + 1 == scores.count || scores[$0 + 1] != scores[$0] }.map { $0 + 1 }
        let evaluate:
            @Sendable (UnsafeBufferPointer<Int32>) -> (threshold: Double, max: Double, pooled: Double, bpcer: Double) =
                { weight in
                    var totalBF = 0
                    var totals = [Int](repeating: 0, count: speciesCount)
                    for i in scores.indices {
                        let w = Int(weight[Int(clusters[i])])
                        if species[i] < 0 { totalBF += w } else { totals[Int(species[i])] += w }
                    }
                    let totalAttacks = totals.reduce(0, +)
                    guard totalBF > 0 && totalAttacks > 0 else { return (.nan, .nan, .nan, .nan) }
                    var below = [Int](repeating: 0, count: speciesCount)
                    var rejected = 0, start = 0
                    var threshold = Double.infinity
                    for end in blockEnds {
                        var blockBF = 0
                        for i in start..<end where species[i] < 0 { blockBF += Int(weight[Int(clusters[i])]) }
                        if Double(rejected + blockBF) / Double(totalBF) > target {
                            threshold = scores[start]
                            break
                        }
                        rejected += blockBF
                        for i in start..<end where species[i] >= 0 {
                            below[Int(species[i])] += Int(weight[Int(clusters[i])])
                        }
                        start = end
                    }
                    var maxRate = 0.0
                    for s in 0..<speciesCount where totals[s] > 0 {
                        maxRate = max(maxRate, Double(totals[s] - below[s]) / Double(totals[s]))
                    }
                    let pooled = Double(totalAttacks - below.reduce(0, +)) / Double(totalAttacks)
                    return (threshold, maxRate, pooled, Double(rejected) / Double(totalBF))
                }
        let ones = [Int32](repeating: 1, count: clusterIndex.count)
        let point = ones.withUnsafeBufferPointer { evaluate($0) }
        var interval: ConfidenceInterval?
        if settings.resamples > 0 && !clusterIndex.isEmpty {
            let resampler = ClusterResampler(clusterCount: clusterIndex.count, settings: settings, alwaysWide: true)
            let replicates = resampler.map { _, weights -> Double in
                guard case .wide(let w) = weights else { return .nan }
                return evaluate(w).max
            }
            interval = .bootstrapPercentile(replicates, settings: settings)
        }
        return APCERAtBPCER(
            targetBPCER: target, threshold: point.threshold, apcerMax: point.max, apcerMaxCI: interval,
            apcerPooled: point.pooled, bpcer: point.bpcer)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        samples = try c.decode(Int.self, forKey: .samples)
        bonaFide = try c.decode(Int.self, forKey: .bonaFide)
        attacks = try c.decode(Int.self, forKey: .attacks)
        clusters = try c.decode(Int.self, forKey: .clusters)
        auc = try c.decodeNullable(.auc)
        aucCI = try c.decodeIfPresent(ConfidenceInterval.self, forKey: .aucCI)
        apcerAtBPCER = try c.decode(APCERAtBPCER.self, forKey: .apcerAtBPCER)
        operatingPoint = try c.decode(OperatingPoint.self, forKey: .operatingPoint)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(samples, forKey: .samples)
        try c.encode(bonaFide, forKey: .bonaFide)
        try c.encode(attacks, forKey: .attacks)
        try c.encode(clusters, forKey: .clusters)
        try c.encodeNullable(auc, forKey: .auc)
        try c.encodeIfPresent(aucCI, forKey: .aucCI)
        try c.encode(apcerAtBPCER, forKey: .apcerAtBPCER)
        try c.encode(operatingPoint, forKey: .operatingPoint)
    }
}
