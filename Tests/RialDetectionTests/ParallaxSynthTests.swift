import Foundation
import RialMedia
import RialSynth
import Testing

@testable import RialDetection

/// parallax/1 on RialSynth renders with a second rectified view: the generator places
/// the right camera `baseline_mm` to the right with the same intrinsics, so a point at
/// depth Z has disparity `f B / Z` (f = `focal_px`). Small renders (480 x 360) keep the
/// debug test time down.
@Suite struct ParallaxSynthTests {
    static let width = 480, height = 360

    /// A subject filling the whole frame: a plane through (0, 0, D) tilted by `tilt`
    /// about the image x axis, so `d = f B / D` at the image centre and
    /// `|∂d/∂y| = B tan(tilt) / D` (B in metres), `∂d/∂x = 0`.
    static func frameFilling(_ synthClass: SynthClass, pitch: Float, distance: Float, tilt: Float) -> SynthParameters {
        var p = SynthParameters(
            synthClass: synthClass, subjectKind: synthClass == .printedPaper ? .photoPrint : .tablet,
            seed: 3, index: 0, width: width, height: height, horizontalFovDeg: 67, baselineMm: 15,
            sceneSeed: 11, noiseSeed: 12)
        // 1.6 frame widths wide, 0.75 as high: the tilted subject still overfills the frame.
        let frameWidth = 2 * distance * tan(67 * Float.pi / 360)
        let size: [Float] = [1.6 * frameWidth, 1.2 * frameWidth]
        p.subject = SubjectPlacement(
            distanceM: distance, tiltDeg: tilt, tiltAxisDeg: 0, rotationDeg: 0,
            fillFraction: 1.6, offsetX: 0, offsetY: 0, placement: .wall)
        p.content = ContentParameters(kind: .photo, textureIndex: -1, seed: 5)
        switch synthClass {
        case .printedPaper:
            p.print = PrintParameters(periodPx: pitch, sheetSizeM: size)
        default:
            let pitchPx = pitch, pitchM = pitchPx * distance / p.focalPx
            p.display = DisplayParameters(
                panelLayout: synthClass == .oledScreen ? .diamondPentile : .rgbStripe,
                pixelPitchPx: pitchPx, pixelPitchMm: pitchM * 1000,
                resolution: [Int(size[0] / pitchM), Int(size[1] / pitchM)],
                blackLevel: synthClass == .oledScreen ? 0 : 0.002, panelSizeM: size)
        }
        return p
    }

    /// A fine-pitch LCD (1.2 px per display pixel, a phone-class panel: the lens blur
    /// removes the grid) and a halftone print (5 px cells). Coarser display grids alias
    /// into moire whose apparent disparity is not the surface's (the moire phase
    /// repeats whenever the shift is a whole number of grid periods), which this test
    /// avoids on purpose: see the analyzer's limits.
    @Test(arguments: [(SynthClass.lcdScreen, Float(1.2)), (.printedPaper, Float(5))])
    func frameFillingRecaptureIsOnePlane(synthClass: SynthClass, pitch: Float) throws {
        let distance: Float = 0.45, tilt: Float = 25
        let p = Self.frameFilling(synthClass, pitch: pitch, distance: distance, tilt: tilt)
        let capture = SynthGenerator.render(p, withSecondView: true)
        let right = try #require(capture.right)
        let r = ParallaxAnalyzer().analyze(
            left: capture.image, right: right, focalPx: Double(p.focalPx),
            baselineMm: Double(p.baselineMm))
        #expect(r.status == .completed)
        guard let plane = r.disparityPlane, let centre = r.centreDisparityPx else { return }
        let b = Double(p.baselineMm) / 1000, d = Double(distance)
        // f B / D = 362.6 px x 0.015 m / 0.45 m ≈ 12.09 px.
        let expectedCentre = Double(p.focalPx) * b / d
        #expect(abs(centre - expectedCentre) < 0.5, "centre \(centre) vs \(expectedCentre)")
        // |∂d/∂y| = B tan(25°) / D ≈ 0.01554 px per row, larger disparity on the nearer
        // edge: the ground-truth depth map says which one that is.
        let top = capture.depth[128, 8], bottom = capture.depth[128, 183]
        let expectedSlope = (top < bottom ? -1.0 : 1.0) * b * tan(Double(tilt) * Double.pi / 180) / d
        #expect(abs(plane.b - expectedSlope) < 0.15 * abs(expectedSlope), "slope \(plane.b) vs \(expectedSlope)")
        #expect(abs(plane.a) < 0.003)
        #expect(r.isPlanarSubject == true)
        #expect(r.isLikelyRealScene == false && r.score! < 0.5)
        // The depth implied by the median disparity is the subject's: 0.45 m within 10%.
        #expect(abs(r.depthMedianM! - d) < 0.1 * d)
    }

    @Test func roomWithLargeDepthRangeIsNotOnePlane() throws {
        // Seed 7, index 18: a furnished room whose depth spans 0.9 ... 3.8 m (p5 ... p95).
        let capture = SynthGenerator.generate(
            index: 18, seed: 7, class: .realScene, width: Self.width,
            height: Self.height, withSecondView: true)
        #expect(capture.parameters.subjectKind == .room)
        let depths = capture.depth.metres.filter { $0.isFinite }.sorted()
        let p5 = Double(depths[depths.count / 20]), p95 = Double(depths[depths.count * 19 / 20])
        #expect(p95 / p5 > 3)
        let right = try #require(capture.right)
        let r = ParallaxAnalyzer().analyze(
            left: capture.image, right: right,
            focalPx: Double(capture.parameters.focalPx),
            baselineMm: Double(capture.parameters.baselineMm))
        #expect(r.status == .completed)
        // Disparity range implied by the ground truth: f B (1 / p5 - 1 / p95) ≈ 4.5 px.
        let fb = Double(capture.parameters.focalPx) * Double(capture.parameters.baselineMm) / 1000
        #expect(abs(r.disparityRangePx! - fb * (1 / p5 - 1 / p95)) < 1.5)
        #expect(r.isPlanarSubject == false)
        #expect(r.isLikelyRealScene == true && r.score! > 0.5)
    }
}
