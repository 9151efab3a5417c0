import Foundation
import RialMedia
import Testing

@testable import RialDetection

/// moire/2 on images built from formulas: RGB cosine bands with chosen per-channel
/// phases, gray bands, pink (1/f) noise, and degenerate inputs. The expected values are
/// the parameters the images are made from.
@Suite struct MoireV2Tests {
    /// `base + amplitude cos(2 pi (fx x + fy y) + phase_c)` per channel c plus seeded
    /// Gaussian noise of `sigma` levels per channel, rounded to 8 bits.
    static func bands(
        width: Int, height: Int, fx: Double, fy: Double, amplitude: Double, phases: [Double], sigma: Double = 2,
        seed: UInt64 = 5
    ) -> Image8 {
        var rng = SplitMix64(seed: seed)
        var samples = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let arg = 2 * Double.pi * (fx * Double(x) + fy * Double(y))
                for c in 0..<3 {
                    let v = 128 + amplitude * cos(arg + phases[c]) + sigma * gaussian(&rng)
                    samples[(y * width + x) * 3 + c] = UInt8(max(0, min(255, v.rounded())))
                }
            }
        }
        return Image8(width: width, height: height, channels: 3, samples: samples)!
    }

    static func gaussian(_ rng: inout SplitMix64) -> Double {
        let u1 = (Double(rng.next() >> 11) + 0.5) / 9007199254740992.0
        let u2 = Double(rng.next() >> 11) / 9007199254740992.0
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }

    /// A 1/f ("pink") random field of side n (power of two), zero mean, unit variance:
    /// random phases, amplitude 1/|f| (the spectrum of natural images), inverse FFT.
    static func pinkField(n: Int, seed: UInt64) -> [Double] {
        var rng = SplitMix64(seed: seed)
        var re = [Double](repeating: 0, count: n * n), im = re
        for ky in 0..<n {
            for kx in 0..<n {
                let sx = kx > n / 2 ? kx - n : kx, sy = ky > n / 2 ? ky - n : ky
                let r = Double(sx * sx + sy * sy).squareRoot()
                guard r > 0 else { continue }
                let phase = 2 * Double.pi * Double(rng.next() >> 11) / 9007199254740992.0
                re[ky * n + kx] = cos(phase) / r
                im[ky * n + kx] = sin(phase) / r
            }
        }
        FFT(size: n).transform2D(re: &re, im: &im, sign: 1)
        let mean = re.reduce(0, +) / Double(re.count)
        let variance = re.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(re.count)
        return re.map { ($0 - mean) / variance.squareRoot() }
    }

    /// 512 x 384 (no reduction: k = 1), bands at f = (12, 5) / 128 cycle per pixel, whose
    /// radial frequency is 13 / 128 = 0.1015625 (a 5-12-13 triangle) at atan2(5, 12) =
    /// 22.62 degrees; red, green and blue shifted by 0, 120 and 240 degrees (amplitude 40).
    /// The chroma oscillates with amplitude sqrt(3) 40 (C1) while the luma keeps only
    /// |0.299 + 0.587 e^(i 120) + 0.114 e^(i 240)| 40 = 16.5 levels. Red against green is
    /// -120 degrees, blue against green +120.
    @Test func chromaticBandIsDetectedAtItsFrequency() throws {
        let degree = Double.pi / 180
        let image = Self.bands(
            width: 512, height: 384, fx: 12.0 / 128, fy: 5.0 / 128, amplitude: 40,
            phases: [0, 120 * degree, 240 * degree])
        let r = MoireAnalyzerV2().analyze(image)
        #expect(r.status == .completed)
        #expect(r.analysisFactor == 1)
        #expect(r.detected == true)
        #expect(try #require(r.bandConfidence) > 0.99)
        let frequency = try #require(r.bandFrequency)
        #expect(abs(frequency - 13.0 / 128) < 0.25 / 128, "band frequency \(frequency)")
        #expect(abs(try #require(r.bandPeriodPx) - 128.0 / 13) < 0.25)
        #expect(abs(try #require(r.bandAngle) - atan2(5.0, 12.0) / degree) < 1.5)
        #expect(try #require(r.chromaLumaRatio) > 10)
        #expect(abs(try #require(r.phaseRedGreen) + 120) < 3)
        #expect(abs(try #require(r.phaseBlueGreen) - 120) < 3)
        // One straight family of bands over the frame.
        #expect(try #require(r.orientationCoherence) > 0.99)
        #expect(r.tilesWithBands == r.texturedTiles)
    }

    /// The same bands reduced: 1600 x 1200 (k = 2) with f = (12, 5) / 256 cycle per
    /// full-resolution pixel is (12, 5) / 128 at the analysis scale (2 x 2 box means); the
    /// full-resolution period is 256 / 13 = 19.69 px.
    @Test func bandFrequencyIsReportedAtBothScales() throws {
        let degree = Double.pi / 180
        let image = Self.bands(
            width: 1600, height: 1200, fx: 12.0 / 256, fy: 5.0 / 256, amplitude: 30,
            phases: [0, 90 * degree, 180 * degree])
        let r = MoireAnalyzerV2().analyze(image)
        #expect(r.analysisFactor == 2)
        #expect(r.detected == true)
        #expect(abs(try #require(r.bandFrequency) - 13.0 / 128) < 0.25 / 128)
        #expect(abs(try #require(r.bandPeriodPx) - 256.0 / 13) < 0.5)
    }

    /// Gray bands (the same cosine in R, G and B): luma oscillates, chroma is exactly 0,
    /// so no tile has a chroma prominence and the band part stays at 0 whatever moire/1's
    /// peaks say about the luma grating.
    @Test func grayBandIsNotChromatic() throws {
        let image = Self.bands(
            width: 512, height: 384, fx: 12.0 / 128, fy: 5.0 / 128, amplitude: 40, phases: [0, 0, 0], sigma: 0)
        let r = MoireAnalyzerV2().analyze(image)
        #expect(r.status == .completed)
        #expect(r.bandEvidence == 0)
        #expect(r.bandConfidence == 0)
        #expect(r.tilesWithBands == 0)
        #expect(r.chromaLumaRatio == 0)
        var bandOnly = MoireAnalyzerV2.Configuration()
        bandOnly.usePeaks = false
        let b = try MoireAnalyzerV2(configuration: bandOnly).analyze(image)
        #expect(b.score == 1)
        #expect(b.detected == false)
        #expect(b.peakConfidence == nil)
    }

    /// Pink noise in luma (std 30 levels) with independent weaker pink chroma (std 8): the
    /// statistics of natural images without any periodic structure. Real.
    @Test(arguments: [UInt64(1), 2, 3])
    func pinkNoiseScoresReal(seed: UInt64) throws {
        let n = 512
        let luma = Self.pinkField(n: n, seed: seed)
        let c1 = Self.pinkField(n: n, seed: seed + 100), c2 = Self.pinkField(n: n, seed: seed + 200)
        var samples = [UInt8](repeating: 0, count: n * n * 3)
        for i in 0..<(n * n) {
            let y = 128 + 30 * luma[i], a = 8 * c1[i], b = 8 * c2[i]
            // Invert Y = G + 0.356 C1 - 0.114 C2, R = G + C1, B = G + C1 / 2 - C2.
            let g = y - 0.356 * a + 0.114 * b
            for (c, v) in [g + a, g, g + a / 2 - b].enumerated() {
                samples[i * 3 + c] = UInt8(max(0, min(255, v.rounded())))
            }
        }
        let image = Image8(width: n, height: n, channels: 3, samples: samples)!
        let r = MoireAnalyzerV2().analyze(image)
        #expect(r.status == .completed)
        #expect(try #require(r.bandConfidence) < 0.1)
        #expect(try #require(r.score) > 0.5)
        #expect(r.detected == false)
    }

    @Test func tinyImageIsUnavailable() {
        let image = Image8(width: 20, height: 20, channels: 3, samples: [UInt8](repeating: 90, count: 1200))!
        let r = MoireAnalyzerV2().analyze(image)
        #expect(r.status == .unavailable)
        #expect(r.score == nil)
        #expect(r.unavailableReason?.contains("20 x 20") == true)
    }

    /// A 1 x 5000 strip: the analysis scale is 1/6 (833 x 0), no tile fits.
    @Test func stripIsUnavailable() {
        let image = Image8(width: 5000, height: 1, channels: 3, samples: [UInt8](repeating: 9, count: 15000))!
        #expect(MoireAnalyzerV2().analyze(image).status == .unavailable)
    }

    @Test(arguments: [1, 2, 3, 4])
    func constantImageIsUnavailable(channels: Int) {
        let image = Image8(
            width: 300, height: 200, channels: channels, samples: [UInt8](repeating: 200, count: 60000 * channels))!
        let r = MoireAnalyzerV2().analyze(image)
        #expect(r.status == .unavailable)
        #expect(r.unavailableReason?.contains("flat image") == true)
    }

    /// Black and white halves (0 and 255 saturated): completed, a defined score in 0...1,
    /// no chroma.
    @Test func saturatedGrayIsDefined() throws {
        var samples = [UInt8](repeating: 0, count: 256 * 256 * 3)
        for i in 0..<(256 * 128 * 3) { samples[i] = 255 }
        let r = MoireAnalyzerV2().analyze(Image8(width: 256, height: 256, channels: 3, samples: samples)!)
        #expect(r.status == .completed)
        let score = try #require(r.score)
        #expect(score >= 0 && score <= 1)
        #expect(r.bandEvidence == 0)
    }

    @Test func configurationIsValidated() {
        var c = MoireAnalyzerV2.Configuration()
        c.tileSize = 100
        #expect(throws: ConfigurationError.self) { try MoireAnalyzerV2(configuration: c) }
        c = .standard
        c.bandLow = 0.3
        #expect(throws: ConfigurationError.self) { try MoireAnalyzerV2(configuration: c) }
        c = .standard
        c.evidenceScale = .nan
        #expect(throws: ConfigurationError.self) { try MoireAnalyzerV2(configuration: c) }
        #expect(throws: Never.self) { try MoireAnalyzerV2(configuration: .standard) }
    }

    @Test func resultRoundTripsThroughJSON() throws {
        let degree = Double.pi / 180
        let image = Self.bands(
            width: 256, height: 256, fx: 20.0 / 128, fy: 0, amplitude: 30, phases: [0, 100 * degree, 200 * degree])
        let r = MoireAnalyzerV2().analyze(image)
        let data = try JSONEncoder().encode(r)
        #expect(try JSONDecoder().decode(MoireAnalyzerV2.Result.self, from: data) == r)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"band_frequency\""))
        #expect(text.contains("\"orientation_coherence\""))
    }
}
