import RialMedia

extension MethodIdentifier {
    /// `temporal/1`: the deployed backend's temporal depth check (`TemporalAnalyzerV1`).
    public static let temporalV1 = MethodIdentifier(literal: "temporal", version: 1)
}

extension TemporalAnalyzerV1: DetectionMethod {
    public static let summary = MethodSummary(
        title: "Temporal depth, deployed reference",
        signal:
            "On every 10th depth keyframe (1 fps): 10-bin depth histograms over 0.1-20 m compared by intersection (depth_consistency), the inverse-depth-weighted centroid of 8x8 block means as a motion vector (with the deployed grid-side bug: 32x24 blocks read as 27 wide) and the agreement of consecutive vectors (motion_coherence), the share of pairs with more than 5% of pixels jumping by 2 m (scene_stability); real when consistency >= 0.7, motion >= 0.6, stability >= 0.8 and no suspicious frame. Reproduced exactly; `score` is a continuous margin around that verdict.",
        blindTo:
            "The shape of the depth: a screen or a print filmed steadily is consistent, coherent and stable (a perfectly flat 0.5 m video scores 1.0 / 1.0 / 1.0 and real). It rewards a still camera and penalises real scenes with fast motion or large depth changes.",
        latencyTarget: LatencyTarget(milliseconds: 50, source: "issue 15: 150 depth keyframes"))

    /// It reads no image; it runs once the capture, with its keyframes, is complete.
    public static let readsRowsWhileDecoding = false

    public func input(from capture: MethodCapture) -> InputCheck<DepthKeyframes, Result> {
        guard let keyframes = capture.depthKeyframes else { return .missing("not a video: no depth keyframes") }
        return .ready(keyframes)
    }

    /// temporal/1 detects no screen or print.
    public static func detections(in fields: JSONObject) -> Detections { .none }

    /// The phone sends no temporal/1 result (its privacy-mode analysis is
    /// `TemporalAnalyzerV1.PrivacyAnalysis`, compared by the payload parity).
    public static func payloadScore(_ fields: JSONObject) -> Double? { nil }
}

extension TemporalAnalyzerV1.Configuration: MethodConfiguration {}
