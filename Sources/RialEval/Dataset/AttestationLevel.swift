/// How strongly a capture's origin is attested (`rial-bench-dataset/1`).
///
/// Breakdowns report metrics per level. A sample without the key is `none`
/// (unknown or not attested).
public enum AttestationLevel: String, Sendable, Codable, CaseIterable, Hashable {
    /// Signed by a key in the iPhone's Secure Enclave.
    case secureEnclave = "secure_enclave"
    /// Signed by a key in an Android StrongBox (a separate secure element).
    case strongbox
    /// Signed by a key in an Android trusted execution environment.
    case tee
    /// Signed by a software key.
    case software
    /// Unknown or not attested (the default).
    case none
}
