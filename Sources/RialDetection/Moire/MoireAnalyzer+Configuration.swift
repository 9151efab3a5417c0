import Foundation

extension MoireAnalyzer {
    /// Every constant of `moire/1`. Frequencies in cycles per pixel of the analysed
    /// (full-resolution, stored-orientation) image, bins of the tile's DFT, luma levels
    /// on the 0...255 scale. A partial object is decoded over the defaults
    /// (`JSONValue.decode(_:overlaying:)`). Call `validate()` (or build a `MoireAnalyzer`, which does) before use.
    public struct Configuration: Sendable, Equatable, Codable {
        /// Tile side n, pixels: a power of two in 64...1024. 256: a bin is 1/256 cycle
        /// per pixel, and a 12 MP frame needs no downscaling (which would fold the
        /// subpixel frequencies). An image smaller than n in either dimension uses the
        /// largest power of two that fits.
        public var tileSize: Int = 256
        /// Smallest usable tile; an image whose smaller side is below it is
        /// `.unavailable`. 64: 16 bins per 1/4 cycle per pixel still separate the
        /// prominence ring (3...5 bins) from a peak's main lobe. Power of two, 16...tileSize.
        public var minTileSize: Int = 64
        /// Tiles across and down, spread evenly from edge to edge (fewer when the image
        /// cannot hold them at 50% overlap: `min(columns, 2 w / n - 1)`). 4 x 3 (12
        /// tiles): 786 k pixels of a 12 MP frame, within the 30 ms budget. 1...16 each.
        public var tileColumns: Int = 4
        /// See `tileColumns`: tile rows. 3; 1...16.
        public var tileRows: Int = 3
        /// Band: radial frequency >= `bandLow`. 0.06 (periods <= 16.7 px): a display's
        /// subpixel grid and its aliases lie above it for pixel pitches up to ~16 px,
        /// while most scene texture energy lies below. In (0, bandHigh).
        public var bandLow: Double = 0.06
        /// Band: |fx| and |fy| <= `bandHigh`. 0.45: the lines |f| = 0.5 (Nyquist) carry
        /// the demosaicing artifacts of every photo. In (bandLow, 0.5).
        public var bandHigh: Double = 0.45
        /// A peak's magnitude must be >= this x the median band magnitude. 3 (the
        /// reference "noise floor = 3 x median"). >= 0.
        public var noiseFloorFactor: Double = 3
        /// A peak's magnitude must be >= this x the median of its surround. 3. >= 1.
        public var minProminence: Double = 3
        /// Surround ring: bins at Chebyshev distance `surroundInner...surroundOuter`.
        /// 3...5 (the Hann main lobe spans +-2 bins). 2 <= inner <= outer <= 16.
        public var surroundInner: Int = 3
        /// See `surroundInner`: the outer edge of the surround ring, bins. 5.
        public var surroundOuter: Int = 5
        /// Contrast: annulus of +-this many bins of radius around the peak's. 2; 0...16.
        public var contrastRadius: Int = 2
        /// Reported peaks (strongest first). 10; 1...100.
        public var maxPeaks: Int = 10
        /// Only this many local maxima above the noise floor, those of largest contrast,
        /// get a prominence. 64; >= 1.
        public var maxCandidates: Int = 64
        /// Bins within this Chebyshev distance of a multiple of 1/8 cycle per pixel on
        /// both axes (`(a n/8, b n/8)`) are never peaks: the 8x8 block grid of JPEG puts
        /// energy exactly there. 1; -1 disables, 0...4 otherwise.
        public var jpegGridRadius: Int = 1
        /// A tile whose luma standard deviation is <= this is flat (its spectrum is
        /// noise): it is left out of the per-tile evidence, and an image whose tiles are
        /// all flat is `.unavailable`. 1.0 luma level; >= 0.
        public var flatLumaStd: Double = 1.0
        /// `confidence = 1 / (1 + exp(-(ln evidence - ln evidence_midpoint) / evidence_scale))`.
        /// Midpoint 25: on the synthetic set (1600 x 1200) 96% of real scenes have less
        /// evidence (periodic textures, text lines and straight edges reach ~30), and the
        /// median screen has ~45. > 0.
        public var evidenceMidpoint: Double = 25
        /// Log-scale width of the logistic, natural-log units. 0.3 (confidence 0.16 at
        /// evidence 15, 0.84 at 42). > 0.
        public var evidenceScale: Double = 0.3
        /// `detected` when `confidence >` this. 0.5; in [0, 1).
        public var detectionThreshold: Double = 0.5
        /// Screen type: a peak is "strong" with strength >= this x the strongest. 0.5; in (0, 1].
        public var strongPeakRatio: Double = 0.5
        /// Screen type: a strong peak is "on an axis" when min(|fx|, |fy|) <= this, cycles
        /// per pixel. 0.06; in [0, 0.5].
        public var axisTolerance: Double = 0.06
        /// Screen type: `lcd` when at least this share of the strong peaks is on an axis. 0.67; in (0, 1].
        public var lcdAxisShare: Double = 0.67
        /// Screen type: `oled` when at most this share is on an axis and at least two peaks
        /// are strong. 0.34; in [0, lcdAxisShare).
        public var oledAxisShare: Double = 0.34

        /// The defaults.
        public static let standard = Configuration()

        public init() {}

        enum CodingKeys: String, CodingKey {
            case tileSize = "tile_size"
            case minTileSize = "min_tile_size"
            case tileColumns = "tile_columns"
            case tileRows = "tile_rows"
            case bandLow = "band_low"
            case bandHigh = "band_high"
            case noiseFloorFactor = "noise_floor_factor"
            case minProminence = "min_prominence"
            case surroundInner = "surround_inner"
            case surroundOuter = "surround_outer"
            case contrastRadius = "contrast_radius"
            case maxPeaks = "max_peaks"
            case maxCandidates = "max_candidates"
            case jpegGridRadius = "jpeg_grid_radius"
            case flatLumaStd = "flat_luma_std"
            case evidenceMidpoint = "evidence_midpoint"
            case evidenceScale = "evidence_scale"
            case detectionThreshold = "detection_threshold"
            case strongPeakRatio = "strong_peak_ratio"
            case axisTolerance = "axis_tolerance"
            case lcdAxisShare = "lcd_axis_share"
            case oledAxisShare = "oled_axis_share"
        }

        /// Checks that the analysis is defined (see each field's range).
        ///
        /// - Throws: `ConfigurationError` naming the first offending key.
        public func validate() throws(ConfigurationError) {
            let numbers: [(CodingKeys, Double)] = [
                (.bandLow, bandLow), (.bandHigh, bandHigh), (.noiseFloorFactor, noiseFloorFactor),
                (.minProminence, minProminence), (.flatLumaStd, flatLumaStd),
                (.evidenceMidpoint, evidenceMidpoint), (.evidenceScale, evidenceScale),
                (.detectionThreshold, detectionThreshold), (.strongPeakRatio, strongPeakRatio),
                (.axisTolerance, axisTolerance), (.lcdAxisShare, lcdAxisShare), (.oledAxisShare, oledAxisShare),
            ]
            for (key, number) in numbers where !number.isFinite {
                throw ConfigurationError(key: key, "must be a finite number, got \(number)")
            }
            func isPowerOfTwo(_ v: Int) -> Bool { v > 0 && v & (v - 1) == 0 }
            guard isPowerOfTwo(tileSize), (64...1024).contains(tileSize) else {
                throw ConfigurationError(
                    key: CodingKeys.tileSize, "must be a power of two in 64...1024, got \(tileSize)")
            }
            guard isPowerOfTwo(minTileSize), minTileSize >= 16, minTileSize <= tileSize else {
                throw ConfigurationError(
                    key: CodingKeys.minTileSize,
                    "must be a power of two in 16...tile_size (\(tileSize)), got \(minTileSize)")
            }
            for (key, value) in [(CodingKeys.tileColumns, tileColumns), (.tileRows, tileRows)]
            where !(1...16).contains(value) {
                throw ConfigurationError(key: key, "must be in 1...16, got \(value)")
            }
            guard bandLow > 0, bandLow < bandHigh else {
                throw ConfigurationError(
                    key: CodingKeys.bandLow, "must satisfy 0 < band_low < band_high (\(bandHigh)), got \(bandLow)")
            }
            guard bandHigh < 0.5 else {
                throw ConfigurationError(
                    key: CodingKeys.bandHigh, "must be < 0.5 cycles per pixel (Nyquist), got \(bandHigh)")
            }
            guard noiseFloorFactor >= 0 else {
                throw ConfigurationError(key: CodingKeys.noiseFloorFactor, "must be >= 0, got \(noiseFloorFactor)")
            }
            guard minProminence >= 1 else {
                throw ConfigurationError(key: CodingKeys.minProminence, "must be >= 1, got \(minProminence)")
            }
            guard (2...16).contains(surroundInner) else {
                throw ConfigurationError(key: CodingKeys.surroundInner, "must be in 2...16, got \(surroundInner)")
            }
            guard surroundOuter >= surroundInner, surroundOuter <= 16 else {
                throw ConfigurationError(
                    key: CodingKeys.surroundOuter,
                    "must be in surround_inner (\(surroundInner))...16, got \(surroundOuter)")
            }
            guard (0...16).contains(contrastRadius) else {
                throw ConfigurationError(key: CodingKeys.contrastRadius, "must be in 0...16, got \(contrastRadius)")
            }
            guard (1...100).contains(maxPeaks) else {
                throw ConfigurationError(key: CodingKeys.maxPeaks, "must be in 1...100, got \(maxPeaks)")
            }
            guard maxCandidates >= 1 else {
                throw ConfigurationError(key: CodingKeys.maxCandidates, "must be >= 1, got \(maxCandidates)")
            }
            guard (-1...4).contains(jpegGridRadius) else {
                throw ConfigurationError(
                    key: CodingKeys.jpegGridRadius, "must be -1 (off) or 0...4, got \(jpegGridRadius)")
            }
            guard flatLumaStd >= 0 else {
                throw ConfigurationError(key: CodingKeys.flatLumaStd, "must be >= 0, got \(flatLumaStd)")
            }
            for (key, value) in [(CodingKeys.evidenceMidpoint, evidenceMidpoint), (.evidenceScale, evidenceScale)]
            where value <= 0 {
                throw ConfigurationError(key: key, "must be > 0, got \(value)")
            }
            guard detectionThreshold >= 0, detectionThreshold < 1 else {
                throw ConfigurationError(
                    key: CodingKeys.detectionThreshold, "must be in [0, 1), got \(detectionThreshold)")
            }
            guard strongPeakRatio > 0, strongPeakRatio <= 1 else {
                throw ConfigurationError(key: CodingKeys.strongPeakRatio, "must be in (0, 1], got \(strongPeakRatio)")
            }
            guard (0...0.5).contains(axisTolerance) else {
                throw ConfigurationError(key: CodingKeys.axisTolerance, "must be in 0...0.5, got \(axisTolerance)")
            }
            guard lcdAxisShare > 0, lcdAxisShare <= 1 else {
                throw ConfigurationError(key: CodingKeys.lcdAxisShare, "must be in (0, 1], got \(lcdAxisShare)")
            }
            guard oledAxisShare >= 0, oledAxisShare < lcdAxisShare else {
                throw ConfigurationError(
                    key: CodingKeys.oledAxisShare,
                    "must be in [0, lcd_axis_share (\(lcdAxisShare))), got \(oledAxisShare)")
            }
        }
    }
}
