import Foundation

extension ParallaxAnalyzerV2 {
    /// Every constant of `parallax/2`. "Working px" are pixels of the downscaled luma the
    /// matcher runs on (`working_scale` input pixels each); depths and heights in metres.
    /// The matching keys (`working_long_side` ... `refinement_rounds`, `seed`) mean what
    /// they mean for `parallax/1` and have its defaults, except the stricter
    /// `min_correlation` (0.97) and `uniqueness_ratio` (0.2): on simulated screens the
    /// display grid's moire gives false matches that pass parallax/1's tests (ZNCC 0.89-0.96,
    /// second-best ratio 0.27-0.63 at the quartiles, against 0.94-0.99 and 0.02-0.36 for
    /// correct matches in rooms); the values were chosen on the `train` split. A partial object is decoded over
    /// the defaults (`JSONValue.decode(_:overlaying:)`). Call `validate()` (or build a
    /// `ParallaxAnalyzerV2`, which does) before use.
    ///
    /// The score weights (`scoreIntercept`, `scoreStructureWeight`, `scoreOccluderWeight`)
    /// were fitted by logistic regression (L2, C = 1) on the `train` split of the default
    /// synthetic set (seed 20261121, 1600 x 1200 with a second view: 18 real 3D scenes
    /// against 81 screens and prints; the flat real subjects, walls and documents, left
    /// out because parallax cannot tell them from a screen or print filling the frame)
    /// with every other constant at its default, as computed by this code. Change a
    /// matching or surface constant and the weights no longer match.
    public struct Configuration: Sendable, Equatable, Codable {
        /// Images are downscaled by `k = ceil(max(w, h) / workingLongSide)` (area average). 800; 64...4096.
        public var workingLongSide: Int = 800
        /// Input images with a side below this many pixels give `.unavailable`. 64; >= 16.
        public var minImageSide: Int = 64
        /// Blocks are `(2 r + 1)²` working px. 7; 1...32.
        public var blockRadius: Int = 7
        /// Distance between block centres, working px. 15; >= 1.
        public var gridStep: Int = 15
        /// Nearest subject searched when focal length and baseline are known. 0.2 m; > 0.
        public var minDepthM: Double = 0.2
        /// Farthest subject searched; nil = infinity. > minDepthM when set.
        public var maxDepthM: Double? = nil
        /// Search `0 ... this x working width` without focal length or baseline. 0.08; in (0, 1).
        public var defaultMaxDisparityFraction: Double = 0.08
        /// The largest disparity searched never exceeds this share of the working width. 0.25; in (0, 1).
        public var maxDisparityFraction: Double = 0.25
        /// Integer disparities searched beyond both ends of the range. 2 working px; 1...16.
        public var disparityMarginPx: Int = 2
        /// Gaussian smoothing before the horizontal derivative that is matched, working px. 2.0; 0...8.
        public var prefilterSigmaPx: Double = 2.0
        /// Texture test: std of the matching signal in a block. 0.3; >= 0.
        public var minBlockStdDev: Double = 0.3
        /// Minimum best ZNCC. 0.97 (parallax/1: 0.8; see the type's note); in [-1, 1].
        public var minCorrelation: Double = 0.97
        /// Uniqueness: best cost <= this x the best cost at least 2 px away. 0.2
        /// (parallax/1: 0.8); in (0, 1].
        public var uniquenessRatio: Double = 0.2
        /// Left-right check tolerance, integer working px. 1; >= 0.
        public var leftRightTolerancePx: Int = 1
        /// Fewer valid blocks than this gives `.unavailable`. 30; >= 3.
        public var minValidBlocks: Int = 30
        /// Floor of the estimated matching noise σ, working px. 0.05; > 0.
        public var minMatchingNoisePx: Double = 0.05
        /// σ used when fewer than 10 second differences exist. 0.15 working px; > 0.
        public var fallbackMatchingNoisePx: Double = 0.15
        /// Inlier band `t = clamp(this x σ, min, max)` working px. 3; > 0.
        public var inlierNoiseMultiple: Double = 3
        /// See `inlierNoiseMultiple`. 0.25 working px; > 0.
        public var minInlierThresholdPx: Double = 0.25
        /// See `inlierNoiseMultiple`. 1.0 working px; >= minInlierThresholdPx.
        public var maxInlierThresholdPx: Double = 1.0
        /// At most this many RANSAC hypotheses. 300; >= 1.
        public var ransacIterations: Int = 300
        /// At least this many hypotheses before the adaptive stop. 50; >= 1.
        public var ransacMinIterations: Int = 50
        /// Adaptive stop confidence. 0.999; in (0, 1).
        public var ransacConfidence: Double = 0.999
        /// Least-squares refinement rounds of the RANSAC plane. 3; >= 0.
        public var refinementRounds: Int = 3
        /// Seed of the SplitMix64 generator: the result is a function of the input.
        public var seed: UInt64 = 0x5EED_9A2A_0002
        /// The content window: the centred rectangle of the block grid spanning this
        /// fraction of its columns and of its rows (0.5: the middle half of each), where
        /// the photographer put the subject. The content surface is fitted to its valid
        /// blocks (to all valid blocks when it holds fewer than 16). 0.5; in (0, 1].
        public var contentWindowFraction: Double = 0.5
        /// Rounds of the sheet fit: re-fit a quadric disparity field
        /// `d = c0 + c1 x + c2 y + c3 x² + c4 x y + c5 y²` to the surface blocks and
        /// re-select, so a gently bent print stays one surface. 2; >= 0 (0 = plane only).
        public var sheetRounds: Int = 2
        /// A quadric is kept only when its largest principal second derivative is at most
        /// what a sheet of this curvature (1/m) gives: `|∂²d/∂x²| = B κ / f` (input px per
        /// px², B the baseline, f the focal length in px). 5 /m (radius 0.2 m); > 0.
        public var maxSheetCurvature: Double = 5
        /// Baseline assumed for the curvature bound and the depth fields when none is
        /// given, mm. 15 (phones: 10-20); > 0.
        public var assumedBaselineMm: Double = 15
        /// Horizontal field of view assumed when no focal length is given, degrees:
        /// `f = w / (2 tan(fov / 2))`. 65; in (0, 180).
        public var assumedHorizontalFovDegrees: Double = 65
        /// A block stands in front of the surface (an occluder) or off it (a hole, a
        /// background) only when its disparity differs from the surface's by more than
        /// `max(t, h d² / (f B))`, the disparity step of a relief `h` at the surface's
        /// depth `f B / d` (`f B` only when focal length and baseline are given): things
        /// lying flat on a surface are no 3D evidence. 0.015 m; >= 0.
        public var minOccluderHeightM: Double = 0.015
        /// The occluder term of the score is `ln(1 + occluder_share / occluderFloor)`, and
        /// `is_planar_subject` needs a share below it. 0.01; > 0.
        public var occluderFloor: Double = 0.01
        /// Score log-odds: `z = scoreIntercept + scoreStructureWeight structure_share
        /// + scoreOccluderWeight ln(1 + occluder_share / occluderFloor)`. See the type's
        /// note. -3.303: a surface explaining the whole window with nothing in front scores 0.035.
        public var scoreIntercept: Double = -3.303
        /// Log-odds at `structure_share` 1. 0.914.
        public var scoreStructureWeight: Double = 0.914
        /// Log-odds per unit of `ln(1 + occluder_share / occluderFloor)`. 2.010: a 1%
        /// occluder share adds 1.39 (score 0.13 without other structure), 5% adds 3.60
        /// (0.58), 10% adds 4.82 (0.82).
        public var scoreOccluderWeight: Double = 2.010
        /// `is_planar_subject` when the content surface holds at least this share of the
        /// valid blocks (and occluders stay below `occluderFloor`). 0.8; in 0...1.
        public var planarSubjectMinShare: Double = 0.8

        /// The defaults.
        public static let standard = Configuration()

        public init() {}

        /// The `parallax/1` configuration with these matching constants (its block
        /// matcher, noise estimate and RANSAC are reused).
        var matching: ParallaxAnalyzer.Configuration {
            var m = ParallaxAnalyzer.Configuration()
            m.workingLongSide = workingLongSide
            m.minImageSide = minImageSide
            m.blockRadius = blockRadius
            m.gridStep = gridStep
            m.minDepthM = minDepthM
            m.maxDepthM = maxDepthM
            m.defaultMaxDisparityFraction = defaultMaxDisparityFraction
            m.maxDisparityFraction = maxDisparityFraction
            m.disparityMarginPx = disparityMarginPx
            m.prefilterSigmaPx = prefilterSigmaPx
            m.minBlockStdDev = minBlockStdDev
            m.minCorrelation = minCorrelation
            m.uniquenessRatio = uniquenessRatio
            m.leftRightTolerancePx = leftRightTolerancePx
            m.minValidBlocks = minValidBlocks
            m.minMatchingNoisePx = minMatchingNoisePx
            m.fallbackMatchingNoisePx = fallbackMatchingNoisePx
            m.inlierNoiseMultiple = inlierNoiseMultiple
            m.minInlierThresholdPx = minInlierThresholdPx
            m.maxInlierThresholdPx = maxInlierThresholdPx
            m.ransacIterations = ransacIterations
            m.ransacMinIterations = ransacMinIterations
            m.ransacConfidence = ransacConfidence
            m.refinementRounds = refinementRounds
            m.seed = seed
            return m
        }

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
            case contentWindowFraction = "content_window_fraction"
            case sheetRounds = "sheet_rounds"
            case maxSheetCurvature = "max_sheet_curvature"
            case assumedBaselineMm = "assumed_baseline_mm"
            case assumedHorizontalFovDegrees = "assumed_horizontal_fov_degrees"
            case minOccluderHeightM = "min_occluder_height_m"
            case occluderFloor = "occluder_floor"
            case scoreIntercept = "score_intercept"
            case scoreStructureWeight = "score_structure_weight"
            case scoreOccluderWeight = "score_occluder_weight"
            case planarSubjectMinShare = "planar_subject_min_share"
        }

        /// Checks that the analysis is defined (see each field's range; the matching keys
        /// are checked as `parallax/1` checks them).
        ///
        /// - Throws: `ConfigurationError` naming the first offending key.
        public func validate() throws(ConfigurationError) {
            try matching.validate()
            let numbers: [(CodingKeys, Double)] = [
                (.contentWindowFraction, contentWindowFraction), (.maxSheetCurvature, maxSheetCurvature),
                (.assumedBaselineMm, assumedBaselineMm),
                (.assumedHorizontalFovDegrees, assumedHorizontalFovDegrees),
                (.minOccluderHeightM, minOccluderHeightM), (.occluderFloor, occluderFloor),
                (.scoreIntercept, scoreIntercept), (.scoreStructureWeight, scoreStructureWeight),
                (.scoreOccluderWeight, scoreOccluderWeight),
                (.planarSubjectMinShare, planarSubjectMinShare),
            ]
            for (key, number) in numbers where !number.isFinite {
                throw ConfigurationError(key: key, "must be a finite number, got \(number)")
            }
            guard contentWindowFraction > 0, contentWindowFraction <= 1 else {
                throw ConfigurationError(
                    key: CodingKeys.contentWindowFraction, "must be in (0, 1], got \(contentWindowFraction)")
            }
            guard sheetRounds >= 0 else {
                throw ConfigurationError(key: CodingKeys.sheetRounds, "must be >= 0, got \(sheetRounds)")
            }
            for (key, value) in [
                (CodingKeys.maxSheetCurvature, maxSheetCurvature), (.assumedBaselineMm, assumedBaselineMm),
                (.occluderFloor, occluderFloor),
            ] where value <= 0 {
                throw ConfigurationError(key: key, "must be > 0, got \(value)")
            }
            guard assumedHorizontalFovDegrees > 0, assumedHorizontalFovDegrees < 180 else {
                throw ConfigurationError(
                    key: CodingKeys.assumedHorizontalFovDegrees,
                    "must be in (0, 180), got \(assumedHorizontalFovDegrees)")
            }
            guard minOccluderHeightM >= 0 else {
                throw ConfigurationError(key: CodingKeys.minOccluderHeightM, "must be >= 0, got \(minOccluderHeightM)")
            }
            guard (0...1).contains(planarSubjectMinShare) else {
                throw ConfigurationError(
                    key: CodingKeys.planarSubjectMinShare, "must be in 0...1, got \(planarSubjectMinShare)")
            }
        }
    }
}
