import RialMedia

extension ParallaxAnalyzer: DetectionMethod {
    public static let summary = MethodSummary(
        title: "Multi-camera parallax",
        signal:
            "Block matching on the rectified pair of the phone's two cameras; a planar target gives a disparity field that is affine in (x, y), a 3D scene does not: robust affine fit, residual and inlier fraction.",
        blindTo:
            "Real flat subjects (planar too); textureless scenes (no disparity); tiny baselines at long range (disparity below matching noise).",
        latencyTarget: LatencyTarget(milliseconds: 100, source: "methods.md §9, 1600x1200 pair"))

    /// It needs the whole photo and its pair.
    public static let readsRowsWhileDecoding = false

    /// The rectified pair: `left` is the reference view (the photo), `right` the view of
    /// the camera `baselineMm` to its right, same size and intrinsics; `focalPx` (input
    /// pixels) and `baselineMm` set the search range and the depth fields when both are given.
    public struct Input {
        public var left: Image8
        public var right: Image8
        public var focalPx: Double?
        public var baselineMm: Double?

        public init(left: Image8, right: Image8, focalPx: Double? = nil, baselineMm: Double? = nil) {
            self.left = left
            self.right = right
            self.focalPx = focalPx
            self.baselineMm = baselineMm
        }
    }

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

extension ParallaxAnalyzer.Configuration: MethodConfiguration {
    /// With `max_depth_m` set, so that the key is known.
    public static var exemplar: Self {
        var c = Self()
        c.maxDepthM = 10
        return c
    }
}
