extension ParallaxAnalyzer {
    /// What `parallax/1` reports for one rectified pair.
    ///
    /// Disparities, residuals and coefficients are in INPUT pixels (the matcher's working
    /// pixels times `working_scale`), so `d = f B / Z` holds with the caller's focal
    /// length in pixels; `d` = left x minus right x of the same scene point.
    ///
    /// When `status` is `.unavailable` only the common fields and whatever was measured
    /// before the stop (the grid and block counts) are present. When `.completed` every
    /// field is present except `focal_px`, `baseline_mm` and the depth fields, which need
    /// both focal length and baseline; a depth field is also absent when its disparity
    /// percentile is <= 0 (beyond any finite depth).
    public struct Result: MethodResult {
        public var status: MethodStatus
        public var unavailableReason: String?
        /// Always `parallax/1`.
        public var algorithmVersion: MethodIdentifier
        public var analysisTimeMs: Double
        /// `1 / (1 + exp(-z))`, continuous in (0, 1), with
        /// `z = (outlier - 0.3) / 0.08 + clamp((residual_ratio - 1.5) / 0.25, ±1)`,
        /// `outlier = 1 - inlier_fraction` (constants: `Configuration`). One plane
        /// filling the frame scores low whatever it is: a real wall or document cannot be
        /// told from a screen or print by parallax (see `isPlanarSubject`).
        public var score: Double?
        /// Input image size and the integer downscale factor `k`; the matcher works on
        /// `workingWidth x workingHeight = floor(w / k) x floor(h / k)` luma pixels.
        public var imageWidth: Int?
        public var imageHeight: Int?
        public var workingScale: Int?
        public var workingWidth: Int?
        public var workingHeight: Int?
        /// Blocks on the grid (`columns x rows`).
        public var totalBlocks: Int?
        /// Blocks that passed the texture test (standard deviation >= `minBlockStdDev`).
        public var texturedBlocks: Int?
        /// Blocks with a valid disparity (textured, correlated, unique, left-right consistent,
        /// minimum inside the search range).
        public var validBlocks: Int?
        /// `validBlocks / totalBlocks`, 0...1.
        public var disparityCoverage: Double?
        /// Why textured blocks were rejected.
        public var rejectedBlocks: Rejections?
        /// Searched integer disparities, input px (the physical range widened by the margin).
        public var searchMinDisparityPx: Double?
        public var searchMaxDisparityPx: Double?
        /// `argument` when focal length and baseline were both given (the range comes from
        /// `minDepthM ... maxDepthM`), `default` otherwise (`0 ... 0.08 w`).
        public var searchRangeSource: String?
        /// The caller's focal length (px) and baseline (mm), echoed when both were given.
        public var focalPx: Double?
        public var baselineMm: Double?
        /// Robust matching noise `1.4826 median|Δ²d| / sqrt(6)` over second differences
        /// of neighbouring valid blocks (rows and columns), input px.
        public var matchingNoisePx: Double?
        /// RANSAC inlier threshold `clamp(3 noise, 0.25, 1.0)` working px, in input px.
        public var inlierThresholdPx: Double?
        /// The fitted disparity plane `d = a x + b y + c`.
        public var disparityPlane: AffineDisparity?
        /// The plane's disparity at the image centre `((w - 1) / 2, (h - 1) / 2)`, input px.
        public var centreDisparityPx: Double?
        /// Inliers of the plane / valid blocks, 0...1.
        public var inlierFraction: Double?
        public var inlierBlocks: Int?
        /// RMS of the inliers' residuals `d - (a x + b y + c)`, input px.
        public var planeResidualPx: Double?
        /// RMS of every valid block's residual, input px.
        public var allResidualPx: Double?
        /// `planeResidualPx / matchingNoisePx`: ≈ 1 for a plane seen through matching
        /// noise alone, larger when the surface bends or steps within the band.
        public var residualRatio: Double?
        /// 5th, 50th and 95th percentiles of the valid disparities, input px, and
        /// `disparity_range_px = p95 - p5`.
        public var disparityP5Px: Double?
        public var disparityMedianPx: Double?
        public var disparityP95Px: Double?
        public var disparityRangePx: Double?
        /// `f B / d` at the 95th, 50th and 5th percentile disparities, metres (needs focal
        /// length and baseline; a percentile <= 0 leaves its depth out).
        public var depthNearM: Double?
        public var depthMedianM: Double?
        public var depthFarM: Double?
        /// The plane holds >= 80% of the valid blocks: a screen, a print, or a real flat
        /// subject (wall, document, table top). The score treats all of them alike (low).
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
            case disparityPlane = "disparity_plane"
            case centreDisparityPx = "centre_disparity_px"
            case inlierFraction = "inlier_fraction"
            case inlierBlocks = "inlier_blocks"
            case planeResidualPx = "plane_residual_px"
            case allResidualPx = "all_residual_px"
            case residualRatio = "residual_ratio"
            case disparityP5Px = "disparity_p5_px"
            case disparityMedianPx = "disparity_median_px"
            case disparityP95Px = "disparity_p95_px"
            case disparityRangePx = "disparity_range_px"
            case depthNearM = "depth_near_m"
            case depthMedianM = "depth_median_m"
            case depthFarM = "depth_far_m"
            case isPlanarSubject = "is_planar_subject"
            case isLikelyRealScene = "is_likely_real_scene"
        }

        /// An `.unavailable` result with only the common fields; callers add what they measured.
        static func unavailable(reason: String) -> Result {
            Result(
                status: .unavailable, unavailableReason: reason, algorithmVersion: .parallaxV1,
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

    /// The disparity plane `d = a x + b y + c` in input pixels: `x`, `y` the column and
    /// row of the left image (pixel centres at integers, (0, 0) top left), `d` in px.
    /// For a plane `n · P = n · P0` seen by cameras `B` apart,
    /// `a = B n_x / (n · P0)`, `b = B n_y / (n · P0)` (px of disparity per px).
    public struct AffineDisparity: Sendable, Equatable, Codable {
        /// Disparity change per column, px/px.
        public var a: Double
        /// Disparity change per row, px/px.
        public var b: Double
        /// Disparity at pixel (0, 0), px.
        public var c: Double

        public init(a: Double, b: Double, c: Double) {
            self.a = a
            self.b = b
            self.c = c
        }

        /// `a x + b y + c`.
        public func disparity(x: Double, y: Double) -> Double { a * x + b * y + c }
    }

    /// Textured blocks rejected by each test (a block counts under the first it fails).
    public struct Rejections: Sendable, Equatable, Codable {
        /// Too close to the left or right border for three candidate disparities, or the
        /// best candidate sits at an end of the searched range (true minimum may lie outside).
        public var outOfRange: Int
        /// Best ZNCC below `minCorrelation`.
        public var lowCorrelation: Int
        /// Second-best cost (>= 2 px away) too close to the best (`uniquenessRatio`).
        public var ambiguous: Int
        /// Left-right check failed.
        public var inconsistent: Int

        enum CodingKeys: String, CodingKey {
            case outOfRange = "out_of_range"
            case lowCorrelation = "low_correlation"
            case ambiguous
            case inconsistent
        }

        public init(outOfRange: Int = 0, lowCorrelation: Int = 0, ambiguous: Int = 0, inconsistent: Int = 0) {
            self.outOfRange = outOfRange
            self.lowCorrelation = lowCorrelation
            self.ambiguous = ambiguous
            self.inconsistent = inconsistent
        }
    }
}
