/// What the aggregator reports for one capture (specs/methods.md sections 7 and 8).
/// JSON keys are snake_case; `flags` and `caps_applied` are sorted.
public struct AggregationResult: Sendable, Equatable, Codable {
    /// The final score in 0...1: `clamp(weighted_mean + agreement_boost, 0, 1)`, then,
    /// when a cap lowered the level, lowered to at most the capped level's upper bound
    /// minus `capped_score_margin`. Always maps to `confidence_level` through the
    /// level boundaries.
    public var confidenceScore: Double
    public var confidenceLevel: ConfidenceLevel
    /// `clamp(weighted_mean + agreement_boost, 0, 1)` before any cap.
    public var uncappedScore: Double
    /// The score that ranks: what ROC, AUC, DET, EER, threshold tables, tuning and the
    /// decision (`ranking_score >= decision.threshold`) use. Equal to `confidence_score`
    /// when no cap lowered the level. When a cap lowered it, by `aggregation.ranking`
    /// (`AggregationConfiguration.Ranking`, `ConfidenceAggregator` step 10): `evidence`
    /// (default) `uncapped_score`, the order of the evidence whatever the caps; `capped`
    /// the band score inside the capped level L (upper bound `hi`, so the evidence
    /// `e = weighted_mean + agreement_boost`, unclamped, is `>= hi`; `m =
    /// capped_score_margin`, `b` = `agreement_boost`): `(hi - m) + (m / 2) * (e - hi) /
    /// (1 + b - hi)` in `[hi - m, hi - m / 2]`, ordered by evidence among the samples
    /// capped to the same level; `bounded` the larger of that band score and
    /// `uncapped_score - ranking_penalty`.
    public var rankingScore: Double
    /// `sum(w_i * s_i) / sum(w_i)` over the scored methods with weight > 0; 0 when none
    /// scored.
    public var weightedMean: Double
    /// The boost added (`agreement_boost` or 0).
    public var agreementBoost: Double
    /// Sorted, from the methods.md vocabulary only.
    public var flags: [AggregationFlag]
    /// Renormalised weight of each scored method (`w_i / sum(w_j)`, summing to 1); empty
    /// when none scored.
    public var weightsUsed: [AggregationMethod: Double]
    /// The profile's primary method.
    public var primaryMethod: AggregationMethod?
    /// True when every scored method gives the same verdict (`score >= real_threshold`);
    /// vacuously true with fewer than two.
    public var methodsAgree: Bool
    /// `max(s_i) - min(s_i)` over the scored methods, 0...1; 0 with fewer than two.
    public var disagreementScore: Double
    /// Each cap that lowered the level, as `CAUSE: level capped at LEVEL`, sorted.
    /// Causes: `methods_disagree`, `screen_detected`, `print_detected`, `metadata.CHECK`,
    /// `profile.max_level`, `attestation.KEY.requires` (a detection requirement not met),
    /// `primary_signal_failed` (HIGH needs the primary), `very_high_requirements` (VERY_HIGH
    /// needs all methods scored, agreeing, primary valid), `attestation.KEY` (KEY as in
    /// `attestation_caps`).
    public var capsApplied: [String]
    /// Attestation failed or was software-only: rejected, SUSPICIOUS by default.
    public var attestationRejected: Bool
    /// Wall time of the aggregation, monotonic clock, ms.
    public var analysisTimeMs: Double
    /// The rule that gave `confidence_level` (`AggregationConfiguration.rule`). Nil in
    /// results written before it existed (then `weighted`).
    public var rule: AggregationConfiguration.Rule? = nil
    /// The weighted aggregator's level (equal to `confidence_level` under `weighted`).
    public var weightedLevel: ConfidenceLevel? = nil
    /// The MVP rule's level (`MVPEvidenceRule`) on the same capture, with its inputs.
    public var mvp: MVPEvidenceRule.Evaluation? = nil
    /// The evidence checks that ran and failed (`metadata.device_has_lidar`, ...), sorted.
    public var failedChecks: [String]? = nil
    /// The methods a passed attestation required and did not get
    /// (`aggregation.attestation_requirements`), sorted; nil when its requirement was met
    /// or it has none.
    public var missingRequired: [AggregationMethod]? = nil
    /// Cross-validation between the methods (`CrossValidationResult`). Nil in results
    /// written before it existed.
    public var crossValidation: CrossValidationResult? = nil

    enum CodingKeys: String, CodingKey {
        case confidenceScore = "confidence_score"
        case confidenceLevel = "confidence_level"
        case uncappedScore = "uncapped_score"
        case rankingScore = "ranking_score"
        case weightedMean = "weighted_mean"
        case agreementBoost = "agreement_boost"
        case flags
        case weightsUsed = "weights_used"
        case primaryMethod = "primary_method"
        case methodsAgree = "methods_agree"
        case disagreementScore = "disagreement_score"
        case capsApplied = "caps_applied"
        case attestationRejected = "attestation_rejected"
        case analysisTimeMs = "analysis_time_ms"
        case rule
        case weightedLevel = "weighted_level"
        case mvp
        case failedChecks = "failed_checks"
        case missingRequired = "missing_required"
        case crossValidation = "cross_validation"
    }

    public init(
        confidenceScore: Double, confidenceLevel: ConfidenceLevel, uncappedScore: Double, rankingScore: Double,
        weightedMean: Double, agreementBoost: Double, flags: [AggregationFlag],
        weightsUsed: [AggregationMethod: Double], primaryMethod: AggregationMethod?, methodsAgree: Bool,
        disagreementScore: Double, capsApplied: [String], attestationRejected: Bool,
        analysisTimeMs: Double
    ) {
        self.confidenceScore = confidenceScore
        self.confidenceLevel = confidenceLevel
        self.uncappedScore = uncappedScore
        self.rankingScore = rankingScore
        self.weightedMean = weightedMean
        self.agreementBoost = agreementBoost
        self.flags = flags
        self.weightsUsed = weightsUsed
        self.primaryMethod = primaryMethod
        self.methodsAgree = methodsAgree
        self.disagreementScore = disagreementScore
        self.capsApplied = capsApplied
        self.attestationRejected = attestationRejected
        self.analysisTimeMs = analysisTimeMs
    }
}
