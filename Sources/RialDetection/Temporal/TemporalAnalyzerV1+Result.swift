extension TemporalAnalyzerV1 {
    /// What `temporal/1` reports for one recording's depth keyframes (methods.md section 6).
    ///
    /// When `status` is `.unavailable` (fewer than 2 samples) only the common fields,
    /// `keyframe_count` and `sample_count` are present.
    public struct Result: MethodResult {
        public var status: MethodStatus
        public var unavailableReason: String?
        /// Always `temporal/1`.
        public var algorithmVersion: MethodIdentifier
        public var analysisTimeMs: Double
        /// Not part of the deployed check (which only says real or not): a continuous
        /// margin for ROC curves, `(1 + q) / 2` with `q` the smallest of the three
        /// normalised margins `(v - t) / (1 - t)` when `v >= t`, `(v - t) / t` below (`v`
        /// consistency, motion coherence, stability; `t` their thresholds), and, with
        /// suspicious frames, at most `-suspicious / pairs`. `score >= 0.5` exactly when
        /// `is_likely_real_scene`; 1.0 when all three are 1 (a flat, still video).
        public var score: Double?
        /// Keyframes in the recording. Present in every result.
        public var keyframeCount: Int
        /// Keyframes analysed (every `sample_stride`-th). Present in every result.
        public var sampleCount: Int
        /// The analysed keyframes' indices in the recording.
        public var sampleIndices: [Int]?
        /// Histogram intersection with the previous sample, per sample (the first 1.0).
        public var localConsistency: [Double]?
        /// Mean of `local_consistency`.
        public var depthConsistency: Double?
        /// Motion vector `[dx, dy]` between consecutive samples (centroid displacement over
        /// the block grid's width and height), one per pair.
        public var motionVectors: [[Double]]?
        /// Mean pair score of consecutive motion vectors (1.0 with fewer than 2 vectors).
        public var motionCoherence: Double?
        /// Share of co-valid pixels changing by more than `jump_depth`, per pair.
        public var jumpShares: [Double]?
        /// `1 - unstable pairs / pairs`.
        public var sceneStability: Double?
        /// Keyframe indices (in the recording) of the samples with local consistency below
        /// `suspicious_consistency` or a jump share above `jump_share`.
        public var suspiciousFrames: [Int]?
        /// The block grid `[columns, rows]` the motion vector averages over.
        public var blockGrid: [Int]?
        /// The width the centroid reads the block list with: `floor(sqrt(blocks))` under
        /// the deployed bug (27 for a 32x24 grid), else the true width.
        public var gridSide: Int?
        /// The deployed verdict: consistency >= 0.7 AND motion >= 0.6 AND stability >= 0.8
        /// AND no suspicious frame.
        public var isLikelyRealScene: Bool?

        enum CodingKeys: String, CodingKey {
            case status
            case unavailableReason = "unavailable_reason"
            case algorithmVersion = "algorithm_version"
            case analysisTimeMs = "analysis_time_ms"
            case score
            case keyframeCount = "keyframe_count"
            case sampleCount = "sample_count"
            case sampleIndices = "sample_indices"
            case localConsistency = "local_consistency"
            case depthConsistency = "depth_consistency"
            case motionVectors = "motion_vectors"
            case motionCoherence = "motion_coherence"
            case jumpShares = "jump_shares"
            case sceneStability = "scene_stability"
            case suspiciousFrames = "suspicious_frames"
            case blockGrid = "block_grid"
            case gridSide = "grid_side"
            case isLikelyRealScene = "is_likely_real_scene"
        }

        init(status: MethodStatus, reason: String?, keyframeCount: Int, sampleCount: Int) {
            self.status = status
            unavailableReason = reason
            algorithmVersion = .temporalV1
            analysisTimeMs = 0
            self.keyframeCount = keyframeCount
            self.sampleCount = sampleCount
        }

        /// What the deployed video confidence rule reads of this result
        /// (`VideoConfidenceRule.level(hardware:chain:depth:)`): nil unless completed.
        public var videoRuleDepth: VideoConfidenceRule.Depth? {
            guard status == .completed, let isLikelyRealScene, let depthConsistency, let sceneStability else {
                return nil
            }
            return VideoConfidenceRule.Depth(
                isReal: isLikelyRealScene, consistency: depthConsistency, stability: sceneStability)
        }
    }
}
