extension ArtifactAnalyzer {
    /// What `artifacts/1` reports for one image.
    ///
    /// Each of the three detectors either ran (its `*_detected` and `*_confidence` are
    /// present) or could not (both absent, `*_unavailable_reason` says why, e.g. an image
    /// smaller than a halftone tile). The result is `.completed` when at least one ran;
    /// `overall_confidence` then averages the detectors that ran, with their weights
    /// renormalised. When no detector can run (or the image is constant) the result is
    /// `.unavailable` with only the common fields and the per-detector reasons.
    public struct Result: MethodResult {
        public var status: MethodStatus
        public var unavailableReason: String?
        /// Always `artifacts/1`.
        public var algorithmVersion: MethodIdentifier
        public var analysisTimeMs: Double
        /// `1 - overall_confidence`, in [0, 1]: 1 = no recapture artifact found.
        public var score: Double?

        /// `pwm_confidence >= detection_threshold` (0.5).
        public var pwmFlickerDetected: Bool?
        /// Horizontal banding at one period in every strip, 0...1 (see `ArtifactAnalyzer`).
        public var pwmConfidence: Double?
        /// `specular_confidence >= detection_threshold`.
        public var specularPatternDetected: Bool?
        /// Best highlight region's glare score, 0...1.
        public var specularConfidence: Double?
        /// `halftone_confidence >= detection_threshold`.
        public var halftoneDetected: Bool?
        /// Rosette of spectral peaks at one ruling, 0...1.
        public var halftoneConfidence: Double?
        /// Weighted mean of the confidences of the detectors that ran (reference weights
        /// 0.35 pwm, 0.30 specular, 0.35 halftone, renormalised over those present), 0...1.
        public var overallConfidence: Double?
        /// Any confidence > 0.7 or `overall_confidence` > 0.6 (reference rule).
        public var isLikelyArtificial: Bool?

        /// Period of the strongest banding peak, rows (present whenever PWM ran).
        public var pwmPeriodRows: Double?
        /// Coherent power at that peak over the median of its neighbourhood (>= 0).
        public var pwmPeakRatio: Double?
        /// Phase agreement of the strips at that peak, `|sum F_k|^2 / (K sum |F_k|^2)`, 0...1
        /// (1 = identical bands in every strip, about 1/K for unrelated content).
        public var pwmCoherence: Double?
        /// Why PWM did not run; absent when it ran.
        public var pwmUnavailableReason: String?
        /// Highlight regions, largest first (at most `specular_max_regions`); empty when
        /// no region is large enough; absent when the detector did not run.
        public var specularRegions: [SpecularRegion]?
        /// The highlight threshold used on `max(R, G, B)`, 0...255.
        public var specularThreshold: Double?
        /// Why the glare detector did not run; absent when it ran.
        public var specularUnavailableReason: String?
        /// Halftone cell period, px: 1 / mean radial frequency of the three peaks of the
        /// rosette taken as the screens' fundamentals (not a harmonic or beat); absent
        /// when no rosette was matched. Often about twice the ruling when the ruling is
        /// finer than about 2.8 px (aliased; the screens' beat pattern remains).
        public var halftonePeriodPx: Double?
        /// Directions of the rosette's three peaks, degrees in [0, 180), measured from the
        /// image x axis towards +y (rows down); a square screen at angle a has peaks at a
        /// and a + 90, so values are the screen angles modulo 90 up to that ambiguity.
        public var halftoneAnglesDeg: [Double]?
        /// The weakest of the three matched peak ratios (power / ring median), the
        /// statistic behind `halftone_confidence`; 0 when no rosette was matched.
        public var halftonePeakRatio: Double?
        /// Spectral peaks found in the best tile (after the JPEG-grid exclusion).
        public var halftonePeakCount: Int?
        /// Why the halftone detector did not run; absent when it ran.
        public var halftoneUnavailableReason: String?

        enum CodingKeys: String, CodingKey {
            case status
            case unavailableReason = "unavailable_reason"
            case algorithmVersion = "algorithm_version"
            case analysisTimeMs = "analysis_time_ms"
            case score
            case pwmFlickerDetected = "pwm_flicker_detected"
            case pwmConfidence = "pwm_confidence"
            case specularPatternDetected = "specular_pattern_detected"
            case specularConfidence = "specular_confidence"
            case halftoneDetected = "halftone_detected"
            case halftoneConfidence = "halftone_confidence"
            case overallConfidence = "overall_confidence"
            case isLikelyArtificial = "is_likely_artificial"
            case pwmPeriodRows = "pwm_period_rows"
            case pwmPeakRatio = "pwm_peak_ratio"
            case pwmCoherence = "pwm_coherence"
            case pwmUnavailableReason = "pwm_unavailable_reason"
            case specularRegions = "specular_regions"
            case specularThreshold = "specular_threshold"
            case specularUnavailableReason = "specular_unavailable_reason"
            case halftonePeriodPx = "halftone_period_px"
            case halftoneAnglesDeg = "halftone_angles_deg"
            case halftonePeakRatio = "halftone_peak_ratio"
            case halftonePeakCount = "halftone_peak_count"
            case halftoneUnavailableReason = "halftone_unavailable_reason"
        }

        /// A result with only the common fields set.
        init(status: MethodStatus, unavailableReason: String?, score: Double?) {
            self.status = status
            self.unavailableReason = unavailableReason
            algorithmVersion = .artifactsV1
            analysisTimeMs = 0
            self.score = score
        }

        static func unavailable(reason: String) -> Result {
            Result(status: .unavailable, unavailableReason: reason, score: nil)
        }
    }

    /// One connected highlight region of the glare detector, measured on the strided grid.
    public struct SpecularRegion: Sendable, Equatable, Codable {
        /// Share of the grid cells in the region, 0...1.
        public var areaFraction: Double
        /// Mean HSV saturation `(max - min) / max` of its cells, 0...1.
        public var meanSaturation: Double
        /// Mean over border crossings of `max |one-pixel luma step| / |luma change over the
        /// span|` at full resolution (span `max(grid stride, 8)` px across the border),
        /// 0...1: 1 = a one-pixel step, `1 / span` = a linear ramp; 0 when no border
        /// crossing had enough contrast.
        public var borderSharpness: Double
        /// Area over convex hull area (solidity), 0...1: 1 for a convex region such as a
        /// reflected rectangle, low for ragged regions (sky through foliage).
        public var regularity: Double
        /// The region's glare score, the product of its size, saturation, sharpness and
        /// regularity factors, 0...1.
        public var score: Double

        enum CodingKeys: String, CodingKey {
            case areaFraction = "area_fraction"
            case meanSaturation = "mean_saturation"
            case borderSharpness = "border_sharpness"
            case regularity, score
        }

        public init(
            areaFraction: Double, meanSaturation: Double, borderSharpness: Double, regularity: Double,
            score: Double
        ) {
            self.areaFraction = areaFraction
            self.meanSaturation = meanSaturation
            self.borderSharpness = borderSharpness
            self.regularity = regularity
            self.score = score
        }
    }
}
