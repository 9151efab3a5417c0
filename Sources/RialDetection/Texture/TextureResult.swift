/// What a learned texture method (`texture/1`, `texture/2`, `texture/3`: the
/// `LearnedTextureAnalyzer.Result` of each) reports for one image.
///
/// `model_id` and `model_sha256` are in every result. When `status` is not
/// `.completed` the classification fields are absent.
public struct TextureResult: MethodResult {
    public var status: MethodStatus
    public var unavailableReason: String?
    /// `texture/1`, `texture/2` or `texture/3`.
    public var algorithmVersion: MethodIdentifier
    public var analysisTimeMs: Double
    /// Probability of `real_scene`, 0...1 (higher = more authentic).
    public var score: Double?
    /// The most probable class, or `unknown` when its probability is below
    /// `Configuration.minimumConfidence`.
    public var classification: TextureClass?
    /// The largest class probability, 0...1 (also when `classification` is `unknown`).
    public var confidence: Double?
    /// Probability of every model class, keyed by class name; sums to 1.
    public var allClassifications: [String: Double]?
    /// `lcd_screen + oled_screen` probability.
    public var screenProbability: Double?
    /// `printed_paper` probability.
    public var printProbability: Double?
    /// `screen_probability > 0.7 || print_probability > 0.7` (`Configuration.recaptureThreshold`).
    public var isLikelyRecaptured: Bool?
    /// The model's `model_id`, e.g. `texture-2`.
    public var modelID: String
    /// SHA-256 of the model's canonical JSON (`LearnedTextureAnalyzer.modelSHA256`).
    public var modelSHA256: String
    /// Length of the feature vector (82 for feature set version 1, 47 for 2, 48 for 3).
    public var featureCount: Int?

    enum CodingKeys: String, CodingKey {
        case status
        case unavailableReason = "unavailable_reason"
        case algorithmVersion = "algorithm_version"
        case analysisTimeMs = "analysis_time_ms"
        case score, classification, confidence
        case allClassifications = "all_classifications"
        case screenProbability = "screen_probability"
        case printProbability = "print_probability"
        case isLikelyRecaptured = "is_likely_recaptured"
        case modelID = "model_id"
        case modelSHA256 = "model_sha256"
        case featureCount = "feature_count"
    }

    static func unavailable(
        reason: String, modelID: String, modelSHA256: String,
        status: MethodStatus = .unavailable, algorithmVersion: MethodIdentifier
    ) -> TextureResult {
        TextureResult(
            status: status, unavailableReason: reason, algorithmVersion: algorithmVersion, analysisTimeMs: 0,
            score: nil, modelID: modelID, modelSHA256: modelSHA256)
    }

    init(
        status: MethodStatus, unavailableReason: String?, algorithmVersion: MethodIdentifier,
        analysisTimeMs: Double, score: Double?, modelID: String, modelSHA256: String
    ) {
        self.status = status
        self.unavailableReason = unavailableReason
        self.algorithmVersion = algorithmVersion
        self.analysisTimeMs = analysisTimeMs
        self.score = score
        self.modelID = modelID
        self.modelSHA256 = modelSHA256
    }
}
