import Foundation
import Testing

@testable import RialSynth

@Suite struct ParametersCodingTests {
    @Test func roundTripsWithSnakeCaseKeys() throws {
        var p = SynthGenerator.sampleParameters(
            index: 1, seed: UInt64.max - 12345, class: .lcdScreen, width: 1600, height: 1200)
        p.display?.flicker = FlickerParameters(
            hz: 240, dutyCycle: 0.3, modulationDepth: 1, rowTimeUs: 12, exposureMs: 5, phase: 0.25)
        p.glare = GlareParameters()
        let data = try JSONEncoder().encode(p)
        let text = String(decoding: data, as: UTF8.self)
        for key in [
            "\"class\":\"lcd_screen\"", "\"distance_m\"", "\"tilt_deg\"", "\"rotation_deg\"", "\"pixel_pitch_px\"",
            "\"panel_layout\":\"rgb_stripe\"", "\"fill_factor\"", "\"brightness\"", "\"gamma\"", "\"row_time_us\"",
            "\"modulation_depth\"", "\"hz\"", "\"lens_blur_sigma_px\"", "\"jpeg_quality\"", "\"noise_a_mm\"",
            "\"baseline_mm\"", "\"focal_px\"", "\"full_well_e\"", "\"read_noise_e\"", "\"tags\"",
            "\"isp\"", "\"tone_contrast\"", "\"midtone_output\"", "\"chroma_denoise_radius_px\"",
            "\"cover_glass\"", "\"window_radiance\"", "\"viewing_angle\"", "\"black_leak\"",
            "\"light_size_m\"", "\"shadow_samples\"", "\"ao_radius_m\"", "\"ao_samples\"", "\"bounce\"",
            "\"lighting_cell_px\"", "\"camera_roll_deg\"", "\"lean_deg\"", "\"min_range_m\"",
        ] {
            #expect(text.contains(key), "missing \(key)")
        }
        let back = try JSONDecoder().decode(SynthParameters.self, from: data)
        #expect(back == p)
        #expect(back.seed == UInt64.max - 12345)
    }

    @Test func printParametersRecordRulingAndAngles() throws {
        let p = SynthGenerator.sampleParameters(index: 2, seed: 5, class: .printedPaper, width: 1600, height: 1200)
        let pr = try #require(p.print)
        #expect(pr.screenAnglesDeg == [15, 75, 0, 45])
        #expect((2...8).contains(pr.periodPx))
        // lpi = 25.4 mm / period, period = period_px * distance / focal.
        let periodMm = pr.periodPx * p.subject.distanceM / p.focalPx * 1000
        #expect(abs(pr.lpi - 25.4 / periodMm) < 1e-3 * pr.lpi)
        let text = String(decoding: try JSONEncoder().encode(p), as: UTF8.self)
        #expect(text.contains("\"lpi\"") && text.contains("\"period_px\"") && text.contains("\"dot_gain\""))
    }

    /// The drawn parameters stay in their documented ranges over many samples.
    @Test(arguments: SynthClass.allCases)
    func sampledRanges(_ c: SynthClass) {
        for i in 0..<200 {
            let p = SynthGenerator.sampleParameters(index: i, seed: 77, class: c, width: 1600, height: 1200)
            #expect((65...70).contains(p.horizontalFovDeg))
            #expect((10...20).contains(p.baselineMm))
            #expect((80...95).contains(p.jpegQuality))
            #expect((0.3...0.7).contains(p.sensor.lensBlurSigmaPx))
            #expect((-15...15).contains(p.subject.cameraRollDeg))
            #expect((0...90).contains(p.subject.leanDeg))
            #expect(p.lighting.lightSizeM.count == 2 && p.lighting.lightSizeM.allSatisfy { (0.15...1.2).contains($0) })
            #expect(abs(p.focalPx - 800 / tan(p.horizontalFovDeg * .pi / 360)) < 0.01)
            let isp = p.sensor.isp!
            #expect((0.3...0.55).contains(isp.lensShading) && (0.1...0.25).contains(isp.filterCrosstalk))
            #expect((0.97...0.995).contains(isp.highlightPercentile) && (0.18...0.26).contains(isp.midtoneOutput))
            #expect((1.1...1.4).contains(isp.toneContrast) && (2...6).contains(isp.chromaDenoiseRadiusPx))
            switch c {
            case .lcdScreen, .oledScreen:
                let d = p.display!
                #expect((1.2...6).contains(d.pixelPitchPx))
                #expect((0.25...1.5).contains(p.subject.distanceM))
                #expect((0...40).contains(p.subject.tiltDeg))
                #expect((0.4...1.0).contains(p.subject.fillFraction))
                #expect(d.panelLayout == (c == .lcdScreen ? .rgbStripe : .diamondPentile))
                let glass = d.coverGlass!, viewing = d.viewingAngle!
                #expect((0.005...0.05).contains(glass.fresnelF0))
                #expect(
                    c == .oledScreen
                        ? viewing.blackLeak == 0 && viewing.washout <= 0.08
                        : (0.01...0.04).contains(viewing.blackLeak) && viewing.washout >= 0.2)
            case .printedPaper:
                #expect((2...8).contains(p.print!.periodPx))
                #expect((0.85...0.9).contains(p.print!.paperWhite))
                // Optical density of solid black 1.2-1.5 (log10(1 / 0.06) = 1.22).
                #expect((0.03...0.06).contains(p.print!.inkBlack))
                #expect((0.06...0.18).contains(p.print!.dotGain))
                let tint = p.print!.paperTint!
                #expect(tint.count == 3 && tint.allSatisfy { (0.95...1.05).contains($0) })
            case .realScene:
                if p.subjectKind == .wall || p.subjectKind == .document {
                    #expect(p.tags.contains("flat_subject"))
                } else {
                    #expect(!p.tags.contains("flat_subject"))
                }
            }
        }
    }
}
