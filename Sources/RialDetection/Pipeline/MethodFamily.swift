/// A family of detection algorithms: the `NAME` part of `NAME/VERSION`. Every family
/// plays one role in aggregation (specs/methods.md section 7).
public enum MethodFamily: String, Sendable, Hashable, Codable, CaseIterable, Comparable, CodingKeyRepresentable {
    /// LiDAR depth analysis (`depth/1`, `depth/2`): the `lidar` role.
    case depth
    /// Multi-camera parallax (`parallax/1`).
    case parallax
    /// Moire FFT (`moire/1`) and moire bands (`moire/2`).
    case moire
    /// Texture classification (`texture/1`).
    case texture
    /// PWM, specular and halftone artifacts (`artifacts/1`): the `supporting` role.
    case artifacts
    /// Depth over time on a video's LiDAR keyframes (`temporal/1`, `temporal/2`): the
    /// `temporal` role, which no default profile weights (see `AggregationMethod.temporal`).
    /// Its methods need a video (`DetectionMethod.needsVideo`): a photo never runs them.
    case temporal

    /// The family of `identifier`, or nil for an unknown name.
    public init?(_ identifier: MethodIdentifier) {
        self.init(rawValue: identifier.name)
    }

    /// The aggregation weight this family's score takes.
    public var role: AggregationMethod {
        switch self {
        case .depth: .lidar
        case .parallax: .parallax
        case .moire: .moire
        case .texture: .texture
        case .artifacts: .supporting
        case .temporal: .temporal
        }
    }

    /// True for the families whose methods read a video's depth keyframes and nothing a
    /// photo has (temporal): `DetectionMethod.needsVideo` defaults to it, so a photo
    /// neither runs nor reports them.
    public var needsVideo: Bool { self == .temporal }

    /// Declaration order (depth first), so method lists print in pipeline order.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
