import Foundation
import RialMedia
import Testing

@testable import RialSynth

/// An AM halftone with cell period P px at screen angle theta puts spectral peaks at
/// (1/P)(cos theta, sin theta) and at its 90-degree rotation (a square dot lattice).
/// C 15, M 75, Y 0, K 45 degrees are distinct modulo 90.
@Suite struct HalftoneTests {
    static let size = 256

    @Test(arguments: [Float(5), 3.2])
    func peaksAtRulingAndScreenAngles(_ period: Float) {
        let n = Self.size
        let p = TestScenes.print(periodPx: period, width: n, height: n)
        let capture = SynthGenerator.render(p)
        ImageDump.write(capture.image, name: "halftone_\(period)")
        let luma = SignalAnalysis.powerSpectrum(SignalAnalysis.luma(capture.image), size: n)
        let blue = SignalAnalysis.powerSpectrum(SignalAnalysis.channel(capture.image, 2), size: n)
        let f = 1 / Double(period)
        func power(_ s: [Double], _ angle: Double) -> Double {
            let a = angle * .pi / 180
            return SignalAnalysis.peakPower(s, size: n, fx: f * cos(a), fy: f * sin(a))
        }
        // Reference: the same radius at angles no screen uses (30 and 60 degrees; for
        // luma also 22.5 and 52.5 are clear of every screen).
        let offLuma = [30.0, 60, 22.5, 52.5].map { power(luma, $0) }.max()!
        for angle in [15.0, 75, 45] {
            let on = power(luma, angle)
            Measurement.log("halftone P=\(period) angle \(angle): on/off \(Int(on / offLuma))")
            #expect(on > 30 * offLuma, "period \(period), angle \(angle): on \(on) off \(offLuma)")
        }
        // Yellow (0 degrees) absorbs blue only: look in the blue channel.
        let offBlue = [30.0, 60, 22.5, 52.5].map { power(blue, $0) }.max()!
        #expect(power(blue, 0) > 10 * offBlue, "yellow screen in blue")
        // The ruling: the strongest luma peak lies at radius 1/P within one bin.
        let top = SignalAnalysis.topPeaks(luma, size: n, minRadius: 0.03, count: 1)[0]
        Measurement.log(
            "halftone P=\(period): yellow (blue channel) on/off \(Int(power(blue, 0) / offBlue)); top luma peak radius \(hypot(top.fx, top.fy)) (1/P = \(f)), angle \(atan2(top.fy, top.fx) * 180 / .pi)"
        )
        #expect(abs(hypot(top.fx, top.fy) - f) * Double(n) <= 1.5, "top \(top), ruling \(f)")
    }
}

/// Tone reproduction: averaged over many cells, the printed reflectance of a flat tone
/// must equal the Neugebauer/Demichel expectation for the dot-gained coverages,
/// prod_i (1 - T'_i (1 - tau_i)), T' = T + 4 g T (1 - T): the spot thresholds give the
/// right dot areas and the anti-aliasing ramp does not bias them.
@Suite struct HalftoneToneTests {
    @Test(arguments: [Float(0.1), 0.3, 0.5, 0.8])
    func meanReflectanceMatchesDemichel(_ grey: Float) {
        for period: Float in [3, 6] {
            var p = PrintParameters(periodPx: period, dotGain: 0.15, grayComponentReplacement: 0.6)
            p.screenAnglesDeg = [15, 75, 0, 45]
            let periodM: Float = 0.001
            let printer = HalftonePrinter(parameters: p, periodM: periodM)
            // One sensor px = period / periodPx metres of paper (frontal).
            let pixel = periodM / period
            var tile = [Float](repeating: 0, count: HalftonePrinter.tileStride)
            tile.withUnsafeMutableBufferPointer { printer.prepareTile(jacobian: (pixel, 0, 0, pixel), into: $0, at: 0) }
            var sum = (0.0, 0.0, 0.0), count = 0
            tile.withUnsafeBufferPointer { t in
                for j in 0..<200 {
                    for i in 0..<200 {
                        let r = printer.reflectance(
                            s: Float(i) * pixel * 1.37, t: Float(j) * pixel * 1.61,
                            content: (grey, grey, grey), tile: t, at: 0)
                        sum.0 += Double(r.x)
                        sum.1 += Double(r.y)
                        sum.2 += Double(r.z)
                        count += 1
                    }
                }
            }
            // Expected: C = M = Y = 1 - grey, K = gcr * (1 - grey), CMY -= K, then dot gain.
            let c0 = Double(1 - grey), k = 0.6 * c0, cmy = c0 - k
            func gain(_ t: Double) -> Double { t + 4 * 0.15 * t * (1 - t) }
            let inks: [(Double, Double, Double)] = [(0.03, 0.40, 0.85), (0.92, 0.06, 0.32), (0.98, 0.88, 0.05)]
            let kT = Double(0.12 / 0.87)
            var expected = [1.0, 1.0, 1.0]
            for ink in inks {
                let tau = [ink.0, ink.1, ink.2]
                for ch in 0..<3 { expected[ch] *= 1 - gain(cmy) * (1 - tau[ch]) }
            }
            for ch in 0..<3 { expected[ch] *= 1 - gain(k) * (1 - kT) }
            let measured = [sum.0 / Double(count), sum.1 / Double(count), sum.2 / Double(count)]
            Measurement.log("halftone tone \(grey) P=\(period): measured \(measured), Demichel \(expected)")
            for ch in 0..<3 {
                #expect(
                    abs(measured[ch] - expected[ch]) < 0.02 + 0.05 * expected[ch],
                    "grey \(grey) P \(period) channel \(ch): \(measured[ch]) vs \(expected[ch])")
            }
        }
    }
}
