import Foundation

/// The ARKit-like depth sensor (see `DepthSensor` for the model and its calibration).
public struct DepthSensorParameters: Codable, Sendable, Equatable {
    /// Noise standard deviation sigma(z) = a + b z^2: a in mm, b in mm per m^2.
    public var noiseAMm: Float
    public var noiseBMmPerM2: Float
    /// Share of the noise variance in the coarse (long-correlation) component, 0...1.
    public var coarseFraction: Float
    /// Correlation lengths (Gaussian kernel sigma) of the fine and coarse components, px.
    public var fineCorrelationPx: Float
    public var coarseCorrelationPx: Float
    /// Spatial smoothing of the depth (mixed pixels at edges), Gaussian sigma in px.
    public var smoothingPx: Float
    /// Probability that a depth pixel on a discontinuity is reported invalid.
    public var edgeHoleProbability: Float
    /// Share of random invalid pixels anywhere.
    public var dropoutRate: Float
    /// Beyond this range, m, returns fade out (invalid with growing probability).
    public var maxRangeM: Float
    /// Output quantisation step, mm.
    public var quantisationMm: Float
    /// Returns nearer than this, m, are invalid (NaN): the LiDAR's minimum range
    /// (ARKit reports nothing closer than ~0.1 m).
    public var minRangeM: Float

    public init(
        noiseAMm: Float = 0.6, noiseBMmPerM2: Float = 1.0, coarseFraction: Float = 0.7,
        fineCorrelationPx: Float = 1.0, coarseCorrelationPx: Float = 10, smoothingPx: Float = 0.8,
        edgeHoleProbability: Float = 0.15, dropoutRate: Float = 0.001, maxRangeM: Float = 5,
        quantisationMm: Float = 1, minRangeM: Float = 0.1
    ) {
        self.noiseAMm = noiseAMm
        self.noiseBMmPerM2 = noiseBMmPerM2
        self.coarseFraction = coarseFraction
        self.fineCorrelationPx = fineCorrelationPx
        self.coarseCorrelationPx = coarseCorrelationPx
        self.smoothingPx = smoothingPx
        self.edgeHoleProbability = edgeHoleProbability
        self.dropoutRate = dropoutRate
        self.maxRangeM = maxRangeM
        self.quantisationMm = quantisationMm
        self.minRangeM = minRangeM
    }

    /// sigma(z) in metres for a depth z in metres.
    public func sigma(atDepth z: Float) -> Float { (noiseAMm + noiseBMmPerM2 * z * z) * 1e-3 }

    enum CodingKeys: String, CodingKey {
        case noiseAMm = "noise_a_mm"
        case noiseBMmPerM2 = "noise_b_mm_per_m2"
        case coarseFraction = "coarse_fraction"
        case fineCorrelationPx = "fine_correlation_px"
        case coarseCorrelationPx = "coarse_correlation_px"
        case smoothingPx = "smoothing_px"
        case edgeHoleProbability = "edge_hole_probability"
        case dropoutRate = "dropout_rate"
        case maxRangeM = "max_range_m"
        case quantisationMm = "quantisation_mm"
        case minRangeM = "min_range_m"
    }
}
