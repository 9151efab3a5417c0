import Foundation
import RialMedia
import RialTestSupport
import Testing

@testable import RialDetection

/// Rectified pairs with a known disparity field, rendered here independently of the
/// analyzer: a seeded value-noise texture `T(x, y)` (bilinear interpolation of random
/// levels on a lattice, 4 px unless stated) is the left view, `L(x, y) = T(x, y)`; the right view
/// shows every scene point `disparity` px to the left, `R(x - d(x, y), y) = T(x, y)`.
enum ParallaxScenes {
    /// Random levels 20...235 on a lattice covering `-margin ... width + margin`.
    struct Texture {
        static let margin = 200.0
        let cell: Double
        let columns: Int, rows: Int
        let levels: [Double]

        init(width: Int, height: Int, seed: UInt64, cell: Double = 4) {
            self.cell = cell
            columns = Int((Double(width) + 2 * Self.margin) / cell) + 3
            rows = Int(Double(height) / cell) + 3
            var rng = SeededGenerator(seed: seed)
            levels = (0..<(columns * rows)).map { _ in 20 + 215 * Double(rng.next() >> 11) / 9007199254740992.0 }
        }

        /// `T(x, y)`, bilinear between lattice points; `x` may lie up to `margin` outside the image.
        func value(_ x: Double, _ y: Double) -> Double {
            let u = (x + Self.margin) / cell, v = y / cell
            let i = min(columns - 2, max(0, Int(u.rounded(.down)))), j = min(rows - 2, max(0, Int(v.rounded(.down))))
            let fu = u - Double(i), fv = v - Double(j)
            let a = levels[j * columns + i], b = levels[j * columns + i + 1]
            let c = levels[(j + 1) * columns + i], d = levels[(j + 1) * columns + i + 1]
            return (a * (1 - fu) + b * fu) * (1 - fv) + (c * (1 - fu) + d * fu) * fv
        }
    }

    static func image(width: Int, height: Int, _ value: (Int, Int) -> Double) -> Image8 {
        var samples = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width { samples[y * width + x] = UInt8(min(255, max(0, value(x, y).rounded()))) }
        }
        return Image8(width: width, height: height, channels: 1, samples: samples)!
    }

    /// A plane: `d = a x + b y + c`. The right pixel `xr` sees the scene point with
    /// `x - (a x + b y + c) = xr`, i.e. `x = (xr + b y + c) / (1 - a)`.
    static func affinePair(
        width: Int = 320, height: Int = 240, a: Double, b: Double, c: Double,
        seed: UInt64 = 1, cell: Double = 4
    ) -> (left: Image8, right: Image8) {
        let t = Texture(width: width, height: height, seed: seed, cell: cell)
        let left = image(width: width, height: height) { x, y in t.value(Double(x), Double(y)) }
        let right = image(width: width, height: height) { x, y in
            t.value((Double(x) + b * Double(y) + c) / (1 - a), Double(y))
        }
        return (left, right)
    }

    /// Two fronto-parallel surfaces: a centred rectangle `inner` x the image size at
    /// disparity `near` in front of a background at `far` (near > far). A right pixel
    /// shows the rectangle when the point it would see there lies inside it, else the
    /// background (disoccluded background included).
    static func stepPair(
        width: Int = 320, height: Int = 240, far: Double, near: Double, inner: Double = 0.7,
        seed: UInt64 = 2
    ) -> (left: Image8, right: Image8) {
        let t = Texture(width: width, height: height, seed: seed)
        let x0 = Double(width) * (1 - inner) / 2, x1 = Double(width) - x0
        let y0 = Double(height) * (1 - inner) / 2, y1 = Double(height) - y0
        // The rectangle carries its own texture: shift its lattice so the two surfaces differ.
        func scene(_ x: Double, _ y: Double, onRectangle: Bool) -> Double {
            onRectangle ? t.value(x + 97, y) : t.value(x, y)
        }
        let left = image(width: width, height: height) { x, y in
            let inside = Double(x) >= x0 && Double(x) < x1 && Double(y) >= y0 && Double(y) < y1
            return scene(Double(x), Double(y), onRectangle: inside)
        }
        let right = image(width: width, height: height) { x, y in
            let xn = Double(x) + near
            if xn >= x0 && xn < x1 && Double(y) >= y0 && Double(y) < y1 {
                return scene(xn, Double(y), onRectangle: true)
            }
            return scene(Double(x) + far, Double(y), onRectangle: false)
        }
        return (left, right)
    }
}

@Suite struct ParallaxTests {
    let analyzer = ParallaxAnalyzer()

    @Test func constantDisparityIsRecoveredAsAFlatPlane() {
        // A fronto-parallel plane: d = 7.3 px everywhere (a = b = 0).
        let pair = ParallaxScenes.affinePair(a: 0, b: 0, c: 7.3)
        let r = analyzer.analyze(left: pair.left, right: pair.right)
        #expect(r.status == .completed)
        #expect(r.algorithmVersion == MethodIdentifier.parallaxV1)
        #expect(r.workingScale == 1 && r.workingWidth == 320 && r.searchRangeSource == "default")
        guard let plane = r.disparityPlane, let centre = r.centreDisparityPx else { return }
        #expect(abs(centre - 7.3) < 0.2)
        #expect(abs(plane.a) < 0.002 && abs(plane.b) < 0.002)
        #expect(abs(r.disparityMedianPx! - 7.3) < 0.2)
        #expect(r.inlierFraction! > 0.95)
        #expect(r.disparityCoverage! > 0.8)
        #expect(r.planeResidualPx! < 0.2)
        #expect(r.isPlanarSubject == true && r.isLikelyRealScene == false)
        #expect(r.score! < 0.2)
    }

    @Test func affineDisparityFieldIsRecovered() {
        // A tilted plane: d = 0.02 x - 0.015 y + 6 (2.4 ... 12.4 px over 320 x 240).
        let pair = ParallaxScenes.affinePair(a: 0.02, b: -0.015, c: 6)
        let r = analyzer.analyze(left: pair.left, right: pair.right)
        #expect(r.status == .completed)
        guard let plane = r.disparityPlane else { return }
        #expect(abs(plane.a - 0.02) < 0.002)
        #expect(abs(plane.b + 0.015) < 0.002)
        #expect(abs(plane.c - 6) < 0.3)
        // At the centre (159.5, 119.5): 0.02 * 159.5 - 0.015 * 119.5 + 6 = 7.3975.
        #expect(abs(r.centreDisparityPx! - 7.3975) < 0.2)
        #expect(r.inlierFraction! > 0.9)
        #expect(r.isPlanarSubject == true && r.isLikelyRealScene == false)
    }

    @Test func focalLengthAndBaselineGiveDepth() {
        // f B = 500 px x 0.012 m = 6 px m; d = 7.5 px -> Z = 0.8 m.
        let pair = ParallaxScenes.affinePair(a: 0, b: 0, c: 7.5, seed: 5)
        let r = analyzer.analyze(left: pair.left, right: pair.right, focalPx: 500, baselineMm: 12)
        #expect(r.status == .completed && r.searchRangeSource == "argument")
        #expect(r.focalPx == 500 && r.baselineMm == 12)
        // Range 0 ... f B / 0.2 m = 30 px, widened by 2 px on both ends.
        #expect(r.searchMinDisparityPx == -2 && r.searchMaxDisparityPx == 32)
        guard let median = r.depthMedianM, let near = r.depthNearM, let far = r.depthFarM else {
            Issue.record("depth fields missing")
            return
        }
        #expect(abs(median - 0.8) < 0.02)
        #expect(near <= median && median <= far)
    }

    @Test func downscaledWorkingResolutionKeepsInputPixelUnits() throws {
        // 480 x 360 with working_long_side 160: k = 3; d = 0.01 y + 10.5 input px
        // (3.5 ... 4.7 working px).
        let config = try JSONValue.parse(#"{"working_long_side": 160}"#)
            .decode(ParallaxAnalyzer.Configuration.self, overlaying: .standard)
        let pair = ParallaxScenes.affinePair(width: 480, height: 360, a: 0, b: 0.01, c: 10.5, seed: 9, cell: 12)
        let r = try ParallaxAnalyzer(configuration: config).analyze(left: pair.left, right: pair.right)
        #expect(r.status == .completed && r.workingScale == 3 && r.workingWidth == 160 && r.workingHeight == 120)
        guard let plane = r.disparityPlane else { return }
        #expect(abs(plane.b - 0.01) < 0.003 && abs(plane.a) < 0.003)
        // Centre (239.5, 179.5): 0.01 * 179.5 + 10.5 = 12.295.
        #expect(abs(r.centreDisparityPx! - 12.295) < 0.4)
    }

    @Test func frontoParallelStepIsNotOnePlane() {
        // A rectangle over 49% of the frame at 14 px in front of a background at 4 px.
        let pair = ParallaxScenes.stepPair(far: 4, near: 14)
        let r = analyzer.analyze(left: pair.left, right: pair.right)
        #expect(r.status == .completed)
        guard let inliers = r.inlierFraction else { return }
        // One plane holds one of the two surfaces: at most about 51% (+ blocks on the edge).
        #expect(inliers < 0.7)
        #expect(r.isPlanarSubject == false)
        #expect(r.isLikelyRealScene == true && r.score! > 0.5)
        #expect(r.disparityP5Px! < 5 && r.disparityP95Px! > 13)
        #expect(abs(r.disparityRangePx! - 10) < 1.5)
    }

    @Test func rgbAndGrayViewsGiveTheSameDisparity() {
        let pair = ParallaxScenes.affinePair(a: 0, b: 0, c: 5.5, seed: 3)
        func rgb(_ gray: Image8) -> Image8 {
            Image8(
                width: gray.width, height: gray.height, channels: 3, samples: gray.samples.flatMap { [$0, $0, $0] })!
        }
        let g = analyzer.analyze(left: pair.left, right: pair.right)
        let c = analyzer.analyze(left: rgb(pair.left), right: rgb(pair.right))
        // BT.601 weights sum to 1, so gray replicated in R, G, B is the same luma.
        #expect(c.status == .completed && abs(c.centreDisparityPx! - g.centreDisparityPx!) < 0.01)
        #expect(abs(c.centreDisparityPx! - 5.5) < 0.2)
    }

    @Test func resultIsAFunctionOfTheInput() {
        let pair = ParallaxScenes.stepPair(far: 3, near: 9, seed: 4)
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

    @Test func tooSmallIsUnavailable() {
        let pair = ParallaxScenes.affinePair(width: 48, height: 40, a: 0, b: 0, c: 2)
        let r = analyzer.analyze(left: pair.left, right: pair.right)
        #expect(r.status == .unavailable && r.score == nil)
        #expect(r.unavailableReason?.contains("smaller than 64") == true)
    }

    @Test func constantViewsAreUnavailable() {
        let flat = Image8(width: 320, height: 240, channels: 3, samples: [UInt8](repeating: 128, count: 320 * 240 * 3))!
        let r = analyzer.analyze(left: flat, right: flat)
        #expect(r.status == .unavailable && r.score == nil)
        #expect(r.texturedBlocks == 0 && r.validBlocks == 0 && r.totalBlocks! > 0)
        #expect(r.unavailableReason?.contains("no textured block") == true)
    }

    @Test func horizontalStripesCarryNoDisparity() {
        // Rows vary, columns do not: the horizontal derivative is zero everywhere, so no
        // block constrains a horizontal shift.
        let stripes = ParallaxScenes.image(width: 320, height: 240) { _, y in 128 + 100 * sin(Double(y) * 0.7) }
        let r = analyzer.analyze(left: stripes, right: stripes)
        #expect(r.status == .unavailable && r.texturedBlocks == 0)
    }

    @Test func unrelatedViewsHaveFewReliableBlocks() {
        // Two independent textures: no consistent, unique correspondences.
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

    @Test func identifierIsParallaxOne() {
        #expect(ParallaxAnalyzer.identifier.description == "parallax/1")
        #expect(ParallaxAnalyzer.identifier == MethodIdentifier.parallaxV1)
    }
}
