import Foundation
import RialMedia

/// The display's subpixel pattern as a sensor pixel records it: the aperture pattern
/// convolved with the lens PSF and the pixel's box aperture, then sampled at the pixel
/// centre. Moire is what this sampling produces; nothing is painted on.
///
/// Locally the map from sensor px (x, y) to display px (u, v) is affine with Jacobian
/// J = [[du/dx, du/dy], [dv/dx, dv/dy]]. A harmonic kappa = (k / Lu, l / Lv) cycles per
/// display px then has sensor frequency f = J^T kappa cycles per px, and the box of one
/// pixel (1 x 1 px) and a Gaussian PSF of sigma px multiply its amplitude by
///   A(f) = sinc(f_x) sinc(f_y) exp(-2 pi^2 sigma^2 |f|^2)
/// exactly. So the recorded pattern is a periodic function of (u, v):
///   P_c(u, v) = 1 + sum_{(k,l) != 0} A(J^T kappa) C_c[k,l] / C_c[0,0] e^{2 pi i kappa . (u, v)},
/// which this table holds minus 1 (the "detail"; its mean is added separately and
/// blurred with the rest of the image), sampled on an N x N grid over one cell and
/// read back by bilinear interpolation. Harmonics are kept while the Gaussian factor
/// exceeds 1e-3 (|f| < sqrt(ln 1000 / (2 pi^2 sigma^2))), up to N/2 - 1 per axis.
/// Building costs two N x N complex FFTs; N = 16...64.
final class FilteredPatternTable: @unchecked Sendable {
    let n: Int
    let scaleU: Float
    let scaleV: Float
    /// n * n samples, 3 channels interleaved, row-major with v as the row.
    let values: [Float]

    init(spectrum: SubpixelSpectrum, jacobian j: (Float, Float, Float, Float), sigma: Float) {
        let layout = spectrum.layout
        let a = Double(j.0), b = Double(j.1), c = Double(j.2), d = Double(j.3)
        // Smallest singular value of J (display px per sensor px).
        let s1 = a * a + b * b + c * c + d * d
        let det = abs(a * d - b * c)
        let sMin = max(((s1 - (max(s1 * s1 - 4 * det * det, 0)).squareRoot()) / 2).squareRoot(), 1e-6)
        let sig = Double(max(sigma, 0.05))
        let fCut = (log(1000.0) / (2 * Double.pi * Double.pi * sig * sig)).squareRoot()
        var kU = Int((fCut * layout.cellU / sMin).rounded(.up))
        var kV = Int((fCut * layout.cellV / sMin).rounded(.up))
        var size = 16
        while size < 2 * max(kU, kV) + 2 && size < 64 { size *= 2 }
        kU = min(kU, size / 2 - 1, spectrum.maxHarmonic)
        kV = min(kV, size / 2 - 1, spectrum.maxHarmonic)
        n = size
        scaleU = Float(Double(size) / layout.cellU)
        scaleV = Float(Double(size) / layout.cellV)

        var reRG = [Double](repeating: 0, count: size * size), imRG = reRG
        var reB = reRG, imB = reRG
        let twoPiSq = 2 * Double.pi * Double.pi * sig * sig
        for l in -kV...kV {
            for k in -kU...kU where !(k == 0 && l == 0) {
                let ku = Double(k) / layout.cellU, kv = Double(l) / layout.cellV
                let fx = ku * a + kv * c, fy = ku * b + kv * d
                let gauss = exp(-twoPiSq * (fx * fx + fy * fy))
                if gauss < 1e-6 { continue }
                let att = SpecialFunctions.sinc(fx) * SpecialFunctions.sinc(fy) * gauss
                let r = spectrum.coefficient(channel: 0, k: k, l: l)
                let g = spectrum.coefficient(channel: 1, k: k, l: l)
                let bl = spectrum.coefficient(channel: 2, k: k, l: l)
                let idx = ((l % size + size) % size) * size + ((k % size + size) % size)
                // Pack R + i G: both outputs are real, so the real and imaginary parts of
                // the inverse transform separate them.
                reRG[idx] = att * (r.0 - g.1)
                imRG[idx] = att * (r.1 + g.0)
                reB[idx] = att * bl.0
                imB[idx] = att * bl.1
            }
        }
        let fft = FFT(size: size)
        fft.transform2D(re: &reRG, im: &imRG, sign: 1)
        fft.transform2D(re: &reB, im: &imB, sign: 1)
        var out = [Float](repeating: 0, count: size * size * 3)
        for i in 0..<(size * size) {
            out[3 * i] = Float(reRG[i])
            out[3 * i + 1] = Float(imRG[i])
            out[3 * i + 2] = Float(reB[i])
        }
        values = out
    }

}

/// Filtered pattern tables for one capture, one per distinct local Jacobian.
/// Jacobian entries are quantised to 2 % of the pattern scale: a harmonic at f cycles
/// per px then changes its attenuation by at most exp(-4 pi^2 sigma^2 f^2 0.02) between
/// neighbouring tables, under 15 % of a moire component that is itself below 1 % of
/// the signal, far below the noise. Not thread-safe: one cache per capture.
final class FilteredPatternCache {
    let spectrum: SubpixelSpectrum
    let sigma: Float
    private let step: Float
    private var index: [Key: Int] = [:]
    private(set) var tables: [FilteredPatternTable] = []

    private struct Key: Hashable { var a, b, c, d: Int32 }

    /// - Parameter scale: typical |J| (1 / pixel pitch in sensor px).
    init(layout: SubpixelLayout, sigma: Float, scale: Float) {
        spectrum = SubpixelSpectrum(layout: layout)
        self.sigma = sigma
        step = max(scale * 0.02, 1e-6)
    }

    /// Index of the table for Jacobian `j` (built on first use).
    func tableIndex(for j: (Float, Float, Float, Float)) -> Int {
        func q(_ x: Float) -> Int32 { Int32(clamping: Int((x / step).rounded())) }
        let key = Key(a: q(j.0), b: q(j.1), c: q(j.2), d: q(j.3))
        if let i = index[key] { return i }
        let jq = (Float(key.a) * step, Float(key.b) * step, Float(key.c) * step, Float(key.d) * step)
        tables.append(FilteredPatternTable(spectrum: spectrum, jacobian: jq, sigma: sigma))
        index[key] = tables.count - 1
        return tables.count - 1
    }
}
