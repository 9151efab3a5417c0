import Foundation
import RialMedia
import Testing

@testable import RialDetection

/// Test images for moire/1 built from formulas: gray (1-channel) sums of 2D cosine
/// gratings on a mid-grey background plus seeded Gaussian noise (the noise also dithers
/// the 8-bit rounding, so rounding adds no harmonics of the gratings).
enum MoireScenes {
    /// One grating: `amplitude cos(2 pi (fx x + fy y) + phase)` in luma levels, f in
    /// cycles per pixel.
    struct Grating {
        var fx: Double
        var fy: Double
        var amplitude: Double
        var phase: Double = 0.3
    }

    static func gray(
        width: Int, height: Int, gratings: [Grating], noise sigma: Double = 3, seed: UInt64 = 7,
        extra: ((Int, Int) -> Double)? = nil
    ) -> Image8 {
        var rng = SplitMix64(seed: seed)
        var samples = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                var v = 128.0
                for g in gratings {
                    v += g.amplitude * cos(2 * Double.pi * (g.fx * Double(x) + g.fy * Double(y)) + g.phase)
                }
                if let extra { v += extra(x, y) }
                let u1 = (Double(rng.next() >> 11) + 0.5) / 9007199254740992.0
                let u2 = Double(rng.next() >> 11) / 9007199254740992.0
                v += sigma * (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
                samples[y * width + x] = UInt8(max(0, min(255, v.rounded())))
            }
        }
        return Image8(width: width, height: height, channels: 1, samples: samples)!
    }

    /// `gray` copied into three equal channels (an RGB image of a grey scene).
    static func rgb(_ image: Image8) -> Image8 {
        var samples = [UInt8](repeating: 0, count: image.samples.count * 3)
        for i in image.samples.indices {
            samples[3 * i] = image.samples[i]
            samples[3 * i + 1] = image.samples[i]
            samples[3 * i + 2] = image.samples[i]
        }
        return Image8(width: image.width, height: image.height, channels: 3, samples: samples)!
    }
}

@Suite struct MoireTests {
    let analyzer = MoireAnalyzer()

    /// A single cosine grating at f = (48, 20) / 256 cycles per pixel (on a bin of the
    /// 256-px tile, off the 1/8 lattice): exactly one peak (the conjugate pair f, -f
    /// counts once), at f within one bin, angle atan2(20, 48) = 22.62 degrees, radial
    /// frequency |f| = 52/256, amplitude 40 levels (Hann coherent gain makes the DFT peak
    /// a n² / 8, i.e. 40 back), and a confident detection.
    @Test func gratingGivesOnePeakAtItsFrequency() throws {
        let f = (48.0 / 256, 20.0 / 256)
        let image = MoireScenes.gray(width: 640, height: 512, gratings: [.init(fx: f.0, fy: f.1, amplitude: 40)])
        let r = analyzer.analyze(image)
        #expect(r.status == .completed)
        #expect(r.tileSize == 256)
        let peaks = try #require(r.peaks)
        #expect(peaks.count == 1)
        let p = try #require(peaks.first)
        #expect(abs(p.fx - f.0) <= 1.0 / 256 && abs(p.fy - f.1) <= 1.0 / 256)
        #expect(abs(p.frequency - 52.0 / 256) <= 1.0 / 256)
        #expect(abs(p.angle - atan2(20.0, 48.0) * 180 / Double.pi) < 0.5)
        #expect(abs(p.amplitude - 40) < 0.8)
        #expect(p.prominence >= 3 && p.magnitude > log10(3.0))
        #expect(r.detected == true)
        #expect(r.confidence! > 0.99)
        #expect(r.score! < 0.01)
        #expect(r.band == [0.06, 0.45])
    }

    /// The same grating with f = (-0.15, 0.2) (a wave vector in the left half plane) is
    /// reported once as its conjugate (0.15, -0.2), angle 180 - 53.13 = 126.87 degrees
    /// (angles in [0, 180)). Off-bin frequencies are refined to within a bin.
    @Test func negativeFrequencyIsReportedOnceInTheHalfPlane() throws {
        let image = MoireScenes.gray(width: 512, height: 512, gratings: [.init(fx: -0.15, fy: 0.2, amplitude: 25)])
        let r = analyzer.analyze(image)
        let peaks = try #require(r.peaks)
        #expect(peaks.count == 1)
        let p = try #require(peaks.first)
        #expect(abs(p.fx - 0.15) <= 1.0 / 256 && abs(p.fy + 0.2) <= 1.0 / 256)
        #expect(abs(p.angle - (180 - atan2(0.2, 0.15) * 180 / Double.pi)) < 0.5)
        #expect(abs(p.frequency - 0.25) <= 1.0 / 256)
    }

    /// Noise alone (white, sigma 8) has no periodic component: no detection, score near 1.
    @Test func whiteNoiseIsNotDetected() throws {
        let r = analyzer.analyze(MoireScenes.rgb(MoireScenes.gray(width: 512, height: 384, gratings: [], noise: 8)))
        #expect(r.status == .completed)
        #expect(r.detected == false)
        #expect(r.screenType == nil)
        #expect(r.score! > 0.95)
    }

    /// Physical layouts as gratings. LCD stripes: the stripe fundamental along x at
    /// 0.3 cycles per pixel and the weaker black-matrix rows along y (amplitude ratio
    /// sinc(h) / (0.41 sinc(w/3)) ~ 0.5 for h = 0.8): both on the axes -> `lcd`.
    /// PenTile: the R/B checkerboard (1/2p)(1, +-1) for p = 2.2 px, two equal peaks on
    /// the diagonals -> `oled`.
    @Test func screenTypeFollowsTheLayoutGeometry() {
        let lcd = MoireScenes.gray(
            width: 512, height: 512,
            gratings: [
                .init(fx: 0.3, fy: 0, amplitude: 12), .init(fx: 0, fy: 0.3, amplitude: 6),
            ])
        let rl = analyzer.analyze(lcd)
        #expect(rl.detected == true)
        #expect(rl.screenType == .lcd)

        let q = 1 / (2 * 2.2)
        let oled = MoireScenes.gray(
            width: 512, height: 512,
            gratings: [
                .init(fx: q, fy: q, amplitude: 8), .init(fx: q, fy: -q, amplitude: 8, phase: 1.1),
            ])
        let ro = analyzer.analyze(oled)
        #expect(ro.detected == true)
        #expect(ro.screenType == .oled)
        #expect(ro.peaks?.count == 2)
        let angles = (ro.peaks ?? []).map(\.angle).sorted()
        #expect(angles.count == 2 && abs(angles[0] - 45) < 1 && abs(angles[1] - 135) < 1)
    }

    /// The JPEG block grid: a 3-level step at every 8th column and row (the blocking of a
    /// coarsely quantised JPEG) puts all its energy at multiples of 1/8 cycle per pixel.
    /// Excluded by default (no detection); with the exclusion off (`jpeg_grid_radius` -1)
    /// the same image shows peaks at (a/8, b/8).
    @Test func jpegBlockGridIsExcluded() throws {
        let image = MoireScenes.gray(width: 512, height: 512, gratings: [], noise: 2) { x, y in
            (x % 8 == 0 ? 3 : 0) + (y % 8 == 0 ? 3 : 0)
        }
        let r = analyzer.analyze(image)
        #expect(r.detected == false)
        for p in r.peaks ?? [] {
            let ax = (p.fx * 8).rounded(), ay = (p.fy * 8).rounded()
            #expect(abs(p.fx * 256 - ax * 32) > 1 || abs(p.fy * 256 - ay * 32) > 1, "peak on the JPEG lattice: \(p)")
        }
        var c = MoireAnalyzer.Configuration()
        c.jpegGridRadius = -1
        let open = try MoireAnalyzer(configuration: c).analyze(image)
        let onLattice = (open.peaks ?? []).filter { p in
            abs(p.fx * 8 - (p.fx * 8).rounded()) * 32 <= 1 && abs(p.fy * 8 - (p.fy * 8).rounded()) * 32 <= 1
        }
        #expect(!onLattice.isEmpty)
        #expect(open.detected == true)
    }

    /// Images smaller than the 256 tile use the largest power of two that fits
    /// (200 x 150 -> 128), down to 64; the 1/8-cycle grid and the band scale with it.
    @Test func smallImagesUseSmallerTiles() throws {
        let image = MoireScenes.gray(width: 200, height: 150, gratings: [.init(fx: 0.2, fy: 0.1, amplitude: 30)])
        let r = analyzer.analyze(image)
        #expect(r.status == .completed)
        #expect(r.tileSize == 128)
        let p = try #require(r.peaks?.first)
        #expect(abs(p.fx - 0.2) <= 1.0 / 128 && abs(p.fy - 0.1) <= 1.0 / 128)
        let tiny = analyzer.analyze(
            MoireScenes.gray(width: 70, height: 64, gratings: [.init(fx: 0.2, fy: 0.1, amplitude: 30)]))
        #expect(tiny.status == .completed && tiny.tileSize == 64 && tiny.tileCount == 1)
    }

    /// Tile grid: 4 x 3 tiles edge to edge on a 12 MP frame, fewer (50% overlap at most)
    /// on small frames; origins computed by hand.
    @Test func tilePlacement() {
        let c = MoireAnalyzer.Configuration()
        let big = MoireAnalyzer.tileOrigins(width: 4032, height: 3024, tile: 256, configuration: c)
        #expect(big.count == 12)
        #expect(big.first! == (x: 0, y: 0) && big.last! == (x: 3776, y: 2768))
        #expect(big[1] == (x: 1258, y: 0)) // 3776 / 3 = 1258.67
        let small = MoireAnalyzer.tileOrigins(width: 640, height: 480, tile: 256, configuration: c)
        // columns = min(4, 2*640/256 - 1 = 4), rows = min(3, 2*480/256 - 1 = 2)
        #expect(small.map { $0.x }.prefix(4) == [0, 128, 256, 384])
        #expect(Set(small.map { $0.y }) == [0, 224])
    }

    @Test(arguments: [(63, 500), (500, 40), (1, 1)])
    func tooSmallIsUnavailable(width: Int, height: Int) {
        let image = Image8(width: width, height: height, channels: 3)
        let r = analyzer.analyze(image)
        #expect(r.status == .unavailable)
        #expect(r.score == nil && r.detected == nil && r.peaks == nil)
        #expect(r.unavailableReason?.contains("smaller than the minimum tile") == true)
    }

    @Test func constantImageIsUnavailable() {
        var image = Image8(width: 640, height: 480, channels: 3)
        image.samples = [UInt8](repeating: 200, count: 640 * 480 * 3)
        let r = analyzer.analyze(image)
        #expect(r.status == .unavailable)
        #expect(r.unavailableReason?.contains("flat image") == true)
        #expect(r.score == nil)
        #expect(r.analysisTimeMs >= 0)
    }

    /// A buffer that no longer matches the size (emptied after construction) and a
    /// two-channel (gray + alpha) image: unavailable, resp. analysed on the gray channel.
    @Test func emptyBufferAndGrayAlpha() throws {
        var image = Image8(width: 300, height: 300, channels: 1)
        image.samples = []
        let r = analyzer.analyze(image)
        #expect(r.status == .unavailable)
        #expect(r.unavailableReason?.contains("expected 300 x 300 x 1") == true)

        let gray = MoireScenes.gray(width: 256, height: 256, gratings: [.init(fx: 0.3, fy: 0.2, amplitude: 20)])
        var withAlpha = [UInt8](repeating: 255, count: 256 * 256 * 2)
        for i in 0..<(256 * 256) { withAlpha[2 * i] = gray.samples[i] }
        let ga = analyzer.analyze(try #require(Image8(width: 256, height: 256, channels: 2, samples: withAlpha)))
        #expect(ga.status == .completed && ga.detected == true)
        let p = try #require(ga.peaks?.first)
        #expect(abs(p.fx - 0.3) <= 1.0 / 256 && abs(p.fy - 0.2) <= 1.0 / 256)
    }
}
