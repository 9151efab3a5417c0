import RialMedia

/// The evidence package of one capture (specs/methods.md section 8), with every
/// method's full result under `scene_analysis.breakdown` and rial-bench's additions
/// (`profile`, `aggregation`, `latency_ms`, `payload`) beside the spec's keys.
public struct EvidencePackage: Sendable, Equatable, Codable {
    /// e.g. `ios`, `android`; from the input, nil when unknown.
    public var platform: String?
    public var confidenceLevel: ConfidenceLevel
    public var confidenceScore: Double
    public var hardwareAttestation: HardwareAttestation
    public var sceneAnalysis: SceneAnalysis
    public var metadata: MetadataChecks
    public var provenance: Provenance
    /// The aggregation profile used.
    public var profile: String
    /// The aggregator's full result: weights used, boost, flags, caps.
    public var aggregation: AggregationResult
    /// Milliseconds per breakdown key, plus `aggregation` and `total` (wall time of the
    /// whole analysis, methods run concurrently when enabled).
    public var latencyMs: [String: Double]
    /// The phone's own `aggregated` and `cross_validation` blocks (story 9-6 AC 3), when a payload was given.
    public var payload: JSONObject?

    enum CodingKeys: String, CodingKey {
        case platform
        case confidenceLevel = "confidence_level"
        case confidenceScore = "confidence_score"
        case hardwareAttestation = "hardware_attestation"
        case sceneAnalysis = "scene_analysis"
        case metadata, provenance, profile, aggregation
        case latencyMs = "latency_ms"
        case payload
    }

    /// `hardware_attestation`.
    public struct HardwareAttestation: Sendable, Equatable, Codable {
        public var status: EvidenceCheckStatus
        public var method: AttestationMethod
        public var deviceModel: String?

        enum CodingKeys: String, CodingKey {
            case status, method
            case deviceModel = "device_model"
        }
    }

    /// `scene_analysis`.
    public struct SceneAnalysis: Sendable, Equatable, Codable {
        /// PRD 1.1 / 2.0 "Evidence Status Values": `pass` when the capture is likely a
        /// real scene (`is_likely_real_scene`), `fail` when an aggregated method scored and
        /// it is not, `unavailable` when no aggregated method scored.
        public var status: EvidenceCheckStatus
        /// `completed` when every aggregated method scored, `partial` when some did,
        /// `unavailable` when none did.
        public var completeness: String
        /// `aggregation.ranking_score >= decision.threshold` (the ranking score equals
        /// `final_score` unless a cap lowered the level; see `AggregationResult.rankingScore`).
        public var isLikelyRealScene: Bool
        /// The method filling the profile's primary role (`depth/2`), or nil.
        public var primaryMethod: String?
        /// Breakdown key -> `{available, score, weight, role, aggregated, source, ...result fields}`;
        /// `score` is the method's raw score, and `calibrated_score` what aggregation took
        /// when the configuration's `calibration` has an entry for the key. Beside the
        /// method keys, one entry per family under the product documents' keys (`lidar`,
        /// `parallax`, `moire`, `texture`, `artifacts` and its PRD 2.0 name `supporting`)
        /// with its evidence status: `CaptureAnalyzer.familyEntry`, `FamilyEvidence`.
        public var breakdown: JSONObject
        public var crossValidation: CrossValidation
        /// The aggregated confidence score (same as `confidence_score`).
        public var finalScore: Double

        enum CodingKeys: String, CodingKey {
            case status, completeness
            case isLikelyRealScene = "is_likely_real_scene"
            case primaryMethod = "primary_method"
            case breakdown
            case crossValidation = "cross_validation"
            case finalScore = "final_score"
        }
    }

    /// `scene_analysis.cross_validation`: the PRD's three keys (`methods_agree`,
    /// `disagreement_score`, `flagged`), the flags, and the full analysis
    /// (`CrossValidationResult`: `validation_status`, `pairwise`, `method_intervals`,
    /// `aggregated_interval`, `high_uncertainty`, `anomalies`, `confidence_impact`,
    /// `temporal`, `mode`), absent in packages written before it existed.
    public struct CrossValidation: Sendable, Equatable, Codable {
        public var methodsAgree: Bool
        /// Largest minus smallest aggregated score.
        public var disagreementScore: Double
        /// Any aggregation flag raised.
        public var flagged: Bool
        public var flags: [AggregationFlag]
        public var analysis: CrossValidationResult?

        enum CodingKeys: String, CodingKey {
            case methodsAgree = "methods_agree"
            case disagreementScore = "disagreement_score"
            case flagged, flags
        }

        public init(
            methodsAgree: Bool, disagreementScore: Double, flagged: Bool, flags: [AggregationFlag],
            analysis: CrossValidationResult? = nil
        ) {
            self.methodsAgree = methodsAgree
            self.disagreementScore = disagreementScore
            self.flagged = flagged
            self.flags = flags
            self.analysis = analysis
        }

        /// The PRD's keys, then the analysis' keys in the same object.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            methodsAgree = try c.decode(Bool.self, forKey: .methodsAgree)
            disagreementScore = try c.decode(Double.self, forKey: .disagreementScore)
            flagged = try c.decode(Bool.self, forKey: .flagged)
            flags = try c.decode([AggregationFlag].self, forKey: .flags)
            let keys = try decoder.container(keyedBy: AnyKey.self)
            analysis =
                keys.contains(AnyKey("validation_status")) ? try CrossValidationResult(from: decoder) : nil
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(methodsAgree, forKey: .methodsAgree)
            try c.encode(disagreementScore, forKey: .disagreementScore)
            try c.encode(flagged, forKey: .flagged)
            try c.encode(flags, forKey: .flags)
            try analysis?.encode(to: encoder)
        }

        struct AnyKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(_ s: String) { stringValue = s }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
    }

    /// `provenance`.
    public struct Provenance: Sendable, Equatable, Codable {
        /// SHA-256 (hex) of the image file as stored, when the caller hashed it.
        public var sha256: String?
    }
}
