/// The weights of one platform's methods, which of them is the primary physical signal
/// (specs/methods.md section 7) and the platform's highest level (PRD 2.0 "Detection
/// Capabilities Matrix", row "Max Confidence").
///
/// Weights need not sum to 1: the aggregator divides by the sum over the methods that
/// scored. A method absent from `weights` (or weighted 0) is ignored.
public struct AggregationProfile: Sendable, Equatable, Codable {
    /// The primary physical signal; HIGH and VERY_HIGH need it scored. Optional only so
    /// a partial profile can decode; `validate()` requires it.
    public var primary: AggregationMethod?
    /// Relative weight per method, finite and >= 0.
    public var weights: [AggregationMethod: Double]
    /// The highest level a capture analysed under this profile can reach (cause
    /// `profile.max_level`); a MEDIUM_HIGH here is resolved by `aggregation.medium_high`.
    /// Nil: no ceiling of the profile's own (profiles recorded before it existed).
    public var maxLevel: ConfidenceLevel?

    public init(primary: AggregationMethod?, weights: [AggregationMethod: Double], maxLevel: ConfidenceLevel? = nil) {
        self.primary = primary
        self.weights = weights
        self.maxLevel = maxLevel
    }

    /// `ios_pro`.
    public static let iosProName = "ios_pro"
    /// `ios_standard`.
    public static let iosStandardName = "ios_standard"
    /// `android`.
    public static let androidName = "android"

    /// iPhone Pro: lidar 0.55 (primary), moire 0.15, texture 0.15, supporting 0.15; max
    /// VERY_HIGH.
    public static let iosPro = AggregationProfile(
        primary: .lidar, weights: [.lidar: 0.55, .moire: 0.15, .texture: 0.15, .supporting: 0.15],
        maxLevel: .veryHigh)

    /// iPhone without LiDAR (PRD 2.0 "Detection Capabilities Matrix", column iOS
    /// Standard: LiDAR no, Multi-Cam Parallax PRIMARY, Moiré, Texture, Artifacts yes, Max
    /// Confidence HIGH; "Tier 1: Primary Depth Signal ... Android/iOS Standard:
    /// Multi-camera parallax"): parallax 0.55 (primary), moire 0.15, texture 0.15,
    /// supporting 0.15; max HIGH. The PRD gives weights for iOS Pro and Android only; iOS
    /// Standard takes the iOS Pro weights with parallax in LiDAR's primary role (same
    /// platform and attestation, Secure Enclave, which neither iOS profile weights).
    public static let iosStandard = AggregationProfile(
        primary: .parallax, weights: [.parallax: 0.55, .moire: 0.15, .texture: 0.15, .supporting: 0.15],
        maxLevel: .high)

    /// Android: attestation 0.20, parallax 0.30 (primary), moire 0.15, texture 0.20,
    /// supporting 0.15; max MEDIUM_HIGH.
    public static let android = AggregationProfile(
        primary: .parallax,
        weights: [.attestation: 0.20, .parallax: 0.30, .moire: 0.15, .texture: 0.20, .supporting: 0.15],
        maxLevel: .mediumHigh)

    /// The methods with a weight > 0, sorted.
    public var weightedMethods: [AggregationMethod] {
        weights.filter { $0.value > 0 }.keys.sorted()
    }

    enum CodingKeys: String, CodingKey {
        case primary, weights
        case maxLevel = "max_level"
    }
}
