extension DepthAnalyzerV1 {
    /// What `depth/1` reports for one depth map (specs/methods.md section 1).
    ///
    /// When `status` is `.unavailable` (no valid pixel) only the common fields and
    /// `coverage` (0) are present; every other optional is nil and left out of the JSON.
    /// When `.completed` every field is present. Depths in metres.
    public struct Result: MethodResult {
        public var status: MethodStatus
        public var unavailableReason: String?
        /// Always `depth/1`.
        public var algorithmVersion: MethodIdentifier
        public var analysisTimeMs: Double
        /// `realScore` (1.0) when real; otherwise `flatScore` (0.1) when
        /// `std < 0.2 AND layers <= 2`, else `notRealScore` (0.2). Nearly binary: use
        /// `margin` for ROC curves.
        public var score: Double?
        /// Continuous confidence in 0...1 that the map is a real scene, `> 0.5` exactly
        /// when `isLikelyRealScene` (see `DepthAnalyzerV1.margin`). Not part of the
        /// deployed reference; for ROC curves.
        public var margin: Double?

        /// Population standard deviation of the valid depths in metres (`numpy.std`,
        /// ddof 0). Named "variance" by the reference; the value is a std.
        public var depthVariance: Double?
        public var minDepth: Double?
        public var maxDepth: Double?
        /// Mean of the valid depths.
        public var meanDepth: Double?
        /// `sorted[n / 2]` of the n valid depths (the upper median for even n, not
        /// `numpy.median`).
        public var medianDepth: Double?
        /// `maxDepth - minDepth`.
        public var depthRange: Double?
        /// Valid pixels / all pixels, 0...1. Present in every result.
        public var coverage: Double
        /// Peaks of the smoothed depth histogram.
        public var depthLayers: Int?
        /// Edge pixels / valid interior pixels (0 when there is no valid interior pixel).
        public var edgeRatio: Double?
        /// `clamp(1 - exp(-30 * edgeRatio), 0, 1)`.
        public var edgeCoherence: Double?
        /// Share of valid pixels with `|d - medianDepth| <= 0.05`, 0...1.
        public var uniformity: Double?
        /// `depthRange < 0.15 AND uniformity > 0.85 AND 0.2 <= meanDepth <= 1.5`.
        public var isScreenPattern: Bool?
        /// Advisory quadrant check; never changes `isLikelyRealScene` or `score`.
        public var quadrantCheck: QuadrantCheck?
        /// `NOT isScreenPattern AND std > 0.5 AND layers >= 3 AND coherence > 0.3`.
        public var isLikelyRealScene: Bool?

        enum CodingKeys: String, CodingKey {
            case status
            case unavailableReason = "unavailable_reason"
            case algorithmVersion = "algorithm_version"
            case analysisTimeMs = "analysis_time_ms"
            case score, margin
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
            case uniformity
            case isScreenPattern = "is_screen_pattern"
            case quadrantCheck = "quadrant_check"
            case isLikelyRealScene = "is_likely_real_scene"
        }

        /// An `.unavailable` result: only the common fields and `coverage`.
        static func unavailable(reason: String, coverage: Double) -> Result {
            Result(
                status: .unavailable, unavailableReason: reason, algorithmVersion: .depthV1, analysisTimeMs: 0,
                score: nil, margin: nil, depthVariance: nil, minDepth: nil, maxDepth: nil, meanDepth: nil,
                medianDepth: nil, depthRange: nil, coverage: coverage, depthLayers: nil, edgeRatio: nil,
                edgeCoherence: nil, uniformity: nil, isScreenPattern: nil, quadrantCheck: nil,
                isLikelyRealScene: nil)
        }
    }

    /// The advisory quadrant check: the map is cut at row `height / 2` and column
    /// `width / 2` (integer division) into top-left, top-right, bottom-left and
    /// bottom-right quadrants (that order); the population std of the valid depths of
    /// each quadrant with at least `quadrantMinValid` (10) valid pixels; passes when the
    /// smallest of those stds is > `quadrantStdThreshold` (0.1), and fails when no
    /// quadrant has enough valid pixels.
    public struct QuadrantCheck: Sendable, Equatable, Codable {
        /// Four entries in the order above; nil (JSON `null`) for a quadrant with too
        /// few valid pixels.
        public var quadrantStds: [Double?]
        public var passes: Bool
        /// Always true: the reference reports this check but never uses it.
        public var advisory: Bool

        enum CodingKeys: String, CodingKey {
            case quadrantStds = "quadrant_stds"
            case passes, advisory
        }

        public init(quadrantStds: [Double?], passes: Bool, advisory: Bool = true) {
            self.quadrantStds = quadrantStds
            self.passes = passes
            self.advisory = advisory
        }
    }
}
