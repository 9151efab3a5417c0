import Foundation
import RialMedia
import RialSynth
import Testing

@testable import RialDetection

/// Test images for `artifacts/1`, built here from their definitions (seeded noise,
/// gratings, rectangles), independently of the analyzer.
enum ArtifactImages {
    /// Uniform noise in `base ± amplitude` per channel (independent channels: coloured
    /// texture), seeded SplitMix64.
    static func noise(
        width: Int, height: Int, channels: Int = 3, base: Double = 110, amplitude: Double = 40,
        seed: UInt64 = 7
    ) -> [Double] {
        var rng = SplitMix64(seed: seed)
        return (0..<(width * height * channels)).map { _ in
            base + amplitude * (2 * Double(rng.next() >> 11) / 9007199254740992.0 - 1)
        }
    }

    static func image(_ values: [Double], width: Int, height: Int, channels: Int = 3) -> Image8 {
        let bytes = values.map { UInt8(min(max($0.rounded(), 0), 255)) }
        return Image8(width: width, height: height, channels: channels, samples: bytes)!
    }

    /// Noise texture times the row gain `1 + depth sin(2 pi y / period)`: rolling-shutter
    /// banding of period `period` rows.
    static func banded(width: Int, height: Int, period: Double, depth: Double) -> Image8 {
        var v = noise(width: width, height: height)
        for y in 0..<height {
            let gain = 1 + depth * sin(2 * Double.pi * Double(y) / period)
            for i in (y * width * 3)..<((y + 1) * width * 3) { v[i] *= gain }
        }
        return image(v, width: width, height: height)
    }

    /// Luma 128 + sum of cosine gratings of period `period` px in directions `angles`
    /// (degrees, from x towards +y), amplitude `amplitude` each, plus noise ±10: the
    /// first harmonics of square dot screens at those angles (each screen also gets its
    /// perpendicular grating, as a square lattice of dots has).
    static func screens(
        width: Int, height: Int, period: Double, angles: [Double], amplitude: Double = 12,
        seed: UInt64 = 3
    ) -> Image8 {
        var v = noise(width: width, height: height, channels: 1, base: 128, amplitude: 10, seed: seed)
        let directions = angles.flatMap { [$0, $0 + 90] }.map { $0 * Double.pi / 180 }
        for y in 0..<height {
            for x in 0..<width {
                var s = 0.0
                for a in directions {
                    s += cos(2 * Double.pi * (Double(x) * cos(a) + Double(y) * sin(a)) / period)
                }
                v[y * width + x] += amplitude * s
            }
        }
        return image(v, width: width, height: height, channels: 1)
    }

    /// A smooth coloured background with a bright neutral rectangle (value `level`) covering
    /// `[x0, x1) x [y0, y1)`, its border a linear ramp `ramp` px wide (1 = a step).
    static func highlight(
        width: Int, height: Int, rect: (Int, Int, Int, Int), level: Double = 248,
        ramp: Int = 1
    ) -> Image8 {
        // Smooth coloured background (saturation about 0.3-0.7) with a little noise.
        var v = noise(width: width, height: height, base: 0, amplitude: 4)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                v[i] += 100 + 30 * sin(Double(x) / 40)
                v[i + 1] += 90 + 30 * cos(Double(y) / 50)
                v[i + 2] += 50
            }
        }
        let (x0, y0, x1, y1) = rect
        for y in 0..<height {
            for x in 0..<width {
                // Distance inside the rectangle, px (negative outside).
                let inside = Double(min(x - x0, x1 - 1 - x, y - y0, y1 - 1 - y))
                let w = min(max((inside + 1) / Double(ramp), 0), 1)
                for ch in 0..<3 {
                    let i = (y * width + x) * 3 + ch
                    v[i] = (1 - w) * v[i] + w * level
                }
            }
        }
        return image(v, width: width, height: height)
    }
}

@Suite struct ArtifactTests {
    let analyzer = ArtifactAnalyzer()

    // MARK: PWM banding

    @Test func bandingAtKnownPeriodIsDetected() {
        let period = 37.0
        let r = analyzer.analyze(ArtifactImages.banded(width: 480, height: 480, period: period, depth: 0.08))
        #expect(r.status == .completed)
        #expect(r.pwmFlickerDetected == true)
        #expect(abs((r.pwmPeriodRows ?? 0) - period) <= 0.03 * period)
        #expect((r.pwmCoherence ?? 0) > 0.8)
        let plain = analyzer.analyze(ArtifactImages.banded(width: 480, height: 480, period: period, depth: 0))
        #expect(plain.pwmFlickerDetected == false)
        #expect((plain.pwmConfidence ?? 1) < (r.pwmConfidence ?? 0))
    }

    // MARK: Halftone

    @Test func rosetteOfScreensIsDetectedAtItsPeriod() {
        // C, M, K screens at 15, 75, 45 degrees (Y at 0 carries little luma contrast).
        let image = ArtifactImages.screens(width: 320, height: 320, period: 4.5, angles: [15, 75, 45])
        let r = analyzer.analyze(image)
        #expect(r.halftoneDetected == true)
        #expect(abs((r.halftonePeriodPx ?? 0) - 4.5) <= 0.1 * 4.5)
        let angles = r.halftoneAnglesDeg ?? []
        #expect(angles.count == 3)
        // Modulo 90 the three directions are 15, 45 and 75 (each within 3 degrees).
        let classes = angles.map { $0.truncatingRemainder(dividingBy: 90) }.sorted()
        for (measured, expected) in zip(classes, [15.0, 45, 75]) { #expect(abs(measured - expected) <= 3) }
    }

    @Test func squarePixelGridIsNotAHalftone() {
        // A display's square pixel grid: peaks in two directions (0 and 90 degrees), one
        // class modulo 90; no three directions 30 degrees apart.
        let grid = ArtifactImages.screens(width: 320, height: 320, period: 4.5, angles: [0])
        let r = analyzer.analyze(grid)
        #expect(r.halftoneDetected == false)
        #expect(r.halftonePeakRatio == 0)
    }

    // MARK: Specular

    @Test func sharpNeutralRectangleIsGlare() {
        // 160 x 90 px of 640 x 480: area fraction 0.0469.
        let sharp = analyzer.analyze(ArtifactImages.highlight(width: 640, height: 480, rect: (300, 100, 460, 190)))
        let region = sharp.specularRegions?.first
        #expect(abs((region?.areaFraction ?? 0) - 160.0 * 90 / (640 * 480)) < 0.01)
        #expect((region?.regularity ?? 0) > 0.9)
        #expect((region?.meanSaturation ?? 1) < 0.05)
        #expect(sharp.specularPatternDetected == true)
        // The same patch with a 60-px soft border: a diffuse highlight, not a reflection.
        let soft = analyzer.analyze(
            ArtifactImages.highlight(width: 640, height: 480, rect: (300, 100, 460, 190), ramp: 60))
        #expect((soft.specularConfidence ?? 1) < (sharp.specularConfidence ?? 0))
        #expect((soft.specularRegions?.first?.borderSharpness ?? 1) < (region?.borderSharpness ?? 0))
    }

    // MARK: Synthetic captures with physical ground truth (RialSynth)

    /// A frontal LCD capture, 640 x 480, with the given flicker and glare.
    static func screenCapture(flicker: FlickerParameters?, glare: GlareParameters?) -> SynthCapture {
        var p = SynthGenerator.sampleParameters(index: 3, seed: 11, class: .lcdScreen, width: 640, height: 480)
        p.subject.tiltDeg = 5
        p.subject.rotationDeg = 0
        p.subject.fillFraction = 0.9
        p.subject.offsetX = 0
        p.subject.offsetY = 0
        p.display?.flicker = flicker
        p.glare = glare
        return SynthGenerator.render(p)
    }

    @Test func rollingShutterBandsOfAFlickeringScreenAreFoundAtThePredictedPeriod() {
        // 1 kHz PWM, 25 us per row: bands every 1 / (1000 * 25e-6) = 40 rows. Exposure 1.5 ms
        // = 1.5 periods, so the bands do not cancel (they vanish when exposure x f is an integer).
        let flicker = FlickerParameters(
            hz: 1000, dutyCycle: 0.5, modulationDepth: 0.8, rowTimeUs: 25,
            exposureMs: 1.5, phase: 0.3)
        let expected = Double(flicker.bandPeriodRows)
        #expect(abs(expected - 40) < 1e-3)
        let flickering = analyzer.analyze(Self.screenCapture(flicker: flicker, glare: nil).image)
        #expect(flickering.pwmFlickerDetected == true)
        #expect(abs((flickering.pwmPeriodRows ?? 0) - expected) <= 0.05 * expected)

        // Glossy glass mirroring a bright 1.2 x 0.9 m window, no flicker.
        let glare = GlareParameters(
            radiance: 30, fresnelF0: 0.05, roughnessRad: 0.003, lightSizeM: [1.2, 0.9],
            lightDistanceM: 2, spot: [0.5, 0.5])
        let glossy = analyzer.analyze(Self.screenCapture(flicker: nil, glare: glare).image)
        #expect(glossy.pwmFlickerDetected == false)
        #expect((glossy.pwmConfidence ?? 1) < 0.5)
        #expect((glossy.specularConfidence ?? 0) > (flickering.specularConfidence ?? 1))
    }

    @Test func halftonePrintIsDetectedAtItsRuling() {
        var p = SynthGenerator.sampleParameters(index: 5, seed: 11, class: .printedPaper, width: 640, height: 480)
        p.subject.tiltDeg = 0
        p.subject.rotationDeg = 0
        p.subject.curvaturePerM = 0
        p.subject.fillFraction = 1.2
        p.subject.offsetX = 0
        p.subject.offsetY = 0
        p.glare = nil
        p.print?.periodPx = 5
        p.print?.screenAnglesDeg = [15, 75, 0, 45]
        // Colour content, so that the C, M and K screens all carry ink (black text on
        // white would print with the K screen alone: no rosette).
        p.content = ContentParameters(kind: .scene, seed: 42)
        let printed = analyzer.analyze(SynthGenerator.render(p).image)
        #expect(printed.halftoneDetected == true)
        // The ruling is defined at the subject centre for a frontal sheet: 5 px.
        #expect(abs((printed.halftonePeriodPx ?? 0) - 5) <= 0.1 * 5)
        #expect(printed.isLikelyArtificial == true)

        let real = SynthGenerator.generate(index: 0, seed: 11, class: .realScene, width: 640, height: 480)
        let scene = analyzer.analyze(real.image)
        #expect(scene.halftoneDetected == false)
        #expect((scene.score ?? 0) > (printed.score ?? 1))
    }

    // MARK: Unavailable and degenerate input

    @Test func tinyImageIsUnavailableWithEveryReason() {
        let r = analyzer.analyze(
            ArtifactImages.image(ArtifactImages.noise(width: 10, height: 10), width: 10, height: 10))
        #expect(r.status == .unavailable)
        #expect(r.score == nil && r.overallConfidence == nil)
        #expect(
            r.pwmUnavailableReason != nil && r.specularUnavailableReason != nil && r.halftoneUnavailableReason != nil)
        #expect(r.unavailableReason != nil)
        #expect(r.analysisTimeMs >= 0)
    }

    @Test func constantImageIsUnavailable() {
        let r = analyzer.analyze(Image8(width: 640, height: 480, channels: 3))
        #expect(r.status == .unavailable)
        #expect(r.unavailableReason?.contains("constant") == true)
        #expect(r.score == nil)
        var white = Image8(width: 300, height: 300, channels: 1)
        for i in white.samples.indices { white.samples[i] = 255 }
        #expect(analyzer.analyze(white).status == .unavailable)
    }

    @Test func mismatchedSampleBufferIsUnavailable() {
        var image = Image8(width: 64, height: 64, channels: 3)
        image.samples.removeLast(5)
        let r = analyzer.analyze(image)
        #expect(r.status == .unavailable)
        #expect(r.unavailableReason?.contains("samples") == true)
    }

    @Test func smallImagesRunTheDetectorsThatFit() {
        // 64 x 64: too short for PWM (< 128 rows) and smaller than a 256-px tile; glare runs.
        let small = analyzer.analyze(
            ArtifactImages.image(ArtifactImages.noise(width: 64, height: 64), width: 64, height: 64))
        #expect(small.status == .completed)
        #expect(small.pwmConfidence == nil && small.pwmUnavailableReason != nil)
        #expect(small.halftoneConfidence == nil && small.halftoneUnavailableReason != nil)
        #expect(small.specularConfidence != nil)
        // Only the glare detector contributes: overall is its confidence alone.
        #expect(small.overallConfidence == small.specularConfidence)

        // One channel, 300 x 200: PWM and glare run, the halftone tile does not fit.
        let gray = analyzer.analyze(
            ArtifactImages.image(
                ArtifactImages.noise(width: 300, height: 200, channels: 1),
                width: 300, height: 200, channels: 1))
        #expect(gray.status == .completed)
        #expect(gray.pwmConfidence != nil && gray.specularConfidence != nil)
        #expect(gray.halftoneUnavailableReason != nil)
        if let s = gray.score { #expect(s.isFinite && (0...1).contains(s)) }
    }

    @Test func overallIsTheReferenceWeightedMean() throws {
        let r = analyzer.analyze(ArtifactImages.banded(width: 512, height: 384, period: 29, depth: 0.1))
        let pwm = try #require(r.pwmConfidence), specular = try #require(r.specularConfidence)
        let halftone = try #require(r.halftoneConfidence)
        let overall = 0.35 * pwm + 0.30 * specular + 0.35 * halftone
        #expect(abs((r.overallConfidence ?? -1) - overall) < 1e-12)
        #expect(abs((r.score ?? -1) - (1 - overall)) < 1e-12)
        // Strong banding alone (> 0.7) makes the capture likely artificial.
        #expect(pwm > 0.7)
        #expect(r.isLikelyArtificial == true)
    }
}
