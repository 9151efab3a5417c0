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
    /// Develops `radiance` with the full ISP; see the type's documentation.
    static func develop(_ radiance: RadianceImage, sensor: SensorParameters, isp: ISPParameters,
                        illuminant: Vec3, rng: inout SynthRandom) -> Image8 {
        let w = radiance.width, h = radiance.height, n = w * h
        let x = min(max(isp.filterCrosstalk, 0), 0.3)
        let crosstalk = crosstalkMatrix(x)
        let base = mix(radiance.base, crosstalk, n: n)
        let detail = radiance.detail.isEmpty ? radiance.detail : mix(radiance.detail, crosstalk, n: n)

        // 2. Metering on camera green.
        let metering = meter(base: base, detail: detail, width: w, height: h,
                             percentile: min(max(isp.highlightPercentile, 0.5), 0.9999))
        let meanTarget = min(max(sensor.exposureTarget, 0.01), 0.9)
        let exposureMean = meanTarget / max(metering.mean, 1e-6)
        let exposureHigh = min(max(isp.highlightTarget, 0.1), 1) / max(metering.percentile, 1e-6)
        let floorGain = exp2(-min(max(isp.maxHighlightReductionEv, 0), 4))
        let exposure = max(min(exposureMean, exposureHigh), exposureMean * floorGain)

        // 3. Raw with the bare lens falloff.
        let shading = min(max(isp.lensShading, 0), 0.8)
        let (raw, means) = CameraPipeline.mosaic(base: base, detail: detail, width: w, height: h, exposure: exposure,
                                                vignetting: shading, sensor: sensor, rng: &rng)

        // 4. White balance.
        let (meanR, meanG, meanB) = means
        let light = crosstalk.apply(illuminant)
        let weight = min(max(isp.awbGreyWorldWeight, 0), 1)
        func estimate(_ lightC: Float, _ light0: Float, _ grey: Double) -> Float {
            let l = max(lightC / max(light0, 1e-6), 1e-3)
            let g = Float(max(grey / max(meanG, 1e-9), 1e-3))
            return pow(l, 1 - weight) * pow(g, weight)
        }
        let strength = min(max(sensor.whiteBalanceStrength, 0), 1)
        let gainR = min(max(pow(1 / estimate(light.x, light.y, meanR), strength) * exp(isp.awbErrorR), 0.25), 4)
        let gainB = min(max(pow(1 / estimate(light.z, light.y, meanB), strength) * exp(isp.awbErrorB), 0.25), 4)
        var rgb = Demosaic.run(sensor.demosaic, raw, width: w, height: h, gains: (gainR, 1, gainB))

        // 5-7. Colour correction, shading correction, tone.
        let ccm = crosstalkMatrix(min(max(x * (1 + isp.ccmError), 0), 0.3)).inverse
        let vignetting = min(max(sensor.vignetting, 0), 0.9)
        // Where auto-exposure put the mean (before the lens falloff, which LSC undoes).
        let midIn = max(exposure * metering.mean, 0.01)
        let key = pow(max(metering.mean, 1e-4) / 0.18, min(max(isp.keyAdaptation, 0), 1))
        let midOut = min(max(isp.midtoneOutput * key, 0.1), 0.45)
        let curve = ToneCurve(midIn: midIn, midOut: isp.keyAdaptation > 0 ? midOut : min(max(isp.midtoneOutput, 0.05), 0.5),
                              contrast: min(max(isp.toneContrast, 0.8), 2), shoulder: min(max(isp.toneShoulder, 0.8), 1))
        let local = LocalToneMap(green: rgb, width: w, height: h, strength: min(max(isp.localToneStrength, 0), 1),
                                 shadingCorrection: (vignetting, shading))
        var luma = [Float](repeating: 0, count: n)
        let cw = (w + 1) / 2, ch = (h + 1) / 2
        var chroma = [Float](repeating: 0, count: 2 * cw * ch)
        let cx = Float(w) / 2, cy = Float(h) / 2
        let invR2 = 1 / (cx * cx + cy * cy)
        // Per-column constants: squared distance from the centre, local-tone cell index
        // and weight.
        var columnR2 = [Float](repeating: 0, count: w)
        var columnCell = [Int](repeating: 0, count: w)
        var columnWeight = [Float](repeating: 0, count: w)
        for x in 0..<w {
            let dx = Float(x) + 0.5 - cx
            columnR2[x] = dx * dx * invR2
            let u = local.coordinate(x, cells: local.columns, size: w)
            columnCell[x] = min(Int(u), local.columns - 1)
            columnWeight[x] = u - Float(columnCell[x])
        }
        var rowGain = [Float](repeating: 0, count: local.columns + 1)
        curve.table.withUnsafeBufferPointer { table in
        rgb.withUnsafeMutableBufferPointer { src in
        luma.withUnsafeMutableBufferPointer { lum in
        chroma.withUnsafeMutableBufferPointer { chr in
        columnR2.withUnsafeBufferPointer { colR2 in
        columnCell.withUnsafeBufferPointer { colCell in
        columnWeight.withUnsafeBufferPointer { colW in
        rowGain.withUnsafeMutableBufferPointer { rg in
            let m = ccm.m
            let last = Float(ToneCurve.size - 1)
            let cols = local.columns
            for y in 0..<h {
                let dy = Float(y) + 0.5 - cy
                let rowR2 = dy * dy * invR2
                // Local-tone gains of this row at each cell column (vertical lerp).
                let v = local.coordinate(y, cells: local.rows, size: h)
                let j0 = min(Int(v), local.rows - 1), j1 = min(j0 + 1, local.rows - 1)
                let fv = v - Float(j0)
                for i in 0..<cols {
                    rg[i] = local.gain[j0 * cols + i] + (local.gain[j1 * cols + i] - local.gain[j0 * cols + i]) * fv
                }
                rg[cols] = rg[cols - 1]
                let crow = (y / 2) * cw
                for x in 0..<w {
                    let i = y * w + x
                    let r0 = min(src[i], 1), g0 = min(src[n + i], 1), b0 = min(src[2 * n + i], 1)
                    let r2 = colR2[x] + rowR2
                    let k = colCell[x]
                    let lt = rg[k] + (rg[k + 1] - rg[k]) * colW[x]
                    let gain = (1 - vignetting * r2) / (1 - shading * r2) * lt
                    let r = (m.0 * r0 + m.1 * g0 + m.2 * b0) * gain
                    let g = (m.3 * r0 + m.4 * g0 + m.5 * b0) * gain
                    let b = (m.6 * r0 + m.7 * g0 + m.8 * b0) * gain
                    let er = table[Int(min(max(r, 0), 1).squareRoot() * last + 0.5)]
                    let eg = table[Int(min(max(g, 0), 1).squareRoot() * last + 0.5)]
                    let eb = table[Int(min(max(b, 0), 1).squareRoot() * last + 0.5)]
                    let yv = 0.299 * er + 0.587 * eg + 0.114 * eb
                    lum[i] = yv
                    let c = crow + (x >> 1)
                    chr[c] += eb - yv
                    chr[cw * ch + c] += er - yv
                }
            }
        } } } } } } } }
        rgb = []

        // 8. Chroma noise reduction on the 2 x 2 grid (sums -> means at the borders too).
        chroma.withUnsafeMutableBufferPointer { chr in
            for j in 0..<ch {
                let rowsIn = (2 * j + 1 < h) ? 2 : 1
                for i in 0..<cw {
                    let colsIn = (2 * i + 1 < w) ? 2 : 1
                    let inv = 1 / Float(rowsIn * colsIn)
                    chr[j * cw + i] *= inv
                    chr[cw * ch + j * cw + i] *= inv
                }
            }
        }
        let radius = max(Int((isp.chromaDenoiseRadiusPx / 2).rounded()), 0)
        if radius > 0 {
            var scratch = [Float](repeating: 0, count: max(cw, ch))
            for plane in 0..<2 {
                for _ in 0..<2 {
                    BoxFilter.rows(&chroma, offset: plane * cw * ch, width: cw, height: ch, radius: radius, scratch: &scratch)
                    BoxFilter.columns(&chroma, offset: plane * cw * ch, width: cw, height: ch, radius: radius, scratch: &scratch)
                }
            }
        }

        // 9. Luma denoise and sharpening, chroma upsampling, 8-bit output.
        var out = Image8(width: w, height: h, channels: 3, samples: [UInt8](repeating: 0, count: 3 * n))!
        let tau = max(isp.lumaDenoiseThreshold, 1e-4), tau2 = tau * tau
        let nr = min(max(isp.lumaDenoise, 0), 1) * tau2
        let sharpen = max(sensor.sharpenAmount, 0)
        // Chroma sample centres at 2 i + 1/2 px: bilinear cells and weights per column.
        var chromaCell = [Int](repeating: 0, count: 2 * w)
        var chromaWeight = [Float](repeating: 0, count: w)
        for x in 0..<w {
            let fx = min(max((Float(x) - 0.5) * 0.5, 0), Float(cw - 1))
            let i0 = min(Int(fx), cw - 1)
            chromaCell[2 * x] = i0; chromaCell[2 * x + 1] = min(i0 + 1, cw - 1)
            chromaWeight[x] = fx - Float(i0)
        }
        luma.withUnsafeBufferPointer { lum in
        chroma.withUnsafeBufferPointer { chr in
        chromaCell.withUnsafeBufferPointer { cc in
        chromaWeight.withUnsafeBufferPointer { cwt in
        out.samples.withUnsafeMutableBufferPointer { dst in
            let crPlane = cw * ch
            for y in 0..<h {
                let ym = max(y - 1, 0) * w, y0 = y * w, yp = min(y + 1, h - 1) * w
                let fy = min(max((Float(y) - 0.5) * 0.5, 0), Float(ch - 1))
                let j0 = min(Int(fy), ch - 1), j1 = min(j0 + 1, ch - 1)
                let wy = fy - Float(j0)
                let r0 = j0 * cw, r1 = j1 * cw
                for x in 0..<w {
                    let xm = max(x - 1, 0), xp = min(x + 1, w - 1)
                    let c = lum[y0 + x]
                    let blur = (lum[ym + xm] + 2 * lum[ym + x] + lum[ym + xp]
                        + 2 * lum[y0 + xm] + 4 * c + 2 * lum[y0 + xp]
                        + lum[yp + xm] + 2 * lum[yp + x] + lum[yp + xp]) * (1 / 16)
                    let d = blur - c
                    let d2 = d * d
                    let yv = c + d * (nr - sharpen * d2) / (tau2 + d2)
                    let i0 = cc[2 * x], i1 = cc[2 * x + 1]
                    let wx = cwt[x]
                    let cbTop = chr[r0 + i0] + (chr[r0 + i1] - chr[r0 + i0]) * wx
                    let cbBottom = chr[r1 + i0] + (chr[r1 + i1] - chr[r1 + i0]) * wx
                    let crTop = chr[crPlane + r0 + i0] + (chr[crPlane + r0 + i1] - chr[crPlane + r0 + i0]) * wx
                    let crBottom = chr[crPlane + r1 + i0] + (chr[crPlane + r1 + i1] - chr[crPlane + r1 + i0]) * wx
                    let cb = cbTop + (cbBottom - cbTop) * wy
                    let cr = crTop + (crBottom - crTop) * wy
                    let r = yv + cr, b = yv + cb
                    let g = (yv - 0.299 * r - 0.114 * b) * (1 / 0.587)
                    let o = 3 * (y0 + x)
                    dst[o] = UInt8(min(max(r, 0), 1) * 255 + 0.5)
                    dst[o + 1] = UInt8(min(max(g, 0), 1) * 255 + 0.5)
                    dst[o + 2] = UInt8(min(max(b, 0), 1) * 255 + 0.5)
                }
            }
        } } } } }
        return out
    }

    /// Mean and `percentile` of the green plane (plus detail), every 4th px in x and y,
    /// from a histogram of log2 values in 1/16-stop bins over 2^-16...2^4.
    static func meter(base: [Float], detail: [Float], width w: Int, height h: Int,
                      percentile: Float) -> (mean: Float, percentile: Float) {
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
        } } }
        let target = Int((Float(count) * percentile).rounded(.up))
        var cumulative = 0, k = 0
        while k < bins - 1 && cumulative + histogram[k] < target { cumulative += histogram[k]; k += 1 }
        return (Float(sum / Double(max(count, 1))), exp2(low + (Float(k) + 0.5) / 16))
    }

    /// 3 x 3 matrix in row-major order.
    struct Matrix3 {
        var m: (Float, Float, Float, Float, Float, Float, Float, Float, Float)

        func apply(_ v: Vec3) -> Vec3 {
            Vec3(m.0 * v.x + m.1 * v.y + m.2 * v.z, m.3 * v.x + m.4 * v.y + m.5 * v.z, m.6 * v.x + m.7 * v.y + m.8 * v.z)
        }

        /// Inverse by the adjugate (the crosstalk matrices are well conditioned for x <= 0.3).
        var inverse: Matrix3 {
            let (a, b, c, d, e, f, g, h, i) = m
            let A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g
            let det = a * A + b * B + c * C
            let s = 1 / det
            return Matrix3(m: (A * s, -(b * i - c * h) * s, (b * f - c * e) * s,
                               B * s, (a * i - c * g) * s, -(a * f - c * d) * s,
                               C * s, -(a * h - b * g) * s, (a * e - b * d) * s))
        }
    }

    /// M(x) of `ISPParameters.filterCrosstalk`.
    static func crosstalkMatrix(_ x: Float) -> Matrix3 {
        Matrix3(m: (1 - x, 0.75 * x, 0.25 * x, 0.5 * x, 1 - x, 0.5 * x, 0.25 * x, 0.75 * x, 1 - x))
    }

    /// `planes` (3 planes of n) multiplied by `matrix` per pixel.
    static func mix(_ planes: [Float], _ matrix: Matrix3, n: Int) -> [Float] {
        var out = [Float](repeating: 0, count: 3 * n)
        let m = matrix.m
        planes.withUnsafeBufferPointer { s in
            out.withUnsafeMutableBufferPointer { o in
                for i in 0..<n {
                    let r = s[i], g = s[n + i], b = s[2 * n + i]
                    o[i] = m.0 * r + m.1 * g + m.2 * b
                    o[n + i] = m.3 * r + m.4 * g + m.5 * b
                    o[2 * n + i] = m.6 * r + m.7 * g + m.8 * b
                }
            }
        }
        return out
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

/// The global tone curve and sRGB encoding of `ImageSignalProcessor` step 7 as one
/// table: entry k holds sRGB(y(x)) for x = (k / (size - 1))^2, so dark values get
/// fine steps.
struct ToneCurve {
    static let size = 4096
    let a: Float, d: Float, b: Float, c: Float
    let table: [Float]

    /// y(m) = midOut, y(1) = 1; midIn is kept below midOut's reach (m < 1).
    init(midIn: Float, midOut: Float, contrast: Float, shoulder: Float) {
        let m = min(max(midIn, 1e-3), 0.9)
        a = contrast
        d = shoulder
        var bb = (pow(m, a) / midOut - 1) / (pow(m, a * d) - 1)
        if !bb.isFinite { bb = 0 }
        b = bb
        c = 1 - bb
        let (a0, d0, b0, c0) = (a, d, b, c)
        table = (0..<ToneCurve.size).map { k in
            let s = Float(k) / Float(ToneCurve.size - 1)
            let x = s * s
            let y = x > 0 ? pow(x, a0) / (pow(x, a0 * d0) * b0 + c0) : 0
            return ColorScience.linearToSrgb(y)
        }
    }

    /// y(x) (linear), for tests.
    func callAsFunction(_ x: Float) -> Float { x > 0 ? pow(x, a) / (pow(x, a * d) * b + c) : 0 }
}

/// Gain map of the local tone mapping (`ImageSignalProcessor` step 6): a grid of
/// 16 x 12 cells (or fewer on small images) holding (L_cell / L_mean)^-strength
/// (L: shading-corrected green, mean of log2 over cells),
/// clamped to 0.5...2, after 3 x 3 binomial smoothing of log L.
struct LocalToneMap {
    let columns: Int
    let rows: Int
    let gain: [Float]

    /// `shadingCorrection` (v, s): the cell means are taken after lens-shading
    /// correction, gain (1 - v r^2) / (1 - s r^2) at each sample.
    init(green rgb: [Float], width w: Int, height h: Int, strength: Float, shadingCorrection: (Float, Float)) {
        let n = w * h
        columns = max(min(16, w / 32), 1)
        rows = max(min(12, h / 32), 1)
        var logL = [Float](repeating: 0, count: columns * rows)
        var total: Float = 0
        let (cols, rws) = (columns, rows)
        let cx = Float(w) / 2, cy = Float(h) / 2
        let invR2 = 1 / (cx * cx + cy * cy)
        rgb.withUnsafeBufferPointer { s in
            for j in 0..<rws {
                let y0 = j * h / rws, y1 = (j + 1) * h / rws
                for i in 0..<cols {
                    let x0 = i * w / cols, x1 = (i + 1) * w / cols
                    var sum: Float = 0, count = 0
                    var y = y0
                    while y < y1 {
                        var x = x0
                        let dy = Float(y) + 0.5 - cy
                        while x < x1 {
                            let dx = Float(x) + 0.5 - cx
                            let r2 = (dx * dx + dy * dy) * invR2
                            let lsc = (1 - shadingCorrection.0 * r2) / (1 - shadingCorrection.1 * r2)
                            sum += max(s[n + y * w + x], 0) * lsc
                            count += 1
                            x += 2
                        }
                        y += 2
                    }
                    logL[j * cols + i] = log2(max(sum / Float(max(count, 1)), 1e-5))
                }
            }
        }
        var smooth = logL
        for j in 0..<rws {
            for i in 0..<cols {
                var acc: Float = 0, wsum: Float = 0
                for dj in -1...1 {
                    for di in -1...1 {
                        let jj = min(max(j + dj, 0), rws - 1), ii = min(max(i + di, 0), cols - 1)
                        let wt = Float((2 - abs(di)) * (2 - abs(dj)))
                        acc += wt * logL[jj * cols + ii]; wsum += wt
                    }
                }
                smooth[j * cols + i] = acc / wsum
                total += smooth[j * cols + i]
            }
        }
        let mean = total / Float(cols * rws)
        gain = smooth.map { min(max(exp2(-strength * ($0 - mean)), 0.5), 2) }
    }

    /// Continuous cell coordinate of pixel `p` (cell centres at integers).
    @inline(__always) func coordinate(_ p: Int, cells: Int, size: Int) -> Float {
        min(max((Float(p) + 0.5) * Float(cells) / Float(size) - 0.5, 0), Float(cells - 1))
    }
}

/// In-place box filters (mean over 2 r + 1 samples, clamped edges) by running sums.
enum BoxFilter {
    static func rows(_ a: inout [Float], offset: Int, width w: Int, height h: Int, radius r: Int,
                     scratch: inout [Float]) {
        let inv = 1 / Float(2 * r + 1)
        a.withUnsafeMutableBufferPointer { p in
            scratch.withUnsafeMutableBufferPointer { line in
                for y in 0..<h {
                    let row = offset + y * w
                    for x in 0..<w { line[x] = p[row + x] }
                    var acc: Float = 0
                    for k in -r...r { acc += line[min(max(k, 0), w - 1)] }
                    for x in 0..<w {
                        p[row + x] = acc * inv
                        acc += line[min(x + r + 1, w - 1)] - line[max(x - r, 0)]
                    }
                }
            }
        }
    }

    static func columns(_ a: inout [Float], offset: Int, width w: Int, height h: Int, radius r: Int,
                        scratch: inout [Float]) {
        let inv = 1 / Float(2 * r + 1)
        a.withUnsafeMutableBufferPointer { p in
            scratch.withUnsafeMutableBufferPointer { line in
                for x in 0..<w {
                    for y in 0..<h { line[y] = p[offset + y * w + x] }
                    var acc: Float = 0
                    for k in -r...r { acc += line[min(max(k, 0), h - 1)] }
                    for y in 0..<h {
                        p[offset + y * w + x] = acc * inv
                        acc += line[min(y + r + 1, h - 1)] - line[max(y - r, 0)]
                    }
                }
            }
        }
    }
}
