/// The role a detection method plays in aggregation (specs/methods.md section 7): the
/// key of a profile's weights and of `AggregationResult.weightsUsed`.
///
/// `supporting` is the artifact detector (methods.md calls it both "artifacts" and
/// "supporting"). Encodes as its snake_case raw value, also as a JSON object key.
public enum AggregationMethod: String, Sendable, Hashable, Codable, CaseIterable, CodingKeyRepresentable,
    Comparable
{
    /// LiDAR depth analysis: the primary physical signal of the iOS Pro profile.
    case lidar
    /// Multi-camera parallax: the primary physical signal of the Android profile.
    case parallax
    /// Moire FFT (supporting).
    case moire
    /// Texture classification (supporting).
    case texture
    /// Artifact detection (supporting).
    case supporting
    /// Hardware attestation as a weighted signal (Android profile).
    case attestation
    /// Temporal depth analysis of a video's LiDAR keyframes (`temporal/1`, `temporal/2`).
    /// A role of its own, not `lidar`: a video capture may carry a single-frame depth
    /// result and a temporal one, and the two must not compete for one weight. No
    /// default profile weights it (methods.md section 7 gives photo weights only; the
    /// deployed video rule, `VideoConfidenceRule`, reads temporal/1's fields directly),
    /// so a photo's aggregation is unchanged and a video's temporal score enters the
    /// weighted mean only when a configuration gives it a weight
    /// (`aggregation.profiles.NAME.weights.temporal`).
    case temporal

    /// Orders by raw value, so sorted output is stable and alphabetical.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
