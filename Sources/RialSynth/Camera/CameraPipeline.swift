import Foundation
import RialMedia

/// The phone camera from scene radiance to an 8-bit sRGB image:
///
/// 1. lens: Gaussian PSF of `lens_blur_sigma_px` applied to the radiance (separable,
///    radius ceil(3 sigma)); the display's subpixel detail, already integrated over
///    the PSF and pixel area, is added after it (see `FilteredPatternTable`);
/// 2. auto-exposure: scale so the mean green is `exposure_target` of full scale;
///    vignetting gain 1 - v r^2 (r = 1 in the corners);
/// 3. RGGB Bayer mosaic (R at even x and even y);
/// 4. Poisson-Gaussian noise: e = value * full_well electrons,
///    e' = e + sqrt(e + read_noise^2) * n, n ~ N(0, 1) (normal approximation of the
///    Poisson shot noise, valid for e > ~10), clipped to [0, full_well] and quantised
///    to `adc_bits`;
/// 5. grey-world white balance, gains (mean_G / mean_c)^strength;
/// 6. demosaicing: Malvar, He and Cutler (ICASSP 2004) 5 x 5 gradient-corrected
///    bilinear filters, or plain bilinear;
/// 7. unsharp mask on luma (3 x 3 binomial), then IEC 61966-2-1 sRGB encoding to 8 bits.
enum CameraPipeline {
    /// Develops `radiance` into an RGB `Image8`. `rng` supplies the noise.
    /// `illuminant`: the room light's colour (linear RGB, green 1), which the ISP's
    /// auto white balance partly knows; unused by the minimal pipeline.
    /// With `sensor.isp` set, steps 2 and 5-7 are those of `ImageSignalProcessor`.
    static func develop(
        _ radiance: RadianceImage, sensor: SensorParameters, illuminant: Vec3 = Vec3(1, 1, 1),
        rng: inout SynthRandom
    ) -> Image8 {
        if let isp = sensor.isp {
            return ImageSignalProcessor.develop(radiance, sensor: sensor, isp: isp, illuminant: illuminant, rng: &rng)
        }
        let w = radiance.width, h = radiance.height, n = w * h
        let hasDetail = !radiance.detail.isEmpty

        // Auto-exposure from the mean green (blur preserves the mean).
        var sumG: Double = 0
        var count = 0
        radiance.base.withUnsafeBufferPointer { b in
            radiance.detail.withUnsafeBufferPointer { d in
                var y = 1
                while y < h {
                    var x = 1
                    while x < w {
                        let i = y * w + x
                        sumG += Double(max(b[n + i] + (hasDetail ? d[n + i] : 0), 0))
                        count += 1
                        x += 4
                    }
                    y += 4
                }
            }
        }
        let meanG = Float(sumG / Double(max(count, 1)))
        let exposure = min(max(sensor.exposureTarget, 0.01), 0.9) / max(meanG, 1e-6)
        let (raw, means) = mosaic(
            base: radiance.base, detail: radiance.detail, width: w, height: h,
            exposure: exposure, vignetting: sensor.vignetting, sensor: sensor, rng: &rng)
        let (meanR, meanGr, meanB) = means
        let strength = Double(min(max(sensor.whiteBalanceStrength, 0), 1))
        let gainR = Float(pow(meanGr / max(meanR, 1e-6), strength))
        let gainB = Float(pow(meanGr / max(meanB, 1e-6), strength))

        let rgb = Demosaic.run(sensor.demosaic, raw, width: w, height: h, gains: (gainR, 1, gainB))
        return encode(rgb, width: w, height: h, sharpen: max(sensor.sharpenAmount, 0))
    }

    /// Steps 1, 3 and 4: lens PSF on `base` (3 planes), plus `detail` (3 planes or
    /// empty), times `exposure` and the vignetting gain 1 - v r^2, RGGB sampling,
    /// Poisson-Gaussian noise and ADC quantisation. Returns the mosaic (full scale 1)
    /// and the means of its R, G and B sites (grey world: G sites are half of the
    /// pixels, R and B a quarter each).
    static func mosaic(
        base: [Float], detail: [Float], width w: Int, height h: Int, exposure: Float,
        vignetting: Float, sensor: SensorParameters,
        rng: inout SynthRandom
    ) -> (raw: [Float], means: (Double, Double, Double)) {
        let n = w * h
        let hasDetail = !detail.isEmpty
        // Lens PSF, horizontal pass. Only the columns the CFA needs: R at even x, B at
        // odd x, G everywhere. Taps are padded to a fixed 7 (radius 3, sigma <= 1).
        let sigma = min(max(sensor.lensBlurSigmaPx, 0), 1)
        let kernel = gaussianKernel(sigma: sigma)
        var k7 = [Float](repeating: 0, count: 7)
        for (i, v) in kernel.enumerated() { k7[3 - kernel.count / 2 + i] = v }
        let (k0, k1, k2, k3) = (k7[0], k7[1], k7[2], k7[3])
        let (k4, k5, k6) = (k7[4], k7[5], k7[6])
        var horizontal = [Float](repeating: 0, count: 3 * n)
        base.withUnsafeBufferPointer { src in
            horizontal.withUnsafeMutableBufferPointer { dst in
                for c in 0..<3 {
                    let start = c == 2 ? 1 : 0, step = c == 1 ? 1 : 2
                    for y in 0..<h {
                        let row = c * n + y * w
                        var x = start
                        while x < w {
                            if x >= 3 && x < w - 3 {
                                let p = row + x
                                dst[p] =
                                    k0 * src[p - 3] + k1 * src[p - 2] + k2 * src[p - 1] + k3 * src[p]
                                    + k4 * src[p + 1] + k5 * src[p + 2] + k6 * src[p + 3]
                            } else {
                                var acc: Float = 0
                                for t in 0..<7 { acc += k7[t] * src[row + min(max(x + t - 3, 0), w - 1)] }
                                dst[row + x] = acc
                            }
                            x += step
                        }
                    }
                }
            }
        }

        // Vertical pass only at each pixel's CFA colour, fused with detail, exposure,
        // vignetting, noise and ADC quantisation.
        var raw = [Float](repeating: 0, count: n)
        let fullWell = max(sensor.fullWellE, 1)
        let read2 = sensor.readNoiseE * sensor.readNoiseE
        let levels = Float((1 << min(max(sensor.adcBits, 8), 16)) - 1)
        let invLevels = 1 / levels
        let cx = Float(w) / 2, cy = Float(h) / 2
        let invR2 = 1 / (cx * cx + cy * cy)
        let vig = min(max(vignetting, 0), 0.9)
        var channelSum = (0.0, 0.0, 0.0)
        var generator = rng
        horizontal.withUnsafeBufferPointer { src in
            detail.withUnsafeBufferPointer { det in
                raw.withUnsafeMutableBufferPointer { out in
                    for y in 0..<h {
                        let dy = Float(y) + 0.5 - cy
                        let rowGain = exposure * (1 - vig * dy * dy * invR2)
                        let vigX = exposure * vig * invR2
                        let interior = y >= 3 && y < h - 3
                        var rowSum = (Float(0), Float(0), Float(0))
                        for x in 0..<w {
                            let c = (y & 1) + (x & 1) // 0 R, 1 G, 2 B
                            let plane = c * n
                            var acc: Float
                            if interior {
                                let p = plane + y * w + x
                                acc =
                                    k0 * src[p - 3 * w] + k1 * src[p - 2 * w] + k2 * src[p - w] + k3 * src[p]
                                    + k4 * src[p + w] + k5 * src[p + 2 * w] + k6 * src[p + 3 * w]
                            } else {
                                acc = 0
                                for t in 0..<7 { acc += k7[t] * src[plane + min(max(y + t - 3, 0), h - 1) * w + x] }
                            }
                            if hasDetail { acc += det[plane + y * w + x] }
                            let dx = Float(x) + 0.5 - cx
                            let gain = rowGain - vigX * dx * dx
                            let e = max(acc * gain, 0) * fullWell
                            let noisy = e + (e + read2).squareRoot() * FastMath.normal(fromBits: generator.next())
                            let v = min(max(noisy / fullWell, 0), 1)
                            let q = Float(Int(v * levels + 0.5)) * invLevels
                            out[y * w + x] = q
                            if c == 0 { rowSum.0 += q } else if c == 1 { rowSum.1 += q } else { rowSum.2 += q }
                        }
                        channelSum.0 += Double(rowSum.0)
                        channelSum.1 += Double(rowSum.1)
                        channelSum.2 += Double(rowSum.2)
                    }
                }
            }
        }
        rng = generator
        return (
            raw, (channelSum.0 / Double(n / 4 + 1), channelSum.1 / Double(n / 2 + 1), channelSum.2 / Double(n / 4 + 1))
        )
    }

    /// Normalised Gaussian taps for sigma px, radius ceil(3 sigma) (one tap for sigma ~ 0).
    static func gaussianKernel(sigma: Float) -> [Float] {
        if sigma < 0.05 { return [1] }
        let radius = Int((3 * sigma).rounded(.up))
        var k = (-radius...radius).map { exp(-Float($0 * $0) / (2 * sigma * sigma)) }
        let s = k.reduce(0, +)
        for i in k.indices { k[i] /= s }
        return k
    }

    /// Unsharp mask on luma, as phone ISPs sharpen: Y = BT.601 luma,
    /// c' = c + a (Y - B3 Y) for each channel, B3 = [1 2 1]^T [1 2 1] / 16 with clamped
    /// edges; then sRGB encoding into interleaved 8-bit RGB.
    static func encode(_ rgb: [Float], width w: Int, height h: Int, sharpen a: Float) -> Image8 {
        let n = w * h
        // Built from an array: the generic zero-filling initialiser is not specialised
        // across modules and copies element by element.
        var out = Image8(width: w, height: h, channels: 3, samples: [UInt8](repeating: 0, count: 3 * n))!
        var luma = [Float](repeating: 0, count: a > 0 ? n : 0)
        if a > 0 {
            rgb.withUnsafeBufferPointer { src in
                luma.withUnsafeMutableBufferPointer { y in
                    for i in 0..<n { y[i] = 0.299 * src[i] + 0.587 * src[n + i] + 0.114 * src[2 * n + i] }
                }
            }
        }
        ColorScience.encodeTable.withUnsafeBufferPointer { table in
            rgb.withUnsafeBufferPointer { src in
                luma.withUnsafeBufferPointer { lum in
                    out.samples.withUnsafeMutableBufferPointer { dst in
                        for y in 0..<h {
                            let ym = max(y - 1, 0) * w, y0 = y * w, yp = min(y + 1, h - 1) * w
                            for x in 0..<w {
                                var boost: Float = 0
                                if a > 0 {
                                    let xm = max(x - 1, 0), xp = min(x + 1, w - 1)
                                    let c = lum[y0 + x]
                                    let blur =
                                        (lum[ym + xm] + 2 * lum[ym + x] + lum[ym + xp]
                                            + 2 * lum[y0 + xm] + 4 * c + 2 * lum[y0 + xp]
                                            + lum[yp + xm] + 2 * lum[yp + x] + lum[yp + xp]) * (1 / 16)
                                    boost = a * (c - blur)
                                }
                                let i = y0 + x
                                for ch in 0..<3 {
                                    let v = src[ch * n + i] + boost
                                    dst[3 * i + ch] = table[Int(min(max(v, 0), 1) * 16383 + 0.5)]
                                }
                            }
                        }
                    }
                }
            }
        }
        return out
    }
}
