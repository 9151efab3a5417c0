extension DepthAnalyzerV1 {
    /// Every constant of `depth/1` (specs/methods.md section 1). The defaults are the
    /// deployed backend's values (`reference`); `prd` is the same with the PRD's first
    /// coherence threshold. Depths and distances in metres.
    ///
    /// A partial object is decoded over `reference` (`JSONValue.decode(_:overlaying:)`), so
    /// a configuration file names only what it changes. Call `validate()` (or build a
    /// `DepthAnalyzerV1`, which does) before use.
    public struct Configuration: Sendable, Equatable, Codable {
        /// A pixel is valid when finite and `minValidDepth <= d <= maxValidDepth`. 0.1.
        public var minValidDepth: Double = 0.1
        /// Upper bound of the valid range (inclusive). 20.0.
        public var maxValidDepth: Double = 20.0
        /// Histogram bins over [min, max] of the valid depths. 50; >= 2.
        public var histogramBins: Int = 50
        /// Box smoothing window of the histogram, in bins. 3; odd, >= 1 (1 = none).
        /// A neighbour beyond either end is replaced by the bin itself.
        public var smoothingWindow: Int = 3
        /// A peak must exceed this fraction of the largest smoothed bin. 0.05.
        public var peakThresholdFraction: Double = 0.05
        /// A gradient neighbour counts when finite and strictly greater than this. 0.1.
        public var gradientNeighbourMinDepth: Double = 0.1
        /// A pixel is an edge when its gradient magnitude (m per pixel) is strictly
        /// greater than this. 0.1.
        public var edgeThreshold: Double = 0.1
        /// `coherence = 1 - exp(-coherenceExpFactor * edgeRatio)`. 30.
        public var coherenceExpFactor: Double = 30
        /// Screen-like requires `range < screenMaxRange`. 0.15.
        public var screenMaxRange: Double = 0.15
        /// Uniformity counts pixels with `|d - median| <= uniformityBand`. 0.05.
        public var uniformityBand: Double = 0.05
        /// Screen-like requires `uniformity > screenMinUniformity`. 0.85.
        public var screenMinUniformity: Double = 0.85
        /// Screen-like requires `screenMinMean <= mean <= screenMaxMean`. 0.2.
        public var screenMinMean: Double = 0.2
        /// See `screenMinMean`. 1.5.
        public var screenMaxMean: Double = 1.5
        /// A quadrant's std is computed when it has at least this many valid pixels. 10; >= 1.
        public var quadrantMinValid: Int = 10
        /// The quadrant check passes when the smallest quadrant std is > this. 0.1.
        public var quadrantStdThreshold: Double = 0.1
        /// Real requires `std > stdThreshold`. 0.5.
        public var stdThreshold: Double = 0.5
        /// Real requires `layers >= minLayers`. 3.
        public var minLayers: Int = 3
        /// Real requires `coherence > coherenceThreshold`. 0.3 in production; the PRD
        /// first said 0.7 (`Configuration.prd`).
        public var coherenceThreshold: Double = 0.3
        /// Score when real. 1.0.
        public var realScore: Double = 1.0
        /// Score when not real and not flat. 0.2.
        public var notRealScore: Double = 0.2
        /// Score when not real and flat: `std < flatMaxStd AND layers <= flatMaxLayers`. 0.1.
        public var flatScore: Double = 0.1
        /// See `flatScore` (strict). 0.2.
        public var flatMaxStd: Double = 0.2
        /// See `flatScore` (inclusive). 2.
        public var flatMaxLayers: Int = 2
        /// Softness of the continuous `margin` (not part of the reference).
        public var marginScales = MarginScales()

        /// The deployed backend's constants.
        public static let reference = Configuration()

        /// The reference with the PRD's coherence threshold 0.7.
        public static let prd: Configuration = {
            var configuration = Configuration()
            configuration.coherenceThreshold = 0.7
            return configuration
        }()

        public init() {}

        /// For each criterion of `is_likely_real_scene`, the distance from its threshold
        /// that moves the margin term from 0.5 to `1 / (1 + e^-1)` ≈ 0.731 (see
        /// `DepthAnalyzerV1.Result.margin`). All finite and > 0.
        public struct MarginScales: Sendable, Equatable, Codable {
            /// Metres of std. 0.1.
            public var std: Double = 0.1
            /// Layers. 1.
            public var layers: Double = 1
            /// Coherence (0...1). 0.1.
            public var coherence: Double = 0.1
            /// Metres of range. 0.05.
            public var range: Double = 0.05
            /// Uniformity (0...1). 0.05.
            public var uniformity: Double = 0.05
            /// Metres of mean depth. 0.1.
            public var mean: Double = 0.1

            public init() {}

            enum CodingKeys: String, CodingKey {
                case std, layers, coherence, range, uniformity, mean
            }
        }

        enum CodingKeys: String, CodingKey {
            case minValidDepth = "min_valid_depth"
            case maxValidDepth = "max_valid_depth"
            case histogramBins = "histogram_bins"
            case smoothingWindow = "smoothing_window"
            case peakThresholdFraction = "peak_threshold_fraction"
            case gradientNeighbourMinDepth = "gradient_neighbour_min_depth"
            case edgeThreshold = "edge_threshold"
            case coherenceExpFactor = "coherence_exp_factor"
            case screenMaxRange = "screen_max_range"
            case uniformityBand = "uniformity_band"
            case screenMinUniformity = "screen_min_uniformity"
            case screenMinMean = "screen_min_mean"
            case screenMaxMean = "screen_max_mean"
            case quadrantMinValid = "quadrant_min_valid"
            case quadrantStdThreshold = "quadrant_std_threshold"
            case stdThreshold = "std_threshold"
            case minLayers = "min_layers"
            case coherenceThreshold = "coherence_threshold"
            case realScore = "real_score"
            case notRealScore = "not_real_score"
            case flatScore = "flat_score"
            case flatMaxStd = "flat_max_std"
            case flatMaxLayers = "flat_max_layers"
            case marginScales = "margin_scales"
        }

        /// Checks that the analysis is defined: every number finite;
        /// `0 <= minValidDepth <= maxValidDepth`; `histogramBins >= 2`;
        /// `smoothingWindow` odd and >= 1; `quadrantMinValid >= 1`; scores in 0...1;
        /// margin scales > 0.
        ///
        /// - Throws: `ConfigurationError` naming the first offending key.
        public func validate() throws(ConfigurationError) {
            let numbers: [(CodingKeys, Double)] = [
                (.minValidDepth, minValidDepth), (.maxValidDepth, maxValidDepth),
                (.peakThresholdFraction, peakThresholdFraction),
                (.gradientNeighbourMinDepth, gradientNeighbourMinDepth), (.edgeThreshold, edgeThreshold),
                (.coherenceExpFactor, coherenceExpFactor), (.screenMaxRange, screenMaxRange),
                (.uniformityBand, uniformityBand), (.screenMinUniformity, screenMinUniformity),
                (.screenMinMean, screenMinMean), (.screenMaxMean, screenMaxMean),
                (.quadrantStdThreshold, quadrantStdThreshold), (.stdThreshold, stdThreshold),
                (.coherenceThreshold, coherenceThreshold), (.flatMaxStd, flatMaxStd),
            ]
            for (key, number) in numbers where !number.isFinite {
                throw ConfigurationError(key: key, "must be a finite number, got \(number)")
            }
            guard minValidDepth >= 0, minValidDepth <= maxValidDepth else {
                throw ConfigurationError(
                    key: CodingKeys.minValidDepth,
                    "must satisfy 0 <= min_valid_depth <= max_valid_depth, got \(minValidDepth) and \(maxValidDepth)")
            }
            guard histogramBins >= 2 else {
                throw ConfigurationError(key: CodingKeys.histogramBins, "must be >= 2, got \(histogramBins)")
            }
            guard smoothingWindow >= 1, smoothingWindow % 2 == 1 else {
                throw ConfigurationError(
                    key: CodingKeys.smoothingWindow, "must be odd and >= 1, got \(smoothingWindow)")
            }
            guard quadrantMinValid >= 1 else {
                throw ConfigurationError(key: CodingKeys.quadrantMinValid, "must be >= 1, got \(quadrantMinValid)")
            }
            for (key, score) in [
                (CodingKeys.realScore, realScore), (.notRealScore, notRealScore), (.flatScore, flatScore),
            ]
            where !(0...1).contains(score) {
                throw ConfigurationError(key: key, "must be in 0...1, got \(score)")
            }
            let s = marginScales
            let scales: [(MarginScales.CodingKeys, Double)] = [
                (.std, s.std), (.layers, s.layers), (.coherence, s.coherence), (.range, s.range),
                (.uniformity, s.uniformity), (.mean, s.mean),
            ]
            for (key, scale) in scales where !(scale.isFinite && scale > 0) {
                throw ConfigurationError(key: key, "must be finite and > 0, got \(scale)").prefixed(
                    by: CodingKeys.marginScales)
            }
        }
    }
}
