import Foundation
import RialMedia

/// `artifacts/1`: recapture artifacts in the RGB image (specs/methods.md section 5), a
/// supporting signal: three independent detectors, each a continuous confidence in
/// 0...1 that the image shows a display or a print.
///
/// - PWM / refresh banding (`measureBanding`): horizontal bands of one period in the
///   row-mean luma profiles of vertical strips, in phase across the strips.
/// - Specular glare (`measureSpecular`): large, colourless, bright regions with sharp,
///   regular (convex) borders, measured per connected region of a strided mask.
/// - Halftone (`measureHalftone`): a rosette of spectral peaks at one ruling in three
///   directions 30 degrees apart (the C/M/K screens at 15/45/75 degrees) in
///   full-resolution tiles.
///
/// Combination (reference, configuration): `overall_confidence = (0.35 pwm + 0.30
/// specular + 0.35 halftone) / (sum of the weights of the detectors that ran)`;
/// `is_likely_artificial` when any confidence > 0.7 or overall > 0.6;
/// `score = 1 - overall_confidence` (higher = more authentic).
///
/// Input: `Image8` with 1 (gray), 2 (gray + alpha), 3 (RGB) or 4 (RGBA) channels at
/// full resolution, stored pixel grid (banding is along sensor rows: pass the image
/// before EXIF rotation). Never throws: a sample buffer that does not match the size or
/// a constant image gives `.unavailable`; a detector that cannot run on the size
/// (fewer than 128 rows for PWM, smaller than a 256-px tile for halftone, fewer than
/// 16x16 glare cells) is left out with its reason; the result is `.unavailable` only
/// when none of the three can run.
///
/// Limits: a real scene with strong horizontal periodic structure (blinds, shelves,
/// text lines of a level document) can show banding; a real window or lamp in the
/// frame looks like glare; halftone rulings finer than about 2.8 px alias and those
/// falling on the 1/8-cycle JPEG lattice are excluded.
///
/// - Complexity: O(height x pwm_column_samples + specular cells + halftone_tiles x
///   tile² log tile), independent of the image size beyond the row count.
public struct ArtifactAnalyzer: Sendable, Equatable {
    /// `artifacts/1`.
    public static let identifier = MethodIdentifier.artifactsV1

    public let configuration: Configuration
    /// The halftone search's bin tables, which depend only on the configuration: built
    /// once here rather than on every analysis.
    let halftoneGeometry: HalftoneGeometry

    /// The default configuration.
    public init() {
        configuration = .standard
        halftoneGeometry = HalftoneGeometry(n: configuration.halftoneTileSize, configuration: configuration)
    }

    /// - Throws: `ConfigurationError` when `configuration.validate()` refuses it.
    public init(configuration: Configuration) throws(ConfigurationError) {
        try configuration.validate()
        self.configuration = configuration
        halftoneGeometry = HalftoneGeometry(n: configuration.halftoneTileSize, configuration: configuration)
    }

    /// A detector's outcome: measured, or why it could not run.
    enum Detection<Value: Equatable>: Equatable {
        case measured(Value)
        case unavailable(String)

        var value: Value? {
            if case .measured(let v) = self { return v }
            return nil
        }

        var reason: String? {
            if case .unavailable(let r) = self { return r }
            return nil
        }
    }

    /// The analysis of rows without timing (`analysisTimeMs` is 0). The detectors are
    /// independent; they run in the order that reads a streamed image best (halftone's
    /// tiles end above the bottom rows, banding and glare read every row), and the
    /// constant-image check, which samples the whole frame, comes last.
    public func evaluate(_ image: ImageRows) -> Result {
        let c = configuration
        let halftone = measureHalftone(image)
        let banding = measureBanding(image)
        let specular = measureSpecular(image)
        let range = lumaRange(image)
        guard range >= c.minLumaRange else {
            return .unavailable(
                reason:
                    "image is constant (luma range \(range) < \(c.minLumaRange) levels): no artifact can be measured")
        }
        var parts: [(weight: Double, confidence: Double)] = []
        if let b = banding.value { parts.append((c.pwmWeight, b.confidence)) }
        if let s = specular.value { parts.append((c.specularWeight, s.confidence)) }
        if let h = halftone.value { parts.append((c.halftoneWeight, h.confidence)) }
        let weight = parts.reduce(0) { $0 + $1.weight }

        var result: Result
        if parts.isEmpty {
            result = .unavailable(reason: "no artifact detector can run on a \(image.width)x\(image.height) image")
        } else {
            // All weights of the present detectors may be 0: fall back to the plain mean.
            let overall =
                weight > 0
                ? parts.reduce(0) { $0 + $1.weight * $1.confidence } / weight
                : parts.reduce(0) { $0 + $1.confidence } / Double(parts.count)
            let clamped = min(max(overall, 0), 1)
            result = Result(status: .completed, unavailableReason: nil, score: 1 - clamped)
            result.overallConfidence = clamped
            result.isLikelyArtificial =
                parts.contains { $0.confidence > c.artificialDetectorThreshold }
                || clamped > c.artificialOverallThreshold
        }
        switch banding {
        case .measured(let b):
            result.pwmConfidence = b.confidence
            result.pwmFlickerDetected = b.confidence >= c.detectionThreshold
            result.pwmPeriodRows = b.periodRows
            result.pwmPeakRatio = b.peakRatio
            result.pwmCoherence = b.coherence
        case .unavailable(let reason):
            result.pwmUnavailableReason = reason
        }
        switch specular {
        case .measured(let s):
            result.specularConfidence = s.confidence
            result.specularPatternDetected = s.confidence >= c.detectionThreshold
            result.specularRegions = s.regions
            result.specularThreshold = s.threshold
        case .unavailable(let reason):
            result.specularUnavailableReason = reason
        }
        switch halftone {
        case .measured(let h):
            result.halftoneConfidence = h.confidence
            result.halftoneDetected = h.confidence >= c.detectionThreshold
            result.halftonePeriodPx = h.periodPx
            result.halftoneAnglesDeg = h.anglesDeg
            result.halftonePeakRatio = h.statistic
            result.halftonePeakCount = h.peakCount
        case .unavailable(let reason):
            result.halftoneUnavailableReason = reason
        }
        return result
    }

    /// Max - min BT.601 luma (0...255) over a grid of at most 64 x 64 pixels.
    func lumaRange(_ image: ImageRows) -> Double {
        let width = image.width, height = image.height, channels = image.channels
        let sx = max(1, width / 64), sy = max(1, height / 64)
        var lo = Double.infinity, hi = -Double.infinity
        image.waitForAllRows()
        do {
            let s = image.samples
            var y = sy / 2
            while y < height {
                var x = sx / 2
                while x < width {
                    let i = (y * width + x) * channels
                    let v =
                        channels >= 3
                        ? 0.299 * Double(s[i]) + 0.587 * Double(s[i + 1]) + 0.114 * Double(s[i + 2])
                        : Double(s[i])
                    lo = min(lo, v)
                    hi = max(hi, v)
                    x += sx
                }
                y += sy
            }
        }
        return hi >= lo ? hi - lo : 0
    }
}
