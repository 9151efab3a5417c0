/// The backend's MVP evidence rule (specs/methods.md section 7), kept beside the
/// weighted aggregator so both can be scored on the same data:
///
/// | any check `fail` | hardware | depth | level |
/// |---|---|---|---|
/// | yes | any | any | SUSPICIOUS |
/// | no | pass | pass | HIGH |
/// | no | pass | not pass | MEDIUM |
/// | no | not pass | pass | MEDIUM |
/// | no | not pass | not pass | LOW |
///
/// "Not pass" without a failure means `unavailable`. The table is PRD 1.1 / 2.0
/// "Confidence Calculation (MVP)"; UNAVAILABLE "reduces confidence ceiling, not
/// suspicious" ("Evidence Status Values"), and a user opt-out is unavailable, never a
/// failure (PRD 1.1 "Granular Metadata Controls": "not marked suspicious").
public enum MVPEvidenceRule {
    /// The rule's inputs and level for one capture (JSON: snake_case).
    public struct Evaluation: Sendable, Equatable, Codable {
        public var level: ConfidenceLevel
        /// Hardware attestation as the MVP sees it: `pass` only for a passed hardware-backed
        /// attestation (not `software`), `fail` when attestation failed, else `unavailable`.
        public var hardware: EvidenceCheckStatus
        /// The primary depth check: the profile's primary method (`lidar` on `ios_pro`,
        /// `parallax` on `android`) `pass` when its score is `>= real_threshold`, `fail`
        /// below, `unavailable` when it did not score.
        public var depth: EvidenceCheckStatus
        /// Further checks by name (`metadata.device_has_lidar`), sorted keys.
        public var checks: [String: EvidenceCheckStatus]

        public init(
            hardware: EvidenceCheckStatus, depth: EvidenceCheckStatus, checks: [String: EvidenceCheckStatus] = [:]
        ) {
            self.hardware = hardware
            self.depth = depth
            self.checks = checks
            level = MVPEvidenceRule.level(hardware: hardware, depth: depth, otherChecks: Array(checks.values))
        }
    }

    /// The MVP's hardware check for `attestation`: `pass` for a passed hardware-backed
    /// attestation, `fail` for a failed one, else `unavailable` (no attestation, or a
    /// software key, which proves no hardware).
    public static func hardware(_ attestation: AttestationEvidence) -> EvidenceCheckStatus {
        switch attestation.status {
        case .fail: .fail
        case .unavailable: .unavailable
        case .pass: attestation.method == .software || attestation.method == .none ? .unavailable : .pass
        }
    }

    /// The level for a capture's checks.
    ///
    /// - Parameters:
    ///   - hardware: hardware attestation.
    ///   - depth: the depth (scene) check.
    ///   - otherChecks: any further checks (e.g. metadata); only a `fail` matters.
    public static func level(
        hardware: EvidenceCheckStatus, depth: EvidenceCheckStatus,
        otherChecks: [EvidenceCheckStatus] = []
    ) -> ConfidenceLevel {
        if hardware == .fail || depth == .fail || otherChecks.contains(.fail) { return .suspicious }
        switch (hardware == .pass, depth == .pass) {
        case (true, true): return .high
        case (true, false), (false, true): return .medium
        case (false, false): return .low
        }
    }
}
