import RialMedia

extension ParallaxAnalyzerV2: DetectionMethod {
    public static let summary = MethodSummary(
        title: "Multi-camera parallax, content surface",
        signal:
            "Block matching on the rectified pair (as parallax/1); the content surface is the disparity plane or gently bent sheet holding most of the central window (RANSAC, quadric refits); scores what stands in front of it (occluders), how much of the window it explains and whether its edges step down to a background.",
        blindTo:
            "Real flat subjects filling the frame (planar too, reported as `is_planar_subject`); textureless scenes; relief below the depth resolution f B / Z² of far scenes; screens showing a textured scene cannot be told apart from that scene when the screen fills the frame and nothing stands in front (that is what it measures).",
        latencyTarget: LatencyTarget(milliseconds: 100, source: "methods.md §9, 1600x1200 pair"))

    /// It needs the whole photo and its pair.
    public static let readsRowsWhileDecoding = false

    public typealias Input = ParallaxAnalyzer.Input

    public func input(from capture: MethodCapture) -> InputCheck<Input, Result> {
        guard let right = capture.right else { return .missing("no second camera view") }
        guard let left = capture.image else { return .missing("the photo has not finished decoding") }
        return .ready(Input(left: left, right: right, focalPx: capture.focalPx, baselineMm: capture.baselineMm))
    }

    public func evaluate(_ input: Input) -> Result {
        evaluate(left: input.left, right: input.right, focalPx: input.focalPx, baselineMm: input.baselineMm)
    }

    /// Parallax detects nothing: planarity is scored.
    public static func detections(in fields: JSONObject) -> Detections { .none }

    /// The phone sends no parallax result.
    public static func payloadScore(_ fields: JSONObject) -> Double? { nil }
}

extension ParallaxAnalyzerV2.Configuration: MethodConfiguration {
    /// With `max_depth_m` set, so that the key is known.
    public static var exemplar: Self {
        var c = Self()
        c.maxDepthM = 10
        return c
    }
}
