import Foundation
import Testing
import RialMedia

/// Hand-computable transforms: DFT definitions, not values produced by the code.
@Suite struct FFTTests {
    /// X[j] = sum_k x[k] e^{-2 pi i j k / n}: an impulse at 0 is flat, a cosine of k
    /// cycles puts n/2 at bins k and n-k, and the inverse (sign +1) returns n x.
    @Test func impulseCosineAndInverse() {
        let n = 16, fft = FFT(size: n)
        var re = [Double](repeating: 0, count: n), im = re
        re[0] = 1
        re.withUnsafeMutableBufferPointer { r in
            im.withUnsafeMutableBufferPointer { i in
                fft.transform(re: r.baseAddress!, im: i.baseAddress!, offset: 0, stride: 1, sign: -1)
            }
        }
        #expect(re.allSatisfy { abs($0 - 1) < 1e-12 } && im.allSatisfy { abs($0) < 1e-12 })

        let cycles = 3
        var cre = (0..<n).map { cos(2 * Double.pi * Double(cycles * $0) / Double(n)) }
        var cim = [Double](repeating: 0, count: n)
        let original = cre
        cre.withUnsafeMutableBufferPointer { r in
            cim.withUnsafeMutableBufferPointer { i in
                fft.transform(re: r.baseAddress!, im: i.baseAddress!, offset: 0, stride: 1, sign: -1)
            }
        }
        for j in 0..<n {
            let expected = (j == cycles || j == n - cycles) ? Double(n) / 2 : 0
            #expect(abs(cre[j] - expected) < 1e-9 && abs(cim[j]) < 1e-9, "bin \(j)")
        }
        cre.withUnsafeMutableBufferPointer { r in
            cim.withUnsafeMutableBufferPointer { i in
                fft.transform(re: r.baseAddress!, im: i.baseAddress!, offset: 0, stride: 1, sign: 1)
            }
        }
        for k in 0..<n { #expect(abs(cre[k] / Double(n) - original[k]) < 1e-12) }
    }

    /// A 2D plane wave with (fx, fy) = (2, 5) cycles per 8 samples concentrates n²
    /// at the single bin (row 5, column 2) for the complex exponential e^{+i...}.
    @Test func planeWave2D() {
        let n = 8, fft = FFT(size: n)
        var re = [Double](repeating: 0, count: n * n), im = re
        for y in 0..<n {
            for x in 0..<n {
                let phase = 2 * Double.pi * Double(2 * x + 5 * y) / Double(n)
                re[y * n + x] = cos(phase)
                im[y * n + x] = sin(phase)
            }
        }
        fft.transform2D(re: &re, im: &im, sign: -1)
        for index in 0..<(n * n) {
            let expected = index == 5 * n + 2 ? Double(n * n) : 0
            #expect(abs(re[index] - expected) < 1e-9 && abs(im[index]) < 1e-9, "bin \(index)")
        }
    }
}
