import Foundation
import RialCodecs
import RialMedia
import RialTestSupport
import Testing

@testable import RialDetection

/// parallax/1 on real rectified stereo pairs from the public data mirror (Middlebury):
/// real 3D scenes with ground-truth disparity. Their baselines are 10x a phone's, so
/// the disparities are large; `working_long_side` 400 keeps the debug run short.
@Suite struct ParallaxRealDataTests {
    static func analyzer() throws -> ParallaxAnalyzer {
        var c = ParallaxAnalyzer.Configuration()
        c.workingLongSide = 400
        return try ParallaxAnalyzer(configuration: c)
    }

    @Test func middleburyMotorcycleMatchesGroundTruthAndIsNotPlanar() throws {
        let left = try ImageReader.read(path: Fixtures.real("skimage/motorcycle_left.png")).image
        let right = try ImageReader.read(path: Fixtures.real("skimage/motorcycle_right.png")).image
        // Left-view disparity in px, +inf (read as NaN) where unknown.
        let truth = try DepthReader.read(path: Fixtures.real("skimage/motorcycle_disp.npz"), format: .npz)
        #expect(truth.width == left.width && truth.height == left.height)
        let analyzer = try Self.analyzer()
        // Calibration from the Middlebury 2014 files (4x downsampled): f = 994.978 px, B = 193.001 mm.
        let r = analyzer.analyze(left: left, right: right, focalPx: 994.978, baselineMm: 193.001)
        #expect(r.status == .completed && r.workingScale == 2)
        #expect(r.isPlanarSubject == false)
        #expect(r.inlierFraction! < 0.6)
        #expect(r.isLikelyRealScene == true && r.score! > 0.5)

        // Block by block against the ground truth (median of the known disparities over
        // the block's footprint), through the same internal steps as `analyze`.
        let c = analyzer.configuration, k = r.workingScale!, w = r.workingWidth!, h = r.workingHeight!
        let signalL = ParallaxAnalyzer.matchingSignal(
            ParallaxAnalyzer.workingLuma(left, factor: k), width: w, height: h,
            sigma: c.prefilterSigmaPx)
        let signalR = ParallaxAnalyzer.matchingSignal(
            ParallaxAnalyzer.workingLuma(right, factor: k), width: w, height: h,
            sigma: c.prefilterSigmaPx)
        let range = Int(r.searchMinDisparityPx!) / k...Int(r.searchMaxDisparityPx!) / k
        let field = ParallaxAnalyzer.matchBlocks(
            left: signalL, right: signalR, width: w, height: h, range: range,
            configuration: c)
        #expect(field.valid == r.validBlocks)
        var errors: [Double] = []
        let g = field.grid
        for j in 0..<g.rows {
            for i in 0..<g.columns {
                let d = field.disparity[j * g.columns + i]
                guard d.isFinite else { continue }
                var known: [Float] = []
                let radius = g.radius
                for y in (g.centreY(j) - radius) * k..<(g.centreY(j) + radius + 1) * k {
                    for x in (g.centreX(i) - radius) * k..<(g.centreX(i) + radius + 1) * k where truth[x, y].isFinite {
                        known.append(truth[x, y])
                    }
                }
                guard known.count >= 10 else { continue }
                known.sort()
                errors.append(d * Double(k) - Double(known[known.count / 2]))
            }
        }
        try #require(errors.count > 200)
        // No bias, and most blocks within 2 input px (1 working px) of the ground truth;
        // the rest straddle depth edges inside their 30 x 30 input px footprint.
        errors.sort()
        #expect(abs(errors[errors.count / 2]) < 0.3)
        let close = errors.filter { abs($0) <= 2 }.count
        #expect(Double(close) / Double(errors.count) > 0.75, "\(close) of \(errors.count)")
    }

    @Test func middleburyAloeIsNotPlanar() throws {
        // No calibration given: the default search range (0.08 x working width).
        let left = try ImageReader.read(path: Fixtures.real("opencv/aloeL.jpg")).image
        let right = try ImageReader.read(path: Fixtures.real("opencv/aloeR.jpg")).image
        let r = try Self.analyzer().analyze(left: left, right: right)
        #expect(r.status == .completed && r.searchRangeSource == "default")
        #expect(r.isPlanarSubject == false && r.isLikelyRealScene == true)
    }
}
