import Foundation
import RialMedia
import RialSynth
import Testing

@testable import RialDetection

/// moire/1 on RialSynth captures, whose moire comes out of sampling a modelled subpixel
/// grid (nothing is painted on). Expected peak positions follow from the display
/// parameters by sampling theory: a display of pitch p sensor px has subpixel
/// fundamentals k (LCD stripes (1/p, 0), black-matrix rows (0, 1/p); PenTile R/B
/// checkerboard (1/2p)(1, +-1)); the sensor folds f to f - round(f) per component, and
/// the RGGB mosaic adds copies shifted by (1/2, 0), (0, 1/2), (1/2, 1/2) before folding.
@Suite struct MoireSynthTests {
    static let width = 512, height = 384
    typealias F2 = (Double, Double)

    /// A panel filling the frame at 0.5 m, frontal, unrotated, showing flat grey, seen by a
    /// low-noise sensor without sharpening.
    static func display(_ layout: DisplayParameters.PanelLayout, pitchPx: Float) -> SynthParameters {
        var p = SynthParameters(
            synthClass: layout == .rgbStripe ? .lcdScreen : .oledScreen, subjectKind: .monitor,
            width: width, height: height, horizontalFovDeg: 67, sceneSeed: 11, noiseSeed: 12)
        let distance: Float = 0.5
        p.subject = SubjectPlacement(distanceM: distance, fillFraction: 2.5, placement: .wall)
        let frameWidth = 2 * distance * tan(p.horizontalFovDeg * .pi / 360)
        let panel: [Float] = [2.5 * frameWidth, 2.5 * frameWidth]
        let pitchM = pitchPx * distance / p.focalPx
        p.display = DisplayParameters(
            panelLayout: layout, pixelPitchPx: pitchPx, pixelPitchMm: pitchM * 1000,
            resolution: [Int(panel[0] / pitchM), Int(panel[1] / pitchM)],
            fillFactor: layout == .rgbStripe ? 0.8 : 0.6, verticalFill: 0.85,
            brightness: 1.5, gamma: 2.2, blackLevel: 0.002, viewFalloffExponent: 1,
            bezelMm: 10, panelSizeM: panel)
        p.content = ContentParameters(kind: .flat, color: [0.6, 0.6, 0.6])
        p.sensor = SensorParameters(
            lensBlurSigmaPx: 0.45, fullWellE: 20000, readNoiseE: 2, exposureTarget: 0.2,
            vignetting: 0, whiteBalanceStrength: 1, sharpenAmount: 0, adcBits: 12,
            demosaic: .malvarHeCutler)
        return p
    }

    static func fold(_ f: F2) -> F2 { (f.0 - f.0.rounded(), f.1 - f.1.rounded()) }

    /// Folded fundamentals and their Bayer copies.
    static func predicted(_ fundamentals: [F2]) -> [F2] {
        fundamentals.flatMap { k in
            [(0.0, 0.0), (0.5, 0), (0, 0.5), (0.5, 0.5)].map { b in fold((k.0 + b.0, k.1 + b.1)) }
        }
    }

    /// Distance in cycles per pixel from a peak to `f` or `-f` (a real signal's pair).
    static func distance(_ p: MoireAnalyzer.Peak, _ f: F2) -> Double {
        min(hypot(p.fx - f.0, p.fy - f.1), hypot(p.fx + f.0, p.fy + f.1))
    }

    /// LCD, pitch 1.37 px: the stripe fundamental 1/1.37 = 0.730 cycle per pixel is above
    /// Nyquist and folds to 0.730 - 1 = -0.270, i.e. the peak (0.270, 0). The analyser
    /// finds it within 1.5 bins (1/256 cycle per pixel each), its strongest peak is one
    /// of the predicted frequencies, and the peaks lie on the axes: `lcd`.
    @Test func lcdAliasIsDetectedWherePhysicsPutsIt() throws {
        let pitch = 1.37
        let capture = SynthGenerator.render(Self.display(.rgbStripe, pitchPx: Float(pitch)))
        let r = MoireAnalyzer().analyze(capture.image)
        #expect(r.status == .completed)
        #expect(r.detected == true)
        #expect(r.screenType == .lcd)
        let peaks = try #require(r.peaks)
        let alias = Self.fold((1 / pitch, 0))
        #expect(abs(alias.0 + 0.2701) < 1e-3)
        #expect(peaks.contains { Self.distance($0, alias) <= 1.5 / 256 }, "no peak at the alias \(alias): \(peaks)")
        let set = Self.predicted([(1 / pitch, 0), (0, 1 / pitch)])
        let strongest = try #require(peaks.first)
        #expect(set.contains { Self.distance(strongest, $0) <= 1.5 / 256 }, "strongest \(strongest) not predicted")
    }

    /// OLED diamond PenTile, pitch 2.2 px: the R/B checkerboard fundamentals
    /// (1/4.4)(1, +-1) = (0.227, +-0.227) are below Nyquist. The checkerboard is a
    /// chroma pattern (R and B in antiphase), which the RGGB mosaic carries mostly in its
    /// copies shifted by (1/2, 0), (0, 1/2), (1/2, 1/2): (0.273, +-0.227), (0.227,
    /// +-0.273), (0.273, +-0.273) after folding. Each diagonal fundamental shows through
    /// at least one of its predicted copies (within 1.5 bins), the four strongest peaks are
    /// all predicted, none lies on an axis, and the verdict is `oled`.
    @Test func oledCheckerboardIsDetectedOffTheAxes() throws {
        let pitch = 2.2
        let capture = SynthGenerator.render(Self.display(.diamondPentile, pitchPx: Float(pitch)))
        let r = MoireAnalyzer().analyze(capture.image)
        #expect(r.detected == true)
        #expect(r.screenType == .oled)
        let peaks = try #require(r.peaks)
        let q = 1 / (2 * pitch)
        for k in [(q, q), (q, -q)] {
            let copies = Self.predicted([k])
            #expect(
                peaks.contains { p in copies.contains { Self.distance(p, $0) <= 1.5 / 256 } },
                "no copy of \(k) among \(peaks)")
        }
        let set = Self.predicted([(q, q), (q, -q), (1 / pitch, 0), (0, 1 / pitch)])
        for p in peaks.prefix(4) {
            #expect(set.contains { Self.distance(p, $0) <= 1.5 / 256 }, "peak \(p) not predicted")
            #expect(min(abs(p.fx), abs(p.fy)) > 0.06)
        }
    }

    /// A bona fide room (the first `room` sample of seed 2026 at 512 x 384): no display
    /// grid, no detection, score above 0.5.
    @Test func bonaFideRoomIsNotDetected() throws {
        let index = try #require(
            (0..<64).first {
                SynthGenerator.sampleParameters(
                    index: $0, seed: 2026, class: .realScene, width: Self.width,
                    height: Self.height
                ).subjectKind == .room
            })
        let capture = SynthGenerator.generate(
            index: index, seed: 2026, class: .realScene, width: Self.width,
            height: Self.height)
        let r = MoireAnalyzer().analyze(capture.image)
        #expect(r.status == .completed)
        #expect(r.detected == false)
        #expect(r.score! > 0.5)
    }
}
