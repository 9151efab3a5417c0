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

    /// Orders by raw value, so sorted output is stable and alphabetical.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
}
