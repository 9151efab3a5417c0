extension TemporalAnalyzerV2 {
    /// What `temporal/2` reports for one recording's depth keyframes.
    ///
    /// When `status` is `.unavailable` only the common fields and `keyframe_count` are
    /// present. Per-position arrays follow `positions`; a position whose keyframe depth/2
    /// could not judge, or whose motion could not be estimated, has `null` there.
    public struct Result: MethodResult {
        public var status: MethodStatus
        public var unavailableReason: String?
        /// Always `temporal/2`.
        public var algorithmVersion: MethodIdentifier
        public var analysisTimeMs: Double
        /// `1 / (1 + exp(-log_odds))`, 1 = a rigid 3D scene.
        public var score: Double?
        /// Keyframes in the recording. Present in every result.
        public var keyframeCount: Int
        /// The judged keyframes' indices (each starts a parallax pair).
        public var positions: [Int]?
        /// Keyframes between the two of a parallax pair.
        public var pairGap: Int?
        /// The intrinsics used for back-projection.
        public var intrinsics: DepthAnalyzerV2.CameraIntrinsics?
        /// `capture`, `configuration` or `assumed`.
        public var intrinsicsSource: String?
        /// depth/2's log-odds of each judged keyframe.
        public var flatnessLogOdds: [Double?]?
        /// Their median (over the keyframes depth/2 judged).
        public var medianFlatnessLogOdds: Double?
        /// Share of the judged keyframes depth/2 calls a planar subject.
        public var planarSubjectShare: Double?
        /// Per position: share of the valid window points off the window's plane.
        public var reliefShare: [Double?]?
        /// Median of `relief_share`.
        public var medianReliefShare: Double?
        /// Per position: share of the valid window points that are relief, moved by the
        /// rigid motion at least `min_parallax_px` away from the plane's (homography)
        /// prediction, and found at the predicted depth in the later keyframe.
        public var parallaxShare: [Double?]?
        /// Median of `parallax_share` (a position without a motion estimate counts 0).
        public var medianParallaxShare: Double?
        /// Per pair: the estimated camera translation, millimetres.
        public var cameraTranslationMm: [Double?]?
        /// Per pair: the estimated camera rotation, degrees.
        public var cameraRotationDegrees: [Double?]?
        /// Per pair: share of the fine estimate's correspondences within `max(3 σ(z),
        /// min_relief)` after alignment (a rigid scene: near 1).
        public var rigidInlierShare: [Double?]?
        /// `flatness_weight x median_flatness_log_odds + parallax_weight x ln(1 +
        /// median_parallax_share / parallax_floor) + score_intercept`.
        public var logOdds: Double?
        /// `score > 0.5`.
        public var isLikelyRealScene: Bool?

        enum CodingKeys: String, CodingKey {
            case status
            case unavailableReason = "unavailable_reason"
            case algorithmVersion = "algorithm_version"
            case analysisTimeMs = "analysis_time_ms"
            case score
            case keyframeCount = "keyframe_count"
            case positions
            case pairGap = "pair_gap"
            case intrinsics
            case intrinsicsSource = "intrinsics_source"
            case flatnessLogOdds = "flatness_log_odds"
            case medianFlatnessLogOdds = "median_flatness_log_odds"
            case planarSubjectShare = "planar_subject_share"
            case reliefShare = "relief_share"
            case medianReliefShare = "median_relief_share"
            case parallaxShare = "parallax_share"
            case medianParallaxShare = "median_parallax_share"
            case cameraTranslationMm = "camera_translation_mm"
            case cameraRotationDegrees = "camera_rotation_degrees"
            case rigidInlierShare = "rigid_inlier_share"
            case logOdds = "log_odds"
            case isLikelyRealScene = "is_likely_real_scene"
        }

        init(status: MethodStatus, reason: String?, keyframeCount: Int) {
            self.status = status
            unavailableReason = reason
            algorithmVersion = .temporalV2
            analysisTimeMs = 0
            self.keyframeCount = keyframeCount
        }
    }
}
