/// The confidence levels of methods.md section 7, lowest first, plus MEDIUM_HIGH between
/// MEDIUM and HIGH (PRD 2.0 "Detection Capabilities Matrix" and "Evidence Impact by
/// Attestation Level": Android and StrongBox "Max Confidence MEDIUM-HIGH"). Encodes as
/// the upper-case name methods.md uses (`"VERY_HIGH"`); `<` follows trust order.
///
/// MEDIUM_HIGH is a level of its own only under `aggregation.medium_high: level`; by
/// default (`high`) a configured MEDIUM_HIGH resolves to HIGH before use
/// (`AggregationConfiguration.resolved(_:)`), so results carry the five levels of
/// methods.md and story 9-6 ("very_high"/"high"/"medium"/"low"/"suspicious").
public enum ConfidenceLevel: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case suspicious = "SUSPICIOUS"
    case low = "LOW"
    case medium = "MEDIUM"
    case mediumHigh = "MEDIUM_HIGH"
    case high = "HIGH"
    case veryHigh = "VERY_HIGH"

    /// 0 (SUSPICIOUS) ... 5 (VERY_HIGH): the index in `allCases`.
    public var rank: Int {
        switch self {
        case .suspicious: 0
        case .low: 1
        case .medium: 2
        case .mediumHigh: 3
        case .high: 4
        case .veryHigh: 5
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }

    /// The five levels of methods.md section 7 (no MEDIUM_HIGH).
    public static let standard: [ConfidenceLevel] = allCases.filter { $0 != .mediumHigh }

    /// The levels a table shows: the five standard ones, and MEDIUM_HIGH when `present`
    /// contains it (a run under `aggregation.medium_high: level`), lowest first.
    public static func shown(_ present: some Sequence<ConfidenceLevel>) -> [ConfidenceLevel] {
        present.contains(.mediumHigh) ? allCases : standard
    }
}
