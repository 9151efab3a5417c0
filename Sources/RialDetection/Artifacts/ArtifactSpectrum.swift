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
    static func twoRealTransforms(
        fft: FFT, re: UnsafeMutablePointer<Double>, im: UnsafeMutablePointer<Double>,
        yRe: UnsafeMutablePointer<Double>, yIm: UnsafeMutablePointer<Double>
    ) {
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

    /// Reusable buffers of `tilePower` for one transform size n.
    struct TileScratch {
        /// Row pairs, transposed: `pairRe[x * n/2 + p]` = tile row `2p` at x, `pairIm` row `2p + 1`.
        var pairRe: [Double]
        var pairIm: [Double]
        /// Row spectra, `columnRe[y * (n/2 + 1) + k]` = bin k of tile row y.
        var columnRe: [Double]
        var columnIm: [Double]

        init(n: Int) {
            pairRe = [Double](repeating: 0, count: n * (n / 2))
            pairIm = pairRe
            columnRe = [Double](repeating: 0, count: n * (n / 2 + 1))
            columnIm = columnRe
        }
    }

    /// Power spectrum `|F(kx, ky)|^2` of an `n x n` real tile (row-major, `n = fft.n`),
    /// for `kx` in `0...n/2` (the other half is the conjugate mirror) and every `ky`,
    /// stored column-major: `power[kx * n + ky]` with `ky` the unsigned bin (`ky > n/2`
    /// are negative frequencies `ky - n`).
    ///
    /// Rows are transformed two at a time (row `2p` real, row `2p + 1` imaginary, one
    /// complex FFT per pair, separated as in `twoRealTransforms`), then the `n/2 + 1`
    /// needed columns. Both passes transform all their sequences together
    /// (`FFT.transformColumns`), with the same operations on every value as one
    /// `twoRealTransforms` per row pair and one `transform` per column.
    /// - Complexity: O(n² log n), about `1.5 n` transforms of length n.
    static func tilePower(_ tile: [Double], fft: FFT, power: inout [Double], scratch: inout TileScratch) {
        let n = fft.n, half = n / 2, bins = half + 1
        precondition(tile.count == n * n && scratch.pairRe.count == n * half && scratch.columnRe.count == n * bins)
        tile.withUnsafeBufferPointer { t in
            scratch.pairRe.withUnsafeMutableBufferPointer { pr in
                scratch.pairIm.withUnsafeMutableBufferPointer { pi in
                    // Loops go through blocks of (up to) 8 row pairs so that the rows read
                    // and the segments written stay in cache (power-of-two distances
                    // would otherwise map them to a few cache sets).
                    let block = Swift.min(8, half)
                    for p0 in Swift.stride(from: 0, to: half, by: block) {
                        for x in 0..<n {
                            for p in p0..<(p0 + block) {
                                pr[x * half + p] = t[2 * p * n + x]
                                pi[x * half + p] = t[(2 * p + 1) * n + x]
                            }
                        }
                    }
                    fft.transformColumns(
                        re: pr.baseAddress!, im: pi.baseAddress!, count: half, rowStride: half, sign: -1)
                    scratch.columnRe.withUnsafeMutableBufferPointer { cr in
                        scratch.columnIm.withUnsafeMutableBufferPointer { ci in
                            // X = (Z[k] + conj Z[n-k]) / 2 (row 2p), Y = (Z[k] - conj Z[n-k]) / 2i (row 2p + 1).
                            for p0 in Swift.stride(from: 0, to: half, by: block) {
                                for k in 0...half {
                                    let m = (n - k) & (n - 1)
                                    let zk = k * half, zm = m * half
                                    for p in p0..<(p0 + block) {
                                        let ar = pr[zk + p], ai = pi[zk + p], zr = pr[zm + p], zi = pi[zm + p]
                                        let even = 2 * p * bins + k, odd = even + bins
                                        cr[even] = (ar + zr) / 2
                                        ci[even] = (ai - zi) / 2
                                        cr[odd] = (ai + zi) / 2
                                        ci[odd] = (zr - ar) / 2
                                    }
                                }
                            }
                            fft.transformColumns(
                                re: cr.baseAddress!, im: ci.baseAddress!, count: bins, rowStride: bins,
                                sign: -1)
                        }
                    }
                }
            }
        }
        let count = bins * n
        if power.count != count { power = [Double](repeating: 0, count: count) }
        scratch.columnRe.withUnsafeBufferPointer { cr in
            scratch.columnIm.withUnsafeBufferPointer { ci in
                power.withUnsafeMutableBufferPointer { p in
                    let block = Swift.min(8, n)
                    for y0 in Swift.stride(from: 0, to: n, by: block) {
                        for k in 0...half {
                            for y in y0..<(y0 + block) {
                                let v = y * bins + k
                                p[k * n + y] = cr[v] * cr[v] + ci[v] * ci[v]
                            }
                        }
                    }
                }
            }
        }
    }

    /// `1 / (1 + exp(-(ln statistic - ln midpoint) / scale))`; 0 for a statistic <= 0 or NaN.
    static func logistic(_ statistic: Double, midpoint: Double, scale: Double) -> Double {
        guard statistic > 0 else { return 0 }
        guard statistic.isFinite else { return 1 }
        let z = (log(statistic) - log(midpoint)) / scale
        return 1 / (1 + exp(-z))
    }
}
