/// The outcome of one evidence check (methods.md section 8: `pass|fail|unavailable`).
public enum EvidenceCheckStatus: String, Sendable, Hashable, Codable, CaseIterable {
    case pass
    case fail
    case unavailable
}

/// Where the device's attestation key lives (methods.md section 8
/// `hardware_attestation.method`), strongest first.
public enum AttestationMethod: String, Sendable, Hashable, Codable, CaseIterable {
    case secureEnclave = "secure_enclave"
    case strongbox
    case tee
    case software
    case none
}

/// The hardware attestation of a capture as the aggregator sees it: only `status` and
/// `method` of methods.md section 8 `hardware_attestation`.
///
/// How it caps the level: see `AggregationConfiguration.AttestationCaps`.
public struct AttestationEvidence: Sendable, Equatable, Codable {
    public var status: EvidenceCheckStatus
    public var method: AttestationMethod

    public init(status: EvidenceCheckStatus, method: AttestationMethod) {
        self.status = status
        self.method = method
    }

    /// No attestation at all (`unavailable`, `none`).
    public static let missing = AttestationEvidence(status: .unavailable, method: .none)

    /// A failed attestation, or a software-only one that passed: the capture is rejected
    /// (`AggregationResult.attestationRejected`, flag `attestation_rejected`).
    public var isRejected: Bool { status == .fail || (status == .pass && method == .software) }
}
