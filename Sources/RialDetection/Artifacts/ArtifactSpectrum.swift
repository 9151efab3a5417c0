import Foundation
import RialMedia

/// Spectral helpers of `artifacts/1` on top of RialMedia's complex radix-2 `FFT`
/// (numpy sign convention, X[k] = sum_j x[j] exp(-2 pi i j k / n)).
enum ArtifactSpectrum {
    /// Symmetric Hann window `w[j] = 0.5 - 0.5 cos(2 pi j / (n - 1))`,
    /// `n >= 2` (a single sample gets weight 1).
    static func hann(_ n: Int) -> [Double] {
        guard n > 1 else { return [Double](repeating: 1, count: max(n, 0)) }
        let scale = 2 * Double.pi / Double(n - 1)
        return (0..<n).map { 0.5 - 0.5 * cos(scale * Double($0)) }
    }

    /// Smallest power of two >= `n` (and >= 2).
    static func powerOfTwo(atLeast n: Int) -> Int {
        var p = 2
        while p < n { p <<= 1 }
        return p
    }

    /// Spectra of two real sequences from one complex transform: `re` holds x, `im`
    /// holds y (length `fft.n` each, overwritten). After the call bins `0...n/2` hold
    /// X[k] in `(re, im)` and Y[k] in `(yRe, yIm)`, using
    /// `X[k] = (Z[k] + conj Z[n-k]) / 2`, `Y[k] = (Z[k] - conj Z[n-k]) / 2i`.
    static func twoRealTransforms(fft: FFT, re: UnsafeMutablePointer<Double>, im: UnsafeMutablePointer<Double>,
                                  yRe: UnsafeMutablePointer<Double>, yIm: UnsafeMutablePointer<Double>) {
        let n = fft.n
        fft.transform(re: re, im: im, offset: 0, stride: 1, sign: -1)
        // Split, walking k and n - k together so that each pair is read before written.
        for k in 0...(n / 2) {
            let m = (n - k) & (n - 1)
            let ar = re[k], ai = im[k], zr = re[m], zi = im[m]
            yRe[k] = (ai + zi) / 2
            yIm[k] = (zr - ar) / 2
            yRe[m] = (zi + ai) / 2
            yIm[m] = (ar - zr) / 2
            re[k] = (ar + zr) / 2
            im[k] = (ai - zi) / 2
            re[m] = (zr + ar) / 2
            im[m] = (zi - ai) / 2
        }
    }

    /// Power spectrum `|F(kx, ky)|^2` of an `n x n` real tile (row-major, `n = fft.n`),
    /// for `kx` in `0...n/2` (the other half is the conjugate mirror) and every `ky`,
    /// stored column-major: `power[kx * n + ky]` with `ky` the unsigned bin (`ky > n/2`
    /// are negative frequencies `ky - n`).
    ///
    /// Rows are transformed two at a time (one complex FFT per pair), then the
    /// `n/2 + 1` needed columns, each contiguous after the split.
    /// - Complexity: O(n² log n), about `1.5 n` transforms of length n.
    static func tilePower(_ tile: [Double], fft: FFT, power: inout [Double],
                          columnRe: inout [Double], columnIm: inout [Double],
                          rowRe: inout [Double], rowIm: inout [Double], rowYRe: inout [Double], rowYIm: inout [Double]) {
        let n = fft.n, half = n / 2
        tile.withUnsafeBufferPointer { t in
            columnRe.withUnsafeMutableBufferPointer { cr in
                columnIm.withUnsafeMutableBufferPointer { ci in
                    rowRe.withUnsafeMutableBufferPointer { rr in
                        rowIm.withUnsafeMutableBufferPointer { ri in
                            rowYRe.withUnsafeMutableBufferPointer { yr in
                                rowYIm.withUnsafeMutableBufferPointer { yi in
                                    var y = 0
                                    while y < n {
                                        for x in 0..<n {
                                            rr[x] = t[y * n + x]
                                            ri[x] = y + 1 < n ? t[(y + 1) * n + x] : 0
                                        }
                                        twoRealTransforms(fft: fft, re: rr.baseAddress!, im: ri.baseAddress!,
                                                          yRe: yr.baseAddress!, yIm: yi.baseAddress!)
                                        for k in 0...half {
                                            cr[k * n + y] = rr[k]; ci[k * n + y] = ri[k]
                                            if y + 1 < n { cr[k * n + y + 1] = yr[k]; ci[k * n + y + 1] = yi[k] }
                                        }
                                        y += 2
                                    }
                                    for k in 0...half {
                                        fft.transform(re: cr.baseAddress!, im: ci.baseAddress!, offset: k * n, stride: 1, sign: -1)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        let count = (half + 1) * n
        if power.count != count { power = [Double](repeating: 0, count: count) }
        columnRe.withUnsafeBufferPointer { cr in
            columnIm.withUnsafeBufferPointer { ci in
                power.withUnsafeMutableBufferPointer { p in
                    for i in 0..<count { p[i] = cr[i] * cr[i] + ci[i] * ci[i] }
                }
            }
        }
    }

    /// The median (lower median for an even count) of `values[0..<count]`, reordering
    /// them in place (Hoare quickselect, expected O(count)). 0 when `count == 0`.
    static func median(_ values: UnsafeMutablePointer<Double>, count: Int) -> Double {
        guard count > 0 else { return 0 }
        var lo = 0, hi = count - 1
        let k = (count - 1) / 2
        while lo < hi {
            let pivot = values[(lo + hi) / 2]
            var i = lo, j = hi
            while i <= j {
                while values[i] < pivot { i += 1 }
                while values[j] > pivot { j -= 1 }
                if i <= j {
                    let t = values[i]; values[i] = values[j]; values[j] = t
                    i += 1; j -= 1
                }
            }
            if k <= j { hi = j } else if k >= i { lo = i } else { break }
        }
        return values[k]
    }

    /// `1 / (1 + exp(-(ln statistic - ln midpoint) / scale))`; 0 for a statistic <= 0 or NaN.
    static func logistic(_ statistic: Double, midpoint: Double, scale: Double) -> Double {
        guard statistic > 0 else { return 0 }
        guard statistic.isFinite else { return 1 }
        let z = (log(statistic) - log(midpoint)) / scale
        return 1 / (1 + exp(-z))
    }
}
