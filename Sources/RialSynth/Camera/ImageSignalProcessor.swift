import Foundation
import RialMedia

/// A phone ISP around the sensor model of `CameraPipeline` (parameters:
/// `ISPParameters`). Stages, in order:
///
/// 1. colour-filter crosstalk: the sensor sees camera RGB = M(x) linear RGB (rows sum
///    to 1, so white stays white), applied to the radiance before the lens PSF (both
///    are linear, so the order does not matter);
/// 2. auto-exposure on the camera green, sampled every 4th px: mean-based exposure
///    E_m = exposure_target / mean, highlight exposure E_h = highlight_target / P_p
///    (P_p the `highlight_percentile` of green, from a 1/16-stop histogram);
///    E = max(min(E_m, E_h), E_m 2^-max_highlight_reduction_ev): bright sources larger
///    than the percentile's share of the frame are kept below clipping, small or very
///    bright ones clip;
/// 3. the raw falls off as 1 - lens_shading r^2 (r = 1 at the corners) before noise;
///    lens-shading correction later multiplies by (1 - vignetting r^2) /
///    (1 - lens_shading r^2), so corner noise is amplified as on a phone;
/// 4. auto white balance in camera RGB: estimate e_c = i_c^(1 - w) g_c^w (i = M(x) times
///    the scene illuminant, g = grey-world channel means, both with green 1,
///    w = awb_grey_world_weight), gains (1 / e_c)^strength exp(error_c), applied at the
///    CFA sites before demosaicing; white-balanced values are clipped at full scale so
///    clipped highlights stay neutral;
/// 5. colour correction matrix M(x (1 + ccm_error))^-1 back to linear RGB;
/// 6. local tone mapping: gain (L_cell / L_mean)^-s, L_cell the mean green of a
///    16 x 12 grid (3 x 3 binomial smoothed), bilinearly interpolated;
/// 7. global tone curve y = x^a / (x^(a d) b + c) (Lottes, "Advanced techniques and
///    optimization of HDR color pipelines", GDC 2016) with b, c solved so that
///    y(m) = midtone_output (m = the metered mean after exposure) and y(1) = 1:
///    c = 1 - b, b = (m^a / o - 1) / (m^(a d) - 1), o raised for bright scenes by
///    `key_adaptation`; then IEC 61966-2-1 sRGB encoding
///    (one table indexed by sqrt(x));
/// 8. in the encoded domain, Y = BT.601 luma, chroma Cb = B - Y, Cr = R - Y averaged
///    on a 2 x 2 grid and box-filtered twice (radius chroma_denoise_radius_px / 2 on
///    that grid), bilinearly upsampled: chroma noise and colour moire are smoothed as
///    by phone chroma NR;
/// 9. luma: with d = B3 Y - Y (B3 = [1 2 1]^T [1 2 1] / 16),
///    Y' = Y + d (n tau^2 - a d^2) / (tau^2 + d^2): edge-stopping smoothing of
///    differences below tau (n = luma_denoise) and unsharp masking with coring of those
///    above it (a = sensor `sharpen_amount`); then 8-bit RGB.
enum ImageSignalProcessor {
    /// Develops `radiance` with the full ISP; see the type's documentation for the
    /// stages, which run here in order.
    static func develop(
        _ radiance: RadianceImage, sensor: SensorParameters, isp: ISPParameters,
        illuminant: Vec3, rng: inout SynthRandom
    ) -> Image8 {
        let w = radiance.width, h = radiance.height, n = w * h
        // 1. Colour-filter crosstalk.
        let x = min(max(isp.filterCrosstalk, 0), 0.3)
        let crosstalk = crosstalkMatrix(x)
        let base = mix(radiance.base, crosstalk, n: n)
        let detail = radiance.detail.isEmpty ? radiance.detail : mix(radiance.detail, crosstalk, n: n)

        // 2. Metering on camera green.
        let metering = meter(
            base: base, detail: detail, width: w, height: h,
            percentile: min(max(isp.highlightPercentile, 0.5), 0.9999))
        let exposure = autoExposure(metering: metering, sensor: sensor, isp: isp)

        // 3. Raw with the bare lens falloff.
        let shading = min(max(isp.lensShading, 0), 0.8)
        let (raw, means) = CameraPipeline.mosaic(
            base: base, detail: detail, width: w, height: h, exposure: exposure,
            vignetting: shading, sensor: sensor, rng: &rng)

        // 4. White balance at the CFA sites, demosaicing.
        let gains = whiteBalanceGains(means: means, light: crosstalk.apply(illuminant), sensor: sensor, isp: isp)
        var rgb = Demosaic.run(sensor.demosaic, raw, width: w, height: h, gains: (gains.r, 1, gains.b))

        // 5-7. Colour correction, shading correction, tone.
        let ccm = crosstalkMatrix(min(max(x * (1 + isp.ccmError), 0), 0.3)).inverse
        let vignetting = min(max(sensor.vignetting, 0), 0.9)
        let curve = toneCurve(meteredMean: metering.mean, exposure: exposure, isp: isp)
        let local = LocalToneMap(
            green: rgb, width: w, height: h, strength: min(max(isp.localToneStrength, 0), 1),
            shadingCorrection: (vignetting, shading))
        var planes = encode(
            rgb, width: w, height: h, colourCorrection: ccm, shadingCorrection: (vignetting, shading),
            localTone: local, curve: curve)
        rgb = []

        // 8. Chroma noise reduction.
        reduceChromaNoise(&planes, radiusPx: isp.chromaDenoiseRadiusPx)

        // 9. Luma denoise and sharpening, chroma upsampling, 8-bit output.
        return output(planes, isp: isp, sharpen: max(sensor.sharpenAmount, 0))
    }

    /// Step 2: exposure E = max(min(E_m, E_h), E_m 2^-max_highlight_reduction_ev) with
    /// E_m = exposure_target / mean and E_h = highlight_target / percentile of the
    /// metered green; targets, mean and percentile are clamped to their working ranges.
    static func autoExposure(
        metering: (mean: Float, percentile: Float), sensor: SensorParameters,
        isp: ISPParameters
    ) -> Float {
        let meanTarget = min(max(sensor.exposureTarget, 0.01), 0.9)
        let exposureMean = meanTarget / max(metering.mean, 1e-6)
        let exposureHigh = min(max(isp.highlightTarget, 0.1), 1) / max(metering.percentile, 1e-6)
        let floorGain = exp2(-min(max(isp.maxHighlightReductionEv, 0), 4))
        return max(min(exposureMean, exposureHigh), exposureMean * floorGain)
    }

    /// Step 4: auto white balance gains on camera R and B (G is 1), each
    /// (1 / e_c)^strength exp(error_c) clamped to 0.25...4, with the estimate
    /// e_c = i_c^(1 - w) g_c^w: `light` the scene illuminant in camera RGB, g the
    /// grey-world means of the mosaic's sites (`means` R, G, B), both relative to green.
    static func whiteBalanceGains(
        means: (Double, Double, Double), light: Vec3, sensor: SensorParameters,
        isp: ISPParameters
    ) -> (r: Float, b: Float) {
        let (meanR, meanG, meanB) = means
        let weight = min(max(isp.awbGreyWorldWeight, 0), 1)
        func estimate(_ lightC: Float, _ light0: Float, _ grey: Double) -> Float {
            let l = max(lightC / max(light0, 1e-6), 1e-3)
            let g = Float(max(grey / max(meanG, 1e-9), 1e-3))
            return pow(l, 1 - weight) * pow(g, weight)
        }
        let strength = min(max(sensor.whiteBalanceStrength, 0), 1)
        let gainR = min(max(pow(1 / estimate(light.x, light.y, meanR), strength) * exp(isp.awbErrorR), 0.25), 4)
        let gainB = min(max(pow(1 / estimate(light.z, light.y, meanB), strength) * exp(isp.awbErrorB), 0.25), 4)
        return (gainR, gainB)
    }

    /// Step 7's curve: the metered mean after `exposure` (before the lens falloff,
    /// which lens-shading correction undoes) maps to `midtone_output`, raised for
    /// bright scenes by (mean / 0.18)^key_adaptation and clamped to 0.1...0.45 when
    /// key adaptation is on, else clamped to 0.05...0.5.
    static func toneCurve(meteredMean: Float, exposure: Float, isp: ISPParameters) -> ToneCurve {
        let midIn = max(exposure * meteredMean, 0.01)
        let key = pow(max(meteredMean, 1e-4) / 0.18, min(max(isp.keyAdaptation, 0), 1))
        let midOut = min(max(isp.midtoneOutput * key, 0.1), 0.45)
        return ToneCurve(
            midIn: midIn, midOut: isp.keyAdaptation > 0 ? midOut : min(max(isp.midtoneOutput, 0.05), 0.5),
            contrast: min(max(isp.toneContrast, 0.8), 3), shoulder: min(max(isp.toneShoulder, 0.8), 1))
    }

    /// Mean and `percentile` of the green plane (plus detail), every 4th px in x and y,
    /// from a histogram of log2 values in 1/16-stop bins over 2^-16...2^4.
    static func meter(
        base: [Float], detail: [Float], width w: Int, height h: Int,
        percentile: Float
    ) -> (mean: Float, percentile: Float) {
        let n = w * h
        let bins = 320, low: Float = -16
        var histogram = [Int](repeating: 0, count: bins)
        var sum: Double = 0, count = 0
        let hasDetail = !detail.isEmpty
        base.withUnsafeBufferPointer { b in
            detail.withUnsafeBufferPointer { d in
                histogram.withUnsafeMutableBufferPointer { hist in
                    var y = 1
                    while y < h {
                        var x = 1
                        while x < w {
                            let i = y * w + x
                            let v = max(b[n + i] + (hasDetail ? d[n + i] : 0), 0)
                            sum += Double(v)
                            count += 1
                            let k = Int(((v > 0 ? log2(v) : low) - low) * 16)
                            hist[min(max(k, 0), bins - 1)] += 1
                            x += 4
                        }
                        y += 4
                    }
                }
            }
        }
        let target = Int((Float(count) * percentile).rounded(.up))
        var cumulative = 0, k = 0
        while k < bins - 1 && cumulative + histogram[k] < target {
            cumulative += histogram[k]
            k += 1
        }
        return (Float(sum / Double(max(count, 1))), exp2(low + (Float(k) + 0.5) / 16))
    }

    /// Draws ISP parameters from their design ranges (see `ISPParameters`).
    static func sampleParameters(_ rng: inout SynthRandom) -> ISPParameters {
        ISPParameters(
            lensShading: rng.uniform(0.3...0.55), filterCrosstalk: rng.uniform(0.1...0.25),
            ccmError: rng.uniform(-0.15...0.15), awbGreyWorldWeight: rng.uniform(0.2...0.7),
            awbErrorR: rng.uniform(-0.04...0.04), awbErrorB: rng.uniform(-0.04...0.04),
            highlightPercentile: rng.uniform(0.97...0.995), highlightTarget: rng.uniform(0.8...0.98),
            maxHighlightReductionEv: rng.uniform(0.5...2), toneContrast: rng.uniform(1.1...1.4),
            toneShoulder: rng.uniform(0.92...0.98), midtoneOutput: rng.uniform(0.18...0.26),
            localToneStrength: rng.uniform(0.1...0.35), chromaDenoiseRadiusPx: rng.uniform(2...6),
            lumaDenoise: rng.uniform(0.2...0.7), lumaDenoiseThreshold: rng.uniform(0.01...0.04),
            keyAdaptation: rng.uniform(0.3...0.6))
    }
}
