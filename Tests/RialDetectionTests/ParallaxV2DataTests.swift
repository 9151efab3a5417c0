import Foundation
import RialCodecs
import RialMedia
import RialSynth
import RialTestSupport
import Testing

@testable import RialDetection

/// parallax/2 on real Middlebury pairs (real 3D scenes, from the public data mirror) and
/// on RialSynth renders with a second view (480 x 360 to keep the debug run short).
@Suite struct ParallaxV2DataTests {
    @Test func middleburyMotorcycleIsAScene() throws {
        let left = try ImageReader.read(path: Fixtures.real("skimage/motorcycle_left.png")).image
        let right = try ImageReader.read(path: Fixtures.real("skimage/motorcycle_right.png")).image
        // Ground truth: the window's known disparities span far more than one plane's band.
        let truth = try DepthReader.read(path: Fixtures.real("skimage/motorcycle_disp.npz"), format: .npz)
        var known: [Float] = []
        for y in truth.height / 4..<(3 * truth.height / 4) {
            for x in truth.width / 4..<(3 * truth.width / 4) where truth[x, y].isFinite { known.append(truth[x, y]) }
        }
        known.sort()
        let p5 = Double(known[known.count / 20]), p95 = Double(known[known.count * 19 / 20])
        #expect(p95 - p5 > 8)
        // Calibration from the Middlebury 2014 files (4x downsampled): f = 994.978 px, B = 193.001 mm.
        let r = ParallaxAnalyzerV2().analyze(left: left, right: right, focalPx: 994.978, baselineMm: 193.001)
        #expect(r.status == .completed)
        // The reliable window disparities lie inside the ground truth's window range (the
        // strict reliability tests keep the well-textured near parts: 43 ... 55 px of the
        // ground truth's 14.7 ... 56.4 px, median 48.8).
        #expect(r.windowDisparityP5Px! > p5 - 2 && r.windowDisparityP95Px! < p95 + 2)
        #expect(r.windowShare! < 0.8 && r.occluderShare! > 0.01)
        #expect(r.isPlanarSubject == false && r.isLikelyRealScene == true)
    }

    @Test func middleburyAloeIsAScene() throws {
        let left = try ImageReader.read(path: Fixtures.real("opencv/aloeL.jpg")).image
        let right = try ImageReader.read(path: Fixtures.real("opencv/aloeR.jpg")).image
        let r = ParallaxAnalyzerV2().analyze(left: left, right: right)
        #expect(r.status == .completed && r.searchRangeSource == "default")
        #expect(r.windowShare! < 0.8 && r.occluderShare! > 0.01)
        #expect(r.isPlanarSubject == false && r.isLikelyRealScene == true)
    }

    @Test func roomDepthMatchesItsDepthMapAndFrameFillingPrintScoresAttack() throws {
        // Seed 7, index 18: a furnished room whose depth spans 0.9 ... 3.8 m.
        let room = SynthGenerator.generate(
            index: 18, seed: 7, class: .realScene, width: 480, height: 360, withSecondView: true)
        let r = ParallaxAnalyzerV2().analyze(
            left: room.image, right: try #require(room.right), focalPx: Double(room.parameters.focalPx),
            baselineMm: Double(room.parameters.baselineMm))
        #expect(r.status == .completed)
        // The window's median depth f B / d agrees with the rendered depth map's median over
        // the same window (the middle half of each side) within 15%.
        var window: [Float] = []
        for y in 48..<144 {
            for x in 64..<192 where room.depth[x, y].isFinite { window.append(room.depth[x, y]) }
        }
        window.sort()
        let median = Double(window[window.count / 2])
        #expect(abs(r.windowDepthMedianM! - median) < 0.15 * median, "\(r.windowDepthMedianM!) vs \(median)")
        #expect(r.isPlanarSubject == false)

        // A print filling the frame at 0.45 m, tilted 25 degrees: one plane, d = f B / D at the centre.
        let p = ParallaxSynthTests.frameFilling(.printedPaper, pitch: 5, distance: 0.45, tilt: 25)
        let sheet = SynthGenerator.render(p, withSecondView: true)
        let s = ParallaxAnalyzerV2().analyze(
            left: sheet.image, right: try #require(sheet.right), focalPx: Double(p.focalPx),
            baselineMm: Double(p.baselineMm))
        #expect(s.status == .completed)
        #expect(s.windowShare! > 0.9 && s.occluderShare! < 0.01)
        #expect(s.isLikelyRealScene == false)
        // f B / D = 362.6 px x 0.015 m / 0.45 m ≈ 12.09 px at the centre: 0.45 m within 10%.
        #expect(abs(s.surfaceDepthM! - 0.45) < 0.045)
    }
}
