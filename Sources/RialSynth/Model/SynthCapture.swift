import RialMedia

/// One synthetic capture, in memory: what a phone would have stored (RGB image, LiDAR
/// depth, optionally a second rectified view) plus the parameters that produced it.
public struct SynthCapture: Sendable, Equatable {
    /// The dataset label (`parameters.synthClass`).
    public var label: SynthClass
    /// RGB, `width x height`, sRGB-encoded 8-bit, interleaved (3 channels).
    public var image: Image8
    /// ARKit-like `sceneDepth`: 256 x 192, metres along the optical axis, `NaN` invalid,
    /// quantised to 1 mm; depth pixel (i, j) covers image pixels
    /// [i W/256, (i+1) W/256) x [j H/192, (j+1) H/192).
    public var depth: DepthMap
    /// The second camera's image, rectified to the first (same intrinsics and
    /// orientation, centre `baseline_mm` to the right), or `nil`.
    public var right: Image8?
    /// Every parameter needed to reproduce the capture with `SynthGenerator.render`.
    public var parameters: SynthParameters
    /// Dataset tags (`flat_subject`, `synthetic`, ...); same as `parameters.tags`.
    public var tags: [String]

    public init(
        label: SynthClass, image: Image8, depth: DepthMap, right: Image8?,
        parameters: SynthParameters, tags: [String]
    ) {
        self.label = label
        self.image = image
        self.depth = depth
        self.right = right
        self.parameters = parameters
        self.tags = tags
    }
}
