import Foundation
import RialMedia
import Testing

@testable import RialSynth

/// The phone ISP stages and the display's cover glass against hand-computed values.
@Suite struct ImageSignalProcessorTests {
    /// y(x) = x^a / (x^(a d) b + c) passes through (m, o) and (1, 1) and rises
    /// monotonically, over the corners of the sampled ranges and dim metering.
    @Test(arguments: [
        (Float(0.18), Float(0.2), Float(1.25), Float(0.95)), (0.05, 0.24, 1.4, 0.92),
        (0.24, 0.16, 1.1, 0.98), (0.02, 0.16, 1.4, 0.98), (0.5, 0.24, 1.1, 0.92),
    ])
    func toneCurveAnchorsAndMonotony(_ m: Float, _ o: Float, _ a: Float, _ d: Float) {
        let curve = ToneCurve(midIn: m, midOut: o, contrast: a, shoulder: d)
        #expect(abs(curve(m) - o) < 1e-4 * max(o, 1), "y(m) = \(curve(m))")
        #expect(abs(curve(1) - 1) < 1e-5, "y(1) = \(curve(1))")
        var previous: Float = 0
        for k in 1...1000 {
            let y = curve(Float(k) / 1000)
            #expect(y > previous, "not rising at \(Float(k) / 1000)")
            previous = y
        }
        // The table holds sRGB(y(s^2)) at s = k / (size - 1).
        let k = 1234, s = Float(k) / Float(ToneCurve.size - 1)
        #expect(abs(curve.table[k] - ColorScience.linearToSrgb(curve(s * s))) < 1e-6)
    }

    /// Crosstalk keeps white (rows sum to 1) and the colour correction inverts it.
    @Test func crosstalkMatrixAndInverse() {
        let m = ImageSignalProcessor.crosstalkMatrix(0.2)
        let white = m.apply(Vec3(1, 1, 1))
        #expect(abs(white.x - 1) < 1e-6 && abs(white.y - 1) < 1e-6 && abs(white.z - 1) < 1e-6)
        // R' = 0.8 R + 0.15 G + 0.05 B for x = 0.2.
        #expect(abs(m.apply(Vec3(1, 0, 0)).x - 0.8) < 1e-6 && abs(m.apply(Vec3(0, 0, 1)).x - 0.05) < 1e-6)
        let v = Vec3(0.7, 0.2, 0.05)
        let back = m.inverse.apply(m.apply(v))
        #expect(abs(back.x - v.x) < 1e-5 && abs(back.y - v.y) < 1e-5 && abs(back.z - v.z) < 1e-5)
    }

    /// Fresnel reflection of a uniform room: F0 * L at normal incidence; at 80 degrees
    /// Schlick gives F = 0.04 + 0.96 (1 - cos 80)^5 = 0.04 + 0.96 * 0.385324 = 0.409911.
    @Test func coverGlassFresnel() throws {
        var d = DisplayParameters(panelLayout: .rgbStripe, pixelPitchPx: 2)
        d.coverGlass = CoverGlassParameters(
            fresnelF0: 0.04, roomRadiance: 0.5, gradient: 0, windowRadiance: 0,
            photographerDarkening: 0)
        let glass = try #require(
            CoverGlass(
                parameters: d, normal: Vec3(0, 0, -1), up: Vec3(0, -1, 0),
                roomColour: Vec3(1, 1, 1)))
        let normal = glass.reflected(view: Vec3(0, 0, 1), normal: Vec3(0, 0, -1))
        #expect(abs(normal.y - 0.02) < 1e-6, "normal incidence \(normal.y)")
        let th: Float = 80 * .pi / 180
        let grazing = glass.reflected(view: Vec3(sin(th), 0, cos(th)), normal: Vec3(0, 0, -1))
        #expect(abs(grazing.y - 0.5 * 0.409911) < 2e-4, "80 degrees \(grazing.y)")
        // The photographer darkens the reflection where the view is perpendicular.
        d.coverGlass?.photographerDarkening = 0.6
        let dark = try #require(
            CoverGlass(
                parameters: d, normal: Vec3(0, 0, -1), up: Vec3(0, -1, 0),
                roomColour: Vec3(1, 1, 1)))
        #expect(abs(dark.reflected(view: Vec3(0, 0, 1), normal: Vec3(0, 0, -1)).y - 0.02 * 0.4) < 1e-6)
    }

    /// Viewing angle at 60 degrees (s = 3/4), e = 0.5, black 0.002, leak 0.02, wash
    /// 0.4, no tint, F0 0.04: lifted 0.5 + 0.3 * 0.25 = 0.575, black 0.017,
    /// 0.017 + 0.983 * 0.575 = 0.582225, times 1 - F(0.5) = 1 - (0.04 + 0.96 / 32) = 0.93:
    /// 0.541469. Head-on: (0.002 + 0.998 * 0.5) * 0.96.
    @Test func viewingAngleWashout() throws {
        var d = DisplayParameters(panelLayout: .rgbStripe, pixelPitchPx: 2)
        d.coverGlass = CoverGlassParameters(fresnelF0: 0.04)
        d.viewingAngle = ViewingAngleParameters(blackLeak: 0.02, washout: 0.4, tint: [0, 0, 0])
        let glass = try #require(
            CoverGlass(
                parameters: d, normal: Vec3(0, 0, -1), up: Vec3(0, -1, 0),
                roomColour: Vec3(1, 1, 1)))
        let e = Vec3(0.5, 0.5, 0.5)
        #expect(abs(glass.emitted(e, black: 0.002, cosine: 0.5).x - 0.541469) < 1e-5)
        #expect(abs(glass.emitted(e, black: 0.002, cosine: 1).x - 0.501 * 0.96) < 1e-5)
    }

    static func flatRadiance(
        width: Int, height: Int, colour: Vec3, bright: Vec3? = nil,
        brightFraction: Float = 0
    ) -> RadianceImage {
        let n = width * height
        var base = [Float](repeating: 0, count: 3 * n)
        let columns = Int(Float(width) * brightFraction)
        for y in 0..<height {
            for x in 0..<width {
                let c = (bright != nil && x < columns) ? bright! : colour
                base[y * width + x] = c.x
                base[n + y * width + x] = c.y
                base[2 * n + y * width + x] = c.z
            }
        }
        return RadianceImage(width: width, height: height, base: base, detail: [], depth: [])
    }

    static func means(_ image: Image8, columns: Range<Int>) -> (Double, Double, Double) {
        var s = (0.0, 0.0, 0.0), count = 0.0
        for y in 0..<image.height {
            for x in columns {
                let i = 3 * (y * image.width + x)
                s.0 += Double(image.samples[i])
                s.1 += Double(image.samples[i + 1])
                s.2 += Double(image.samples[i + 2])
                count += 1
            }
        }
        return (s.0 / count, s.1 / count, s.2 / count)
    }

    /// A grey wall under 3000 K light: auto-exposure puts it at the metered mean, the
    /// tone curve maps that to midtone_output (0.2 linear = 124.1 in 8-bit sRGB), lens
    /// shading is corrected, and white balance (illuminant and grey world agreeing)
    /// makes it neutral.
    @Test func greyWallDevelopsToMidtoneOutputAndNeutral() {
        let light = ColorScience.illuminant(kelvin: 3000)
        let radiance = Self.flatRadiance(width: 256, height: 192, colour: Vec3(light.0, light.1, light.2) * 0.4)
        var sensor = TestScenes.quietSensor()
        sensor.vignetting = 0
        sensor.isp = ISPParameters(
            lensShading: 0.45, filterCrosstalk: 0.2, ccmError: 0, awbErrorR: 0, awbErrorB: 0,
            midtoneOutput: 0.2, localToneStrength: 0.3)
        var rng = SynthRandom(seed: 1, stream: 1)
        let image = CameraPipeline.develop(
            radiance, sensor: sensor, illuminant: Vec3(light.0, light.1, light.2), rng: &rng)
        let centre = Self.means(image, columns: 0..<256)
        let expected = Double(ColorScience.linearToSrgb(0.2)) * 255
        Measurement.log("grey wall: mean RGB \(centre), expected \(expected)")
        #expect(abs(centre.1 - expected) < 2.5, "green \(centre.1) vs \(expected)")
        #expect(abs(centre.0 - centre.1) < 2.5 && abs(centre.2 - centre.1) < 2.5, "not neutral: \(centre)")
        // Corners as bright as the centre (shading corrected, vignetting 0).
        let corner = Self.means(image, columns: 0..<16), middle = Self.means(image, columns: 120..<136)
        #expect(abs(corner.1 - middle.1) < 3, "corner \(corner.1) centre \(middle.1)")
    }

    /// Metering: a wall at 0.3 with 8 % of the frame at 6.0. Mean metering alone
    /// (E = 0.2 / 0.756) would put the bright area at 1.59 x full scale; the 98th
    /// percentile is in it, so E = 0.8 / 6 keeps it at 0.8 (tone curve with m = 0.745 E:
    /// y = 0.92, 245.8 in 8 bits).
    /// A 1 % area at 12.0 is below the percentile and clips.
    @Test func highlightMetering() {
        var sensor = TestScenes.quietSensor()
        sensor.isp = ISPParameters(
            highlightPercentile: 0.98, highlightTarget: 0.8, maxHighlightReductionEv: 2,
            localToneStrength: 0)
        let grey = Vec3(0.3, 0.3, 0.3)
        var rng = SynthRandom(seed: 2, stream: 1)
        let wide = CameraPipeline.develop(
            Self.flatRadiance(
                width: 256, height: 128, colour: grey,
                bright: Vec3(6, 6, 6), brightFraction: 0.08),
            sensor: sensor, rng: &rng)
        let wideBright = Self.means(wide, columns: 4..<16).1
        Measurement.log("8 % bright area: \(wideBright), wall \(Self.means(wide, columns: 100..<200).1)")
        #expect(wideBright < 250 && wideBright > 235, "8 % bright area at \(wideBright)")
        // The 98th percentile falls in the bright area (its 1/16-stop bin).
        let metered = ImageSignalProcessor.meter(
            base: Self.flatRadiance(
                width: 256, height: 128, colour: grey,
                bright: Vec3(6, 6, 6), brightFraction: 0.08
            ).base,
            detail: [], width: 256, height: 128, percentile: 0.98)
        #expect(abs(log2(metered.percentile / 6)) <= 1.0 / 32, "percentile \(metered.percentile)")
        let small = CameraPipeline.develop(
            Self.flatRadiance(
                width: 256, height: 128, colour: grey,
                bright: Vec3(12, 12, 12), brightFraction: 0.01),
            sensor: sensor, rng: &rng)
        #expect(Self.means(small, columns: 0..<1).1 > 253, "1 % area at 40 x the wall did not clip")
    }

    /// Moire still comes through the strongest noise reduction of the sampled ranges
    /// (chroma radius 6 px, luma NR 0.7 below tau 0.04): the plain LCD alias of a
    /// 1.8 px pitch at (1/1.8 - 1, 0) cycles/px stays a strong luma peak. (The physics
    /// tests in DisplayMoireTests measure without the ISP.)
    @Test(arguments: [Float(1.8), 2.6])
    func lcdMoireSurvivesProcessing(_ pitch: Float) {
        let n = DisplayMoireTests.size
        var p = TestScenes.display(layout: .rgbStripe, pitchPx: pitch, width: n, height: n)
        p.sensor.isp = ISPParameters(chromaDenoiseRadiusPx: 6, lumaDenoise: 0.7, lumaDenoiseThreshold: 0.04)
        p.sensor.sharpenAmount = 0
        let s = SignalAnalysis.powerSpectrum(SignalAnalysis.luma(SynthGenerator.render(p).image), size: n)
        let alias = DisplayMoireTests.fold((1 / Double(pitch), 0))
        let median = SignalAnalysis.medianPower(s, size: n, minRadius: 0.02)
        let (at, power) = DisplayMoireTests.localPeak(s, near: alias)
        Measurement.log(
            "LCD p=\(pitch) through the ISP: alias \(alias) measured \(at), peak/median \(Int(power / median))")
        #expect(power > 300 * median, "peak/median \(power / median)")
        #expect(hypot(at.0 - alias.0, at.1 - alias.1) * Double(n) <= 1.5)
    }
}
