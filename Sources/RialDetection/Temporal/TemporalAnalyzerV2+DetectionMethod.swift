import RialMedia

extension MethodIdentifier {
    /// `temporal/2`: flatness and rigid parallax over a video's depth keyframes
    /// (`TemporalAnalyzerV2`).
    public static let temporalV2 = MethodIdentifier(literal: "temporal", version: 2)
}

extension TemporalAnalyzerV2: DetectionMethod {
    public static let summary = MethodSummary(
        title: "Temporal depth, flatness and rigid parallax",
        signal:
            "On 5 keyframes spread over the recording: depth/2's planarity judgement of each (median log-odds, so one glitched keyframe does not count), the relief off the content window's plane, the camera motion to the keyframe 0.5 s later by point-to-plane ICP on the back-projected depth, and the share of the window seen in parallax: relief that the rigid motion moves away from the plane's homography prediction and that the later keyframe shows at the predicted depth. A screen or print is a plane: no relief, no parallax. By default the score counts the flatness only (`parallax_weight` 0: on an independent simulated set parallax came more often from the room around a held screen or print than from real scenes); parallax is measured and reported.",
        blindTo:
            "A curved or folded print moved by hand (its bend is relief that moves rigidly); a real flat subject filmed alone (a wall, a document) scores like a screen; with the camera held still there is no parallax and the score is depth/2's; a small screen in front of a room, or the room around a held print inside the window, is real relief.",
        latencyTarget: LatencyTarget(milliseconds: 50, source: "issue 15: 150 depth keyframes"))

    /// It reads no image; it runs once the capture, with its keyframes, is complete.
    public static let readsRowsWhileDecoding = false

    public func input(from capture: MethodCapture) -> InputCheck<Input, Result> {
        guard let keyframes = capture.depthKeyframes else { return .missing("not a video: no depth keyframes") }
        return .ready(Input(keyframes: keyframes, intrinsics: capture.depthIntrinsics))
    }

    /// temporal/2 detects nothing by name: flatness is scored, and a flat subject may be real.
    public static func detections(in fields: JSONObject) -> Detections { .none }

    /// The phone sends no temporal/2 result.
    public static func payloadScore(_ fields: JSONObject) -> Double? { nil }
}

extension TemporalAnalyzerV2.Configuration: MethodConfiguration {
    /// With `intrinsics` set, so that its keys are known.
    public static var exemplar: Self {
        var c = Self()
        c.intrinsics = DepthAnalyzerV2.CameraIntrinsics(fx: 1, fy: 1, cx: 0, cy: 0)
        return c
    }
}
