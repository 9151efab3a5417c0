import Foundation
import RialMedia

/// Everything known about one capture, as decoded by the caller. Images are in their
/// stored orientation (before EXIF rotation), which is the grid depth is aligned to.
public struct CaptureInput: Sendable {
    /// The photo, 8-bit RGB or gray, full resolution.
    public var image: Image8
    /// SHA-256 (hex) of the image file, for `provenance`.
    public var imageSHA256: String?
    /// LiDAR depth in metres (NaN = invalid), any resolution.
    public var depth: DepthMap?
    /// A video's LiDAR depth keyframes (10 fps, methods.md section 6); nil for a capture
    /// that is not a video (a photo), which then never runs the methods that need one
    /// (`DetectionMethod.needsVideo`). A video recorded without depth has an empty
    /// sequence: its temporal methods run and report `unavailable`.
    public var depthKeyframes: DepthKeyframes?
    /// Depth intrinsics in depth pixels, when the capture records them.
    public var depthIntrinsics: DepthAnalyzerV2.CameraIntrinsics?
    /// The second camera's view, rectified to `image`.
    public var right: Image8?
    /// Focal length of the rectified pair in image pixels.
    public var focalPx: Double?
    /// Stereo baseline in millimetres.
    public var baselineMm: Double?
    public var attestation: AttestationEvidence
    /// e.g. `ios`.
    public var platform: String?
    /// Capture time, reference time and the declared device model (manifest
    /// `device_model`, `--device-model`) for the metadata checks.
    public var captureTime: Date?
    public var referenceTime: Date?
    public var deviceModel: String?
    /// The photo's EXIF Model: evidence beside the declared device
    /// (`MetadataChecks.Configuration.deviceSource`).
    public var exifModel: String?
    /// Results a phone computed (`moire`, `texture`, `artifacts`); the completed ones
    /// replace the local methods of their families.
    public var payload: DetectionPayload?
    /// Fields the user withheld (`MetadataChecks.OptOut`): noted in the evidence, their
    /// checks `unavailable`, never suspicious. Empty by default.
    public var optedOut: Set<MetadataChecks.OptOut> = []

    public init(
        image: Image8, imageSHA256: String? = nil, depth: DepthMap? = nil,
        depthIntrinsics: DepthAnalyzerV2.CameraIntrinsics? = nil, right: Image8? = nil,
        focalPx: Double? = nil, baselineMm: Double? = nil, attestation: AttestationEvidence = .missing,
        platform: String? = nil, captureTime: Date? = nil, referenceTime: Date? = nil,
        deviceModel: String? = nil, exifModel: String? = nil, payload: DetectionPayload? = nil,
        depthKeyframes: DepthKeyframes? = nil
    ) {
        self.depthKeyframes = depthKeyframes
        self.exifModel = exifModel
        self.image = image
        self.imageSHA256 = imageSHA256
        self.depth = depth
        self.depthIntrinsics = depthIntrinsics
        self.right = right
        self.focalPx = focalPx
        self.baselineMm = baselineMm
        self.attestation = attestation
        self.platform = platform
        self.captureTime = captureTime
        self.referenceTime = referenceTime
        self.deviceModel = deviceModel
        self.payload = payload
    }
}
