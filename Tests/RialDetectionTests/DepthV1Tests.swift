import Foundation
import RialMedia
import RialTestSupport
import Testing

@testable import RialDetection

/// A `width x height` map with `value(x, y)` at each pixel.
func depthMap(_ width: Int, _ height: Int, _ value: (Int, Int) -> Float) -> DepthMap {
    var metres: [Float] = []
    for y in 0..<height { for x in 0..<width { metres.append(value(x, y)) } }
    return DepthMap(width: width, height: height, metres: metres)!
}

/// The analysis without its timing, so results compare with `==`.
func analyse(_ map: DepthMap, _ configuration: DepthAnalyzerV1.Configuration = .reference) throws
    -> DepthAnalyzerV1.Result
{
    try DepthAnalyzerV1(configuration: configuration).evaluate(map)
}

/// `1 / (1 + e^-z)`.
func logistic(_ z: Double) -> Double { 1 / (1 + exp(-z)) }

/// Expected values below come from hand calculation, explained in each test.
@Suite struct DepthV1Tests {
    /// 8x6 at 0.4 m. Every depth is Float(0.4) = 0.4000000059604645, so the sum is
    /// 48 x that exactly and the mean is that value: std exactly 0. min == max -> 0
    /// layers. No neighbour differs -> 0 edges of 24 interior pixels -> coherence 0.
    /// range 0 < 0.15, uniformity 48/48 = 1 > 0.85, mean 0.4 in [0.2, 1.5] -> screen.
    /// Not real; std 0 < 0.2 and 0 layers <= 2 -> score 0.1. Quadrants are 4x3 = 12
    /// >= 10 pixels, std 0 each, 0 > 0.1 false -> fails.
    /// Margin: the std term z = (0 - 0.5) / 0.1 = -5 is the smallest of
    /// std -5, layers (0 - 2.5) / 1 = -2.5, coherence (0 - 0.3) / 0.1 = -3 and
    /// not-screen max(range -3, uniformity (0.85 - 1) / 0.05 = -3, mean (0.2 - 0.4) / 0.1 = -2)
    /// -> margin = 1 / (1 + e^5) = 0.0066928509242848554.
    @Test func flatMapIsAScreenWithScore0_1() throws {
        let r = try analyse(depthMap(8, 6) { _, _ in 0.4 })
        #expect(r.status == .completed)
        #expect(r.unavailableReason == nil)
        #expect(r.algorithmVersion.description == "depth/1")
        #expect(r.coverage == 1)
        #expect(r.depthVariance == 0)
        #expect(r.minDepth == Double(Float(0.4)))
        #expect(r.maxDepth == Double(Float(0.4)))
        #expect(r.meanDepth == Double(Float(0.4)))
        #expect(r.medianDepth == Double(Float(0.4)))
        #expect(r.depthRange == 0)
        #expect(r.depthLayers == 0)
        #expect(r.edgeRatio == 0)
        #expect(r.edgeCoherence == 0)
        #expect(r.uniformity == 1)
        #expect(r.isScreenPattern == true)
        #expect(r.quadrantCheck == .init(quadrantStds: [0, 0, 0, 0], passes: false))
        #expect(r.isLikelyRealScene == false)
        #expect(r.score == 0.1)
        #expect(abs(r.margin! - 0.0066928509242848554) < 1e-15)
    }

    /// 8x6, rows 0-2 at 0.4 m and rows 3-5 at 2.0 m (24 pixels each).
    /// - std: mean = (a + 2) / 2 with a = Float(0.4), each deviation ±(2 - a) / 2, so
    ///   std = (2 - a) / 2 = 0.79999999701976776: 0.8 up to the float32 rounding of 0.4.
    /// - layers: a falls in bin 0, 2.0 in bin Int(1 x 50) = 50 -> clamped to 49. h[0] =
    ///   h[49] = 24. Smoothed: s[0] = (24 + 24 + 0) / 3 = 16, s[1] = 8, s[48] = 8,
    ///   s[49] = 16, all else 0; threshold 0.05 x 16 = 0.8; peaks at 0 and 49 only -> 2.
    /// - edges: interior x 1...6, y 1...4 = 24 valid pixels; gx = 0 (rows are constant);
    ///   gy = (d[y+1] - d[y-1]) / 2 is (2 - a) / 2 ≈ 0.8 > 0.1 for y = 2 and y = 3, 0 for
    ///   y = 1 and y = 4 -> 2 x 6 = 12 edges, ratio 12 / 24 = 0.5,
    ///   coherence = 1 - e^-15 = 1 - 3.059023205018258e-7 = 0.99999969409767953.
    /// - median sorted[48 / 2] = sorted[24] = 2.0 (the 24 values of a come first);
    ///   uniformity 24 / 48 = 0.5; range 2 - a ≈ 1.6 -> not a screen.
    /// - not real (2 layers < 3); std 0.8 >= 0.2 -> score 0.2 (not 0.1).
    /// - margin: the layers term (2 - 2.5) / 1 = -0.5 is the only one below 0.5:
    ///   1 / (1 + e^0.5) = 0.37754066879814541.
    /// - quadrants split at row 3, column 4: each holds one depth only -> stds 0, fails.
    @Test func twoHalvesGiveTwoLayersAndScore0_2() throws {
        let r = try analyse(depthMap(8, 6) { _, y in y < 3 ? 0.4 : 2.0 })
        let a = Double(Float(0.4))
        #expect(abs(r.depthVariance! - (2 - a) / 2) < 1e-15)
        #expect(abs(r.depthVariance! - 0.8) < 3e-9)
        #expect(r.minDepth == a)
        #expect(r.maxDepth == 2)
        #expect(r.meanDepth == (a + 2) / 2)
        #expect(r.depthLayers == 2)
        #expect(r.edgeRatio == 0.5)
        #expect(abs(r.edgeCoherence! - 0.99999969409767953) < 1e-15)
        #expect(r.medianDepth == 2)
        #expect(r.uniformity == 0.5)
        #expect(r.isScreenPattern == false)
        #expect(r.quadrantCheck == .init(quadrantStds: [0, 0, 0, 0], passes: false))
        #expect(r.isLikelyRealScene == false)
        #expect(r.score == 0.2)
        #expect(abs(r.margin! - 0.37754066879814541) < 1e-15)
    }

    /// A 16x16 map with std EXACTLY 0.5 and every other criterion passing, judged not
    /// real because `std > 0.5` is strict. Depths, filled row-major in this order:
    /// 30 x 0.5, 12 x 1.46875, 158 x 1.5, 22 x 1.5625, 34 x 2.5 (all dyadic, exact in
    /// float32). In units u = 1/32 m the values are 16, 47, 48, 50, 80:
    /// S1 = Σv = 12448 u, S2 = Σv² = 670820 u², 256 S2 - S1² = 2^24 u², so
    /// Σ(v - mean)² / 256 = 2^24 / 256² u² = 256 u² = 0.25 m² and std = 0.5. The mean
    /// 12448 / 8192 = 1.51953125 m and every deviation and square are exact in Double.
    /// Layers: span 2 m, bin = Int((v - 0.5) x 25): 0, 24 (24.22), 25 (25.0),
    /// 26 (26.56), 49 (clamped 50). 3 s = 60, 30 | 12, 170, 192, 180, 22 | 34, 68 at bins
    /// 0, 1 | 23...27 | 48, 49: peaks at 0, 25 and 49 -> 3 layers.
    /// Edges: row 1 (14 x 0.5 then 1.46875) has 0.5 above and >= 1.46875 below for
    /// x 1...14 (gy ≈ 0.49), plenty more at the 1.5625/2.5 boundary -> coherence >> 0.3.
    /// Range 2 -> not a screen.
    @Test func stdExactlyAtThresholdFailsBecauseTheComparisonIsStrict() throws {
        var values: [Float] = []
        for (value, count) in [(Float(0.5), 30), (1.46875, 12), (1.5, 158), (1.5625, 22), (2.5, 34)] {
            values += Array(repeating: value, count: count)
        }
        let map = DepthMap(width: 16, height: 16, metres: values)!
        let r = try analyse(map)
        #expect(r.depthVariance == 0.5)
        #expect(r.meanDepth == 1.51953125)
        #expect(r.depthLayers == 3)
        #expect(r.edgeCoherence! > 0.3)
        #expect(r.isScreenPattern == false)
        #expect(r.isLikelyRealScene == false)
        #expect(r.score == 0.2)
        #expect(r.margin! <= 0.5)
        // The same map passes once the threshold is just below 0.5: std was the only failure.
        var lower = DepthAnalyzerV1.Configuration.reference
        lower.stdThreshold = 0.5.nextDown
        let relaxed = try analyse(map, lower)
        #expect(relaxed.isLikelyRealScene == true)
        #expect(relaxed.score == 1)
        #expect(relaxed.margin! > 0.5)
    }

    /// The known weakness: 12x6, columns 0-3 at 0.8 m, 4-7 at 2 m, 8-11 at 4 m
    /// (24 pixels each), a genuine 3-plane scene, gives 2 layers. With a = Float(0.8),
    /// 2 m falls in bin Int((2 - a) / (4 - a) x 50) = Int(18.75) = 18, 4 m in 49.
    /// h[0] = h[18] = h[49] = 24; smoothing turns the isolated interior spike into a
    /// plateau s[17] = s[18] = s[19] = 8, none strictly greater than its neighbours, while
    /// the edge bins keep s[0] = s[49] = (24 + 24 + 0) / 3 = 16 > 8. So any interior plane
    /// that fills a single bin is invisible: 2 layers, not real although std ≈ 1.32 and
    /// coherence ≈ 1. std = sqrt((a² + 4 + 16) / 3 - ((a + 6) / 3)²) ≈ sqrt(15.68) / 3
    /// = 1.3199326; edges: gx ≈ 0.6 or 1.0 at columns 3, 4, 7, 8 of the 10 interior
    /// columns, 4 interior rows -> 16 / 40 = 0.4, coherence 1 - e^-12.
    @Test func threeCleanPlanesGiveOnlyTwoLayers() throws {
        let r = try analyse(depthMap(12, 6) { x, _ in x < 4 ? 0.8 : (x < 8 ? 2 : 4) })
        #expect(r.depthLayers == 2)
        #expect(abs(r.depthVariance! - 15.68.squareRoot() / 3) < 1e-6)
        #expect(r.edgeRatio == 0.4)
        #expect(abs(r.edgeCoherence! - (1 - exp(-12.0))) < 1e-15)
        #expect(r.isScreenPattern == false)
        #expect(r.isLikelyRealScene == false)
        #expect(r.score == 0.2)
    }

    /// The other weakness: a flat surface at 1 m with uniform ±2 cm noise (seeded,
    /// 256x192). The histogram spans only the 4 cm of noise, ~983 pixels per bin with
    /// ±31 of sampling noise, so the smoothed histogram has many local maxima. A numpy
    /// run of the spec on 20 such maps gave 9...16 layers. std ≈ 0.02 / sqrt(3) =
    /// 0.011547 (uniform distribution). Screen-like (range ≈ 0.04, uniformity 1, mean 1),
    /// not real, and the score is 0.2, not the flat 0.1, because layers > 2.
    @Test func noisyFlatSurfaceGivesManyLayers() throws {
        var rng = SeededGenerator(seed: 0xD1)
        let map = depthMap(256, 192) { _, _ in 1 + Float.random(in: -0.02...0.02, using: &rng) }
        let r = try analyse(map)
        #expect((6...25).contains(r.depthLayers!))
        #expect(abs(r.depthVariance! - 0.02 / 3.0.squareRoot()) < 0.0003)
        #expect(r.isScreenPattern == true)
        #expect(r.uniformity == 1)
        #expect(r.isLikelyRealScene == false)
        #expect(r.score == 0.2)
    }

    /// 4x4: 0.05 (below range), 25 (above), NaN, -1, +inf, -inf, 0, Float(20).nextUp and
    /// 0.0999 are invalid (9); Float(0.1) (= 0.10000000149 >= 0.1), 20 (inclusive) and
    /// five 1.0 are valid (7): coverage 7 / 16 = 0.4375, min Float(0.1), max 20.
    @Test func outOfRangeValuesAreInvalidAndCounted() throws {
        let values: [Float] = [
            0.05, 25, .nan, -1, .infinity, -.infinity, 0, Float(20).nextUp,
            0.0999, 0.1, 20, 1, 1, 1, 1, 1,
        ]
        let r = try analyse(DepthMap(width: 4, height: 4, metres: values)!)
        #expect(r.status == .completed)
        #expect(r.coverage == 0.4375)
        #expect(r.minDepth == Double(Float(0.1)))
        #expect(r.maxDepth == 20)
        // Sorted valid: 0.1, 1 x 5, 20 -> sorted[7 / 2] = sorted[3] = 1.
        #expect(r.medianDepth == 1)
    }

    /// Gradient neighbours need only be finite and > 0.1 (not in the valid range).
    /// 3x3 of 1.0 with the left neighbour of the centre replaced: the one interior pixel
    /// has gx = (1 - left) / 2 when the left value counts (else 0) and gy = 0, so it is an
    /// edge (ratio 1, coherence 1 - e^-30) or not (ratio 0, coherence 0).
    @Test(arguments: [
        (Float(25), 1), (.nan, 0), (.infinity, 0), (0.05, 0), (-1, 0),
        (0.1, 1), // Double(Float(0.1)) = 0.10000000149 > 0.1; gx = (1 - 0.1) / 2 = 0.45
        (0.85, 0), // gx = 0.075 < 0.1
    ])
    func gradientNeighbourRule(left: Float, expectedEdges: Int) throws {
        let r = try analyse(depthMap(3, 3) { x, y in x == 0 && y == 1 ? left : 1 })
        #expect(r.edgeRatio == Double(expectedEdges))
        #expect(r.edgeCoherence == (expectedEdges == 1 ? 1 - exp(-30.0) : 0))
    }

    /// An invalid centre is not counted; with no valid interior pixel the ratio is 0.
    @Test func invalidCentreIsSkipped() throws {
        let r = try analyse(depthMap(3, 3) { x, y in x == 1 && y == 1 ? .nan : (x == 0 ? 5 : 1) })
        #expect(r.edgeRatio == 0)
        #expect(r.edgeCoherence == 0)
    }

    @Test(arguments: [
        DepthMap(width: 4, height: 4, metres: Array(repeating: .nan, count: 16))!,
        DepthMap(width: 1, height: 1, metres: [.nan])!,
        DepthMap(width: 3, height: 2, metres: [0.05, 25, .infinity, -.infinity, -1, 0])!,
    ])
    func noValidPixelIsUnavailable(map: DepthMap) throws {
        let r = try analyse(map)
        #expect(r.status == .unavailable)
        #expect(r.unavailableReason?.contains("no valid depth pixel") == true)
        #expect(r.coverage == 0)
        #expect(r.score == nil && r.margin == nil && r.isLikelyRealScene == nil && r.depthVariance == nil)
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(r)) as! [String: Any]
        #expect(
            Set(json.keys) == ["status", "unavailable_reason", "algorithm_version", "analysis_time_ms", "coverage"])
    }

    /// 1x1 at 1 m: std 0, 0 layers, no interior (coherence 0), quadrants split at row 0
    /// and column 0 leave only the bottom-right one with 1 < 10 pixels -> all nil, fails.
    /// Screen (range 0, uniformity 1, mean 1), score 0.1.
    @Test func singlePixel() throws {
        let r = try analyse(DepthMap(width: 1, height: 1, metres: [1])!)
        #expect(r.status == .completed)
        #expect(r.depthVariance == 0 && r.depthLayers == 0 && r.edgeCoherence == 0)
        #expect(r.quadrantCheck == .init(quadrantStds: [nil, nil, nil, nil], passes: false))
        #expect(r.isScreenPattern == true)
        #expect(r.score == 0.1)
    }

    /// Quadrant stds by hand: 4x4 (quadrants of 4 pixels) with quadrant_min_valid 4.
    /// Top-left {1, 1, 3, 3}: mean 2, std 1. Top-right {2, 2, 2, 2}: std 0. Bottom-left
    /// {1, 2, 3, NaN}: 3 < 4 pixels -> nil. Bottom-right {1, 1, 1, 5}: mean 2, deviations
    /// -1, -1, -1, 3, std sqrt(12 / 4) = sqrt(3). Smallest 0 -> fails; with threshold -1,
    /// passes. Neither changes the decision.
    @Test func quadrantStdsByHand() throws {
        let values: [Float] = [
            1, 1, 2, 2,
            3, 3, 2, 2,
            1, 2, 1, 1,
            3, .nan, 1, 5,
        ]
        let map = DepthMap(width: 4, height: 4, metres: values)!
        var configuration = DepthAnalyzerV1.Configuration.reference
        configuration.quadrantMinValid = 4
        let r = try analyse(map, configuration)
        #expect(r.quadrantCheck!.quadrantStds.count == 4)
        #expect(r.quadrantCheck!.quadrantStds[0] == 1)
        #expect(r.quadrantCheck!.quadrantStds[1] == 0)
        #expect(r.quadrantCheck!.quadrantStds[2] == nil)
        #expect(abs(r.quadrantCheck!.quadrantStds[3]! - 3.0.squareRoot()) < 1e-15)
        #expect(r.quadrantCheck!.passes == false)
        #expect(r.quadrantCheck!.advisory == true)
        configuration.quadrantStdThreshold = -1
        let passing = try analyse(map, configuration)
        #expect(passing.quadrantCheck!.passes == true)
        #expect(
            passing.isLikelyRealScene == r.isLikelyRealScene && passing.score == r.score && passing.margin == r.margin)
    }

    /// The quadrant check never changes the decision, score or margin: on random maps
    /// of every kind, forcing it to pass or to fail leaves them identical.
    @Test func quadrantCheckIsAdvisory() throws {
        var rng = SeededGenerator(seed: 0x0AD)
        var pass = DepthAnalyzerV1.Configuration.reference
        pass.quadrantStdThreshold = -1
        pass.quadrantMinValid = 1
        var fail = DepthAnalyzerV1.Configuration.reference
        fail.quadrantStdThreshold = 1e9
        for _ in 0..<200 {
            let map = RandomScenes.map(using: &rng)
            let a = try analyse(map, pass), b = try analyse(map, fail), c = try analyse(map)
            guard a.status == .completed else { continue }
            #expect(a.quadrantCheck?.passes == true && b.quadrantCheck?.passes == false)
            #expect(a.isLikelyRealScene == c.isLikelyRealScene && b.isLikelyRealScene == c.isLikelyRealScene)
            #expect(a.score == c.score && b.score == c.score)
            #expect(a.margin == c.margin && b.margin == c.margin)
        }
    }

    /// The decision and score follow the spec formula from the reported fields, and the
    /// margin is in 0...1 and > 0.5 exactly when the map is judged real, on random maps
    /// under both the production (0.3) and PRD (0.7) coherence thresholds.
    @Test(arguments: [DepthAnalyzerV1.Configuration.reference, .prd])
    func marginIsAboveOneHalfExactlyWhenReal(configuration: DepthAnalyzerV1.Configuration) throws {
        var rng = SeededGenerator(seed: 0x3A26)
        var real = 0, notReal = 0
        for _ in 0..<400 {
            let r = try analyse(RandomScenes.map(using: &rng), configuration)
            guard r.status == .completed else { continue }
            let std = r.depthVariance!, layers = r.depthLayers!, coherence = r.edgeCoherence!
            let screen = r.depthRange! < 0.15 && r.uniformity! > 0.85 && 0.2 <= r.meanDepth! && r.meanDepth! <= 1.5
            let isReal = !screen && std > 0.5 && layers >= 3 && coherence > configuration.coherenceThreshold
            #expect(r.isScreenPattern == screen)
            #expect(r.isLikelyRealScene == isReal)
            #expect(r.score == (isReal ? 1 : (std < 0.2 && layers <= 2 ? 0.1 : 0.2)))
            #expect((0...1).contains(r.margin!))
            #expect((r.margin! > 0.5) == isReal)
            if isReal { real += 1 } else { notReal += 1 }
        }
        // Both sides of the boundary are exercised.
        #expect(real >= 20 && notReal >= 20)
    }

    /// Analysis time is measured (>= 0, finite) and the analyzer is deterministic
    /// apart from it.
    @Test func timedAnalysisMatchesUntimed() throws {
        let map = depthMap(8, 6) { x, y in Float(1 + x + y) / 4 }
        let timed = DepthAnalyzerV1().analyze(map)
        #expect(timed.analysisTimeMs >= 0 && timed.analysisTimeMs.isFinite)
        var untimed = timed
        untimed.analysisTimeMs = 0
        #expect(untimed == (try analyse(map)))
    }
}

/// Seeded random depth maps spanning screens, flat surfaces, slopes and multi-plane
/// scenes with noise and holes, so both verdicts occur.
enum RandomScenes {
    static func map(using rng: inout SeededGenerator) -> DepthMap {
        let width = Int.random(in: 1...48, using: &rng), height = Int.random(in: 1...36, using: &rng)
        let planes = Int.random(in: 1...5, using: &rng)
        let depths = (0..<planes).map { _ in Float.random(in: 0.15...6, using: &rng) }
        let noise = [Float(0), 0.005, 0.02, 0.1].randomElement(using: &rng)!
        let slope = Bool.random(using: &rng) ? Float.random(in: -0.05...0.05, using: &rng) : 0
        let holes = [0.0, 0.1, 0.6, 1.0].randomElement(using: &rng)!
        let vertical = Bool.random(using: &rng)
        return depthMap(width, height) { x, y in
            if Double.random(in: 0..<1, using: &rng) < holes { return .nan }
            let t = vertical ? y * planes / height : x * planes / width
            return depths[t] + slope * Float(x) + Float.random(in: -1...1, using: &rng) * noise
        }
    }
}
