import Foundation
import RialMedia

/// An ARKit-`sceneDepth`-like depth sensor on the RGB camera's optical axis: a 256 x 192
/// grid covering the same field of view, each cell the footprint of W/256 x H/192 image
/// pixels.
///
/// Model, in order:
/// 1. Mixed returns: each cell is sampled by 3 x 3 rays; a cell whose rays differ by
///    more than 3 % (or partly miss) lies on a discontinuity and reports the mean of
///    its returns (a "flying pixel" between the surfaces).
/// 2. Spatial filtering of the sensor's depth fusion: Gaussian of `smoothing_px`
///    (NaN-aware), which spreads flying pixels over the discontinuity.
/// 3. Holes: a discontinuity cell is invalid with probability `edge_hole_probability`.
/// 4. Noise: z += sigma(z) * n(x, y), sigma(z) = a + b z^2 (`noise_a_mm`,
///    `noise_b_mm_per_m2`); n is zero-mean, unit-variance, spatially correlated:
///    sqrt(1 - c) * G_f + sqrt(c) * G_c, with G_s white noise convolved with a Gaussian
///    of sigma s px and renormalised (c = `coarse_fraction`, s = `fine_correlation_px`
///    and `coarse_correlation_px`).
/// 5. Range: nearer than `min_range_m` (0.1 m) there is no return (NaN, as ARKit);
///    beyond `max_range_m` returns drop out with probability (z - max) / 1 m;
///    anywhere, `dropout_rate` of the cells are invalid (NaN).
/// 6. Quantisation to `quantisation_mm` (1 mm: the 16-bit millimetre PNGs).
///
/// Calibration against the one real flat-print LiDAR frame we have (ARKitScenes
/// 41069021, iPad LiDAR, printed poster on a wooden floor, raw 256 x 192 depth in mm;
/// least-squares planes through the back-projected points of image patches):
///
/// | patch (depth px)          | real rms | real autocorrelation at 1 / 5 / 11 px |
/// |---------------------------|----------|----------------------------------------|
/// | poster x 105-155, y 80-155 (0.68 m) | 1.28 mm | 0.92 / 0.87 / 0.55 |
/// | floor x 180-250, y 120-185 (0.67 m) | 0.54 mm | 0.73 / 0.53 / 0.29 |
/// | floor x 10-80, y 110-185 (0.66 m)   | 0.66 mm | 0.82 / 0.64 / 0.40 |
///
/// A white-ish fine component (1 px) plus a coarse one (10 px, 70 % of the variance)
/// and 1 mm quantisation reproduce this: with `floorCalibration` the same patches of
/// a synthetic flat target at 0.67 m give 0.50-0.53 mm rms and autocorrelation
/// 0.68-0.72 / 0.30-0.39 / 0.17-0.24; with `posterCalibration` 1.04-1.14 mm and
/// 0.82-0.86 / 0.42-0.53 / 0.27-0.34 (the real poster is smoother at long range, partly
/// because paper is not perfectly flat). Over a whole-frame target the expected
/// plane-fit rms is sqrt(sigma(z)^2 + q^2 / 12) (0.58 and 1.25 mm measured), which
/// `DepthSensorTests` checks. The generator draws a in [0.3, 1.0] mm and b in
/// [0.4, 1.2] mm/m^2, spanning floor to poster for targets at 0.4-0.7 m.
enum DepthSensor {
    static let columns = 256
    static let rows = 192
    static let raysPerAxis = 3

    /// Measures depth from ray samples (`SceneRenderer.depthSamples`) on a grid of
    /// `width` x `height` cells (the photo simulator's 256 x 192; the video simulator may
    /// use a smaller grid for tests).
    static func measure(
        samples: [Float], parameters p: DepthSensorParameters,
        rng: inout SynthRandom, width w: Int = columns, height h: Int = rows
    ) -> DepthMap {
        let n = w * h, sub = raysPerAxis * raysPerAxis
        var z = [Float](repeating: .nan, count: n)
        var edge = [Bool](repeating: false, count: n)
        for i in 0..<n {
            var lo = Float.infinity, hi = -Float.infinity, sum: Float = 0, valid = 0
            for k in 0..<sub {
                let v = samples[i * sub + k]
                if v.isFinite {
                    lo = min(lo, v)
                    hi = max(hi, v)
                    sum += v
                    valid += 1
                }
            }
            if valid == 0 { continue }
            z[i] = sum / Float(valid)
            if valid < sub || hi - lo > 0.03 * lo { edge[i] = true }
        }

        // Spatial filtering (NaN-aware Gaussian).
        if p.smoothingPx > 0.05 {
            z = smoothNaNAware(z, width: w, height: h, sigma: p.smoothingPx)
        }

        // Correlated noise fields.
        let fine = correlatedNoise(width: w, height: h, sigma: max(p.fineCorrelationPx, 0), rng: &rng)
        let coarse = correlatedNoise(width: w, height: h, sigma: max(p.coarseCorrelationPx, 0), rng: &rng)
        let c = min(max(p.coarseFraction, 0), 1)
        let wf = (1 - c).squareRoot(), wc = c.squareRoot()
        let q = max(p.quantisationMm, 0) * 1e-3
        for i in 0..<n {
            var d = z[i]
            // Draw every random number in a fixed order so the stream does not depend
            // on the scene.
            let uHole = rng.unit(), uDrop = rng.unit(), uRange = rng.unit()
            if !d.isFinite { continue }
            if d < p.minRangeM {
                z[i] = .nan
                continue
            }
            if edge[i] && uHole < p.edgeHoleProbability {
                z[i] = .nan
                continue
            }
            if uDrop < p.dropoutRate {
                z[i] = .nan
                continue
            }
            if d > p.maxRangeM && uRange < min((d - p.maxRangeM) / 1, 1) {
                z[i] = .nan
                continue
            }
            d += p.sigma(atDepth: d) * (wf * fine[i] + wc * coarse[i])
            if q > 0 { d = (d / q).rounded() * q }
            z[i] = d > 0 ? d : .nan
        }
        return DepthMap(width: w, height: h, metres: z)!
    }

    /// White Gaussian noise convolved with a Gaussian of `sigma` px and rescaled to
    /// unit variance (the kernel's squared norm), computed on a padded grid so the
    /// field is stationary up to the borders.
    static func correlatedNoise(width w: Int, height h: Int, sigma: Float, rng: inout SynthRandom) -> [Float] {
        let kernel = CameraPipeline.gaussianKernel(sigma: sigma)
        let r = kernel.count / 2
        let pw = w + 2 * r, ph = h + 2 * r
        var white = [Float](repeating: 0, count: pw * ph)
        for i in white.indices { white[i] = rng.gaussian() }
        var horizontal = [Float](repeating: 0, count: w * ph)
        for y in 0..<ph {
            for x in 0..<w {
                var acc: Float = 0
                for t in 0..<kernel.count { acc += kernel[t] * white[y * pw + x + t] }
                horizontal[y * w + x] = acc
            }
        }
        let norm1 = kernel.reduce(0) { $0 + $1 * $1 }
        let scale = 1 / norm1 // 2D variance is (sum k^2)^2; its square root is sum k^2.
        var out = [Float](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                var acc: Float = 0
                for t in 0..<kernel.count { acc += kernel[t] * horizontal[(y + t) * w + x] }
                out[y * w + x] = acc * scale
            }
        }
        return out
    }

    /// Gaussian smoothing that ignores NaN inputs (normalised by the valid weights) and
    /// keeps NaN outputs where the input was NaN.
    static func smoothNaNAware(_ z: [Float], width w: Int, height h: Int, sigma: Float) -> [Float] {
        let k = CameraPipeline.gaussianKernel(sigma: sigma)
        let r = k.count / 2
        var num = [Float](repeating: 0, count: w * h), den = num
        for y in 0..<h {
            for x in 0..<w {
                var a: Float = 0, b: Float = 0
                for t in 0..<k.count {
                    let xx = x + t - r
                    if xx < 0 || xx >= w { continue }
                    let v = z[y * w + xx]
                    if v.isFinite {
                        a += k[t] * v
                        b += k[t]
                    }
                }
                num[y * w + x] = a
                den[y * w + x] = b
            }
        }
        var out = z
        for y in 0..<h {
            for x in 0..<w where z[y * w + x].isFinite {
                var a: Float = 0, b: Float = 0
                for t in 0..<k.count {
                    let yy = y + t - r
                    if yy < 0 || yy >= h { continue }
                    a += k[t] * num[yy * w + x]
                    b += k[t] * den[yy * w + x]
                }
                out[y * w + x] = b > 0 ? a / b : .nan
            }
        }
        return out
    }
}

extension DepthSensorParameters {
    /// ARKitScenes poster (printed paper, 0.68 m): plane-fit rms 1.3 mm.
    public static let posterCalibration = DepthSensorParameters(noiseAMm: 0.9, noiseBMmPerM2: 0.8)
    /// ARKitScenes wooden floor (0.67 m): plane-fit rms 0.6 mm.
    public static let floorCalibration = DepthSensorParameters(noiseAMm: 0.3, noiseBMmPerM2: 0.5)
}
