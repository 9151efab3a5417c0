extension ArtifactAnalyzerV2 {
    /// What `artifacts/2` reports for one image.
    ///
    /// When `status` is `.unavailable` only the common fields are present; when
    /// `.completed` every field is present.
    public struct Result: MethodResult {
        public var status: MethodStatus
        public var unavailableReason: String?
        /// Always `artifacts/2`.
        public var algorithmVersion: MethodIdentifier
        public var analysisTimeMs: Double
        /// `1 - confidence`, higher = more authentic.
        public var score: Double?
        /// `confidence > detection_threshold`: a screen or print.
        public var detected: Bool?
        /// The logistic combination of the three cues, 0...1 (see `Configuration.intercept`).
        public var confidence: Double?
        /// Banding energy along rows: variance of the detrended row-mean luma profile over
        /// the variance of the local detail (luma minus its box mean), analysis scale. A
        /// row gain `1 + a sin` on mean luma m adds `(a m)^2 / 2` to the numerator.
        public var bandingRows: Double?
        /// The same along columns (a rolling shutter reads along the sensor rows, which
        /// are columns of a photo stored rotated).
        public var bandingColumns: Double?
        /// Period of the strongest component of the detrended row (column) profile,
        /// full-resolution pixels.
        public var bandingPeriodRows: Double?
        public var bandingPeriodColumns: Double?
        /// `(mean luma of the outer ring + offset) / (mean luma of the centre + offset)`:
        /// below 1 a dark surround (bezel, dark room) around a bright centre (an
        /// emissive display).
        public var surroundRatio: Double?
        /// Share of the full-resolution centre tile's spectral power (above the floor
        /// frequency) at periods of 2.6-8.5 px: fine detail, which a recapture loses.
        public var fineDetailShare: Double?
        /// Reduction factor k of the analysis scale, and the fine-detail tile side.
        public var analysisFactor: Int?
        public var detailTileSize: Int?

        enum CodingKeys: String, CodingKey {
            case status
            case unavailableReason = "unavailable_reason"
            case algorithmVersion = "algorithm_version"
            case analysisTimeMs = "analysis_time_ms"
            case score, detected, confidence
            case bandingRows = "banding_rows"
            case bandingColumns = "banding_columns"
            case bandingPeriodRows = "banding_period_rows"
            case bandingPeriodColumns = "banding_period_columns"
            case surroundRatio = "surround_ratio"
            case fineDetailShare = "fine_detail_share"
            case analysisFactor = "analysis_factor"
            case detailTileSize = "detail_tile_size"
        }

        static func unavailable(reason: String) -> Result {
            Result(
                status: .unavailable, unavailableReason: reason, algorithmVersion: .artifactsV2, analysisTimeMs: 0,
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
