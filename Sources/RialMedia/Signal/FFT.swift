import Foundation

/// In-place radix-2 complex FFT on split real/imaginary buffers (Cooley-Tukey,
/// iterative, bit-reversed input order), shared by the synthetic-capture generator and
/// the spectral detection methods (moire, artifacts).
///
/// Written here rather than taken from a library: the detection module must stay
/// portable to iOS with Foundation only, and the FFT libraries at hand are either
/// Apple-only (Accelerate vDSP) or C libraries outside the portable set (FFTW). The
/// sizes used are powers of two, where radix-2 is adequate.
///
/// Convention: `transform(..., sign: -1)` computes X[j] = sum_k x[k] exp(-2 pi i j k / n)
/// (numpy's `fft`); `sign: +1` is the unnormalised inverse.
public struct FFT: Sendable {
    /// Transform length, a power of two >= 2.
    public let n: Int
    let log2n: Int
    /// `bitReverse[a]`: `a` with its `log2 n` bits reversed.
    let bitReverse: [Int]
    /// Twiddles of every butterfly stage, concatenated so each stage reads them
    /// contiguously: stage `size` (4, 8, ..., n; size 2 needs none) holds
    /// `cos(2 pi k / size)` and `sin(2 pi k / size)`, k in `0..<size/2`, from offset
    /// `size/2 - 2` (the same values as `cos(2 pi (k n / size) / n)`).
    let stageCos: [Double]
    let stageSin: [Double]

    /// `n` must be a power of two >= 2 (a precondition: sizes are chosen by code, not data).
    public init(size n: Int) {
        precondition(n >= 2 && n & (n - 1) == 0, "FFT size must be a power of two")
        self.n = n
        var l = 0
        while (1 << l) < n { l += 1 }
        log2n = l
        let cosTable = (0..<n / 2).map { cos(2 * Double.pi * Double($0) / Double(n)) }
        let sinTable = (0..<n / 2).map { sin(2 * Double.pi * Double($0) / Double(n)) }
        var stageCos: [Double] = [], stageSin: [Double] = []
        var size = 4
        while size <= n {
            let step = n / size
            for k in 0..<(size / 2) {
                stageCos.append(cosTable[k * step])
                stageSin.append(sinTable[k * step])
            }
            size *= 2
        }
        self.stageCos = stageCos
        self.stageSin = stageSin
        bitReverse = (0..<n).map { i in
            var r = 0, x = i
            for _ in 0..<l {
                r = (r << 1) | (x & 1)
                x >>= 1
            }
            return r
        }
    }

    /// x[j] <- sum_k x[k] exp(sign * 2 pi i j k / n) over `n` values spaced `stride`
    /// apart starting at `offset`. No normalisation. sign = +1 is the inverse transform.
    ///
    /// Iterative radix-2: bit-reversal permutation, a twiddle-free first stage, then
    /// stages of size 4...n reading their twiddles contiguously.
    /// - Complexity: O(n log n); no allocation.
    public func transform(
        re: UnsafeMutablePointer<Double>, im: UnsafeMutablePointer<Double>,
        offset: Int, stride: Int, sign: Double
    ) {
        let n = self.n
        let r = re + offset, i = im + offset
        bitReverse.withUnsafeBufferPointer { br in
            for a in 0..<n {
                let b = br[a]
                if b > a {
                    let pa = a * stride, pb = b * stride
                    let tr = r[pa]
                    r[pa] = r[pb]
                    r[pb] = tr
                    let ti = i[pa]
                    i[pa] = i[pb]
                    i[pb] = ti
                }
            }
        }
        // Size 2: twiddle 1.
        var start = 0
        while start < n {
            let a = start * stride, b = a + stride
            let tr = r[b], ti = i[b]
            r[b] = r[a] - tr
            i[b] = i[a] - ti
            r[a] += tr
            i[a] += ti
            start += 2
        }
        stageCos.withUnsafeBufferPointer { tc in
            stageSin.withUnsafeBufferPointer { ts in
                var size = 4
                while size <= n {
                    let half = size / 2, base = half - 2
                    let halfStride = half * stride
                    var start = 0
                    while start < n {
                        var a = start * stride
                        for k in 0..<half {
                            let c = tc[base + k], s = sign * ts[base + k]
                            let b = a + halfStride
                            let br = r[b], bi = i[b]
                            let tr = br * c - bi * s
                            let ti = br * s + bi * c
                            r[b] = r[a] - tr
                            i[b] = i[a] - ti
                            r[a] += tr
                            i[a] += ti
                            a += stride
                        }
                        start += size
                    }
                    size *= 2
                }
            }
        }
    }

    /// 2D transform of an n x n row-major array (rows, then columns, with `transformRows`
    /// and `transformColumns`: bit-identical to transforming each row, then each column,
    /// alone).
    public func transform2D(re: inout [Double], im: inout [Double], sign: Double) {
        precondition(re.count == n * n && im.count == n * n)
        re.withUnsafeMutableBufferPointer { r in
            im.withUnsafeMutableBufferPointer { i in
                transformRows(re: r.baseAddress!, im: i.baseAddress!, count: n, rowStride: n, sign: sign)
                transformColumns(re: r.baseAddress!, im: i.baseAddress!, count: n, rowStride: n, sign: sign)
            }
        }
    }
}
