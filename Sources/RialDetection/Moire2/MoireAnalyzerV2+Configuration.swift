import Foundation

extension MoireAnalyzerV2 {
    /// Every constant of `moire/2`. Frequencies in cycles per pixel of the analysis-scale
    /// image (the photo box-reduced by `k = max(1, floor(long side / analysis_long_side))`),
    /// levels on the 0...255 scale. A partial object is decoded over the defaults
    /// (`JSONValue.decode(_:overlaying:)`). Call `validate()` (or build a
    /// `MoireAnalyzerV2`, which does) before use.
    public struct Configuration: Sendable, Equatable, Codable {
        /// Target long side of the analysis scale, pixels: the reduction factor is
        /// `max(1, floor(long side / this))`. 768: a 1600 x 1200 phone photo (k = 2) and a
        /// 4032 x 3024 capture (k = 5) both become ~800 px wide, so a band's frequency
        /// means the same at either resolution. 256...4096.
        public var analysisLongSide: Int = 768
        /// Tile side n at the analysis scale, pixels: a power of two in 32...512. 128: a
        /// bin is 1/128 cycle per pixel, and a tile holds 2 or more periods of the
        /// broadest band (1/64). An image smaller than n in either dimension (after
        /// reduction) uses the largest power of two that fits.
        public var tileSize: Int = 128
        /// Smallest usable tile; an image whose reduced smaller side is below it is
        /// `.unavailable`. 32. Power of two, 16...tileSize.
        public var minTileSize: Int = 32
        /// Tiles across and down, spread evenly from edge to edge (fewer when the image
        /// cannot hold them at 50% overlap: `min(columns, 2 w / n - 1)`). 4 x 3 (12
        /// tiles, 40% of an 800 x 600 analysis image): the latency budget (30 ms with
        /// `moire/1`, `rial-bench bench`) allows no more. 1...16 each.
        public var tileColumns: Int = 4
        /// See `tileColumns`: tile rows. 3; 1...16.
        public var tileRows: Int = 3
        /// Band: radial frequency >= this. 1/64 = 0.015625 (periods <= 64 analysis px, 2
        /// bins from the origin: below, the tile's own gradients and vignetting). In
        /// (0, bandHigh).
        public var bandLow: Double = 0.015625
        /// Band: radial frequency <= this. 0.25 (periods >= 4 analysis px, i.e. >= 8
        /// full-resolution px of a 1600 px photo: the broad bands that survive
        /// demosaicing and noise reduction; finer aliasing is `moire/1`'s). In
        /// (bandLow, 0.5].
        public var bandHigh: Double = 0.25
        /// Bins within this Chebyshev distance of the JPEG block lattice on both axes are
        /// never peaks (multiples of `gcd(k, 16) / 16` cycle per analysis pixel: the 8 x 8
        /// luma and 16 x 16 subsampled-chroma blocks after the k x k reduction). 1; -1
        /// disables, 0...4 otherwise.
        public var jpegLatticeRadius: Int = 1
        /// Power floor of the ring medians: white noise of this standard deviation,
        /// levels. 0.5 (UInt8 rounding is 0.29): a chroma-free (gray) or flat tile then
        /// has prominence 0 instead of 0 / 0. > 0.
        public var noiseFloorStd: Double = 0.5
        /// A tile whose luma standard deviation (analysis scale) is <= this is flat: not
        /// scored; an image whose tiles are all flat is `.unavailable`. 1.0 level; >= 0.
        public var flatLumaStd: Double = 1.0
        /// `band_confidence = 1 / (1 + exp(-(ln band_evidence - ln midpoint) / scale))`,
        /// `band_evidence` the second largest tile chroma prominence. 3200, chosen
        /// leave-one-source-out on the real development set (8 sources with >= 20 attacks;
        /// 7 of 8 folds chose the largest value tried, i.e. the band evidence as measured
        /// does not separate screens from real scenes across sources: median 119 for real
        /// scenes, 176 for screens; phone chroma is smooth, so any coloured object stands
        /// far above its ring). At 3200 only extreme bands count (about 1% of real scenes,
        /// 5% of screens; measured with 5 x 4 tiles). Lower it to make the band part
        /// sensitive. > 0.
        public var evidenceMidpoint: Double = 3200
        /// Log-scale width of the logistic, natural-log units. 0.4. > 0.
        public var evidenceScale: Double = 0.4
        /// Also run `moire/1` (its default configuration) and take
        /// `confidence = max(band_confidence, peak confidence)` (the peak confidence after
        /// `peak_evidence_floor`): the sharp subpixel-alias peaks of a close, sharp capture
        /// are moire too. true.
        public var usePeaks: Bool = true
        /// One-sided peak evidence: `moire/1`'s evidence is raised to at least this before
        /// its logistic (`moire/1`'s midpoint 25 and scale 0.3), so every photo whose peaks
        /// are weaker than what real scenes reach (or that has none, or where `moire/1` is
        /// unavailable) gets the same peak confidence, that of the floor: "no moire found"
        /// says nothing, only moire found lowers the score. Below the floor the evidence
        /// measures how much fine periodic-looking detail the scene has (a real room has
        /// more than a defocused, downscaled or dark screen photo), and on some real photo
        /// sources that ranks real scenes below screens. 20: the 95th percentile of
        /// `moire/1`'s evidence over the 71 simulated real scenes of the default set (20.4),
        /// i.e. peaks that 1 real scene in 20 shows (the BPCER 5% operating target) are not
        /// taken as a screen; chosen on the simulated set, not on real photos. Measured
        /// leave-one-source-out on the real development set in docs/moire-one-sided.md.
        /// 0 disables (the evidence as measured, `moire/1`'s confidence unchanged). >= 0.
        public var peakEvidenceFloor: Double = 20
        /// `detected` when `confidence >` this. 0.5; in [0, 1).
        public var detectionThreshold: Double = 0.5

        /// The defaults.
        public static let standard = Configuration()

        public init() {}

        enum CodingKeys: String, CodingKey {
            case analysisLongSide = "analysis_long_side"
            case tileSize = "tile_size"
            case minTileSize = "min_tile_size"
            case tileColumns = "tile_columns"
            case tileRows = "tile_rows"
            case bandLow = "band_low"
            case bandHigh = "band_high"
            case jpegLatticeRadius = "jpeg_lattice_radius"
            case noiseFloorStd = "noise_floor_std"
            case flatLumaStd = "flat_luma_std"
            case evidenceMidpoint = "evidence_midpoint"
            case evidenceScale = "evidence_scale"
            case usePeaks = "use_peaks"
            case peakEvidenceFloor = "peak_evidence_floor"
            case detectionThreshold = "detection_threshold"
        }

        /// Every key is required except `peak_evidence_floor` (absent in results written
        /// before it existed: 0, the analysis they were made with).
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            analysisLongSide = try c.decode(Int.self, forKey: .analysisLongSide)
            tileSize = try c.decode(Int.self, forKey: .tileSize)
            minTileSize = try c.decode(Int.self, forKey: .minTileSize)
            tileColumns = try c.decode(Int.self, forKey: .tileColumns)
            tileRows = try c.decode(Int.self, forKey: .tileRows)
            bandLow = try c.decode(Double.self, forKey: .bandLow)
            bandHigh = try c.decode(Double.self, forKey: .bandHigh)
            jpegLatticeRadius = try c.decode(Int.self, forKey: .jpegLatticeRadius)
            noiseFloorStd = try c.decode(Double.self, forKey: .noiseFloorStd)
            flatLumaStd = try c.decode(Double.self, forKey: .flatLumaStd)
            evidenceMidpoint = try c.decode(Double.self, forKey: .evidenceMidpoint)
            evidenceScale = try c.decode(Double.self, forKey: .evidenceScale)
            usePeaks = try c.decode(Bool.self, forKey: .usePeaks)
            peakEvidenceFloor = try c.decodeIfPresent(Double.self, forKey: .peakEvidenceFloor) ?? 0
            detectionThreshold = try c.decode(Double.self, forKey: .detectionThreshold)
        }

        /// Checks that the analysis is defined (see each field's range).
        ///
        /// - Throws: `ConfigurationError` naming the first offending key.
        public func validate() throws(ConfigurationError) {
            let numbers: [(CodingKeys, Double)] = [
                (.bandLow, bandLow), (.bandHigh, bandHigh), (.noiseFloorStd, noiseFloorStd),
                (.flatLumaStd, flatLumaStd), (.evidenceMidpoint, evidenceMidpoint),
                (.evidenceScale, evidenceScale), (.detectionThreshold, detectionThreshold),
                (.peakEvidenceFloor, peakEvidenceFloor),
            ]
            for (key, number) in numbers where !number.isFinite {
                throw ConfigurationError(key: key, "must be a finite number, got \(number)")
            }
            guard (256...4096).contains(analysisLongSide) else {
                throw ConfigurationError(
                    key: CodingKeys.analysisLongSide, "must be in 256...4096, got \(analysisLongSide)")
            }
            func isPowerOfTwo(_ v: Int) -> Bool { v > 0 && v & (v - 1) == 0 }
            guard isPowerOfTwo(tileSize), (32...512).contains(tileSize) else {
                throw ConfigurationError(
                    key: CodingKeys.tileSize, "must be a power of two in 32...512, got \(tileSize)")
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
            guard bandHigh <= 0.5 else {
                throw ConfigurationError(
                    key: CodingKeys.bandHigh, "must be <= 0.5 cycles per pixel (Nyquist), got \(bandHigh)")
            }
            guard (-1...4).contains(jpegLatticeRadius) else {
                throw ConfigurationError(
                    key: CodingKeys.jpegLatticeRadius, "must be -1 (off) or 0...4, got \(jpegLatticeRadius)")
            }
            guard noiseFloorStd > 0 else {
                throw ConfigurationError(key: CodingKeys.noiseFloorStd, "must be > 0, got \(noiseFloorStd)")
            }
            guard flatLumaStd >= 0 else {
                throw ConfigurationError(key: CodingKeys.flatLumaStd, "must be >= 0, got \(flatLumaStd)")
            }
            for (key, value) in [(CodingKeys.evidenceMidpoint, evidenceMidpoint), (.evidenceScale, evidenceScale)]
            where value <= 0 {
                throw ConfigurationError(key: key, "must be > 0, got \(value)")
            }
            guard peakEvidenceFloor >= 0 else {
                throw ConfigurationError(key: CodingKeys.peakEvidenceFloor, "must be >= 0, got \(peakEvidenceFloor)")
            }
            guard detectionThreshold >= 0, detectionThreshold < 1 else {
                throw ConfigurationError(
                    key: CodingKeys.detectionThreshold, "must be in [0, 1), got \(detectionThreshold)")
            }
        }
    }
}
