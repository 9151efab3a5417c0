extension TemporalAnalyzerV1 {
    /// Every constant of `temporal/1` (methods.md section 6, "temporal/1 — the deployed
    /// backend check"); the defaults are the deployed values. Depths in metres. A partial
    /// object is decoded over the defaults. Call `validate()` (or build a
    /// `TemporalAnalyzerV1`, which does) before use.
    public struct Configuration: Sendable, Equatable, Codable {
        /// Every `sample_stride`-th keyframe is analysed, starting with the first: 10 (one
        /// sample per second of 10 fps keyframes). >= 1.
        public var sampleStride: Int = 10
        /// Fewer samples than this give `.unavailable`. 2; >= 2 (one pair at least).
        public var minSamples: Int = 2
        /// Bins of each sample's depth histogram. 10; >= 1.
        public var histogramBins: Int = 10
        /// Lower edge of the histogram (inclusive), also the lower bound of a valid pixel
        /// for the jump check. 0.1 m; finite, > 0.
        public var histogramMinDepth: Double = 0.1
        /// Upper edge of the histogram (inclusive: a depth equal to it falls in the last
        /// bin), also the upper bound of a valid pixel for the jump check. 20 m; >
        /// histogram_min_depth.
        public var histogramMaxDepth: Double = 20
        /// Side of the square blocks averaged for the motion vector, pixels. 8; >= 1.
        public var blockSize: Int = 8
        /// A pixel enters a block's mean when `motion_min_depth < d < motion_max_depth`
        /// (strict, as deployed). 0.1 m; finite, >= 0.
        public var motionMinDepth: Double = 0.1
        /// See `motion_min_depth`. 20 m; > motion_min_depth.
        public var motionMaxDepth: Double = 20
        /// Reproduce the deployed grid-side bug: the block list is laid out on a square
        /// grid of side `floor(sqrt(blocks))` (a 32x24 grid read as 27 wide) instead of
        /// its true width. true (deployed); false reads the true grid.
        public var gridSideBug: Bool = true
        /// A motion vector is "static" when its magnitude is below this (in units of the
        /// block grid's width and height). 0.01; finite, >= 0.
        public var staticMotion: Double = 0.01
        /// A co-valid pixel "jumps" when its depth changes by more than this between two
        /// samples. 2.0 m; finite, >= 0.
        public var jumpDepth: Double = 2.0
        /// A pair of samples is unstable (and its later sample suspicious) when its share
        /// of jumping co-valid pixels is above this. 0.05; in 0...1.
        public var jumpShare: Double = 0.05
        /// A sample is suspicious when its local consistency is below this. 0.5; in 0...1.
        public var suspiciousConsistency: Double = 0.5
        /// Real needs depth_consistency >= this. 0.7; in 0...1.
        public var minConsistency: Double = 0.7
        /// Real needs motion_coherence >= this. 0.6; in 0...1.
        public var minMotionCoherence: Double = 0.6
        /// Real needs scene_stability >= this. 0.8; in 0...1.
        public var minStability: Double = 0.8
        /// The phone's privacy-mode variant (`privacyAnalysis`): real needs
        /// variance_stability strictly above this. 0.8; in 0...1.
        public var privacyMinVarianceStability: Double = 0.8

        /// The deployed values.
        public static let reference = Configuration()

        public init() {}

        enum CodingKeys: String, CodingKey {
            case sampleStride = "sample_stride"
            case minSamples = "min_samples"
            case histogramBins = "histogram_bins"
            case histogramMinDepth = "histogram_min_depth"
            case histogramMaxDepth = "histogram_max_depth"
            case blockSize = "block_size"
            case motionMinDepth = "motion_min_depth"
            case motionMaxDepth = "motion_max_depth"
            case gridSideBug = "grid_side_bug"
            case staticMotion = "static_motion"
            case jumpDepth = "jump_depth"
            case jumpShare = "jump_share"
            case suspiciousConsistency = "suspicious_consistency"
            case minConsistency = "min_consistency"
            case minMotionCoherence = "min_motion_coherence"
            case minStability = "min_stability"
            case privacyMinVarianceStability = "privacy_min_variance_stability"
        }

        /// Checks that the analysis is defined (see each field's range).
        ///
        /// - Throws: `ConfigurationError` naming the first offending key.
        public func validate() throws(ConfigurationError) {
            let minimums: [(CodingKeys, Int, Int)] = [
                (.sampleStride, sampleStride, 1), (.minSamples, minSamples, 2), (.histogramBins, histogramBins, 1),
                (.blockSize, blockSize, 1),
            ]
            for (key, value, minimum) in minimums where value < minimum {
                throw ConfigurationError(key: key, "must be >= \(minimum), got \(value)")
            }
            let numbers: [(CodingKeys, Double)] = [
                (.histogramMinDepth, histogramMinDepth), (.histogramMaxDepth, histogramMaxDepth),
                (.motionMinDepth, motionMinDepth), (.motionMaxDepth, motionMaxDepth), (.staticMotion, staticMotion),
                (.jumpDepth, jumpDepth),
            ]
            for (key, value) in numbers where !(value.isFinite && value >= 0) {
                throw ConfigurationError(key: key, "must be a finite number >= 0, got \(value)")
            }
            guard histogramMinDepth > 0, histogramMinDepth < histogramMaxDepth else {
                throw ConfigurationError(
                    key: CodingKeys.histogramMinDepth,
                    "must satisfy 0 < histogram_min_depth < histogram_max_depth, got \(histogramMinDepth) and "
                        + "\(histogramMaxDepth)")
            }
            guard motionMinDepth < motionMaxDepth else {
                throw ConfigurationError(
                    key: CodingKeys.motionMinDepth,
                    "must be < motion_max_depth, got \(motionMinDepth) and \(motionMaxDepth)")
            }
            let shares: [(CodingKeys, Double)] = [
                (.jumpShare, jumpShare), (.suspiciousConsistency, suspiciousConsistency),
                (.minConsistency, minConsistency), (.minMotionCoherence, minMotionCoherence),
                (.minStability, minStability), (.privacyMinVarianceStability, privacyMinVarianceStability),
            ]
            for (key, value) in shares where !(0...1).contains(value) {
                throw ConfigurationError(key: key, "must be in 0...1, got \(value)")
            }
        }
    }
}
