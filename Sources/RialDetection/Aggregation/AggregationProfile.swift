/// The weights of one platform's methods and which of them is the primary physical
/// signal (specs/methods.md section 7).
///
/// Weights need not sum to 1: the aggregator divides by the sum over the methods that
/// scored. A method absent from `weights` (or weighted 0) is ignored.
public struct AggregationProfile: Sendable, Equatable, Codable {
    /// The primary physical signal; HIGH and VERY_HIGH need it scored. Optional only so
    /// a partial profile can decode; `validate()` requires it.
    public var primary: AggregationMethod?
    /// Relative weight per method, finite and >= 0.
    public var weights: [AggregationMethod: Double]

    public init(primary: AggregationMethod?, weights: [AggregationMethod: Double]) {
        self.primary = primary
        self.weights = weights
    }

    /// `ios_pro`.
    public static let iosProName = "ios_pro"
    /// `android`.
    public static let androidName = "android"

    /// iPhone Pro: lidar 0.55 (primary), moire 0.15, texture 0.15, supporting 0.15.
    public static let iosPro = AggregationProfile(
        primary: .lidar, weights: [.lidar: 0.55, .moire: 0.15, .texture: 0.15, .supporting: 0.15])

    /// Android: attestation 0.20, parallax 0.30 (primary), moire 0.15, texture 0.20,
    /// supporting 0.15.
    public static let android = AggregationProfile(
        primary: .parallax,
        weights: [.attestation: 0.20, .parallax: 0.30, .moire: 0.15, .texture: 0.20, .supporting: 0.15])

    /// The methods with a weight > 0, sorted.
    public var weightedMethods: [AggregationMethod] {
        weights.filter { $0.value > 0 }.keys.sorted()
    }

    enum CodingKeys: String, CodingKey {
        case primary, weights
    }
}
