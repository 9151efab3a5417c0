import Foundation
import RialMedia

/// The `texture/2` descriptor (feature set version 2): named statistics of the
/// resolution-normalised analysis image (`Texture2AnalysisImage`: shorter side 256 px),
/// chosen on real phone photos of scenes, screens and prints, judged leave-one-source-out
/// (issue 13). Everything is computed at the analysis scale, so neither the capture's
/// resolution nor its aspect ratio, JPEG quality or metadata enters a feature directly.
///
/// Planes are `Float` R, G, B, luma `Y = 0.299 R + 0.587 G + 0.114 B` (0...255),
/// chroma `Cb = B - Y`, `Cr = R - Y`; `n` pixels; `ln` natural log; means over all pixels.
/// `box_k` is the k x k mean with half-sample symmetric borders (`d c b a | a b c d`).
///
/// 1. Tone (9): `luma_p0_5`, `luma_p5`, `luma_p50`, `luma_p95`, `luma_p99_5` (luma
///    percentiles / 255 from a 1024-bin histogram over 0...256: the centre of the first
///    bin whose cumulative count reaches q n), `luma_range = p99.5 - p0.5`, `clip_hi` (share
///    of Y > 250), `clip_lo` (Y < 5), `luma_entropy` (of a 32-bin histogram, bins of 8
///    levels). A screen's black pedestal and limited brightness compress the range.
/// 2. Colour (6): saturation `sat = (max - min) / (max + 1)` over R, G, B: `sat_mean`,
///    `sat_p95` (1024-bin histogram over 0...1); `colourfulness` (Hasler and Süsstrunk
///    2003: `(sqrt(σ²_rg + σ²_yb) + 0.3 sqrt(μ²_rg + μ²_yb)) / 255`, `rg = R - G`,
///    `yb = (R + G) / 2 - B`, population moments); `cast_cb = mean(Cb) / 255`,
///    `cast_cr = mean(Cr) / 255` (a display's white point); `glare` (share of Y > 235 with
///    sat < 0.1: specular reflection on glass).
/// 3. Band-pass residuals (12): for level L = 0...3 with `k_L = 2^(L+1) + 1` (3, 5, 9, 17)
///    and `b_L = box_{k_L}`, the residual `d_L = b_{L-1}(Y) - b_L(Y)` (`b_{-1}` = identity),
///    likewise for Cb and Cr. `bpL_log_luma = ln(E_Y)`, `E_Y = mean(d_L²) + 1e-3`;
///    `bpL_log_chroma_ratio = ln(E_C / E_Y)`, `E_C = mean(dCb²) + mean(dCr²) + 1e-3`;
///    `bpL_log_kurt = ln(mean(d_L⁴) / E_Y² + 1e-6)`. Recaptures lose fine detail to a
///    second optical path and gain chroma at moire scales.
/// 4. Cross-channel residuals (3): `h = c - box_3(c)` for R, G, B; `hp_corr_rg`,
///    `hp_corr_gb`, `hp_corr_rb` = `Σab / sqrt(Σa² Σb² + 1e-9)`.
/// 5. Gradients (5): `gx = (Y[x+1] - Y[x-1]) / 2` inside (0 on the first and last
///    column), `gy` likewise, `g² = gx² + gy²`. `grad_log_energy = ln(mean g² + 1e-3)`,
///    `grad_log_hv = ln((Σgx² + 1) / (Σgy² + 1))`; orientation `θ = atan2(gy, gx) mod π`
///    in 8 bins of π/8 weighted by g² (shares `o_b`, divided by `Σg² + 1e-6`):
///    `orient_axis_share = o_0 + o_4` (gradients across horizontal and vertical lines:
///    bezels, UI, text), `orient_entropy = -Σ o ln o`; `edge_frac` = share of g² > 400.
/// 6. Sharpness layout (2): a 4 x 4 grid of tiles (rows `i h / 4 ..< (i + 1) h / 4`,
///    integer division; columns likewise), per tile `ln(mean g² + 1e-2)`:
///    `tile_sharp_std` (population) and `tile_sharp_range` (max - min). A flat recaptured
///    surface is evenly sharp; a scene has depth of field and empty sky.
/// 7. LBP (10): rotation-invariant uniform LBP at radius 1 of Y (border pixels use the
///    nearest inside value), bit set when `Y(neighbour) - Y(centre) > 2`; `lbp_C` = share
///    of pixels with code C (0...8 = number of ones of a uniform pattern, 9 = non-uniform).
///
/// Left out after the leave-one-source-out study (no held-out gain): spectral slope and
/// peakiness of the luma and chroma spectra at the analysis scale, and median-based noise
/// levels of the band-pass residuals.
///
/// Bad input: fewer than 3 channels, a side below `minimumSide` or a long side beyond
/// `maximumAspectRatio` times the short one throws
/// `TextureFeatureError`; any pixel values give finite features.
public enum Texture2Features: TextureFeatureSet {
    /// Feature set version; a model trained on another version is refused.
    public static let version = 2
    /// Smallest accepted width and height, px.
    public static let minimumSide = 64
    /// Largest accepted long side over short side. The analysis image keeps the aspect
    /// ratio with its short side at 256 px, so a 64 x 65,000 strip became 256 x 260,000
    /// (66 M pixels: gigabytes of planes and tens of seconds, to find it constant); at
    /// 16:1 it is at most 256 x 4,096. Photos are 4:3 to 21:9.
    public static let maximumAspectRatio: Int? = 16

    /// The feature names, in vector order.
    public static let names: [String] = {
        var names = [
            "luma_p0_5", "luma_p5", "luma_p50", "luma_p95", "luma_p99_5", "luma_range", "clip_hi", "clip_lo",
            "luma_entropy", "sat_mean", "sat_p95", "colourfulness", "cast_cb", "cast_cr", "glare",
        ]
        for level in 0..<4 {
            names += ["bp\(level)_log_luma", "bp\(level)_log_chroma_ratio", "bp\(level)_log_kurt"]
        }
        names += ["hp_corr_rg", "hp_corr_gb", "hp_corr_rb"]
        names += ["grad_log_energy", "grad_log_hv", "orient_axis_share", "orient_entropy", "edge_frac"]
        names += ["tile_sharp_std", "tile_sharp_range"]
        for code in 0...9 { names.append("lbp_\(code)") }
        return names
    }()

    /// The descriptor of checked rows that may still be decoding: the analysis image
    /// (`Texture2AnalysisImage`, resampled top to bottom as rows arrive) described.
    public static func describe(checkedRows rows: ImageRows) -> Texture2FeatureVector {
        describe(Texture2AnalysisImage(rows))
    }

    /// The features of an analysis image, every group accumulated as it was written
    /// (`Texture2AnalysisImage.rowFeatures` and `.bandFeatures`).
    static func describe(_ image: Texture2AnalysisImage) -> Texture2FeatureVector {
        let rowFeatures = image.rowFeatures
        var values: [Double] = []
        values.reserveCapacity(count)
        let lumaStd = rowFeatures.tone(into: &values)
        rowFeatures.colour(into: &values)
        image.bandFeatures.bandPass(into: &values)
        image.bandFeatures.crossChannel(into: &values)
        rowFeatures.gradients(into: &values)
        rowFeatures.localBinaryPatterns(into: &values)
        for i in values.indices where !values[i].isFinite { values[i] = 0 }
        return Texture2FeatureVector(
            values: values, lumaStandardDeviation: lumaStd, width: image.width, height: image.height)
    }

    /// Centre of the first of `bins` bins over `0..<top` whose cumulative count reaches
    /// `q * total`.
    static func percentile(_ histogram: [Int], total: Int, q: Double, top: Double) -> Double {
        let target = q * Double(total)
        var cumulative = 0
        for (i, c) in histogram.enumerated() {
            cumulative += c
            if Double(cumulative) >= target { return (Double(i) + 0.5) * top / Double(histogram.count) }
        }
        return top
    }

    /// `floor((atan2(gy, gx) mod π) / (π / 8))` without the arc tangent: the angle folded
    /// into [0, π) by negating (gx, gy) when gy < 0 (or gy = 0 and gx < 0), then compared
    /// with tan(π/8) and tan(3π/8) (equal to the arc-tangent form except where the two
    /// round differently on a bin edge).
    @inline(__always) static func orientationBin(_ gx: Double, _ gy: Double) -> Int {
        var x = gx, y = gy
        if y < 0 || (y == 0 && x < 0) {
            x = -x
            y = -y
        }
        let ax = abs(x)
        let t1 = 0.41421356237309503, t3 = 2.414213562373095 // tan(π/8), tan(3π/8)
        if x == 0 { return 4 } // θ = π/2 exactly
        if x > 0 {
            // θ = atan2(y, x) in [0, π/2): bin edges belong to the upper bin.
            if y < t1 * ax { return 0 }
            if y < ax { return 1 }
            return y < t3 * ax ? 2 : 3
        }
        // θ = π - atan2(y, |x|) in (π/2, π): mirrored, so the edges belong to the lower φ.
        if y <= t1 * ax { return 7 }
        if y <= ax { return 6 }
        return y <= t3 * ax ? 5 : 4
    }

}

/// The features of one image, in `Texture2Features.names` order.
public struct Texture2FeatureVector: TextureFeatureValues {
    /// `Texture2Features.count` finite values.
    public var values: [Double]
    /// Standard deviation of analysis-image luma (0...255 levels): 0 for a constant image.
    public var lumaStandardDeviation: Double
    /// Analysis image size, px.
    public var width: Int
    public var height: Int

    /// The value of the feature called `name`, nil when there is none.
    public func value(named name: String) -> Double? {
        Texture2Features.names.firstIndex(of: name).map { values[$0] }
    }
}
