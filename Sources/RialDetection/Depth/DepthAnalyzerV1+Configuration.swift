extension DepthAnalyzerV1 {
    /// Every constant of `depth/1` (specs/methods.md section 1). The defaults are the
    /// deployed backend's values (`reference`); `prd` is the same with the PRD's first
    /// coherence threshold. Depths and distances in metres.
    ///
    /// Decoding accepts a partial object: a missing key keeps its reference default, so
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

            public init(from decoder: any Decoder) throws {
                let c = try decoder.container(keyedBy: CodingKeys.self)
                let d = MarginScales()
                std = try c.decodeIfPresent(Double.self, forKey: .std) ?? d.std
                layers = try c.decodeIfPresent(Double.self, forKey: .layers) ?? d.layers
                coherence = try c.decodeIfPresent(Double.self, forKey: .coherence) ?? d.coherence
                range = try c.decodeIfPresent(Double.self, forKey: .range) ?? d.range
                uniformity = try c.decodeIfPresent(Double.self, forKey: .uniformity) ?? d.uniformity
                mean = try c.decodeIfPresent(Double.self, forKey: .mean) ?? d.mean
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

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let d = Configuration()
            func value<T: Decodable>(_ key: CodingKeys, _ fallback: T) throws -> T {
                try c.decodeIfPresent(T.self, forKey: key) ?? fallback
            }
            minValidDepth = try value(.minValidDepth, d.minValidDepth)
            maxValidDepth = try value(.maxValidDepth, d.maxValidDepth)
            histogramBins = try value(.histogramBins, d.histogramBins)
            smoothingWindow = try value(.smoothingWindow, d.smoothingWindow)
            peakThresholdFraction = try value(.peakThresholdFraction, d.peakThresholdFraction)
            gradientNeighbourMinDepth = try value(.gradientNeighbourMinDepth, d.gradientNeighbourMinDepth)
            edgeThreshold = try value(.edgeThreshold, d.edgeThreshold)
            coherenceExpFactor = try value(.coherenceExpFactor, d.coherenceExpFactor)
            screenMaxRange = try value(.screenMaxRange, d.screenMaxRange)
            uniformityBand = try value(.uniformityBand, d.uniformityBand)
            screenMinUniformity = try value(.screenMinUniformity, d.screenMinUniformity)
            screenMinMean = try value(.screenMinMean, d.screenMinMean)
            screenMaxMean = try value(.screenMaxMean, d.screenMaxMean)
            quadrantMinValid = try value(.quadrantMinValid, d.quadrantMinValid)
            quadrantStdThreshold = try value(.quadrantStdThreshold, d.quadrantStdThreshold)
            stdThreshold = try value(.stdThreshold, d.stdThreshold)
            minLayers = try value(.minLayers, d.minLayers)
            coherenceThreshold = try value(.coherenceThreshold, d.coherenceThreshold)
            realScore = try value(.realScore, d.realScore)
            notRealScore = try value(.notRealScore, d.notRealScore)
            flatScore = try value(.flatScore, d.flatScore)
            flatMaxStd = try value(.flatMaxStd, d.flatMaxStd)
            flatMaxLayers = try value(.flatMaxLayers, d.flatMaxLayers)
            marginScales = try value(.marginScales, d.marginScales)
        }

        /// Checks that the analysis is defined: every number finite;
        /// `0 <= minValidDepth <= maxValidDepth`; `histogramBins >= 2`;
        /// `smoothingWindow` odd and >= 1; `quadrantMinValid >= 1`; scores in 0...1;
        /// margin scales > 0.
        ///
        /// - Throws: `ConfigurationError` naming the first offending key.
        public func validate() throws(ConfigurationError) {
            let numbers: [(String, Double)] = [
                ("min_valid_depth", minValidDepth), ("max_valid_depth", maxValidDepth),
                ("peak_threshold_fraction", peakThresholdFraction),
                ("gradient_neighbour_min_depth", gradientNeighbourMinDepth), ("edge_threshold", edgeThreshold),
                ("coherence_exp_factor", coherenceExpFactor), ("screen_max_range", screenMaxRange),
                ("uniformity_band", uniformityBand), ("screen_min_uniformity", screenMinUniformity),
                ("screen_min_mean", screenMinMean), ("screen_max_mean", screenMaxMean),
                ("quadrant_std_threshold", quadrantStdThreshold), ("std_threshold", stdThreshold),
                ("coherence_threshold", coherenceThreshold), ("flat_max_std", flatMaxStd),
            ]
            for (key, number) in numbers where !number.isFinite {
                throw ConfigurationError(key: key, "must be a finite number, got \(number)")
            }
            guard minValidDepth >= 0, minValidDepth <= maxValidDepth else {
                throw ConfigurationError(key: "min_valid_depth",
                                         "must satisfy 0 <= min_valid_depth <= max_valid_depth, got \(minValidDepth) and \(maxValidDepth)")
            }
            guard histogramBins >= 2 else {
                throw ConfigurationError(key: "histogram_bins", "must be >= 2, got \(histogramBins)")
            }
            guard smoothingWindow >= 1, smoothingWindow % 2 == 1 else {
                throw ConfigurationError(key: "smoothing_window", "must be odd and >= 1, got \(smoothingWindow)")
            }
            guard quadrantMinValid >= 1 else {
                throw ConfigurationError(key: "quadrant_min_valid", "must be >= 1, got \(quadrantMinValid)")
            }
            for (key, score) in [("real_score", realScore), ("not_real_score", notRealScore), ("flat_score", flatScore)]
            where !(0...1).contains(score) {
                throw ConfigurationError(key: key, "must be in 0...1, got \(score)")
            }
            let scales: [(String, Double)] = [
                ("margin_scales.std", marginScales.std), ("margin_scales.layers", marginScales.layers),
                ("margin_scales.coherence", marginScales.coherence), ("margin_scales.range", marginScales.range),
                ("margin_scales.uniformity", marginScales.uniformity), ("margin_scales.mean", marginScales.mean),
            ]
            for (key, scale) in scales where !(scale.isFinite && scale > 0) {
                throw ConfigurationError(key: key, "must be finite and > 0, got \(scale)")
            }
        }
    }
}

