import RialDetection
import RialProvenance

extension VideoConfidenceRule.Chain {
    /// The rule's view of a recomputed chain: `intact` passes with a valid attestation;
    /// `partial` passes with its verified checkpoint
    /// but no attestation of the whole recording; `unattested` passes without an
    /// attestation; `broken` fails and is not intact.
    public init(_ verification: HashChainVerification) {
        switch verification.status {
        case .intact:
            self.init(status: .pass, intact: true, attestationValid: true, partialCheckpointVerified: false)
        case .partial:
            self.init(status: .pass, intact: true, attestationValid: false, partialCheckpointVerified: true)
        case .unattested:
            self.init(status: .pass, intact: true, attestationValid: false, partialCheckpointVerified: false)
        case .broken:
            self.init(status: .fail, intact: false, attestationValid: false, partialCheckpointVerified: false)
        }
    }
}
