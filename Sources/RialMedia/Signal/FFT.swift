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
    private let log2n: Int
    private let cosTable: [Double]
    private let sinTable: [Double]
    private let bitReverse: [Int]

    /// `n` must be a power of two >= 2 (a precondition: sizes are chosen by code, not data).
    public init(size n: Int) {
        precondition(n >= 2 && n & (n - 1) == 0, "FFT size must be a power of two")
        self.n = n
        var l = 0
        while (1 << l) < n { l += 1 }
        log2n = l
        cosTable = (0..<n / 2).map { cos(2 * Double.pi * Double($0) / Double(n)) }
        sinTable = (0..<n / 2).map { sin(2 * Double.pi * Double($0) / Double(n)) }
        bitReverse = (0..<n).map { i in
            var r = 0, x = i
            for _ in 0..<l { r = (r << 1) | (x & 1); x >>= 1 }
            return r
        }
    }

    /// x[j] <- sum_k x[k] exp(sign * 2 pi i j k / n) over `n` values spaced `stride`
    /// apart starting at `offset`. No normalisation. sign = +1 is the inverse transform.
    public func transform(re: UnsafeMutablePointer<Double>, im: UnsafeMutablePointer<Double>,
                   offset: Int, stride: Int, sign: Double) {
        for i in 0..<n {
            let j = bitReverse[i]
            if j > i {
                let a = offset + i * stride, b = offset + j * stride
                swap(&re[a], &re[b]); swap(&im[a], &im[b])
            }
        }
        var size = 2
        while size <= n {
            let half = size / 2, step = n / size
            var start = 0
            while start < n {
                for k in 0..<half {
                    let c = cosTable[k * step], s = sign * sinTable[k * step]
                    let a = offset + (start + k) * stride, b = a + half * stride
                    let tr = re[b] * c - im[b] * s
                    let ti = re[b] * s + im[b] * c
                    re[b] = re[a] - tr; im[b] = im[a] - ti
                    re[a] += tr; im[a] += ti
                }
                start += size
            }
            size *= 2
        }
    }

    /// 2D transform of an n x n row-major array (rows, then columns).
    public func transform2D(re: inout [Double], im: inout [Double], sign: Double) {
        precondition(re.count == n * n && im.count == n * n)
        re.withUnsafeMutableBufferPointer { r in
            im.withUnsafeMutableBufferPointer { i in
                for row in 0..<n { transform(re: r.baseAddress!, im: i.baseAddress!, offset: row * n, stride: 1, sign: sign) }
                for col in 0..<n { transform(re: r.baseAddress!, im: i.baseAddress!, offset: col, stride: n, sign: sign) }
            }
        }
    }
}
