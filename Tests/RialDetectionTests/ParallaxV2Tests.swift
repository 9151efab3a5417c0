import Foundation
import RialMedia
import Testing

@testable import RialDetection

/// parallax/2 on pairs rendered by `ParallaxScenes` (independently of the analyzer): a
/// textured plane with a known affine disparity field, and a near rectangle standing in
/// front of a textured background (a step in disparity).
@Suite struct ParallaxV2Tests {
    let analyzer = ParallaxAnalyzerV2()

    @Test func texturedPlaneIsOneSurfaceAndScoresAsARecapture() {
        // d = 0.02 x - 0.015 y + 6 over 320 x 240 (2.4 ... 12.4 px): one plane, nothing in front.
        let pair = ParallaxScenes.affinePair(a: 0.02, b: -0.015, c: 6)
        let r = analyzer.analyze(left: pair.left, right: pair.right)
        #expect(r.status == .completed && r.algorithmVersion == .parallaxV2)
        guard let plane = r.surfacePlane else { return }
        #expect(abs(plane.a - 0.02) < 0.002)
        #expect(abs(plane.b + 0.015) < 0.002)
        #expect(abs(plane.c - 6) < 0.3)
        // Every reliable block lies on the plane: no occluder, the whole window explained.
        #expect(r.surfaceShare! > 0.95 && r.windowShare! > 0.97)
        #expect(r.occluderShare! < 0.01)
        #expect(r.isPlanarSubject == true)
        #expect(r.isLikelyRealScene == false && r.score! < 0.3)
        // Window disparities: the window spans the middle half of the grid, so its
        // percentiles stay inside the plane's range over the middle of the frame
        // (x 80...240, y 60...180: 0.02 x - 0.015 y + 6 in 4.9 ... 10.9 px).
        #expect(r.windowDisparityP5Px! > 4.5 && r.windowDisparityP95Px! < 11.3)
    }

    @Test func frontoParallelPlaneWithCalibrationGivesItsDepth() {
        // f B = 500 px x 0.012 m = 6 px m; d = 7.5 px everywhere -> Z = 0.8 m.
        let pair = ParallaxScenes.affinePair(a: 0, b: 0, c: 7.5, seed: 5)
        let r = analyzer.analyze(left: pair.left, right: pair.right, focalPx: 500, baselineMm: 12)
        #expect(r.status == .completed && r.searchRangeSource == "argument")
        #expect(abs(r.surfaceDepthM! - 0.8) < 0.02)
        #expect(abs(r.windowDepthMedianM! - 0.8) < 0.02)
        #expect(r.score! < 0.3 && r.isPlanarSubject == true)
    }

    @Test func objectInFrontOfABackgroundScoresReal() {
        // A centred rectangle 30% of the frame wide and high (9% of its area) at 14 px in
        // front of a background at 4 px: a step in disparity, two planes at different depths.
        let pair = ParallaxScenes.stepPair(far: 4, near: 14, inner: 0.3)
        let r = analyzer.analyze(left: pair.left, right: pair.right)
        #expect(r.status == .completed)
        // The rectangle covers (0.3 / 0.5)² = 36% of the window: the background holds
        // the other 64% and is the content surface, d = 4 px flat.
        guard let plane = r.surfacePlane else { return }
        #expect(abs(plane.c - 4) < 0.3 && abs(plane.a) < 0.002 && abs(plane.b) < 0.002)
        // Window share ≈ 0.64; the rest (0.36 of the window) stands 10 px in front as one
        // coherent region: structure and occluders. Over window ∪ surface ∪ enclosed
        // blocks (the whole frame here) the rectangle is 9% of the blocks. Blocks that
        // straddle the rectangle's edge match neither surface reliably, hence the margins.
        #expect(abs(r.windowShare! - 0.64) < 0.1)
        #expect(abs(r.structureShare! - 0.36) < 0.1)
        #expect(abs(r.occluderShare! - 0.09) < 0.04)
        // Off the surface by 10 px, against matching noise of at most 0.33 px (the band
        // t = 3 σ is capped at 1 px): more than 30 σ.
        #expect(r.offSurfaceResidualRatio! > 10)
        #expect(r.isPlanarSubject == false)
        #expect(r.isLikelyRealScene == true && r.score! > 0.5)
        #expect(r.windowDisparityP5Px! < 4.5 && r.windowDisparityP95Px! > 13.5)
    }

    @Test func resultIsAFunctionOfTheInput() {
        let pair = ParallaxScenes.stepPair(far: 3, near: 9, inner: 0.3, seed: 4)
        var a = analyzer.analyze(left: pair.left, right: pair.right)
        var b = analyzer.analyze(left: pair.left, right: pair.right)
        a.analysisTimeMs = 0
        b.analysisTimeMs = 0
        #expect(a == b)
    }

    // MARK: Unavailable

    @Test func differentSizesAreUnavailable() {
        let pair = ParallaxScenes.affinePair(a: 0, b: 0, c: 4)
        let other = ParallaxScenes.affinePair(width: 300, height: 240, a: 0, b: 0, c: 4)
        let r = analyzer.analyze(left: pair.left, right: other.right)
        #expect(r.status == .unavailable && r.score == nil)
        #expect(r.unavailableReason?.contains("differ in size") == true)
    }

    @Test func tinyImagesAreUnavailable() {
        let pair = ParallaxScenes.affinePair(width: 48, height: 40, a: 0, b: 0, c: 2)
        let r = analyzer.analyze(left: pair.left, right: pair.right)
        #expect(r.status == .unavailable && r.score == nil)
        #expect(r.unavailableReason?.contains("smaller than 64") == true)
        // 1 x 1 and 0-row images too.
        let one = Image8(width: 1, height: 1, channels: 1, samples: [7])!
        #expect(analyzer.analyze(left: one, right: one).status == .unavailable)
    }

    @Test func untexturedViewsAreUnavailable() {
        let flat = Image8(width: 320, height: 240, channels: 3, samples: [UInt8](repeating: 128, count: 320 * 240 * 3))!
        let r = analyzer.analyze(left: flat, right: flat)
        #expect(r.status == .unavailable && r.score == nil)
        #expect(r.texturedBlocks == 0 && r.unavailableReason?.contains("no textured block") == true)
        // Horizontal stripes: texture without any horizontal structure to match.
        let stripes = ParallaxScenes.image(width: 320, height: 240) { _, y in 128 + 100 * sin(Double(y) * 0.7) }
        #expect(analyzer.analyze(left: stripes, right: stripes).status == .unavailable)
    }

    @Test func unrelatedViewsAreUnavailableOrBounded() {
        let a = ParallaxScenes.affinePair(a: 0, b: 0, c: 0, seed: 11).left
        let b = ParallaxScenes.affinePair(a: 0, b: 0, c: 0, seed: 12).left
        let r = analyzer.analyze(left: a, right: b)
        #expect(r.disparityCoverage! < 0.2)
        if r.status == .completed { #expect(r.score! >= 0 && r.score! <= 1) }
    }

    @Test(arguments: [(-1.0, 10.0), (.nan, 10.0), (500.0, 0.0), (500.0, .infinity)])
    func invalidFocalOrBaselineIsUnavailable(focal: Double, baseline: Double) {
        let pair = ParallaxScenes.affinePair(a: 0, b: 0, c: 4)
        let r = analyzer.analyze(left: pair.left, right: pair.right, focalPx: focal, baselineMm: baseline)
        #expect(r.status == .unavailable && r.score == nil)
        #expect(r.unavailableReason?.contains("must be finite and > 0") == true)
    }

    @Test func configurationIsValidatedAndDecodedOverTheDefaults() throws {
        let c = try JSONValue.parse(#"{"content_window_fraction": 0.6, "min_correlation": 0.9}"#)
            .decode(ParallaxAnalyzerV2.Configuration.self, overlaying: .standard)
        #expect(c.contentWindowFraction == 0.6 && c.minCorrelation == 0.9 && c.gridStep == 15)
        var bad = ParallaxAnalyzerV2.Configuration()
        bad.contentWindowFraction = 0
        #expect(throws: ConfigurationError.self) { try ParallaxAnalyzerV2(configuration: bad) }
        bad = ParallaxAnalyzerV2.Configuration()
        bad.minCorrelation = 2
        #expect(throws: ConfigurationError.self) { try ParallaxAnalyzerV2(configuration: bad) }
    }

    @Test func resultRoundTripsWithSnakeCaseKeys() throws {
        let pair = ParallaxScenes.stepPair(far: 4, near: 14, inner: 0.3, seed: 6)
        let r = analyzer.analyze(left: pair.left, right: pair.right, focalPx: 600, baselineMm: 15)
        let data = try JSONEncoder().encode(r)
        let text = String(decoding: data, as: UTF8.self)
        for key in [
            "\"occluder_share\"", "\"structure_share\"", "\"window_share\"", "\"surface_plane\"", "\"free_edge_share\"",
        ] {
            #expect(text.contains(key), "\(key)")
        }
        #expect(try JSONDecoder().decode(ParallaxAnalyzerV2.Result.self, from: data) == r)
    }

    @Test(arguments: [
        (#"{"content_window_fraction": 1.5}"#, "content_window_fraction"),
        (#"{"max_sheet_curvature": 0}"#, "max_sheet_curvature"),
        (#"{"occluder_floor": 0}"#, "occluder_floor"),
        (#"{"assumed_horizontal_fov_degrees": 180}"#, "assumed_horizontal_fov_degrees"),
        (#"{"uniqueness_ratio": 0}"#, "uniqueness_ratio"),
        (#"{"grid_step": 0}"#, "grid_step"),
    ])
    func validationNamesTheKey(json: String, key: String) throws {
        let c = try JSONValue.parse(json).decode(ParallaxAnalyzerV2.Configuration.self, overlaying: .standard)
        #expect {
            try c.validate()
        } throws: { error in
            (error as? ConfigurationError)?.key == key
        }
    }

    @Test func registeredAfterParallaxOne() {
        let ids = MethodRegistry.standard.identifiers.map(\.description)
        let one = ids.firstIndex(of: "parallax/1"), two = ids.firstIndex(of: "parallax/2")
        #expect(one != nil && two == one.map { $0 + 1 })
    }
}
