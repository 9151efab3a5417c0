import Foundation
import RialMedia
import Testing

@testable import RialDetection

/// The tile power spectra of moire/1 and artifacts/1 against the 2D DFT computed from
/// its definition: |sum_y sum_x t(x, y) exp(-2 pi i (kx x + ky y) / n)|².
@Suite struct SpectrumLayoutTests {
    static func directPower(_ tile: [Double], n: Int, kx: Int, ky: Int) -> Double {
        var re = 0.0, im = 0.0
        for y in 0..<n {
            for x in 0..<n {
                let angle = -2 * Double.pi * Double((kx * x + ky * y) % n) / Double(n)
                re += tile[y * n + x] * cos(angle)
                im += tile[y * n + x] * sin(angle)
            }
        }
        return re * re + im * im
    }

    static func noiseImage(width: Int, height: Int, channels: Int, seed: UInt64) -> Image8 {
        var rng = SplitMix64(seed: seed)
        let samples = (0..<(width * height * channels)).map { _ in UInt8(truncatingIfNeeded: rng.next() >> 40) }
        return Image8(width: width, height: height, channels: channels, samples: samples)!
    }

    /// Three tiles (one packed pair and one alone) of an RGB image: each tile's half
    /// plane equals the direct DFT power of its BT.601 luma minus the mean times the
    /// periodic Hann window sin²(pi j / n); the mean power is their average.
    @Test(arguments: [8, 16])
    func moireTilePower(n: Int) {
        let image = Self.noiseImage(width: 2 * n + 3, height: n + 2, channels: 3, seed: UInt64(n))
        let origins = [(x: 0, y: 0), (x: n + 3, y: 2), (x: 5, y: 1)]
        let spectrum = image.withRows { MoireSpectrum(image: $0, tileSize: n, origins: origins, flatLumaStd: 1) }
        let half = (n / 2 + 1) * n
        var mean = [Double](repeating: 0, count: half)
        for (t, origin) in origins.enumerated() {
            var tile = [Double](repeating: 0, count: n * n)
            for y in 0..<n {
                for x in 0..<n {
                    let p = ((origin.y + y) * image.width + origin.x + x) * 3
                    // BT.601 with the coefficients as stored (Float 0.299, 0.587, 0.114 widened).
                    tile[y * n + x] =
                        Double(Float(0.299)) * Double(image.samples[p])
                        + Double(Float(0.587)) * Double(image.samples[p + 1]) + Double(Float(0.114))
                        * Double(image.samples[p + 2])
                }
            }
            let average = tile.reduce(0, +) / Double(n * n)
            for y in 0..<n {
                for x in 0..<n {
                    let wy = pow(sin(Double.pi * Double(y) / Double(n)), 2),
                        wx = pow(sin(Double.pi * Double(x) / Double(n)), 2)
                    tile[y * n + x] = (tile[y * n + x] - average) * wy * wx
                }
            }
            var expected = [Double](repeating: 0, count: half)
            for kx in 0...(n / 2) {
                for ky in 0..<n { expected[kx * n + ky] = Self.directPower(tile, n: n, kx: kx, ky: ky) }
            }
            // Rounding error scales with the largest bin (the tile's energy), not with each bin.
            let tolerance = 1e-11 * (expected.max() ?? 1)
            for k in 0..<half {
                #expect(
                    abs(spectrum.tilePower[t * half + k] - expected[k]) <= tolerance, "tile \(t) bin \(k / n), \(k % n)"
                )
                mean[k] += expected[k] / Double(origins.count)
            }
        }
        let tolerance = 1e-11 * (mean.max() ?? 1)
        for k in 0..<half { #expect(abs(spectrum.meanPower[k] - mean[k]) <= tolerance, "mean bin \(k / n), \(k % n)") }
    }

    /// artifacts/1's tile power: bins kx in 0...n/2, every ky, column-major.
    @Test(arguments: [2, 8, 16])
    func artifactTilePower(n: Int) {
        var rng = SplitMix64(seed: UInt64(100 + n))
        let tile = (0..<(n * n)).map { _ in Double(rng.next() >> 11) / Double(1 << 53) - 0.5 }
        var power = [Double](), scratch = ArtifactSpectrum.TileScratch(n: n)
        ArtifactSpectrum.tilePower(tile, fft: FFT(size: n), power: &power, scratch: &scratch)
        #expect(power.count == (n / 2 + 1) * n)
        for kx in 0...(n / 2) {
            for ky in 0..<n {
                let expected = Self.directPower(tile, n: n, kx: kx, ky: ky)
                #expect(abs(power[kx * n + ky] - expected) <= 1e-12 * Double(n * n), "bin (\(kx), \(ky))")
            }
        }
    }
}
