import Foundation
import RialMedia

extension TemporalAnalyzerV1 {
    /// The phone's privacy-mode temporal analysis (methods.md section 6, "The phone's
    /// privacy-mode variant"; PRD 1.1 FR57: "app performs depth analysis locally"), as the
    /// payload's `temporal_depth_analysis` carries it. The product documents name no
    /// fields of it; the keys are methods.md's names.
    public struct PrivacyAnalysis: Sendable, Equatable, Codable {
        /// Keyframes analysed (every keyframe).
        public var frameCount: Int
        /// Keyframes the single-frame analysis judged real.
        public var realFrameCount: Int
        /// Mean over the keyframes of the single-frame `depth_variance` (a population std,
        /// metres); a keyframe without valid depth counts 0. 0 without keyframes.
        public var meanVariance: Double
        /// `1 - std(stds) / mean(stds)` (population std of the per-frame stds); 0 when
        /// their mean is 0 (also without keyframes). Not clamped: negative when the stds
        /// spread more than their mean.
        public var varianceStability: Double
        /// Mean single-frame `edge_coherence` (0 for a keyframe without valid depth).
        public var temporalCoherence: Double
        /// Every keyframe judged real (a keyframe without valid depth is not) AND
        /// `variance_stability > privacy_min_variance_stability` (0.8).
        public var isLikelyRealScene: Bool

        enum CodingKeys: String, CodingKey {
            case frameCount = "frame_count"
            case realFrameCount = "real_frame_count"
            case meanVariance = "mean_variance"
            case varianceStability = "variance_stability"
            case temporalCoherence = "temporal_coherence"
            case isLikelyRealScene = "is_likely_real_scene"
        }

        public init(
            frameCount: Int, realFrameCount: Int, meanVariance: Double, varianceStability: Double,
            temporalCoherence: Double, isLikelyRealScene: Bool
        ) {
            self.frameCount = frameCount
            self.realFrameCount = realFrameCount
            self.meanVariance = meanVariance
            self.varianceStability = varianceStability
            self.temporalCoherence = temporalCoherence
            self.isLikelyRealScene = isLikelyRealScene
        }
    }

    /// The phone's privacy-mode variant on `keyframes`: the single-frame depth analysis
    /// (`depth/1`, `singleFrame`'s configuration) on every keyframe, then
    /// `mean_variance` = mean of the per-frame stds, `variance_stability` = `1 -
    /// std(stds) / mean(stds)` (population std; 0 when the mean is 0), `temporal_coherence`
    /// = mean edge coherence, real = every frame real AND `variance_stability >
    /// privacy_min_variance_stability`. Where the document is silent: a keyframe depth/1
    /// cannot analyse (no valid pixel) enters the means with 0 and is not real. Never throws.
    ///
    /// - Complexity: O(keyframes * w * h).
    public func privacyAnalysis(_ keyframes: DepthKeyframes, singleFrame: DepthAnalyzerV1 = DepthAnalyzerV1())
        -> PrivacyAnalysis
    {
        var stds: [Double] = [], coherence = 0.0, real = 0
        stds.reserveCapacity(keyframes.count)
        for frame in keyframes.frames {
            let result = singleFrame.evaluate(frame.depth)
            stds.append(result.depthVariance ?? 0)
            coherence += result.edgeCoherence ?? 0
            if result.isLikelyRealScene == true { real += 1 }
        }
        let n = Double(stds.count)
        let mean = n > 0 ? stds.reduce(0, +) / n : 0
        var stability = 0.0
        if mean > 0 {
            let spread = (stds.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / n).squareRoot()
            stability = 1 - spread / mean
        }
        return PrivacyAnalysis(
            frameCount: keyframes.count, realFrameCount: real, meanVariance: mean, varianceStability: stability,
            temporalCoherence: n > 0 ? coherence / n : 0,
            isLikelyRealScene: real == keyframes.count && stability > configuration.privacyMinVarianceStability)
    }
}
