import RialMedia

extension DepthAnalyzerV1: DetectionMethod {
    public static let summary = MethodSummary(
        title: "LiDAR depth, deployed reference",
        signal:
            "Statistics of the valid depths (0.1-20 m): population std > 0.5 m, at least 3 histogram peaks (50 bins, 3-tap smoothing, 5% threshold), depth-gradient 'edge coherence' > 0.3, and not screen-like (range < 0.15 m, 85% within 5 cm of the median, mean 0.2-1.5 m). Reproduced exactly, strict and non-strict comparisons included; its score takes three values (1.0, 0.2, 0.1), so the continuous `margin` (depth/1:margin) is evaluated beside it.",
        blindTo:
            "Planarity: a tilted screen or a print held at an angle has a large std and passes; three clean planes give only 2 histogram peaks and fail; ±2 cm sensor noise on a flat surface creates spurious peaks; real flat subjects (a wall, a document) always fail. It never looks at the RGB image.",
        latencyTarget: LatencyTarget(milliseconds: 5, source: "issue 4 (methods.md §9: 50)"),
        continuousField: "margin")

    /// It reads no image, so it runs while the photo decodes.
    public static let readsRowsWhileDecoding = true

    public func input(from capture: MethodCapture) -> InputCheck<DepthMap, Result> {
        guard let depth = capture.depth else { return .missing("no depth map") }
        return .ready(depth)
    }

    /// `is_screen_pattern` (the flat, near, uniform pattern) -> screen.
    public static func detections(in fields: JSONObject) -> Detections {
        Detections(screen: fields.flag("is_screen_pattern"))
    }

    /// The phone sends no depth result.
    public static func payloadScore(_ fields: JSONObject) -> Double? { nil }
}

extension DepthAnalyzerV1.Configuration: MethodConfiguration {}
