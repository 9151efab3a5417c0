/// One evaluated sample as the metrics see it: a method's score and the ground truth.
///
/// `score` is in 0...1 by the package convention (higher = more likely a real scene);
/// the metrics only rank scores, so any finite value works. A NaN or infinite score
/// (e.g. a method that did not complete) is excluded from every metric and counted
/// (`MetricsWarning.nonFiniteScoresExcluded`).
public struct ScoredSample: Sendable, Equatable, Codable {
    /// Unique sample identifier; the cluster of a sample without `group`, and the key
    /// that pairs two score sets in `PairedAUCComparison`.
    public var id: String
    public var score: Double
    /// True for the positive class of every ROC (`real_scene`).
    public var bonaFide: Bool
    /// The sample's label (`real_scene`, `lcd_screen`, ...): the attack species of
    /// APCER for attacks, the key of the per-label breakdown for all samples.
    public var species: String
    /// Cluster for the bootstrap: samples sharing it are resampled together. Nil = the
    /// sample is its own cluster.
    public var group: String?
    public var tags: [String]
    /// Attestation level (`secure_enclave`, `tee`, ...); nil counts as `none`.
    public var attestation: String?

    enum CodingKeys: String, CodingKey {
        case id, score
        case bonaFide = "bona_fide"
        case species, group, tags, attestation
    }

    public init(
        id: String, score: Double, bonaFide: Bool, species: String, group: String? = nil,
        tags: [String] = [], attestation: String? = nil
    ) {
        self.id = id
        self.score = score
        self.bonaFide = bonaFide
        self.species = species
        self.group = group
        self.tags = tags
        self.attestation = attestation
    }

    /// The truth, group, tags and attestation of a manifest sample with a method's score.
    public init(_ sample: DatasetSample, score: Double) {
        self.init(
            id: sample.id, score: score, bonaFide: sample.label.isBonaFide, species: sample.label.rawValue,
            group: sample.group, tags: sample.tags, attestation: sample.attestation.rawValue)
    }

    /// The bootstrap cluster key: `group`, or the sample alone.
    var clusterKey: DatasetGroupKey { group.map(DatasetGroupKey.named) ?? .single(sampleID: id) }
}
