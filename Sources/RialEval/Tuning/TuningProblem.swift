import RialDetection

/// What `rial-bench tune` optimises, chosen on the command line.
public enum TuningObjective: String, Sendable, Codable, CaseIterable {
    /// ROC AUC of the aggregate ranking score.
    case auc
    /// Standardised partial AUC over pooled APCER in 0...`TuningOptions.partialAUCMaxAPCER`
    /// (`RankingSummary.partialAUC`, = scikit-learn `roc_auc_score(max_fpr=)`).
    case pauc
    /// The error at the operating point: with a BPCER target, APCER (maximum over
    /// species) at the threshold that meets it; with an APCER target, BPCER at the
    /// threshold that meets that.
    case apcerAtBPCER = "apcer-at-bpcer"
}

/// The operating point the decision threshold is fitted to.
public enum OperatingTarget: Sendable, Equatable, Codable {
    /// The highest threshold whose BPCER on the fitting data is <= the value.
    case bpcer(Double)
    /// The lowest threshold whose APCER (maximum over species) on the fitting data is
    /// <= the value.
    case apcer(Double)

    /// `bpcer 0.05` / `apcer 0.01`.
    public var description: String {
        switch self {
        case .bpcer(let x): "bpcer \(x)"
        case .apcer(let x): "apcer \(x)"
        }
    }

    /// The threshold on `summary` that meets the target.
    func threshold(on summary: RankingSummary) -> Double {
        switch self {
        case .bpcer(let x): summary.thresholdForBPCER(x)
        case .apcer(let x): summary.thresholdForAPCER(x)
        }
    }
}

/// How the outer (reporting) folds are formed.
public enum FoldScheme: String, Sendable, Codable, CaseIterable {
    /// Group K-fold (`GroupFolds.groupKFold`).
    case group
    /// Leave one source out (`GroupFolds.leaveOneSourceOut`).
    case source
}

/// Everything `Tuner` needs about the pooled samples: the extracted aggregation inputs,
/// the truth, and the keys folds are made from.
public struct TuningProblem: Sendable {
    public var matrix: AggregationMatrix
    public var bonaFide: [Bool]
    /// Attack species index per sample (into `speciesNames`; -1 for bona fide).
    public var species: [Int32]
    public var speciesNames: [String]
    /// Group key per sample (the record's `group`, else `DATASET/ID`): folds never split one.
    public var groups: [String]
    /// Source per sample (the tag `source:OWNER/NAME`, else the dataset name).
    public var sources: [String]
    /// Data kind per sample (`real`, `simulated`).
    public var dataKinds: [String]
    /// The configuration tuning starts from and reports "before" with.
    public var base: PipelineConfiguration
    /// The profile tuned.
    public var profileName: String

    public init(
        matrix: AggregationMatrix, bonaFide: [Bool], species: [Int32], speciesNames: [String], groups: [String],
        sources: [String], dataKinds: [String], base: PipelineConfiguration, profileName: String
    ) {
        self.matrix = matrix
        self.bonaFide = bonaFide
        self.species = species
        self.speciesNames = speciesNames
        self.groups = groups
        self.sources = sources
        self.dataKinds = dataKinds
        self.base = base
        self.profileName = profileName
    }

    public var count: Int { bonaFide.count }

    /// Truth, species and groups of `rows`.
    func summary(_ scores: [Double], rows: [Int]? = nil) -> RankingSummary {
        guard let rows else {
            return RankingSummary(
                scores: scores, bonaFide: bonaFide, species: species.map { max($0, 0) },
                speciesCount: speciesNames.count)
        }
        return RankingSummary(
            scores: scores, bonaFide: rows.map { bonaFide[$0] }, species: rows.map { max(species[$0], 0) },
            speciesCount: speciesNames.count)
    }
}
