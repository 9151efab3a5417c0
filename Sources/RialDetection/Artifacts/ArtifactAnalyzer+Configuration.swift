import Foundation

extension ArtifactAnalyzer {
    /// Every constant of `artifacts/1`. Sizes in image pixels (px) or rows, spatial
    /// frequencies in cycles per pixel, angles in degrees. A partial
    /// object is decoded over the defaults (`JSONValue.decode(_:overlaying:)`). Call `validate()` (or build an
    /// `ArtifactAnalyzer`, which does) before use.
    ///
    /// Each detector maps its statistic `s` to a confidence with a logistic in log
    /// space, `c = 1 / (1 + exp(-(ln s - ln midpoint) / scale))`: continuous in (0, 1),
    /// 0.5 at `s = midpoint`, so ROC curves over the confidence are meaningful.
    public struct Configuration: Sendable, Equatable, Codable {
        // MARK: Combination (methods.md section 5, reference values)

        /// Weight of `pwm_confidence` in `overall_confidence`. 0.35; >= 0.
        public var pwmWeight: Double = 0.35
        /// Weight of `specular_confidence`. 0.30; >= 0.
        public var specularWeight: Double = 0.30
        /// Weight of `halftone_confidence`. 0.35; >= 0. At least one weight must be > 0.
        public var halftoneWeight: Double = 0.35
        /// A detector reports `*_detected` when its confidence is >= this. 0.5; in 0...1.
        public var detectionThreshold: Double = 0.5
        /// `is_likely_artificial` when any detector's confidence is > this. 0.7; in 0...1.
        public var artificialDetectorThreshold: Double = 0.7
        /// ... or when `overall_confidence` is > this. 0.6; in 0...1.
        public var artificialOverallThreshold: Double = 0.6
        /// Luma range (max - min, 0...255) of a sparse sample grid below which the image
        /// is constant and nothing can run. 2; >= 0.
        public var minLumaRange: Double = 2

        // MARK: PWM / refresh banding

        /// Vertical strips whose row-mean profiles are analysed separately. 8; 1...64.
        public var pwmStrips: Int = 8
        /// Columns sampled per row (column stride `max(1, width / this)`). 256 (bands
        /// span whole rows, so a sparse sample loses nothing but content averaging); >= 8.
        public var pwmColumnSamples: Int = 256
        /// Shortest band period searched, rows. 18 (above the 8- and 16-row JPEG block
        /// grid and the 2-row Bayer period); >= 4.
        public var pwmMinPeriodRows: Double = 18
        /// Longest band period searched, as a fraction of the image height. 0.25 (at
        /// least four periods in the frame); in (0, 0.5].
        public var pwmMaxPeriodFraction: Double = 0.25
        /// Images with fewer rows cannot be analysed. 128; >= 32.
        public var pwmMinRows: Int = 128
        /// The noise floor of a spectral bin `i` is the median of the coherent power over
        /// bins `[i / k, i k]` (its own peak excluded). 1.5; > 1.
        public var pwmFloorSpan: Double = 1.5
        /// Statistic `peak_ratio * coherence` at which `pwm_confidence` = 0.5. 12; > 0.
        public var pwmMidpoint: Double = 12
        /// Logistic scale (natural-log units) of `pwm_confidence`. 0.35; > 0.
        public var pwmScale: Double = 0.35

        // MARK: Specular glare

        /// Cells of the highlight grid along the longer image side (stride
        /// `max(1, longSide / this)` px). 512; >= 32.
        public var specularGridCells: Int = 512
        /// Highlight threshold on `V = max(R, G, B)`:
        /// `T = clamp(median V + relativeLevel (255 - median V), minValue, maxValue)`.
        /// 0.5; in 0...1.
        public var specularRelativeLevel: Double = 0.5
        /// Lower clamp of the highlight threshold, 0...255. 150.
        public var specularMinValue: Double = 150
        /// Upper clamp of the highlight threshold (near saturation), 0...255. 235.
        public var specularMaxValue: Double = 235
        /// Highlight cells have HSV saturation `(max - min) / max` <= this. 0.3; in (0, 1].
        public var specularMaxSaturation: Double = 0.3
        /// Regions smaller than this share of the grid are ignored. 0.003; in (0, 1).
        public var specularMinAreaFraction: Double = 0.003
        /// Area share at which the size factor of a region's score reaches 1. 0.02; >
        /// `specularMinAreaFraction`.
        public var specularFullAreaFraction: Double = 0.02
        /// Border crossings whose luma changes by less than this (0...255) over the
        /// measured span do not enter the sharpness. 8; > 0.
        public var specularEdgeMinStep: Double = 8
        /// Border sharpness is measured over `max(grid stride, this)` px across the border. 8; >= 2.
        public var specularEdgeSpanPx: Int = 8
        /// Border sharpness (0...1) where the sharpness factor is 0, and where it is 1.
        /// 0.2 and 0.45 (over an 8-px span a one-pixel step is 1, a linear ramp 1/8).
        public var specularSharpnessLow: Double = 0.2
        /// See `specularSharpnessLow`: where the sharpness factor reaches 1. 0.45.
        public var specularSharpnessHigh: Double = 0.45
        /// Regularity (area / convex hull area) where the regularity factor is 0 and 1.
        /// 0.5 and 0.9.
        public var specularRegularityLow: Double = 0.5
        /// See `specularRegularityLow`: where the regularity factor reaches 1. 0.9.
        public var specularRegularityHigh: Double = 0.9
        /// At most this many regions are reported, largest first. 8; >= 1.
        public var specularMaxRegions: Int = 8

        // MARK: Halftone

        /// Side of the square full-resolution tiles, px; a power of two, 64...1024. 256.
        public var halftoneTileSize: Int = 256
        /// Tiles analysed: the frame centre, then the four points at 1/3 and 2/3 of the
        /// width and height. 5; 1...5.
        public var halftoneTiles: Int = 5
        /// Searched halftone periods, px: radial frequencies `1 / max ... 1 / min`.
        /// 2 (Nyquist) and 10.
        public var halftoneMinPeriodPx: Double = 2
        /// See `halftoneMinPeriodPx`: the longest searched period, px. 10.
        public var halftoneMaxPeriodPx: Double = 10
        /// A spectral peak needs at least this power over its ring's median. 20; > 1.
        public var halftoneMinPeakRatio: Double = 20
        /// At most this many peaks per tile enter the rosette search, strongest first. 24; >= 3.
        public var halftoneMaxPeaks: Int = 24
        /// Peaks of one screen ruling have radial frequencies within this relative
        /// tolerance. 0.04; in (0, 0.5).
        public var halftoneRadiusTolerance: Double = 0.04
        /// Angular tolerance of a rosette direction, degrees. 3 (a single dot screen's
        /// harmonics (2, 1) and (1, 2) lie 26.6 degrees from its axes, 3.4 degrees from
        /// a rosette direction); in (0, 15).
        public var halftoneAngleToleranceDeg: Double = 3
        /// JPEG exclusion: spectral bins within this many bins of a multiple of 1/8
        /// cycle/px on both axes (the 8x8 block grid) are ignored. 1; >= 0.
        public var halftoneJPEGExclusionBins: Int = 1
        /// Rosette statistic (weakest of the three matched peak ratios) at which
        /// `halftone_confidence` = 0.5. 60; > 0.
        public var halftoneMidpoint: Double = 60
        /// Logistic scale (natural-log units) of `halftone_confidence`. 0.5; > 0.
        public var halftoneScale: Double = 0.5

        /// The compiled-in defaults.
        public static let standard = Configuration()

        public init() {}

        enum CodingKeys: String, CodingKey {
            case pwmWeight = "pwm_weight"
            case specularWeight = "specular_weight"
            case halftoneWeight = "halftone_weight"
            case detectionThreshold = "detection_threshold"
            case artificialDetectorThreshold = "artificial_detector_threshold"
            case artificialOverallThreshold = "artificial_overall_threshold"
            case minLumaRange = "min_luma_range"
            case pwmStrips = "pwm_strips"
            case pwmColumnSamples = "pwm_column_samples"
            case pwmMinPeriodRows = "pwm_min_period_rows"
            case pwmMaxPeriodFraction = "pwm_max_period_fraction"
            case pwmMinRows = "pwm_min_rows"
            case pwmFloorSpan = "pwm_floor_span"
            case pwmMidpoint = "pwm_midpoint"
            case pwmScale = "pwm_scale"
            case specularGridCells = "specular_grid_cells"
            case specularRelativeLevel = "specular_relative_level"
            case specularMinValue = "specular_min_value"
            case specularMaxValue = "specular_max_value"
            case specularMaxSaturation = "specular_max_saturation"
            case specularMinAreaFraction = "specular_min_area_fraction"
            case specularFullAreaFraction = "specular_full_area_fraction"
            case specularEdgeMinStep = "specular_edge_min_step"
            case specularEdgeSpanPx = "specular_edge_span_px"
            case specularSharpnessLow = "specular_sharpness_low"
            case specularSharpnessHigh = "specular_sharpness_high"
            case specularRegularityLow = "specular_regularity_low"
            case specularRegularityHigh = "specular_regularity_high"
            case specularMaxRegions = "specular_max_regions"
            case halftoneTileSize = "halftone_tile_size"
            case halftoneTiles = "halftone_tiles"
            case halftoneMinPeriodPx = "halftone_min_period_px"
            case halftoneMaxPeriodPx = "halftone_max_period_px"
            case halftoneMinPeakRatio = "halftone_min_peak_ratio"
            case halftoneMaxPeaks = "halftone_max_peaks"
            case halftoneRadiusTolerance = "halftone_radius_tolerance"
            case halftoneAngleToleranceDeg = "halftone_angle_tolerance_deg"
            case halftoneJPEGExclusionBins = "halftone_jpeg_exclusion_bins"
            case halftoneMidpoint = "halftone_midpoint"
            case halftoneScale = "halftone_scale"
        }

        /// Checks that the analysis is defined (see each field's range).
        ///
        /// - Throws: `ConfigurationError` naming the first offending key.
        public func validate() throws(ConfigurationError) {
            let numbers: [(CodingKeys, Double)] = [
                (.pwmWeight, pwmWeight), (.specularWeight, specularWeight), (.halftoneWeight, halftoneWeight),
                (.detectionThreshold, detectionThreshold), (.artificialDetectorThreshold, artificialDetectorThreshold),
                (.artificialOverallThreshold, artificialOverallThreshold), (.minLumaRange, minLumaRange),
                (.pwmMinPeriodRows, pwmMinPeriodRows), (.pwmMaxPeriodFraction, pwmMaxPeriodFraction),
                (.pwmFloorSpan, pwmFloorSpan), (.pwmMidpoint, pwmMidpoint), (.pwmScale, pwmScale),
                (.specularRelativeLevel, specularRelativeLevel), (.specularMinValue, specularMinValue),
                (.specularMaxValue, specularMaxValue), (.specularMaxSaturation, specularMaxSaturation),
                (.specularMinAreaFraction, specularMinAreaFraction),
                (.specularFullAreaFraction, specularFullAreaFraction),
                (.specularEdgeMinStep, specularEdgeMinStep), (.specularSharpnessLow, specularSharpnessLow),
                (.specularSharpnessHigh, specularSharpnessHigh), (.specularRegularityLow, specularRegularityLow),
                (.specularRegularityHigh, specularRegularityHigh), (.halftoneMinPeriodPx, halftoneMinPeriodPx),
                (.halftoneMaxPeriodPx, halftoneMaxPeriodPx), (.halftoneMinPeakRatio, halftoneMinPeakRatio),
                (.halftoneRadiusTolerance, halftoneRadiusTolerance),
                (.halftoneAngleToleranceDeg, halftoneAngleToleranceDeg),
                (.halftoneMidpoint, halftoneMidpoint), (.halftoneScale, halftoneScale),
            ]
            for (key, number) in numbers where !number.isFinite {
                throw ConfigurationError(key: key.rawValue, "must be a finite number, got \(number)")
            }
            for (key, weight) in [
                (CodingKeys.pwmWeight, pwmWeight), (.specularWeight, specularWeight),
                (.halftoneWeight, halftoneWeight),
            ] where weight < 0 {
                throw ConfigurationError(key: key.rawValue, "must be >= 0, got \(weight)")
            }
            guard pwmWeight + specularWeight + halftoneWeight > 0 else {
                throw ConfigurationError(
                    key: CodingKeys.pwmWeight,
                    "pwm_weight, specular_weight and halftone_weight cannot all be 0")
            }
            let unitIntervals: [(CodingKeys, Double)] = [
                (.detectionThreshold, detectionThreshold), (.artificialDetectorThreshold, artificialDetectorThreshold),
                (.artificialOverallThreshold, artificialOverallThreshold),
                (.specularRelativeLevel, specularRelativeLevel),
            ]
            for (key, value) in unitIntervals where !(0...1).contains(value) {
                throw ConfigurationError(key: key.rawValue, "must be in 0...1, got \(value)")
            }
            let integerRanges: [(CodingKeys, Int, ClosedRange<Int>)] = [
                (.pwmStrips, pwmStrips, 1...64), (.pwmColumnSamples, pwmColumnSamples, 8...Int.max),
                (.pwmMinRows, pwmMinRows, 32...Int.max), (.specularEdgeSpanPx, specularEdgeSpanPx, 2...Int.max),
                (.specularGridCells, specularGridCells, 32...Int.max),
                (.specularMaxRegions, specularMaxRegions, 1...Int.max),
                (.halftoneTileSize, halftoneTileSize, 64...1024),
                (.halftoneTiles, halftoneTiles, 1...5), (.halftoneMaxPeaks, halftoneMaxPeaks, 3...Int.max),
                (.halftoneJPEGExclusionBins, halftoneJPEGExclusionBins, 0...Int.max),
            ]
            for (key, value, range) in integerRanges where !range.contains(value) {
                let allowed =
                    range.upperBound == Int.max
                    ? ">= \(range.lowerBound)" : "in \(range.lowerBound)...\(range.upperBound)"
                throw ConfigurationError(key: key.rawValue, "must be \(allowed), got \(value)")
            }
            guard halftoneTileSize & (halftoneTileSize - 1) == 0 else {
                throw ConfigurationError(
                    key: CodingKeys.halftoneTileSize,
                    "must be a power of two (64, 128, 256, 512, 1024), got \(halftoneTileSize)")
            }
            guard minLumaRange >= 0 else {
                throw ConfigurationError(key: CodingKeys.minLumaRange, "must be >= 0, got \(minLumaRange)")
            }
            guard pwmMinPeriodRows >= 4 else {
                throw ConfigurationError(key: CodingKeys.pwmMinPeriodRows, "must be >= 4, got \(pwmMinPeriodRows)")
            }
            guard pwmMaxPeriodFraction > 0, pwmMaxPeriodFraction <= 0.5 else {
                throw ConfigurationError(
                    key: CodingKeys.pwmMaxPeriodFraction,
                    "must be in (0, 0.5], got \(pwmMaxPeriodFraction)")
            }
            guard pwmFloorSpan > 1 else {
                throw ConfigurationError(key: CodingKeys.pwmFloorSpan, "must be > 1, got \(pwmFloorSpan)")
            }
            let positives: [(CodingKeys, Double)] = [
                (.pwmMidpoint, pwmMidpoint), (.pwmScale, pwmScale), (.specularEdgeMinStep, specularEdgeMinStep),
                (.halftoneMidpoint, halftoneMidpoint), (.halftoneScale, halftoneScale),
            ]
            for (key, value) in positives where value <= 0 {
                throw ConfigurationError(key: key.rawValue, "must be > 0, got \(value)")
            }
            guard (0...255).contains(specularMinValue), (0...255).contains(specularMaxValue),
                specularMinValue <= specularMaxValue
            else {
                throw ConfigurationError(
                    key: CodingKeys.specularMinValue,
                    "must satisfy 0 <= specular_min_value <= specular_max_value <= 255, got \(specularMinValue) and \(specularMaxValue)"
                )
            }
            guard specularMaxSaturation > 0, specularMaxSaturation <= 1 else {
                throw ConfigurationError(
                    key: CodingKeys.specularMaxSaturation,
                    "must be in (0, 1], got \(specularMaxSaturation)")
            }
            guard specularMinAreaFraction > 0, specularMinAreaFraction < 1 else {
                throw ConfigurationError(
                    key: CodingKeys.specularMinAreaFraction,
                    "must be in (0, 1), got \(specularMinAreaFraction)")
            }
            guard specularFullAreaFraction > specularMinAreaFraction else {
                throw ConfigurationError(
                    key: CodingKeys.specularFullAreaFraction,
                    "must be > specular_min_area_fraction, got \(specularFullAreaFraction)")
            }
            guard specularSharpnessLow < specularSharpnessHigh else {
                throw ConfigurationError(
                    key: CodingKeys.specularSharpnessLow,
                    "must be < specular_sharpness_high, got \(specularSharpnessLow) and \(specularSharpnessHigh)")
            }
            guard specularRegularityLow < specularRegularityHigh else {
                throw ConfigurationError(
                    key: CodingKeys.specularRegularityLow,
                    "must be < specular_regularity_high, got \(specularRegularityLow) and \(specularRegularityHigh)")
            }
            guard halftoneMinPeriodPx >= 2, halftoneMinPeriodPx < halftoneMaxPeriodPx else {
                throw ConfigurationError(
                    key: CodingKeys.halftoneMinPeriodPx,
                    "must satisfy 2 <= halftone_min_period_px < halftone_max_period_px, got \(halftoneMinPeriodPx) and \(halftoneMaxPeriodPx)"
                )
            }
            guard halftoneMinPeakRatio > 1 else {
                throw ConfigurationError(
                    key: CodingKeys.halftoneMinPeakRatio,
                    "must be > 1, got \(halftoneMinPeakRatio)")
            }
            guard halftoneRadiusTolerance > 0, halftoneRadiusTolerance < 0.5 else {
                throw ConfigurationError(
                    key: CodingKeys.halftoneRadiusTolerance,
                    "must be in (0, 0.5), got \(halftoneRadiusTolerance)")
            }
            guard halftoneAngleToleranceDeg > 0, halftoneAngleToleranceDeg < 15 else {
                throw ConfigurationError(
                    key: CodingKeys.halftoneAngleToleranceDeg,
                    "must be in (0, 15), got \(halftoneAngleToleranceDeg)")
            }
        }
    }
}
