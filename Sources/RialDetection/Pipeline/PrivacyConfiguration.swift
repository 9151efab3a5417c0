/// How privacy-mode (hash-only) payloads are verified and what level they may reach
/// (specs/methods.md section 6 "Privacy mode"; PRD 1.1 / 2.0 FR56-FR62 and "Privacy Mode
/// Technical Details"). Section `privacy` of the configuration file.
///
/// Two levels are computed for every payload (`PrivacyConfidence` in RialEval): the
/// deployed backend's (the MVP rule over the phone's own `is_likely_real_scene`, which it
/// trusts without re-checking; nothing here changes it) and a sound one that re-checks the
/// phone's numbers against `depth/1`'s configured thresholds, recomputes `depth/1` on the
/// depth map when one is available, and applies the caps below.
public struct PrivacyConfiguration: Sendable, Equatable, Codable {
    /// Upload size target in bytes: a payload larger than this misses "Upload size: < 10KB"
    /// (PRD 1.1 "Privacy Mode Technical Details"), read as 10 x 1024. 10240; >= 1.
    public var maxPayloadBytes: Int = 10_240
    /// Largest |phone - reference| accepted per field of the single-frame depth analysis,
    /// where the reference is `depth/1` recomputed on the same depth map.
    public var depthTolerances = DepthTolerances()
    /// Largest |phone - reference| accepted for every number of the temporal depth
    /// analysis (a video's `temporal_depth_analysis` against a reference result), in the
    /// fields' own units. 0.001; finite, >= 0.
    public var temporalTolerance: Double = 0.001
    /// A `coarse` location (PRD 1.1 "Granular Metadata Controls": "Coarse (city)") may carry
    /// coordinates with at most this many decimal places; more reveals a precise position.
    /// The product documents say only "city": 2 places (about 1.1 km of latitude) is this
    /// configuration's reading. 2; 0...6.
    public var coarseLocationMaxDecimals: Int = 2
    /// The highest level the sound rule gives a hash-only capture. HIGH: "Confidence: HIGH
    /// achievable when hardware attestation + depth analysis both pass" (PRD 1.1 "Privacy
    /// Mode Technical Details"); no image method runs on a hash, so nothing supports more.
    public var levelCap: ConfidenceLevel = .high
    /// The sound rule's cap when the depth analysis could not be recomputed (no depth map):
    /// the phone's numbers are then only self-consistent, signed by the device but never
    /// checked against depth. MEDIUM.
    public var unverifiedDepthCap: ConfidenceLevel = .medium
    /// The sound rule's cap when `metadata_flags` misstate what `metadata` carries (a
    /// location flagged `none` that is present, ...): the payload was not written as the
    /// documented app writes it. MEDIUM.
    public var metadataInconsistencyCap: ConfidenceLevel = .medium
    /// Video, sound rule: the phone's privacy-mode temporal analysis is real only when
    /// `variance_stability` is above this (methods.md section 6: "real = every frame real
    /// AND variance_stability > 0.8"). 0.8; finite, <= 1.
    public var minVarianceStability: Double = 0.8

    public init() {}

    /// The keys of the section (public so that reports name caps by their key).
    public enum CodingKeys: String, CodingKey {
        case maxPayloadBytes = "max_payload_bytes"
        case depthTolerances = "depth_tolerances"
        case temporalTolerance = "temporal_tolerance"
        case coarseLocationMaxDecimals = "coarse_location_max_decimals"
        case levelCap = "level_cap"
        case unverifiedDepthCap = "unverified_depth_cap"
        case metadataInconsistencyCap = "metadata_inconsistency_cap"
        case minVarianceStability = "min_variance_stability"
    }

    /// Per-field tolerances of the single-frame depth parity, in the field's unit (metres
    /// for depths, a share for ratios, layers for `depth_layers`). The phone computes in
    /// float32 (PRD 1.1 "Depth Analysis Algorithm": `depth_variance: f32`), the reference in
    /// double: 1 mm and 0.001 are far above float32 rounding over 49,152 pixels and below
    /// what changes a decision. Every value finite and >= 0; 0 demands equality.
    public struct DepthTolerances: Sendable, Equatable, Codable {
        /// Metres. 0.001.
        public var depthVariance: Double = 0.001
        /// Metres. 0.001.
        public var minDepth: Double = 0.001
        /// Metres. 0.001.
        public var maxDepth: Double = 0.001
        /// Metres. 0.001.
        public var meanDepth: Double = 0.001
        /// Metres. 0.001.
        public var medianDepth: Double = 0.001
        /// Metres. 0.001.
        public var depthRange: Double = 0.001
        /// Share of valid pixels. 0.001.
        public var coverage: Double = 0.001
        /// Histogram peaks. 0: the count must be equal.
        public var depthLayers: Double = 0
        /// Share of edge pixels. 0.001.
        public var edgeRatio: Double = 0.001
        /// 0.001.
        public var edgeCoherence: Double = 0.001
        /// Share of pixels near the median. 0.001.
        public var uniformity: Double = 0.001
        /// depth/1's score. 0.001.
        public var score: Double = 0.001

        public init() {}

        enum CodingKeys: String, CodingKey {
            case depthVariance = "depth_variance"
            case minDepth = "min_depth"
            case maxDepth = "max_depth"
            case meanDepth = "mean_depth"
            case medianDepth = "median_depth"
            case depthRange = "depth_range"
            case coverage
            case depthLayers = "depth_layers"
            case edgeRatio = "edge_ratio"
            case edgeCoherence = "edge_coherence"
            case uniformity, score
        }

        /// Every tolerance by its key (`depth_variance` -> 0.001), in declaration order.
        public var byKey: [(key: String, tolerance: Double)] {
            [
                (CodingKeys.depthVariance.stringValue, depthVariance), (CodingKeys.minDepth.stringValue, minDepth),
                (CodingKeys.maxDepth.stringValue, maxDepth), (CodingKeys.meanDepth.stringValue, meanDepth),
                (CodingKeys.medianDepth.stringValue, medianDepth), (CodingKeys.depthRange.stringValue, depthRange),
                (CodingKeys.coverage.stringValue, coverage), (CodingKeys.depthLayers.stringValue, depthLayers),
                (CodingKeys.edgeRatio.stringValue, edgeRatio), (CodingKeys.edgeCoherence.stringValue, edgeCoherence),
                (CodingKeys.uniformity.stringValue, uniformity), (CodingKeys.score.stringValue, score),
            ]
        }

        /// Each value finite and >= 0; the key is the field's.
        public func validate() throws(ConfigurationError) {
            for (key, value) in byKey where !(value.isFinite && value >= 0) {
                throw ConfigurationError(key: key, "must be a finite number >= 0, got \(value)")
            }
        }
    }

    /// Checks every value; keys relative to the section (`depth_tolerances.coverage`).
    public func validate() throws(ConfigurationError) {
        guard maxPayloadBytes >= 1 else {
            throw ConfigurationError(key: CodingKeys.maxPayloadBytes, "must be >= 1, got \(maxPayloadBytes)")
        }
        do { try depthTolerances.validate() } catch {
            throw error.prefixed(by: CodingKeys.depthTolerances.stringValue)
        }
        guard temporalTolerance.isFinite, temporalTolerance >= 0 else {
            throw ConfigurationError(
                key: CodingKeys.temporalTolerance, "must be a finite number >= 0, got \(temporalTolerance)")
        }
        guard (0...6).contains(coarseLocationMaxDecimals) else {
            throw ConfigurationError(
                key: CodingKeys.coarseLocationMaxDecimals, "must be in 0...6, got \(coarseLocationMaxDecimals)")
        }
        guard minVarianceStability.isFinite, minVarianceStability <= 1 else {
            throw ConfigurationError(
                key: CodingKeys.minVarianceStability, "must be a finite number <= 1, got \(minVarianceStability)")
        }
    }
}
