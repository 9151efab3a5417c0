import RialMedia

/// What a capture offers the detection methods, as `DetectionMethod.input(from:)` reads
/// it: the photo's rows (which may still be decoding), the finished photo once it is
/// there, and the capture's other inputs.
///
/// The view is valid only inside the closure that hands it out (`withImage`, or the
/// analyzer's row analysis): `rows` points into a buffer the caller owns.
public struct MethodCapture: Sendable {
    /// The photo's rows; while it decodes, wait for rows before reading them
    /// (`ImageRows.waitForRows`). Nil when the photo's samples do not fit its size
    /// (`imageProblem` says why).
    public let rows: ImageRows?
    /// Why `rows` is nil.
    public let imageProblem: String?
    /// The finished photo; nil while it is still decoding (methods that read rows while
    /// decoding never need it).
    public let image: Image8?
    /// LiDAR depth in metres (NaN = invalid), any resolution.
    public let depth: DepthMap?
    /// Depth intrinsics in depth pixels, when the capture records them (also those of
    /// `depthKeyframes`).
    public let depthIntrinsics: DepthAnalyzerV2.CameraIntrinsics?
    /// A video's depth keyframes; nil when the capture is not a video.
    public let depthKeyframes: DepthKeyframes?
    /// The second camera's view, rectified to the photo.
    public let right: Image8?
    /// Focal length of the rectified pair, image pixels.
    public let focalPx: Double?
    /// Stereo baseline, millimetres.
    public let baselineMm: Double?
    /// The results of this capture's other methods that a method may read
    /// (`DetectionMethod.readsResultsOf`); nil when the analyzer shares none.
    public let shared: SharedResults?

    init(
        rows: ImageRows?, imageProblem: String? = nil, image: Image8?, depth: DepthMap?,
        depthIntrinsics: DepthAnalyzerV2.CameraIntrinsics?, right: Image8? = nil, focalPx: Double? = nil,
        baselineMm: Double? = nil, depthKeyframes: DepthKeyframes? = nil, shared: SharedResults? = nil
    ) {
        self.shared = shared
        self.depthKeyframes = depthKeyframes
        self.rows = rows
        self.imageProblem = imageProblem
        self.image = image
        self.depth = depth
        self.depthIntrinsics = depthIntrinsics
        self.right = right
        self.focalPx = focalPx
        self.baselineMm = baselineMm
    }

    /// The same capture read through `rows` (a reader's own view of the same rows,
    /// e.g. one holding a reader slot).
    func reading(_ rows: ImageRows) -> MethodCapture {
        MethodCapture(
            rows: rows, imageProblem: imageProblem, image: image, depth: depth,
            depthIntrinsics: depthIntrinsics, right: right, focalPx: focalPx, baselineMm: baselineMm,
            depthKeyframes: depthKeyframes, shared: shared)
    }

    /// The same capture with `shared` as the results its methods share.
    func sharing(_ shared: SharedResults?) -> MethodCapture {
        MethodCapture(
            rows: rows, imageProblem: imageProblem, image: image, depth: depth,
            depthIntrinsics: depthIntrinsics, right: right, focalPx: focalPx, baselineMm: baselineMm,
            depthKeyframes: depthKeyframes, shared: shared)
    }

    /// The same capture with rows whose readers share the values they derive from them
    /// (`ImageRows.sharingDerivedValues`: `moire/2` and `artifacts/2` reduce the photo once).
    func sharingDerivedValues() -> MethodCapture {
        rows.map { reading($0.sharingDerivedValues()) } ?? self
    }

    /// Runs `body` with the view of a finished capture.
    static func with<R>(_ input: CaptureInput, _ body: (MethodCapture) -> R) -> R {
        let image = input.image
        func view(_ rows: ImageRows?) -> MethodCapture {
            MethodCapture(
                rows: rows, imageProblem: image.sampleLayoutProblem, image: image, depth: input.depth,
                depthIntrinsics: input.depthIntrinsics, right: input.right, focalPx: input.focalPx,
                baselineMm: input.baselineMm, depthKeyframes: input.depthKeyframes)
        }
        guard image.sampleLayoutProblem == nil else { return body(view(nil)) }
        return image.withRows { body(view($0)) }
    }

    /// Runs `body` with the view of a capture that is only `image`.
    static func withImage<R>(_ image: Image8, _ body: (MethodCapture) -> R) -> R {
        with(CaptureInput(image: image), body)
    }
}
