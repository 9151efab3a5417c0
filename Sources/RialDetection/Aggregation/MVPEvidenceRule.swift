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
/// "Not pass" without a failure means `unavailable`.
public enum MVPEvidenceRule {
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
