/// An error building or verifying provenance evidence (a capture bundle, a hash chain),
/// always naming the input it concerns.
///
/// `source` is the file path when the bytes came from a file, or a caller-chosen label
/// such as `"<memory>"`. `description` is one line a user can act on: which input, what
/// is wrong.
public struct ProvenanceError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable, Codable {
        /// The bytes are not a valid instance of the expected format (truncated, garbage,
        /// a missing or mistyped field).
        case malformed
        /// AES-GCM authentication failed: the ciphertext, tag, nonce, associated data or
        /// key differ from those the data was sealed with.
        case authenticationFailed = "authentication_failed"
        /// A recomputed SHA-256 differs from the recorded one.
        case hashMismatch = "hash_mismatch"
        /// The opened fingerprint is not the device's expected fingerprint.
        case fingerprintMismatch = "fingerprint_mismatch"
        /// The verifier holds no master key for the bundle's table.
        case unknownKey = "unknown_key"
        /// Arguments given by the caller are invalid (a key of the wrong length, say).
        case invalidArgument = "invalid_argument"
        /// libcrypto reported a failure that is not about the input (out of memory, a
        /// missing algorithm).
        case cryptoLibrary = "crypto_library"
    }

    public var kind: Kind
    /// File path or label of the input.
    public var source: String
    /// What is wrong, in words a user understands.
    public var detail: String

    public init(_ kind: Kind, source: String = "<memory>", _ detail: String) {
        self.kind = kind
        self.source = source
        self.detail = detail
    }

    /// `source: detail`.
    public var description: String { "\(source): \(detail)" }

    /// The same error attributed to another source (a path instead of `<memory>`).
    public func attributed(to source: String) -> ProvenanceError {
        ProvenanceError(kind, source: source, detail)
    }
}
