extension TemporalAnalyzerV2 {
    /// Every constant of `temporal/2`. Depths and distances in metres unless the name says
    /// otherwise. A partial object is decoded over the defaults. Call `validate()` (or
    /// build a `TemporalAnalyzerV2`, which does) before use.
    ///
    /// The flatness of each judged keyframe is depth/2's with its default configuration
    /// (`DepthAnalyzerV2.Configuration.standard`, whose score weights were fitted with
    /// those constants); the noise model below is depth/2's too.
    ///
    /// The score weights are set from geometry, not fitted (no labelled video existed
    /// when this was written): a flat subject with nothing seen in parallax keeps depth/2's
    /// log-odds (a screen filling the frame: 0.071), and 1% of the window's points seen
    /// in rigid parallax adds ln 2 ≈ 0.69, 10% adds 2.4.
    public struct Configuration: Sendable, Equatable, Codable {
        /// Keyframes judged, evenly spaced over the recording (each starts one parallax
        /// pair). 5; >= 1. Each costs one depth/2 analysis (the bulk of the time) and
        /// `pair_gap` + 1 motion estimates.
        public var positions: Int = 5
        /// A parallax pair is a judged keyframe and the one this many keyframes later:
        /// 5 (0.5 s at 10 fps; a hand-held phone moves a few centimetres). Shortened to the
        /// recording's length when it is shorter. >= 1.
        public var pairGap: Int = 5
        /// Intrinsics of the depth keyframes in depth pixels; nil = the capture's, else
        /// `CameraIntrinsics.assumed` with `horizontal_field_of_view_degrees`.
        public var intrinsics: DepthAnalyzerV2.CameraIntrinsics? = nil
        /// Assumed horizontal field of view over the keyframe width, degrees, when no
        /// intrinsics are known. 65 (depth/2's assumption); in (0, 180).
        public var horizontalFieldOfViewDegrees: Double = 65
        /// A depth is valid when finite and `min_valid_depth <= d <= max_valid_depth`. 0.1.
        public var minValidDepth: Double = 0.1
        /// Upper bound of the valid range (inclusive). 20.0.
        public var maxValidDepth: Double = 20
        /// The content window: the centred rectangle spanning this fraction of the
        /// width and of the height (depth/2's), where relief and parallax are measured:
        /// background seen around a screen held in a room is real 3D but not the subject.
        /// 0.5; in (0, 1].
        public var contentWindowFraction: Double = 0.5
        /// Relief: a window point is off the window's plane (depth/2's RANSAC plane fit on
        /// the window points) when its depth residual along the ray exceeds
        /// `max(depth/2's 3 σ(z), min_relief)`. 0.015 m (depth/2's occluder height:
        /// paper, a phone lying on a surface is no relief); >= 0.
        public var minRelief: Double = 0.015
        /// Sample stride of the coarse motion estimate (pixels). 8; >= 1.
        public var coarseStride: Int = 8
        /// Gauss-Newton iterations of each coarse estimate (one per consecutive keyframe
        /// pair of the parallax pair, chained). 6; >= 1.
        public var coarseIterations: Int = 6
        /// Coarse correspondences farther apart than this (point-to-plane) are dropped. 0.10 m; > 0.
        public var coarseRejection: Double = 0.10
        /// Sample stride of the fine estimate on the parallax pair and of the relief and
        /// parallax measures (pixels). 4; >= 1.
        public var fineStride: Int = 4
        /// Iterations of the fine estimate, started from the chained coarse motion. 4; >= 1.
        public var fineIterations: Int = 4
        /// Fine correspondences farther apart than this are dropped. 0.03 m; > 0.
        public var fineRejection: Double = 0.03
        /// A motion estimate needs at least this many correspondences. 30; >= 6.
        public var minCorrespondences: Int = 30
        /// A relief point counts as seen in parallax when the rigid motion moves it at least
        /// this far (pixels) from where the window's plane would put it (the homography
        /// prediction), and the later keyframe has a depth there within
        /// `max(3 σ(z), min_relief)` of the predicted one (3x3 neighbourhood). 0.5 px; > 0.
        public var minParallaxPx: Double = 0.5
        /// Parallax shares below this are noise: the score's parallax term is
        /// `ln(1 + parallax_share / parallax_floor)`. 0.01; > 0.
        public var parallaxFloor: Double = 0.01
        /// Log-odds per unit of the median depth/2 log-odds of the judged keyframes. 1; finite.
        public var flatnessWeight: Double = 1
        /// Log-odds per unit of `ln(1 + median parallax share / parallax_floor)`. 0; finite.
        ///
        /// 0 by default: the parallax share is measured and reported, but does not count.
        /// On an independent simulated set (`synth --video --count 80 --seed 777`, 20 real
        /// scenes and 60 screens and prints, not the default video set) a logistic fit of
        /// the two terms gave parallax a negative weight (-1.41 beside flatness 1.59): the
        /// attack recordings show parallax from the room around the held screen or print
        /// inside the window, more often than the real scenes do. Counting parallax for
        /// real (weight 1, the geometric design) lowered temporal/2's AUC on the default
        /// video set's 40 recordings from 0.937 to 0.867; a negative weight has no physical
        /// basis. Parallax can count once the window is restricted to the subject's
        /// surface.
        public var parallaxWeight: Double = 0
        /// Added to the log-odds. 0; finite.
        public var scoreIntercept: Double = 0

        /// The defaults.
        public static let standard = Configuration()

        public init() {}

        enum CodingKeys: String, CodingKey {
            case positions
            case pairGap = "pair_gap"
            case intrinsics
            case horizontalFieldOfViewDegrees = "horizontal_field_of_view_degrees"
            case minValidDepth = "min_valid_depth"
            case maxValidDepth = "max_valid_depth"
            case contentWindowFraction = "content_window_fraction"
            case minRelief = "min_relief"
            case coarseStride = "coarse_stride"
            case coarseIterations = "coarse_iterations"
            case coarseRejection = "coarse_rejection"
            case fineStride = "fine_stride"
            case fineIterations = "fine_iterations"
            case fineRejection = "fine_rejection"
            case minCorrespondences = "min_correspondences"
            case minParallaxPx = "min_parallax_px"
            case parallaxFloor = "parallax_floor"
            case flatnessWeight = "flatness_weight"
            case parallaxWeight = "parallax_weight"
            case scoreIntercept = "score_intercept"
        }

        /// Checks that the analysis is defined (see each field's range).
        ///
        /// - Throws: `ConfigurationError` naming the first offending key.
        public func validate() throws(ConfigurationError) {
            let minimums: [(CodingKeys, Int, Int)] = [
                (.positions, positions, 1), (.pairGap, pairGap, 1), (.coarseStride, coarseStride, 1),
                (.coarseIterations, coarseIterations, 1), (.fineStride, fineStride, 1),
                (.fineIterations, fineIterations, 1), (.minCorrespondences, minCorrespondences, 6),
            ]
            for (key, value, minimum) in minimums where value < minimum {
                throw ConfigurationError(key: key, "must be >= \(minimum), got \(value)")
            }
            let numbers: [(CodingKeys, Double)] = [
                (.horizontalFieldOfViewDegrees, horizontalFieldOfViewDegrees), (.minValidDepth, minValidDepth),
                (.maxValidDepth, maxValidDepth), (.contentWindowFraction, contentWindowFraction),
                (.minRelief, minRelief), (.coarseRejection, coarseRejection), (.fineRejection, fineRejection),
                (.minParallaxPx, minParallaxPx), (.parallaxFloor, parallaxFloor), (.flatnessWeight, flatnessWeight),
                (.parallaxWeight, parallaxWeight), (.scoreIntercept, scoreIntercept),
            ]
            for (key, value) in numbers where !value.isFinite {
                throw ConfigurationError(key: key, "must be a finite number, got \(value)")
            }
            guard minValidDepth > 0, minValidDepth <= maxValidDepth else {
                throw ConfigurationError(
                    key: CodingKeys.minValidDepth,
                    "must satisfy 0 < min_valid_depth <= max_valid_depth, got \(minValidDepth) and \(maxValidDepth)")
            }
            guard horizontalFieldOfViewDegrees > 0, horizontalFieldOfViewDegrees < 180 else {
                throw ConfigurationError(
                    key: CodingKeys.horizontalFieldOfViewDegrees,
                    "must be in (0, 180), got \(horizontalFieldOfViewDegrees)")
            }
            guard contentWindowFraction > 0, contentWindowFraction <= 1 else {
                throw ConfigurationError(
                    key: CodingKeys.contentWindowFraction, "must be in (0, 1], got \(contentWindowFraction)")
            }
            guard minRelief >= 0 else {
                throw ConfigurationError(key: CodingKeys.minRelief, "must be >= 0, got \(minRelief)")
            }
            let positives: [(CodingKeys, Double)] = [
                (.coarseRejection, coarseRejection), (.fineRejection, fineRejection),
                (.minParallaxPx, minParallaxPx), (.parallaxFloor, parallaxFloor),
            ]
            for (key, value) in positives where value <= 0 {
                throw ConfigurationError(key: key, "must be > 0, got \(value)")
            }
            try intrinsics?.check(key: CodingKeys.intrinsics)
        }
    }
}
