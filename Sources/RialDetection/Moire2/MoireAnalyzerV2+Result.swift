extension MoireAnalyzerV2 {
    /// What `moire/2` reports for one image.
    ///
    /// When `status` is `.unavailable` only the common fields are present. When
    /// `.completed` every field is present except `peak_*` with `use_peaks: false`.
    public struct Result: MethodResult {
        public var status: MethodStatus
        public var unavailableReason: String?
        /// Always `moire/2`.
        public var algorithmVersion: MethodIdentifier
        public var analysisTimeMs: Double
        /// `1 - confidence`, higher = more authentic (no screen moire).
        public var score: Double?
        /// `confidence > detection_threshold`.
        public var detected: Bool?
        /// `max(band_confidence, c_peak)` (band alone without peaks), 0...1; `c_peak` is
        /// `peak_confidence` with `peak_evidence` raised to at least `peak_evidence_floor`.
        public var confidence: Double?
        /// Logistic in `ln band_evidence` (see `Configuration.evidenceMidpoint`), 0...1.
        public var bandConfidence: Double?
        /// Second largest tile chroma prominence (the largest with one tile): a
        /// chromatic band in at least two places. >= 0.
        public var bandEvidence: Double?
        /// Radial frequency of the band in the tile with the largest chroma prominence,
        /// cycles per analysis-scale pixel (multiply by `1 / analysis_factor` for cycles
        /// per full-resolution pixel).
        public var bandFrequency: Double?
        /// Its period in full-resolution pixels, `analysis_factor / band_frequency`.
        public var bandPeriodPx: Double?
        /// Direction of its wave vector, degrees in [0, 180) (0 = varies along x:
        /// vertical bands), as `moire/1`'s `angle`.
        public var bandAngle: Double?
        /// How much the band directions of the banded tiles (chroma prominence >=
        /// `evidence_midpoint`, or the two strongest tiles when fewer) agree:
        /// `|sum p e^(2 i theta)| / sum p`, weights the prominences. 1 = one straight
        /// family of bands over the frame; lower = curved bands or unrelated textures.
        public var orientationCoherence: Double?
        /// Chroma over luma power at the strongest tile's peak (3 x 3 box sums): above 1
        /// the colour oscillates more than the brightness, as moire bands do and scene
        /// edges do not.
        public var chromaLumaRatio: Double?
        /// Luma prominence at the same bin (a band that also shows in brightness).
        public var lumaProminence: Double?
        /// Phase of red and of blue against green at the strongest tile's peak,
        /// degrees in (-180, 180]: RGB bands shifted against each other. 0 for a band
        /// in brightness only.
        public var phaseRedGreen: Double?
        public var phaseBlueGreen: Double?
        /// Amplitude of the chroma oscillation there, levels.
        public var chromaAmplitude: Double?
        /// Tiles whose chroma prominence is >= `evidence_midpoint`.
        public var tilesWithBands: Int?
        /// Tiles analysed, and those that were not flat.
        public var tileCount: Int?
        public var texturedTiles: Int?
        /// Tile side at the analysis scale, pixels.
        public var tileSize: Int?
        /// Reduction factor k (analysis pixel = k x k full-resolution pixels).
        public var analysisFactor: Int?
        /// `moire/1`'s confidence and evidence on the same photo (absent with
        /// `use_peaks: false`, 0 when `moire/1` is unavailable).
        public var peakConfidence: Double?
        public var peakEvidence: Double?

        enum CodingKeys: String, CodingKey {
            case status
            case unavailableReason = "unavailable_reason"
            case algorithmVersion = "algorithm_version"
            case analysisTimeMs = "analysis_time_ms"
            case score, detected, confidence
            case bandConfidence = "band_confidence"
            case bandEvidence = "band_evidence"
            case bandFrequency = "band_frequency"
            case bandPeriodPx = "band_period_px"
            case bandAngle = "band_angle"
            case orientationCoherence = "orientation_coherence"
            case chromaLumaRatio = "chroma_luma_ratio"
            case lumaProminence = "luma_prominence"
            case phaseRedGreen = "phase_red_green"
            case phaseBlueGreen = "phase_blue_green"
            case chromaAmplitude = "chroma_amplitude"
            case tilesWithBands = "tiles_with_bands"
            case tileCount = "tile_count"
            case texturedTiles = "textured_tiles"
            case tileSize = "tile_size"
            case analysisFactor = "analysis_factor"
            case peakConfidence = "peak_confidence"
            case peakEvidence = "peak_evidence"
        }

        static func unavailable(reason: String) -> Result {
            Result(
                status: .unavailable, unavailableReason: reason, algorithmVersion: .moireV2, analysisTimeMs: 0,
                score: nil)
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
}
