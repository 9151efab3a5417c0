extension ParallaxAnalyzerV2 {
    /// What `parallax/2` reports for one rectified pair.
    ///
    /// Disparities, residuals and noise are in INPUT pixels (working pixels times
    /// `working_scale`), so `d = f B / Z` holds with the caller's focal length in pixels;
    /// `d` = left x minus right x of the same scene point. "Blocks" are the matcher's
    /// blocks (15 x 15 working px every 15 px by default); shares are of valid blocks.
    ///
    /// When `status` is `.unavailable` only the common fields and whatever was measured
    /// before the stop are present. When `.completed` every field is present except
    /// `focal_px`, `baseline_mm` and the depth fields (which need both), and
    /// `sheet_curvature_per_m` (which needs a quadric sheet and both).
    public struct Result: MethodResult {
        public var status: MethodStatus
        public var unavailableReason: String?
        /// Always `parallax/2`.
        public var algorithmVersion: MethodIdentifier
        public var analysisTimeMs: Double
        /// `1 / (1 + exp(-z))`, `z = score_intercept + score_structure_weight
        /// structure_share + score_occluder_weight ln(1 + occluder_share / occluder_floor)`
        /// (constants: `Configuration`: -3.303, 0.914, 2.010, 0.01). A
        /// surface filling the window with nothing in front scores low, whatever it is:
        /// a real wall or document cannot be told from a screen or print by parallax
        /// (see `isPlanarSubject`).
        public var score: Double?
        /// Input size, the integer downscale factor and the working size.
        public var imageWidth: Int?
        public var imageHeight: Int?
        public var workingScale: Int?
        public var workingWidth: Int?
        public var workingHeight: Int?
        /// Blocks on the grid, textured, and valid (textured, correlated, unique,
        /// left-right consistent, minimum inside the search range); coverage = valid / total.
        public var totalBlocks: Int?
        public var texturedBlocks: Int?
        public var validBlocks: Int?
        public var disparityCoverage: Double?
        /// Why textured blocks were rejected (as `parallax/1`).
        public var rejectedBlocks: ParallaxAnalyzer.Rejections?
        /// Searched disparities, input px, and where the range came from (`argument`:
        /// focal length and baseline, `default`: `0 ... 0.08 w`).
        public var searchMinDisparityPx: Double?
        public var searchMaxDisparityPx: Double?
        public var searchRangeSource: String?
        /// The caller's focal length (px) and baseline (mm), echoed when both were given.
        public var focalPx: Double?
        public var baselineMm: Double?
        /// Robust matching noise σ (second differences of neighbouring blocks), input px.
        public var matchingNoisePx: Double?
        /// The surface band `t = clamp(3 σ, 0.25, 1.0)` working px, in input px.
        public var inlierThresholdPx: Double?
        /// Valid blocks inside the content window (the middle half of the grid's columns
        /// and rows).
        public var windowBlocks: Int?
        /// The content surface's plane: the RANSAC plane of the window, refitted by least
        /// squares to the surface blocks, `d = a x + b y + c` in input pixels.
        public var surfacePlane: ParallaxAnalyzer.AffineDisparity?
        /// The surface model: `plane` or `sheet` (a quadric kept by the curvature bound).
        public var surfaceModel: String?
        /// Largest principal second derivative of the sheet's disparity, input px per
        /// px², and as a sheet curvature `|∂²d| f / B`, 1/m (with focal length and baseline).
        public var sheetSecondDerivative: Double?
        public var sheetCurvaturePerM: Double?
        /// Surface blocks (valid blocks within the band of the final model) / valid blocks.
        public var surfaceShare: Double?
        /// Surface blocks of the window / valid window blocks: how much of the centre one
        /// plane or sheet explains.
        public var windowShare: Double?
        /// Valid blocks in the window, or enclosed by the surface, that stand in front of
        /// it (disparity above the model by more than `max(t, h d² / (f B))`, h =
        /// `min_occluder_height_m`) with a 4-neighbour that does too at a disparity within
        /// `2 t` / valid blocks of window ∪ surface ∪ enclosed blocks.
        public var occluderShare: Double?
        /// Of the surface's boundary pairs (surface block, neighbour off it that lies
        /// outside the surface's outline or stands off it by more than the occluder step),
        /// the share whose neighbour is valid and behind the surface: the surface ends at a
        /// step down to a background, as a screen's bezel or a held print does.
        public var freeEdgeShare: Double?
        /// RMS residual of the surface blocks / σ: ≈ 1 for a plane or sheet seen through
        /// matching noise.
        public var surfaceResidualRatio: Double?
        /// Valid window blocks off the surface / valid window blocks (`1 - window_share`),
        /// and the median |residual| of those blocks / σ: how far, in matching noise, what
        /// the surface leaves unexplained lies from it.
        public var windowOffShare: Double?
        public var offSurfaceResidualRatio: Double?
        /// Valid window blocks off the surface by more than the occluder step, on either
        /// side, with a 4-neighbour off it on the same side at a disparity within `2 t`
        /// (coherent relief: another surface, an object, a background) / valid window
        /// blocks. Isolated off-surface blocks (false matches, e.g. on a display's moire)
        /// do not count.
        public var structureShare: Double?
        /// 5th, 50th and 95th percentiles of the window's valid disparities, input px.
        public var windowDisparityP5Px: Double?
        public var windowDisparityMedianPx: Double?
        public var windowDisparityP95Px: Double?
        /// `f B / d` at those percentiles, metres (with focal length and baseline; a
        /// percentile <= 0 leaves its depth out), and the surface's depth at the centre.
        public var windowDepthNearM: Double?
        public var windowDepthMedianM: Double?
        public var windowDepthFarM: Double?
        public var surfaceDepthM: Double?
        /// The surface holds >= `planar_subject_min_share` of the valid blocks with
        /// occluders below `occluder_floor`: a screen, a print, or a real flat subject.
        public var isPlanarSubject: Bool?
        /// `score > 0.5`.
        public var isLikelyRealScene: Bool?

        enum CodingKeys: String, CodingKey {
            case status
            case unavailableReason = "unavailable_reason"
            case algorithmVersion = "algorithm_version"
            case analysisTimeMs = "analysis_time_ms"
            case score
            case imageWidth = "image_width"
            case imageHeight = "image_height"
            case workingScale = "working_scale"
            case workingWidth = "working_width"
            case workingHeight = "working_height"
            case totalBlocks = "total_blocks"
            case texturedBlocks = "textured_blocks"
            case validBlocks = "valid_blocks"
            case disparityCoverage = "disparity_coverage"
            case rejectedBlocks = "rejected_blocks"
            case searchMinDisparityPx = "search_min_disparity_px"
            case searchMaxDisparityPx = "search_max_disparity_px"
            case searchRangeSource = "search_range_source"
            case focalPx = "focal_px"
            case baselineMm = "baseline_mm"
            case matchingNoisePx = "matching_noise_px"
            case inlierThresholdPx = "inlier_threshold_px"
            case windowBlocks = "window_blocks"
            case surfacePlane = "surface_plane"
            case surfaceModel = "surface_model"
            case sheetSecondDerivative = "sheet_second_derivative"
            case sheetCurvaturePerM = "sheet_curvature_per_m"
            case surfaceShare = "surface_share"
            case windowShare = "window_share"
            case occluderShare = "occluder_share"
            case freeEdgeShare = "free_edge_share"
            case surfaceResidualRatio = "surface_residual_ratio"
            case windowOffShare = "window_off_share"
            case offSurfaceResidualRatio = "off_surface_residual_ratio"
            case structureShare = "structure_share"
            case windowDisparityP5Px = "window_disparity_p5_px"
            case windowDisparityMedianPx = "window_disparity_median_px"
            case windowDisparityP95Px = "window_disparity_p95_px"
            case windowDepthNearM = "window_depth_near_m"
            case windowDepthMedianM = "window_depth_median_m"
            case windowDepthFarM = "window_depth_far_m"
            case surfaceDepthM = "surface_depth_m"
            case isPlanarSubject = "is_planar_subject"
            case isLikelyRealScene = "is_likely_real_scene"
        }

        /// An `.unavailable` result with only the common fields; callers add what they measured.
        static func unavailable(reason: String) -> Result {
            Result(
                status: .unavailable, unavailableReason: reason, algorithmVersion: .parallaxV2,
                analysisTimeMs: 0, score: nil)
        }

        init(
            status: MethodStatus, unavailableReason: String?, algorithmVersion: MethodIdentifier,
            analysisTimeMs: Double, score: Double?
        ) {
            self.status = status
            self.unavailableReason = unavailableReason
            self.algorithmVersion = algorithmVersion
            self.analysisTimeMs = analysisTimeMs
            self.score = score
        }
    }
}
