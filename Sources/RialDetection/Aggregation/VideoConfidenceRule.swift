/// The deployed backend's confidence rule for a video capture (methods.md section 6,
/// "Video confidence (deployed rule)"), evaluated in the document's order:
///
/// 1. SUSPICIOUS if hardware fails, the chain fails or is not intact, or depth is present
///    and not real;
/// 2. HIGH if hardware passes, the chain passes intact with a valid attestation, and
///    depth is present, real, consistency >= `depthConsistencyMinimum` (0.7) and
///    stability >= `sceneStabilityMinimum` (0.8);
/// 3. MEDIUM if hardware and chain pass, or a partial recording has a verified checkpoint
///    and hardware passes, or hardware is unavailable and the chain passes;
/// 4. LOW otherwise.
///
/// Where the document is silent: "not intact" applies to a chain that was checked (an
/// `unavailable` chain is neither passing nor SUSPICIOUS, so it ends in LOW unless
/// another rule applies); a non-finite consistency or stability never meets a threshold.
public struct VideoConfidenceRule: Sendable, Equatable, Codable {
    /// The hash chain as the rule sees it.
    public struct Chain: Sendable, Equatable, Codable {
        /// `pass`, `fail`, or `unavailable` (no chain was checked).
        public var status: EvidenceCheckStatus
        /// The frames are consistent with the recorded chain (no tamper found).
        public var intact: Bool
        /// An attestation over the whole recording (its final hash) verifies; an
        /// interrupted recording's attestation over a checkpoint is
        /// `partialCheckpointVerified` instead.
        public var attestationValid: Bool
        /// The recording was interrupted and its attested checkpoint verifies.
        public var partialCheckpointVerified: Bool

        public init(status: EvidenceCheckStatus, intact: Bool, attestationValid: Bool, partialCheckpointVerified: Bool)
        {
            self.status = status
            self.intact = intact
            self.attestationValid = attestationValid
            self.partialCheckpointVerified = partialCheckpointVerified
        }

        enum CodingKeys: String, CodingKey {
            case status, intact
            case attestationValid = "attestation_valid"
            case partialCheckpointVerified = "partial_checkpoint_verified"
        }
    }

    /// The temporal depth analysis as the rule sees it; nil in `level` when the recording
    /// has no depth.
    public struct Depth: Sendable, Equatable, Codable {
        /// The analysis's `real` verdict.
        public var isReal: Bool
        /// depth_consistency, 0...1.
        public var consistency: Double
        /// scene_stability, 0...1.
        public var stability: Double

        public init(isReal: Bool, consistency: Double, stability: Double) {
            self.isReal = isReal
            self.consistency = consistency
            self.stability = stability
        }

        enum CodingKeys: String, CodingKey {
            case isReal = "is_real"
            case consistency, stability
        }
    }

    /// Least depth consistency for HIGH, 0...1. Default 0.7 (methods.md section 6).
    public var depthConsistencyMinimum: Double = 0.7
    /// Least scene stability for HIGH, 0...1. Default 0.8 (methods.md section 6).
    public var sceneStabilityMinimum: Double = 0.8

    public init() {}

    enum CodingKeys: String, CodingKey {
        case depthConsistencyMinimum = "depth_consistency_minimum"
        case sceneStabilityMinimum = "scene_stability_minimum"
    }

    /// Refuses a threshold outside 0...1 (or NaN).
    public func validate() throws(ConfigurationError) {
        for (key, value) in [
            (CodingKeys.depthConsistencyMinimum, depthConsistencyMinimum),
            (CodingKeys.sceneStabilityMinimum, sceneStabilityMinimum),
        ]
        where !(0...1).contains(value) {
            throw ConfigurationError(key: key, "must be in 0...1, got \(value)")
        }
    }

    /// The level for one video.
    ///
    /// - Parameters:
    ///   - hardware: hardware attestation (`MVPEvidenceRule.hardware(_:)`).
    ///   - chain: the hash chain check.
    ///   - depth: the temporal depth analysis, nil when the recording has no depth.
    public func level(hardware: EvidenceCheckStatus, chain: Chain, depth: Depth?) -> ConfidenceLevel {
        let chainChecked = chain.status != .unavailable
        if hardware == .fail || chain.status == .fail || (chainChecked && !chain.intact)
            || depth.map({ !$0.isReal }) == true
        {
            return .suspicious
        }
        let chainPasses = chain.status == .pass
        if hardware == .pass, chainPasses, chain.intact, chain.attestationValid, let depth, depth.isReal,
            depth.consistency >= depthConsistencyMinimum, depth.stability >= sceneStabilityMinimum
        {
            return .high
        }
        if (hardware == .pass && chainPasses) || (chain.partialCheckpointVerified && hardware == .pass)
            || (hardware == .unavailable && chainPasses)
        {
            return .medium
        }
        return .low
    }
}
