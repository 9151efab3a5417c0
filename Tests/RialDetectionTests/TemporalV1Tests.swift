import Foundation
import RialMedia
import Testing

@testable import RialDetection

/// Keyframes at 10 fps (timestamp `i / 10` s) from `maps`.
func keyframes(_ maps: [DepthMap]) -> DepthKeyframes {
    let frames = maps.enumerated().map { DepthKeyframe(timestamp: Double($0.offset) / 10, depth: $0.element) }
    return try! DepthKeyframes(frames)
}

/// Expected values come from hand calculation with methods.md section 6 ("temporal/1 —
/// the deployed backend check"), worked in each test's comment.
@Suite struct TemporalV1Tests {
    static let analyzer = TemporalAnalyzerV1()

    /// 11 keyframes of 16x16: methods.md "sample every 10th keyframe" -> keyframes 0 and
    /// 10 are the two samples (keyframes 1-9 are NaN and must not matter).
    /// Sample 0: every pixel 1.0 m. Sample 10: columns 0-7 at 1.0 m, columns 8-15 at 3.5 m.
    /// - Histograms, "10-bin histogram over 0.1-20 m (bins about 1.99 m wide)": bin 0 is
    ///   [0.1, 2.09), bin 1 [2.09, 4.08). h0 = [256, 0, …], h10 = [128, 128, 0, …].
    ///   "sum(min(h1, h2)) / min(sum h1, sum h2)" = (128 + 0) / min(256, 256) = 0.5;
    ///   "the first gets 1.0" -> depth_consistency = (1.0 + 0.5) / 2 = 0.75.
    /// - Motion, "average 8x8 blocks": 2x2 blocks, grid side floor(sqrt(4)) = 2 (the bug
    ///   changes nothing here). Sample 0: four blocks at 1.0 m, weights 1 -> centroid
    ///   (0.5, 0.5). Sample 10: left blocks 1.0 m (weight 1), right 3.5 m (weight 1/3.5):
    ///   x = 2 (1/3.5) / (2 + 2 / 3.5) = 1 / 4.5 = 0.2222…, y = 0.5. Motion =
    ///   (0.2222 - 0.5, 0) / (16/8, 16/8) = (-0.138888…, 0). One vector: "fewer than 2
    ///   vectors -> 1.0".
    /// - Stability: all 256 pixels co-valid, the right half changes by 2.5 m > 2.0 m:
    ///   share 128/256 = 0.5 > 0.05 -> the only pair is unstable: 1 - 1/1 = 0.
    /// - Suspicious: consistency 0.5 is not < 0.5, but the jump share 0.5 > 0.05 -> [10].
    /// - Real: 0.75 >= 0.7, 1.0 >= 0.6, but 0 < 0.8 (and a suspicious frame) -> false.
    /// - Score (our margin): min((0.75-0.7)/0.3, (1-0.6)/0.4, (0-0.8)/0.8) = -1 -> 0.
    @Test func twoSamplesWorkedByHand() throws {
        let still = depthMap(16, 16) { _, _ in 1.0 }
        let step = depthMap(16, 16) { x, _ in x < 8 ? 1.0 : 3.5 }
        let noise = depthMap(16, 16) { _, _ in .nan }
        let r = Self.analyzer.evaluate(keyframes([still] + Array(repeating: noise, count: 9) + [step]))
        #expect(r.status == .completed)
        #expect(r.sampleIndices == [0, 10])
        #expect(r.localConsistency == [1.0, 0.5])
        #expect(r.depthConsistency == 0.75)
        let vector = try #require(r.motionVectors?.first)
        #expect(abs(vector[0] - (1 / 4.5 - 0.5) / 2) < 1e-12)
        #expect(abs(vector[1]) < 1e-12)
        #expect(r.motionCoherence == 1.0)
        #expect(r.jumpShares == [0.5])
        #expect(r.sceneStability == 0)
        #expect(r.suspiciousFrames == [10])
        #expect(r.isLikelyRealScene == false)
        #expect(r.score == 0)
        #expect(r.videoRuleDepth == VideoConfidenceRule.Depth(isReal: false, consistency: 0.75, stability: 0))
    }

    /// methods.md: "a perfectly flat video (uniform 0.5 m) scores 1.0 / 1.0 / 1.0 and
    /// 'real'" — 150 keyframes of 256x192 (15 s at 10 fps) at 0.5 m: identical histograms
    /// (consistency 1), a constant centroid (every vector 0 < 0.01: "both magnitudes <
    /// 0.01 -> 1.0"), no jump (stability 1), nothing suspicious: real. The known failure.
    @Test func flatVideoIsRealTheKnownFailure() throws {
        let flat = depthMap(256, 192) { _, _ in 0.5 }
        let r = Self.analyzer.evaluate(keyframes(Array(repeating: flat, count: 150)))
        #expect(r.sampleCount == 15)
        #expect(r.depthConsistency == 1.0)
        #expect(r.motionCoherence == 1.0)
        #expect(r.sceneStability == 1.0)
        #expect(r.suspiciousFrames == [])
        #expect(r.isLikelyRealScene == true)
        #expect(r.score == 1.0)
        // What the deployed video rule then sees: real, 1.0 >= 0.7 and 1.0 >= 0.8 -> HIGH
        // with hardware and an intact, attested chain.
        let depth = try #require(r.videoRuleDepth)
        let chain = VideoConfidenceRule.Chain(
            status: .pass, intact: true, attestationValid: true, partialCheckpointVerified: false)
        #expect(VideoConfidenceRule().level(hardware: .pass, chain: chain, depth: depth) == .high)
    }

    /// The grid-side bug on the product's 256x192 map: 32x24 = 768 blocks, "grid side
    /// floor(sqrt(number of blocks)) (a bug: a 32x24 grid is read as 27 wide)";
    /// floor(sqrt(768)) = floor(27.71) = 27. One valid 8x8 block at 1.0 m, everything else
    /// NaN, panning left one block per second: true block columns 28, 27, 26 of row 0
    /// (list indices 28, 27, 26).
    /// - Read 27 wide: index 28 -> (1, 1), 27 -> (0, 1), 26 -> (26, 0). Vectors /(32, 24):
    ///   a = (-1/32, 0) = (-0.03125, 0), b = (26/32, -1/24) = (0.8125, -0.041666…).
    ///   cos = a·b / |a||b| = -0.025390625 / (0.03125 x 0.8135677) = -0.9986877;
    ///   (cos + 1) / 2 = 0.00065617: a steady pan reads as a reversal, motion_coherence
    ///   ≈ 0.00066 and not real.
    /// - The true grid (grid_side_bug false): a = b = (-1/32, 0), cos 1 -> coherence 1.0.
    /// Histograms are the same 64 pixels in bin 0 (consistency 1) and the moving block
    /// never overlaps itself (no co-valid pixel: share 0, stability 1).
    @Test func gridSideBugReadsA32By24GridAs27Wide() throws {
        func frame(blockColumn: Int) -> DepthMap {
            depthMap(256, 192) { x, y in y < 8 && x / 8 == blockColumn ? 1.0 : .nan }
        }
        let nothing = depthMap(256, 192) { _, _ in .nan }
        var maps: [DepthMap] = []
        for column in [28, 27, 26] { maps += [frame(blockColumn: column)] + Array(repeating: nothing, count: 9) }
        let video = keyframes(Array(maps.prefix(21)))
        let r = Self.analyzer.evaluate(video)
        #expect(r.blockGrid == [32, 24])
        #expect(r.gridSide == 27)
        let vectors = try #require(r.motionVectors)
        #expect(vectors.count == 2)
        #expect(abs(vectors[0][0] - -1.0 / 32) < 1e-12 && vectors[0][1] == 0)
        #expect(abs(vectors[1][0] - 26.0 / 32) < 1e-12 && abs(vectors[1][1] - -1.0 / 24) < 1e-12)
        #expect(abs(try #require(r.motionCoherence) - 0.00065617) < 1e-7)
        #expect(r.depthConsistency == 1.0)
        #expect(r.sceneStability == 1.0)
        #expect(r.isLikelyRealScene == false)

        var fixed = TemporalAnalyzerV1.Configuration.reference
        fixed.gridSideBug = false
        let f = try TemporalAnalyzerV1(configuration: fixed).evaluate(video)
        #expect(f.gridSide == 32)
        #expect(f.motionVectors == [[-1.0 / 32, 0], [-1.0 / 32, 0]])
        #expect(f.motionCoherence == 1.0)
        #expect(f.isLikelyRealScene == true)
    }

    /// "fewer than 2 samples -> unavailable": 10 keyframes give one sample (keyframe 0);
    /// none gives none. No score, a reason.
    @Test(arguments: [0, 1, 10])
    func fewerThanTwoSamplesIsUnavailable(count: Int) {
        let map = depthMap(8, 8) { _, _ in 1.0 }
        let r = Self.analyzer.evaluate(
            count == 0 ? DepthKeyframes(width: 8, height: 8) : keyframes(Array(repeating: map, count: count)))
        #expect(r.status == .unavailable)
        #expect(r.score == nil)
        #expect(r.unavailableReason?.contains("needs at least 2") == true)
        #expect(r.sampleCount == (count == 0 ? 0 : 1))
    }

    /// Motion coherence rules, methods.md: "both magnitudes < 0.01 -> 1.0; exactly one ->
    /// 0.5; else (cos angle + 1)/2". Perpendicular vectors: cos 0 -> 0.5; opposite: 0.
    @Test func motionCoherencePairRules() {
        typealias T = TemporalAnalyzerV1
        #expect(T.motionCoherence([(0.001, 0), (0, 0.009)], staticBelow: 0.01) == 1.0)
        #expect(T.motionCoherence([(0.001, 0), (0.5, 0)], staticBelow: 0.01) == 0.5)
        #expect(T.motionCoherence([(0.1, 0), (0, 0.1)], staticBelow: 0.01) == 0.5)
        #expect(T.motionCoherence([(0.1, 0), (-0.2, 0)], staticBelow: 0.01) == 0)
        #expect(T.motionCoherence([(0.1, 0), (-0.2, 0), (-0.2, 0)], staticBelow: 0.01) == 0.5)
        #expect(T.motionCoherence([(0.1, 0)], staticBelow: 0.01) == 1.0)
    }

    /// Every constant is configuration, validated with the key named.
    @Test func configurationIsValidated() {
        var c = TemporalAnalyzerV1.Configuration.reference
        c.sampleStride = 0
        #expect(throws: ConfigurationError.self) { try c.validate() }
        c = .reference
        c.minStability = 1.5
        #expect(throws: ConfigurationError(key: "min_stability", "must be in 0...1, got 1.5")) { try c.validate() }
        c = .reference
        c.histogramMaxDepth = 0.05
        #expect(throws: ConfigurationError.self) { try c.validate() }
        #expect(throws: Never.self) { try TemporalAnalyzerV1.Configuration.reference.validate() }
    }
}

/// The phone's privacy-mode variant, methods.md section 6: "run the single-frame depth
/// analysis on every keyframe; mean_variance = mean of per-frame std; variance_stability
/// = 1 - std(stds) / mean(stds) (population std; 0 when the mean is 0);
/// temporal_coherence = mean edge coherence; real = every frame real AND
/// variance_stability > 0.8".
@Suite struct TemporalPrivacyModeTests {
    /// The 16x16 map of `DepthV1Tests.stdExactlyAtThresholdFailsBecauseTheComparisonIsStrict`:
    /// std exactly 0.5 m, 3 layers, coherence > 0.3, not a screen; real for depth/1 with
    /// `std_threshold` just below 0.5 (hand-worked there). Doubling every depth doubles
    /// the std (1.0 m) and keeps the histogram (scale-invariant), so it is real too.
    static func realFrame(scale: Float) -> DepthMap {
        var values: [Float] = []
        for (value, count) in [(Float(0.5), 30), (1.46875, 12), (1.5, 158), (1.5625, 22), (2.5, 34)] {
            values += Array(repeating: value * scale, count: count)
        }
        return DepthMap(width: 16, height: 16, metres: values)!
    }

    static let singleFrame: DepthAnalyzerV1 = {
        var c = DepthAnalyzerV1.Configuration.reference
        c.stdThreshold = 0.5.nextDown
        return try! DepthAnalyzerV1(configuration: c)
    }()

    /// Two equal real frames: stds [0.5, 0.5] -> mean 0.5, std 0 -> stability 1 > 0.8,
    /// every frame real -> real.
    @Test func steadyRealFramesAreReal() {
        let frame = Self.realFrame(scale: 1)
        let coherence = Self.singleFrame.evaluate(frame).edgeCoherence!
        let r = TemporalAnalyzerV1().privacyAnalysis(keyframes([frame, frame]), singleFrame: Self.singleFrame)
        #expect(r.frameCount == 2 && r.realFrameCount == 2)
        #expect(r.meanVariance == 0.5)
        #expect(r.varianceStability == 1)
        #expect(r.temporalCoherence == coherence)
        #expect(r.isLikelyRealScene == true)
    }

    /// Stds [0.5, 1.0]: mean 0.75, population std 0.25 -> stability 1 - 0.25/0.75 =
    /// 0.6667, not > 0.8: not real although every frame is.
    @Test func unsteadyStdsAreNotReal() {
        let r = TemporalAnalyzerV1().privacyAnalysis(
            keyframes([Self.realFrame(scale: 1), Self.realFrame(scale: 2)]), singleFrame: Self.singleFrame)
        #expect(r.realFrameCount == 2)
        #expect(r.meanVariance == 0.75)
        #expect(abs(r.varianceStability - 2.0 / 3) < 1e-12)
        #expect(r.isLikelyRealScene == false)
    }

    /// Flat frames (every depth 0.4 m, depth/1 std 0, coherence 0, see
    /// `DepthV1Tests.flatMapIsAScreenWithScore0_1`): mean 0 -> "0 when the mean is 0".
    /// Without keyframes every mean is 0 and nothing is real. Keys: methods.md's names.
    @Test func flatFramesAndNoFrames() throws {
        let flat = depthMap(8, 6) { _, _ in 0.4 }
        let r = TemporalAnalyzerV1().privacyAnalysis(keyframes([flat, flat, flat]))
        #expect(r.meanVariance == 0 && r.varianceStability == 0 && r.temporalCoherence == 0)
        #expect(r.realFrameCount == 0 && r.isLikelyRealScene == false)
        let none = TemporalAnalyzerV1().privacyAnalysis(DepthKeyframes(width: 8, height: 6))
        #expect(none.frameCount == 0 && none.varianceStability == 0 && none.isLikelyRealScene == false)
        let json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(r)) as? [String: Any]
        #expect(
            Set(json?.keys.map { $0 } ?? []) == [
                "frame_count", "real_frame_count", "mean_variance", "variance_stability", "temporal_coherence",
                "is_likely_real_scene",
            ])
    }
}
