extension MoireAnalyzer {
    /// The kind of display a detected moire points to (`screen_type`).
    public enum ScreenType: String, Sendable, Codable, Equatable, CaseIterable {
        /// RGB stripe LCD: at least 67% of the strong peaks lie within 0.06 cycle per
        /// pixel of the fx or fy axis (stripes along the panel columns, black-matrix rows,
        /// and their folded and Bayer copies, for a panel roughly aligned with the sensor).
        case lcd
        /// Diamond PenTile OLED: at least two strong peaks, at most 34% of them on an axis
        /// (the R/B checkerboard fundamentals `(1/2p)(1, +-1)` and their copies lie off
        /// the axes, in pairs of equal strength).
        case oled
        /// A high-refresh panel. Never assigned by `moire/1`: one still frame carries no
        /// temporal information (the refresh/PWM rate shows only as rolling-shutter
        /// banding, whose period also depends on the sensor's unknown row readout time,
        /// and is measured by `artifacts/1`). Kept for the deployed API's vocabulary.
        case highRefresh = "high_refresh"
        /// Moire detected, but the peaks fit neither layout: a mixed family (between
        /// 34% and 67% on the axes) or a single strong peak off the axes.
        case unknown
    }

    /// One spectral peak (each conjugate pair `f`, `-f` once, reported with `fx >= 0`).
    public struct Peak: Sendable, Codable, Equatable {
        /// Radial frequency `sqrt(fx² + fy²)`, cycles per pixel (0...0.71).
        public var frequency: Double
        /// Horizontal and vertical frequency, cycles per pixel (x right, y down; `fx` in
        /// 0...0.5, `fy` in -0.5...0.5), refined to a fraction of a bin.
        public var fx: Double
        public var fy: Double
        /// Direction of the wave vector, degrees in [0, 180): 0 = varies along x
        /// (vertical stripes), 90 = varies along y (horizontal stripes), measured from +x
        /// towards +y (clockwise on screen).
        public var angle: Double
        /// `log10(|X| / median band |X|)`: the peak on the log scale relative to the
        /// spectrum's median (>= log10 3 for every reported peak).
        public var magnitude: Double
        /// Peak magnitude / median magnitude of its surround (bins at Chebyshev distance
        /// 3...5), >= 3.
        public var prominence: Double
        /// Peak magnitude / median magnitude of the bins at the same radial frequency
        /// (+-2 bins): the peak against the image's own 1/f spectrum at that scale.
        public var contrast: Double
        /// `sqrt(prominence x contrast)`: the peak's evidence, used for ranking and
        /// confidence.
        public var strength: Double
        /// Amplitude of the sinusoid, luma levels (0...255), `8 |X| / n²` (Hann window);
        /// the RMS over tiles for the averaged spectrum.
        public var amplitude: Double

        enum CodingKeys: String, CodingKey {
            case frequency, fx, fy, angle, magnitude, prominence, contrast, strength, amplitude
        }

        public init(
            frequency: Double, fx: Double, fy: Double, angle: Double, magnitude: Double, prominence: Double,
            contrast: Double, strength: Double, amplitude: Double
        ) {
            self.frequency = frequency
            self.fx = fx
            self.fy = fy
            self.angle = angle
            self.magnitude = magnitude
            self.prominence = prominence
            self.contrast = contrast
            self.strength = strength
            self.amplitude = amplitude
        }
    }

    /// What `moire/1` reports for one image.
    ///
    /// When `status` is `.unavailable` only the common fields (and `tile_size` when a
    /// tile size was chosen) are present. When `.completed` every field is present.
    public struct Result: MethodResult {
        public var status: MethodStatus
        public var unavailableReason: String?
        /// Always `moire/1`.
        public var algorithmVersion: MethodIdentifier
        public var analysisTimeMs: Double
        /// `1 - confidence`: continuous in (0, 1], higher = more authentic (no screen
        /// moire).
        public var score: Double?
        /// `confidence > 0.5` (`Configuration.detectionThreshold`).
        public var detected: Bool?
        /// Confidence that a screen moire is present, 0...1:
        /// `1 / (1 + exp(-(ln evidence - ln evidence_midpoint) / evidence_scale))`, 0
        /// when `evidence` is 0.
        public var confidence: Double?
        /// `.lcd`, `.oled` or `.unknown` when detected; nil when not detected.
        public var screenType: ScreenType?
        /// Peaks of the tile-averaged spectrum, strongest first (at most `max_peaks`).
        public var peaks: [Peak]?
        /// `sqrt(averaged_strength x tile_strength)`, >= 0.
        public var evidence: Double?
        /// Largest `sqrt(prominence x contrast)` among the averaged spectrum's candidates
        /// (local maxima in the band above the noise floor, before the prominence test;
        /// 0 = none).
        public var averagedStrength: Double?
        /// The same per tile (tiles that are not flat): the second largest (the only one
        /// with one tile).
        public var tileStrength: Double?
        /// Tiles with at least one peak.
        public var tilesWithPeaks: Int?
        /// Tile side n, pixels (a power of two).
        public var tileSize: Int?
        /// Number of tiles analysed.
        public var tileCount: Int?
        /// `noise_floor_factor x` the median band magnitude of the averaged spectrum, in
        /// the same units as `amplitude` (luma levels).
        public var noiseFloor: Double?
        /// `[low, high]`, cycles per pixel: radial frequency >= low and |fx|, |fy| <= high.
        public var band: [Double]?

        enum CodingKeys: String, CodingKey {
            case status
            case unavailableReason = "unavailable_reason"
            case algorithmVersion = "algorithm_version"
            case analysisTimeMs = "analysis_time_ms"
            case score, detected, confidence
            case screenType = "screen_type"
            case peaks, evidence
            case averagedStrength = "averaged_strength"
            case tileStrength = "tile_strength"
            case tilesWithPeaks = "tiles_with_peaks"
            case tileSize = "tile_size"
            case tileCount = "tile_count"
            case noiseFloor = "noise_floor"
            case band
        }

        static func unavailable(reason: String, tileSize: Int? = nil) -> Result {
            var r = Result(
                status: .unavailable, unavailableReason: reason, algorithmVersion: .moireV1,
                analysisTimeMs: 0, score: nil)
            r.tileSize = tileSize
            return r
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
