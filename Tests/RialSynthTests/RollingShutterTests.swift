import Foundation
import RialMedia
import Testing

@testable import RialSynth

/// PWM flicker seen by a rolling shutter: rows start their exposure row_time apart, so
/// the row-mean profile oscillates with period 1 / (hz * row_time) rows, and not at all
/// when the exposure spans a whole number of PWM periods.
@Suite struct RollingShutterTests {
    static func rowProfile(_ image: Image8) -> [Double] {
        let luma = SignalAnalysis.luma(image)
        return (0..<image.height).map { y in
            (0..<image.width).reduce(0) { $0 + luma[y * image.width + $1] } / Double(image.width)
        }
    }

    /// DFT magnitude of the mean-removed profile at `f` cycles per row (Hann window).
    static func amplitude(_ v: [Double], _ f: Double) -> Double {
        let n = v.count, mean = v.reduce(0, +) / Double(n)
        var re = 0.0, im = 0.0
        for i in 0..<n {
            let w = 0.5 - 0.5 * cos(2 * .pi * Double(i) / Double(n - 1))
            re += (v[i] - mean) * w * cos(2 * .pi * f * Double(i))
            im -= (v[i] - mean) * w * sin(2 * .pi * f * Double(i))
        }
        return hypot(re, im)
    }

    @Test(arguments: [(Float(1000), Float(26.8)), (240, 120), (480, 30)])
    func bandPeriod(_ hz: Float, _ rowTimeUs: Float) {
        let flicker = FlickerParameters(
            hz: hz, dutyCycle: 0.4, modulationDepth: 1, rowTimeUs: rowTimeUs,
            exposureMs: 1.3 / hz * 1000, phase: 0.1)
        let p = TestScenes.display(layout: .rgbStripe, pitchPx: 3.3, width: 64, height: 512, flicker: flicker)
        let capture = SynthGenerator.render(p)
        ImageDump.write(capture.image, name: "flicker_\(hz)")
        let profile = Self.rowProfile(capture.image)
        let predictedPeriod = 1 / (Double(hz) * Double(rowTimeUs) * 1e-6)
        // Scan 1/64 ... 0.2 cycles per row finely.
        var best = (f: 0.0, a: 0.0)
        var f = 1.0 / 128
        while f < 0.2 {
            let a = Self.amplitude(profile, f)
            if a > best.a { best = (f, a) }
            f += 1e-4
        }
        let measured = 1 / best.f
        Measurement.log(
            "flicker \(hz) Hz, row \(rowTimeUs) us: band period measured \(measured) rows, predicted \(predictedPeriod)"
        )
        #expect(
            abs(measured - predictedPeriod) / predictedPeriod < 0.03,
            "measured \(measured), predicted \(predictedPeriod)")
    }

    /// Exposure = 2 PWM periods: every row integrates the same light; no bands.
    @Test func wholePeriodsCancel() {
        let hz: Float = 1000, rowTimeUs: Float = 26.8
        func bandAmplitude(exposureMs: Float) -> Double {
            let flicker = FlickerParameters(
                hz: hz, dutyCycle: 0.4, modulationDepth: 1, rowTimeUs: rowTimeUs,
                exposureMs: exposureMs, phase: 0.1)
            let p = TestScenes.display(layout: .rgbStripe, pitchPx: 3.3, width: 128, height: 256, flicker: flicker)
            let profile = Self.rowProfile(SynthGenerator.render(p).image)
            return Self.amplitude(profile, Double(hz) * Double(rowTimeUs) * 1e-6)
        }
        let banded = bandAmplitude(exposureMs: 1.3)
        let cancelled = bandAmplitude(exposureMs: 2.0)
        Measurement.log("flicker band amplitude: exposure 1.3 periods \(banded), 2 periods \(cancelled)")
        #expect(cancelled < banded / 20, "banded \(banded), whole periods \(cancelled)")
    }

    /// The analytic row gains: mean 1 over a period, extremes as the box-filtered PWM.
    @Test func rowGainsIntegratePWM() {
        // Exposure shorter than the on-time: some rows see only light, some only dark.
        let p = FlickerParameters(hz: 100, dutyCycle: 0.5, modulationDepth: 1, rowTimeUs: 100, exposureMs: 1, phase: 0)
        let g = RollingShutter.rowGains(p, rows: 100) // 100 rows = one 10 ms period
        // w(t) = 2 during the first 5 ms, 0 after: rows 0...40 fully on -> gain 2;
        // rows 50...90 fully off -> 0; the mean over a period is 1.
        #expect(abs(g[10] - 2) < 1e-4)
        #expect(abs(g[70]) < 1e-4)
        let mean = g.reduce(0, +) / Float(g.count)
        #expect(abs(mean - 1) < 0.02)
    }
}
