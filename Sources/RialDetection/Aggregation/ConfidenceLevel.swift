/// The five confidence levels of methods.md section 7, lowest first. Encodes as the
/// upper-case name methods.md uses (`"VERY_HIGH"`); `<` follows trust order.
public enum ConfidenceLevel: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case suspicious = "SUSPICIOUS"
    case low = "LOW"
    case medium = "MEDIUM"
    case high = "HIGH"
    case veryHigh = "VERY_HIGH"

    /// 0 (SUSPICIOUS) ... 4 (VERY_HIGH).
    public var rank: Int {
        switch self {
        case .suspicious: 0
        case .low: 1
        case .medium: 2
        case .high: 3
        case .veryHigh: 4
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
}
