extension ParallaxAnalyzer {
    /// Every constant of `parallax/1`. "Working px" are pixels of the downscaled luma
    /// the matcher runs on (`working_scale` input pixels each); depths in metres.
    /// A partial object is decoded over the defaults (`JSONValue.decode(_:overlaying:)`). Call
    /// `validate()` (or build a `ParallaxAnalyzer`, which does) before use.
    public struct Configuration: Sendable, Equatable, Codable {
        /// Images are downscaled by the integer factor `k = ceil(max(w, h) / workingLongSide)`
        /// (area average; 1600 x 1200 -> 800 x 600, 4032 x 3024 -> 672 x 504). 800; 64...4096.
        public var workingLongSide: Int = 800
        /// Input images with a side below this many pixels give `.unavailable`. 64; >= 16.
        public var minImageSide: Int = 64
        /// Blocks are `(2 r + 1)²` working px. 7 (15 x 15: after the smoothing a block
        /// still holds ~15 independent samples, so chance correlations stay rare); 1...32.
        public var blockRadius: Int = 7
        /// Distance between block centres, working px. 15 (non-overlapping blocks, so
        /// their matching errors are independent); >= 1.
        public var gridStep: Int = 15
        /// Nearest subject searched when focal length and baseline are known:
        /// `d_max = f B / minDepthM`. 0.2 m (a phone's close-focus distance); > 0.
        public var minDepthM: Double = 0.2
        /// Farthest subject searched: `d_min = f B / maxDepthM`; nil = infinity (d = 0).
        /// > minDepthM when set.
        public var maxDepthM: Double? = nil
        /// Without focal length or baseline the search covers `0 ... 0.08 x working width`
        /// (a 65-degree phone camera, f ≈ 0.8 w, with a 20 mm baseline sees 0.2 m at
        /// d ≈ 0.08 w). In (0, 1).
        public var defaultMaxDisparityFraction: Double = 0.08
        /// The largest disparity searched never exceeds this share of the working width
        /// (bounds the cost of very close subjects or long baselines). 0.25; in (0, 1).
        public var maxDisparityFraction: Double = 0.25
        /// Integer disparities searched beyond both ends of the range (rectification
        /// error, and a neighbour for the subpixel fit at the ends). 2 working px; 1...16.
        public var disparityMarginPx: Int = 2
        /// Gaussian smoothing of the working luma before the horizontal derivative the
        /// blocks are matched on (`matchingSignal`), working px; 0 = none. 2.0 (a display
        /// grid or halftone of period <= 3 working px, 6 input px at 1600 x 1200, keeps
        /// < 0.1% of its amplitude); 0...8.
        public var prefilterSigmaPx: Double = 2.0
        /// Texture test: a block's standard deviation of the matching signal (luma levels
        /// per working px, luma 0...255) must be at least this. 0.3 (a few times what
        /// sensor noise alone leaves after the smoothing); >= 0.
        public var minBlockStdDev: Double = 0.3
        /// The best zero-mean normalised cross-correlation must be at least this. 0.8
        /// (unrelated views then give under 5% valid blocks); in [-1, 1].
        public var minCorrelation: Double = 0.8
        /// Uniqueness: best cost `1 - ZNCC` <= this x the best cost at least 2 px away.
        /// 0.8; in (0, 1].
        public var uniquenessRatio: Double = 0.8
        /// Left-right check: the right block's own best match must land within this many
        /// integer disparities of the left block's. 1 working px; >= 0.
        public var leftRightTolerancePx: Int = 1
        /// Fewer valid blocks than this gives `.unavailable`. 30; >= 3.
        public var minValidBlocks: Int = 30
        /// Floor of the estimated matching noise, working px (an exact synthetic shift
        /// has almost none). 0.05; > 0.
        public var minMatchingNoisePx: Double = 0.05
        /// Matching noise used when fewer than 10 second differences exist. 0.15 working px; > 0.
        public var fallbackMatchingNoisePx: Double = 0.15
        /// RANSAC inlier threshold `t = clamp(3 sigma, 0.25, 1.0)` working px, sigma the
        /// matching noise. 3; > 0.
        public var inlierNoiseMultiple: Double = 3
        /// See `inlierNoiseMultiple`. 0.25 working px; > 0.
        public var minInlierThresholdPx: Double = 0.25
        /// See `inlierNoiseMultiple`. 1.0 working px; >= minInlierThresholdPx.
        public var maxInlierThresholdPx: Double = 1.0
        /// At most this many three-point hypotheses. 300; >= 1.
        public var ransacIterations: Int = 300
        /// At least this many hypotheses before the adaptive stop. 50; >= 1.
        public var ransacMinIterations: Int = 50
        /// Adaptive stop: after the best hypothesis with inlier share `w`, draw until
        /// `log(1 - confidence) / log(1 - w³)` hypotheses. 0.999; in (0, 1).
        public var ransacConfidence: Double = 0.999
        /// Least-squares refinement rounds (re-select inliers, re-fit). 3; >= 0.
        public var refinementRounds: Int = 3
        /// Seed of the SplitMix64 generator: the result is a function of the input.
        public var seed: UInt64 = 0x5EED_9A2A_0001
        /// `is_planar_subject` when the affine fit holds at least this share of the valid
        /// blocks. 0.8; in 0...1.
        public var planarSubjectMinFraction: Double = 0.8
        /// Score: logistic midpoint of the outlier fraction `1 - inlier_fraction`. 0.3.
        public var outlierMidpoint: Double = 0.3
        /// Score: logistic scale of the outlier fraction. 0.08; > 0. With the midpoint: a
        /// plane holding 90% of the blocks gives z = -2.5, one holding 50% gives +2.5.
        public var outlierScale: Double = 0.08
        /// Score: midpoint of `residual_ratio` (inlier RMS / matching noise). 1.5: a plane
        /// seen through Gaussian matching noise gives ≈ 1 (RMS of a normal truncated at
        /// ±3σ is 0.97σ), a surface that bends through the whole band ±t = ±3σ gives
        /// ≈ t / sqrt(3) = 1.73σ.
        public var residualMidpoint: Double = 1.5
        /// Score: scale of `residual_ratio`. 0.25; > 0.
        public var residualScale: Double = 0.25
        /// Score: the residual term is clamped to ±this. 1; >= 0.
        public var residualClamp: Double = 1

        /// The defaults.
        public static let standard = Configuration()

        public init() {}

        enum CodingKeys: String, CodingKey {
            case workingLongSide = "working_long_side"
            case minImageSide = "min_image_side"
            case blockRadius = "block_radius"
            case gridStep = "grid_step"
            case minDepthM = "min_depth_m"
            case maxDepthM = "max_depth_m"
            case defaultMaxDisparityFraction = "default_max_disparity_fraction"
            case maxDisparityFraction = "max_disparity_fraction"
            case disparityMarginPx = "disparity_margin_px"
            case prefilterSigmaPx = "prefilter_sigma_px"
            case minBlockStdDev = "min_block_std_dev"
            case minCorrelation = "min_correlation"
            case uniquenessRatio = "uniqueness_ratio"
            case leftRightTolerancePx = "left_right_tolerance_px"
            case minValidBlocks = "min_valid_blocks"
            case minMatchingNoisePx = "min_matching_noise_px"
            case fallbackMatchingNoisePx = "fallback_matching_noise_px"
            case inlierNoiseMultiple = "inlier_noise_multiple"
            case minInlierThresholdPx = "min_inlier_threshold_px"
            case maxInlierThresholdPx = "max_inlier_threshold_px"
            case ransacIterations = "ransac_iterations"
            case ransacMinIterations = "ransac_min_iterations"
            case ransacConfidence = "ransac_confidence"
            case refinementRounds = "refinement_rounds"
            case seed
            case planarSubjectMinFraction = "planar_subject_min_fraction"
            case outlierMidpoint = "outlier_midpoint"
            case outlierScale = "outlier_scale"
            case residualMidpoint = "residual_midpoint"
            case residualScale = "residual_scale"
            case residualClamp = "residual_clamp"
        }

        /// Checks that the analysis is defined (see each field's range).
        ///
        /// - Throws: `ConfigurationError` naming the first offending key.
        public func validate() throws(ConfigurationError) {
            var numbers: [(CodingKeys, Double)] = [
                (.minDepthM, minDepthM),
                (.defaultMaxDisparityFraction, defaultMaxDisparityFraction),
                (.maxDisparityFraction, maxDisparityFraction), (.minBlockStdDev, minBlockStdDev),
                (.prefilterSigmaPx, prefilterSigmaPx), (.minCorrelation, minCorrelation),
                (.uniquenessRatio, uniquenessRatio),
                (.minMatchingNoisePx, minMatchingNoisePx), (.fallbackMatchingNoisePx, fallbackMatchingNoisePx),
                (.inlierNoiseMultiple, inlierNoiseMultiple), (.minInlierThresholdPx, minInlierThresholdPx),
                (.maxInlierThresholdPx, maxInlierThresholdPx), (.ransacConfidence, ransacConfidence),
                (.planarSubjectMinFraction, planarSubjectMinFraction), (.outlierMidpoint, outlierMidpoint),
                (.outlierScale, outlierScale), (.residualMidpoint, residualMidpoint),
                (.residualScale, residualScale), (.residualClamp, residualClamp),
            ]
            if let maxDepthM { numbers.append((.maxDepthM, maxDepthM)) }
            for (key, number) in numbers where !number.isFinite {
                throw ConfigurationError(key: key, "must be a finite number, got \(number)")
            }
            let ranges: [(CodingKeys, Int, ClosedRange<Int>)] = [
                (.workingLongSide, workingLongSide, 64...4096), (.minImageSide, minImageSide, 16...Int.max),
                (.blockRadius, blockRadius, 1...32), (.gridStep, gridStep, 1...Int.max),
                (.disparityMarginPx, disparityMarginPx, 1...16),
                (.leftRightTolerancePx, leftRightTolerancePx, 0...Int.max),
                (.minValidBlocks, minValidBlocks, 3...Int.max), (.ransacIterations, ransacIterations, 1...Int.max),
                (.ransacMinIterations, ransacMinIterations, 1...Int.max),
                (.refinementRounds, refinementRounds, 0...Int.max),
            ]
            for (key, value, range) in ranges where !range.contains(value) {
                let text =
                    range.upperBound == Int.max
                    ? ">= \(range.lowerBound)" : "in \(range.lowerBound)...\(range.upperBound)"
                throw ConfigurationError(key: key, "must be \(text), got \(value)")
            }
            guard minDepthM > 0 else {
                throw ConfigurationError(key: CodingKeys.minDepthM, "must be > 0, got \(minDepthM)")
            }
            if let maxDepthM, maxDepthM <= minDepthM {
                throw ConfigurationError(
                    key: CodingKeys.maxDepthM,
                    "must be > min_depth_m (\(minDepthM)) or absent for infinity, got \(maxDepthM)")
            }
            let openUnit: [(CodingKeys, Double)] = [
                (.defaultMaxDisparityFraction, defaultMaxDisparityFraction),
                (.maxDisparityFraction, maxDisparityFraction), (.ransacConfidence, ransacConfidence),
            ]
            for (key, value) in openUnit where !(value > 0 && value < 1) {
                throw ConfigurationError(key: key, "must be in (0, 1), got \(value)")
            }
            guard (-1...1).contains(minCorrelation) else {
                throw ConfigurationError(key: CodingKeys.minCorrelation, "must be in -1...1, got \(minCorrelation)")
            }
            guard uniquenessRatio > 0, uniquenessRatio <= 1 else {
                throw ConfigurationError(key: CodingKeys.uniquenessRatio, "must be in (0, 1], got \(uniquenessRatio)")
            }
            guard (0...1).contains(planarSubjectMinFraction) else {
                throw ConfigurationError(
                    key: CodingKeys.planarSubjectMinFraction, "must be in 0...1, got \(planarSubjectMinFraction)")
            }
            guard (0...8).contains(prefilterSigmaPx) else {
                throw ConfigurationError(key: CodingKeys.prefilterSigmaPx, "must be in 0...8, got \(prefilterSigmaPx)")
            }
            guard minBlockStdDev >= 0 else {
                throw ConfigurationError(key: CodingKeys.minBlockStdDev, "must be >= 0, got \(minBlockStdDev)")
            }
            let positives: [(CodingKeys, Double)] = [
                (.minMatchingNoisePx, minMatchingNoisePx), (.fallbackMatchingNoisePx, fallbackMatchingNoisePx),
                (.inlierNoiseMultiple, inlierNoiseMultiple), (.minInlierThresholdPx, minInlierThresholdPx),
                (.outlierScale, outlierScale), (.residualScale, residualScale),
            ]
            for (key, value) in positives where value <= 0 {
                throw ConfigurationError(key: key, "must be > 0, got \(value)")
            }
            guard maxInlierThresholdPx >= minInlierThresholdPx else {
                throw ConfigurationError(
                    key: CodingKeys.maxInlierThresholdPx,
                    "must be >= min_inlier_threshold_px (\(minInlierThresholdPx)), got \(maxInlierThresholdPx)")
            }
            guard residualClamp >= 0 else {
                throw ConfigurationError(key: CodingKeys.residualClamp, "must be >= 0, got \(residualClamp)")
            }
        }
    }
}
