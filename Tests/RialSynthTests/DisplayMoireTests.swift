import Foundation
import RialMedia
import Testing

@testable import RialSynth

/// Moire must come out of sampling. A display of pitch p sensor px, rotated by theta
/// in the image plane, has its subpixel fundamentals at
///   LCD:  k_u = (1/p)(cos theta, sin theta) (RGB stripes), k_v = (1/p)(-sin, cos) (black matrix);
///   OLED diamond PenTile: the G lattice (1/p)(1, 0), (1/p)(0, 1) and the R/B
///   checkerboard (1/2p)(1, +-1).
/// Sampling at 1 px folds a frequency f to f - round(f) per component (the alias).
/// The RGGB mosaic samples R and B on a 2 px lattice and G on a quincunx, so the
/// demosaiced image can also carry the copies shifted by (1/2, 0), (0, 1/2),
/// (1/2, 1/2) before folding. Sampling theory predicts nothing else: every strong
/// peak must be one of these, and the plain alias must be there.
@Suite struct DisplayMoireTests {
    static let size = 256
    typealias F2 = (Double, Double)

    static func spectrum(_ p: SynthParameters) -> [Double] {
        let capture = SynthGenerator.render(p)
        ImageDump.write(
            capture.image,
            name: "moire_\(p.display!.panelLayout.rawValue)_\(p.display!.pixelPitchPx)_\(p.subject.rotationDeg)")
        return SignalAnalysis.powerSpectrum(SignalAnalysis.luma(capture.image), size: size)
    }

    static func fold(_ f: F2) -> F2 { (f.0 - f.0.rounded(), f.1 - f.1.rounded()) }

    /// Folded fundamentals and their Bayer copies.
    static func predicted(_ fundamentals: [F2]) -> [F2] {
        var out: [F2] = []
        for k in fundamentals {
            for b in [(0.0, 0.0), (0.5, 0), (0, 0.5), (0.5, 0.5)] { out.append(fold((k.0 + b.0, k.1 + b.1))) }
        }
        return out
    }

    /// Distance in bins from a measured peak to the nearest predicted frequency (up to sign).
    /// Frequencies are equivalent modulo 1 cycle/px (so +-1/2 coincide).
    static func binsToNearest(_ peak: F2, _ set: [F2]) -> Double {
        func d(_ a: F2, _ b: F2) -> Double {
            let e = fold((a.0 - b.0, a.1 - b.1))
            return hypot(e.0, e.1)
        }
        return set.map { s in min(d(peak, s), d(peak, (-s.0, -s.1))) }.min()! * Double(size)
    }

    /// The bin of the largest power within `radius` bins of f.
    static func localPeak(_ s: [Double], near f: F2, radius: Int = 2) -> (F2, Double) {
        let n = size
        let cx = SignalAnalysis.bin(f.0, n), cy = SignalAnalysis.bin(f.1, n)
        var best = (f, 0.0)
        for dy in -radius...radius {
            for dx in -radius...radius {
                let kx = (cx + dx + n) % n, ky = (cy + dy + n) % n
                let v = s[ky * n + kx]
                if v > best.1 {
                    best = ((SignalAnalysis.frequency(ofBin: kx, n), SignalAnalysis.frequency(ofBin: ky, n)), v)
                }
            }
        }
        return best
    }

    /// LCD, flat grey: the plain alias of the stripe fundamental is a peak over 1000 x
    /// the median spectrum, at the predicted angle (within 2 degrees, mod 180); the
    /// four strongest peaks are all predicted frequencies.
    @Test(arguments: [(Float(1.37), Float(0)), (1.8, 0), (2.6, 0), (1.37, 10), (1.55, -25), (4.3, 33)])
    func lcdAliasPeak(_ pitch: Float, _ rotation: Float) {
        let n = Self.size
        let p = TestScenes.display(layout: .rgbStripe, pitchPx: pitch, rotationDeg: rotation, width: n, height: n)
        let s = Self.spectrum(p)
        let th = Double(rotation) * .pi / 180, q = 1 / Double(pitch)
        let ku: F2 = (q * cos(th), q * sin(th)), kv: F2 = (-q * sin(th), q * cos(th))
        let alias = Self.fold(ku)
        let median = SignalAnalysis.medianPower(s, size: n, minRadius: 0.02)
        let (at, power) = Self.localPeak(s, near: alias)
        Measurement.log(
            "LCD p=\(pitch) rot=\(rotation): predicted alias \(alias), measured \(at), peak/median \(Int(power / median)), angle \(atan2(at.1, at.0) * 180 / .pi) vs \(atan2(alias.1, alias.0) * 180 / .pi)"
        )
        #expect(power > 1000 * median, "pitch \(pitch) rot \(rotation): alias \(alias) peak/median \(power / median)")
        #expect(hypot(at.0 - alias.0, at.1 - alias.1) * Double(n) <= 1.5, "alias \(alias) measured at \(at)")
        let measuredAngle = atan2(at.1, at.0) * 180 / .pi, predictedAngle = atan2(alias.1, alias.0) * 180 / .pi
        var diff = (measuredAngle - predictedAngle).truncatingRemainder(dividingBy: 180)
        if diff > 90 { diff -= 180 } else if diff < -90 { diff += 180 }
        #expect(abs(diff) < 2, "angle measured \(measuredAngle), predicted \(predictedAngle)")
        let set = Self.predicted([ku, kv, (ku.0 + kv.0, ku.1 + kv.1), (ku.0 - kv.0, ku.1 - kv.1), (2 * ku.0, 2 * ku.1)])
        for peak in SignalAnalysis.topPeaks(s, size: n, minRadius: 0.02, count: 4) {
            #expect(
                Self.binsToNearest((peak.fx, peak.fy), set) <= 1.5,
                "unexplained peak \(peak) (pitch \(pitch), rot \(rotation))")
        }
    }

    /// OLED diamond PenTile, flat grey: the strongest peaks are all predicted, and the
    /// folded G-lattice and checkerboard fundamentals are present.
    @Test(arguments: [Float(1.45), 2.2])
    func oledAliasPeaks(_ pitch: Float) {
        let n = Self.size
        let p = TestScenes.display(layout: .diamondPentile, pitchPx: pitch, width: n, height: n)
        let s = Self.spectrum(p)
        let f = 1 / Double(pitch)
        let fundamentals: [F2] = [(f, 0), (0, f), (f / 2, f / 2), (f / 2, -f / 2)]
        let set = Self.predicted(fundamentals + [(f, f), (f, -f)])
        let median = SignalAnalysis.medianPower(s, size: n, minRadius: 0.02)
        for peak in SignalAnalysis.topPeaks(s, size: n, minRadius: 0.02, count: 4) {
            #expect(Self.binsToNearest((peak.fx, peak.fy), set) <= 1.5, "unexplained peak \(peak) (pitch \(pitch))")
        }
        let checker = Self.localPeak(s, near: Self.fold((f / 2, f / 2))).1
        let lattice = Self.localPeak(s, near: Self.fold((f, 0))).1
        Measurement.log(
            "OLED p=\(pitch): checkerboard alias \(Self.fold((f / 2, f / 2))) peak/median \(Int(checker / median)), G lattice alias \(Self.fold((f, 0))) peak/median \(Int(lattice / median)), top peaks \(SignalAnalysis.topPeaks(s, size: n, minRadius: 0.02, count: 4).map { ($0.fx, $0.fy) })"
        )
        #expect(checker > 300 * median, "checkerboard peak/median \(checker / median)")
        #expect(lattice > 100 * median, "G lattice peak/median \(lattice / median)")
    }

    /// A bona fide plaster wall (the material scene seed 5 draws since rial-synth/3)
    /// stays below the 1000 x level every display above reaches. Walls in general are not
    /// peak-free: a level brick wall at 1.5 m peaks at 1.2-1.7e5 x its median at the
    /// course frequency on the vertical axis, and tiles at ~1e4 x, however irregular
    /// the masonry is drawn. They are hard negatives for moire detectors, not covered by
    /// this bound.
    @Test func plasterWallHasNoStrongPeak() {
        let n = Self.size
        var p = SynthParameters(
            synthClass: .realScene, subjectKind: .wall, width: n, height: n, sceneSeed: 5, noiseSeed: 6)
        p.subject = SubjectPlacement(distanceM: 1.5, fillFraction: 1, placement: .wall)
        p.sensor = TestScenes.quietSensor()
        let capture = SynthGenerator.render(p)
        let s = SignalAnalysis.powerSpectrum(SignalAnalysis.luma(capture.image), size: n)
        let median = SignalAnalysis.medianPower(s, size: n, minRadius: 0.1)
        let top = SignalAnalysis.topPeaks(s, size: n, minRadius: 0.1, count: 1)[0]
        Measurement.log("wall peak/median \(Int(top.power / median)) at \((top.fx, top.fy))")
        #expect(top.power < 1000 * median, "wall peak/median \(top.power / median)")
    }
}
