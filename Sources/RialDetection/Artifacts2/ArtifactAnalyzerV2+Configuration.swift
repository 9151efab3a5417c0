import Foundation

extension ArtifactAnalyzerV2 {
    /// Every constant of `artifacts/2`. Levels on the 0...255 scale; the analysis scale
    /// is the photo box-reduced by `k = max(1, floor(long side / analysis_long_side))`.
    /// A partial object is decoded over the defaults (`JSONValue.decode(_:overlaying:)`).
    /// Call `validate()` (or build an `ArtifactAnalyzerV2`, which does) before use.
    ///
    /// The combination weights were fitted by logistic regression on the real
    /// development set (`datasets/real-dev`, all 18 sources); the held-out figures in
    /// docs/artifacts-2.md refit them without each held-out source.
    public struct Configuration: Sendable, Equatable, Codable {
        /// Target long side of the analysis scale, pixels (banding and surround are
        /// measured there). 768: a 1600 x 1200 phone photo (k = 2) and a 4032 x 3024
        /// capture (k = 5) are both about 800 px wide. 256...4096.
        public var analysisLongSide: Int = 768
        /// Smallest accepted photo side, full-resolution pixels: a smaller photo is
        /// `.unavailable`. 64; 32...4096.
        public var minImageSide: Int = 64
        /// An image whose luma range (max - min over a 64 x 64 grid) is below this is
        /// constant: `.unavailable`. 2 levels; >= 0.
        public var minLumaRange: Double = 2
        /// Banding: the row-mean (column-mean) profile minus its moving average over
        /// `max(banding_min_window, rows / banding_trend_divisor)` rows (made odd) is the
        /// band signal; the scene's slow shading stays in the trend. 8 (a band period up
        /// to 1/8 of the frame survives); 2...64.
        public var bandingTrendDivisor: Int = 8
        /// Smallest moving-average window of the banding trend, samples. 9; odd, 3...99.
        public var bandingMinWindow: Int = 9
        /// Side of the box whose mean is subtracted from each analysis pixel to measure
        /// the scene's local detail (the banding energy's denominator), pixels. 9; odd,
        /// 3...63.
        public var detailBox: Int = 9
        /// Banding period search range for the reported period, samples of the profile:
        /// periods in `banding_min_period ... length / 4`. 6; >= 2.
        public var bandingMinPeriod: Double = 6
        /// Surround: width of the outer ring as a fraction of each side. 0.1; in
        /// (0, 0.25].
        public var surroundMargin: Double = 0.1
        /// Surround: the centre window's side as a fraction of each side (centred). 0.5;
        /// in (0, 1).
        public var surroundCentre: Double = 0.5
        /// Added to both means of the surround ratio, levels (a black frame does not
        /// divide by 0). 5; > 0.
        public var surroundOffset: Double = 5
        /// Fine detail: side of the full-resolution centre tile whose spectrum is
        /// measured, pixels; a power of two in 32...1024 (halved until it fits). 256: the
        /// latency budget (20 ms, `rial-bench bench`); 512 scored held-out AUC 0.785
        /// against 0.780 on the real development set at about four times the cost.
        public var detailTileSize: Int = 256
        /// Fine detail: the band is periods `detail_min_period ... detail_max_period`
        /// full-resolution pixels. 2.6; >= 2, < detail_max_period.
        public var detailMinPeriod: Double = 2.6
        /// See `detail_min_period`. 8.5; <= 64.
        public var detailMaxPeriod: Double = 8.5
        /// Fine detail: the share's denominator is the power at radial frequencies above
        /// this, cycles per pixel (the tile's own gradient stays out). 0.01; in
        /// (0, 1 / detail_max_period).
        public var detailFloorFrequency: Double = 0.01
        /// Fine detail: band bins within 1 bin of an axis, and within this Chebyshev
        /// distance of the 8 x 8 JPEG block lattice on both axes, are left out of the
        /// band. 1; -1 disables the lattice exclusion, 0...4 otherwise.
        public var jpegLatticeRadius: Int = 1
        /// Floor of the logarithms of the energies and the share. 1e-6; > 0.
        public var logFloor: Double = 1e-6
        /// Logistic combination: `confidence = 1 / (1 + exp(-z))`, `z = intercept +
        /// banding_rows_weight ln(banding_rows) + banding_columns_weight
        /// ln(banding_columns) + surround_weight ln(surround_ratio) + fine_detail_weight
        /// ln(fine_detail_share)`. Logistic regression (L2, C = 1, on standardised
        /// logarithms, mapped back to these raw weights) on all 1,375 photos of the real
        /// development set; its intercept (0.17844, where the classes balance) then lowered
        /// by the 95th percentile of z over the 612 real scenes (1.358124), so that
        /// `detected` and a score below the aggregator's `real_threshold` 0.5 fall on 5% of
        /// the real scenes (held out per source: 5.6%; docs/artifacts-2.md section 4). The
        /// 18 leave-one-source-out refits range over rows 0.24...0.49, columns
        /// 0.37...0.47, surround -2.47...-1.71, fine detail -0.35...-0.21: every sign holds.
        /// -1.179684.
        public var intercept: Double = -1.179684
        /// See `intercept`. 0.326607: more banding energy, more screen- or print-like.
        public var bandingRowsWeight: Double = 0.326607
        /// See `intercept`. 0.40911.
        public var bandingColumnsWeight: Double = 0.40911
        /// See `intercept`. -2.080734: a surround darker than the centre is screen-like.
        public var surroundWeight: Double = -2.080734
        /// See `intercept`. -0.291433: less fine detail is recapture-like.
        public var fineDetailWeight: Double = -0.291433
        /// `detected` (a screen or print) when `confidence >` this. 0.5; in [0, 1).
        public var detectionThreshold: Double = 0.5

        /// The defaults.
        public static let standard = Configuration()

        public init() {}

        enum CodingKeys: String, CodingKey {
            case analysisLongSide = "analysis_long_side"
            case minImageSide = "min_image_side"
            case minLumaRange = "min_luma_range"
            case bandingTrendDivisor = "banding_trend_divisor"
            case bandingMinWindow = "banding_min_window"
            case detailBox = "detail_box"
            case bandingMinPeriod = "banding_min_period"
            case surroundMargin = "surround_margin"
            case surroundCentre = "surround_centre"
            case surroundOffset = "surround_offset"
            case detailTileSize = "detail_tile_size"
            case detailMinPeriod = "detail_min_period"
            case detailMaxPeriod = "detail_max_period"
            case detailFloorFrequency = "detail_floor_frequency"
            case jpegLatticeRadius = "jpeg_lattice_radius"
            case logFloor = "log_floor"
            case intercept
            case bandingRowsWeight = "banding_rows_weight"
            case bandingColumnsWeight = "banding_columns_weight"
            case surroundWeight = "surround_weight"
            case fineDetailWeight = "fine_detail_weight"
            case detectionThreshold = "detection_threshold"
        }

        /// Checks that the analysis is defined (see each field's range).
        ///
        /// - Throws: `ConfigurationError` naming the first offending key.
        public func validate() throws(ConfigurationError) {
            let numbers: [(CodingKeys, Double)] = [
                (.minLumaRange, minLumaRange), (.bandingMinPeriod, bandingMinPeriod),
                (.surroundMargin, surroundMargin), (.surroundCentre, surroundCentre),
                (.surroundOffset, surroundOffset), (.detailMinPeriod, detailMinPeriod),
                (.detailMaxPeriod, detailMaxPeriod), (.detailFloorFrequency, detailFloorFrequency),
                (.logFloor, logFloor), (.intercept, intercept), (.bandingRowsWeight, bandingRowsWeight),
                (.bandingColumnsWeight, bandingColumnsWeight), (.surroundWeight, surroundWeight),
                (.fineDetailWeight, fineDetailWeight), (.detectionThreshold, detectionThreshold),
            ]
            for (key, number) in numbers where !number.isFinite {
                throw ConfigurationError(key: key, "must be a finite number, got \(number)")
            }
            let ranges: [(CodingKeys, Int, ClosedRange<Int>)] = [
                (.analysisLongSide, analysisLongSide, 256...4096), (.minImageSide, minImageSide, 32...4096),
                (.bandingTrendDivisor, bandingTrendDivisor, 2...64), (.bandingMinWindow, bandingMinWindow, 3...99),
                (.detailBox, detailBox, 3...63), (.jpegLatticeRadius, jpegLatticeRadius, -1...4),
            ]
            for (key, value, range) in ranges where !range.contains(value) {
                throw ConfigurationError(key: key, "must be in \(range), got \(value)")
            }
            for (key, value) in [(CodingKeys.bandingMinWindow, bandingMinWindow), (.detailBox, detailBox)]
            where value % 2 == 0 {
                throw ConfigurationError(key: key, "must be odd, got \(value)")
            }
            guard minLumaRange >= 0 else {
                throw ConfigurationError(key: CodingKeys.minLumaRange, "must be >= 0, got \(minLumaRange)")
            }
            guard bandingMinPeriod >= 2 else {
                throw ConfigurationError(key: CodingKeys.bandingMinPeriod, "must be >= 2, got \(bandingMinPeriod)")
            }
            guard surroundMargin > 0, surroundMargin <= 0.25 else {
                throw ConfigurationError(key: CodingKeys.surroundMargin, "must be in (0, 0.25], got \(surroundMargin)")
            }
            guard surroundCentre > 0, surroundCentre < 1 else {
                throw ConfigurationError(key: CodingKeys.surroundCentre, "must be in (0, 1), got \(surroundCentre)")
            }
            guard surroundOffset > 0 else {
                throw ConfigurationError(key: CodingKeys.surroundOffset, "must be > 0, got \(surroundOffset)")
            }
            guard detailTileSize > 0, detailTileSize & (detailTileSize - 1) == 0, (32...1024).contains(detailTileSize)
            else {
                throw ConfigurationError(
                    key: CodingKeys.detailTileSize, "must be a power of two in 32...1024, got \(detailTileSize)")
            }
            guard detailMinPeriod >= 2, detailMinPeriod < detailMaxPeriod else {
                throw ConfigurationError(
                    key: CodingKeys.detailMinPeriod,
                    "must satisfy 2 <= detail_min_period < detail_max_period (\(detailMaxPeriod)), got \(detailMinPeriod)"
                )
            }
            guard detailMaxPeriod <= 64 else {
                throw ConfigurationError(key: CodingKeys.detailMaxPeriod, "must be <= 64, got \(detailMaxPeriod)")
            }
            guard detailFloorFrequency > 0, detailFloorFrequency < 1 / detailMaxPeriod else {
                throw ConfigurationError(
                    key: CodingKeys.detailFloorFrequency,
                    "must be in (0, 1 / detail_max_period = \(1 / detailMaxPeriod)), got \(detailFloorFrequency)")
            }
            guard logFloor > 0 else {
                throw ConfigurationError(key: CodingKeys.logFloor, "must be > 0, got \(logFloor)")
            }
            guard detectionThreshold >= 0, detectionThreshold < 1 else {
                throw ConfigurationError(
                    key: CodingKeys.detectionThreshold, "must be in [0, 1), got \(detectionThreshold)")
            }
        }
    }
}
